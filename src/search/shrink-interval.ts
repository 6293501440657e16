/**
 * ShrinkInterval (AISTATS 2019 Algorithm 1 lines 6-12; multiclass ShrinkInterval-1/-2; the
 * user-study paper's appendix) as a pure decision on the answers to the four consecutive
 * comparisons of the quarter points `a < c < d < e < b`.
 *
 * A comparison's *sign* is +1 when the later point is better (for the search's sense), -1
 * when the earlier is better and 0 for a tie. Resolution, in order:
 *
 * 1. Ties (documented convention, see ALGORITHMS.md E.6): a tie followed later by a strict
 *    increase is part of the rising run (+1); a tie preceded by a strict decrease is part of
 *    the falling run (-1); any other tie sits on the top plateau and is read in the paper's
 *    default increasing order (+1). So a tie never turns a rise into a fall: on a plateau the
 *    tied points stay inside the new interval, and a plateau at the peak keeps the side after
 *    it (the "a tie counts as the first point" reading discards a maximiser on the right).
 *    If all four are ties nothing is known and the middle half `[c, e]` is kept.
 * 2. Out-of-order answers (line 7 of the paper): a valley `x > y < z` contradicts
 *    unimodality; the paper assumes the default increasing order `x < y < z`. Applied right
 *    to left, this leaves a sequence of +1s followed by -1s.
 * 3. The peak is the point after the last +1; the paper's branches then give
 *    peak a or c -> `[a, d]`; peak d -> `[c, e]`; peak e or b -> `[d, b]`.
 *
 * With consistent strict answers this is exactly the paper's if/elseif chain.
 */
export type Sign = -1 | 0 | 1;

/** Which half of the interval survives: `[a, d]`, `[c, e]` or `[d, b]`. */
export type ShrinkOutcome = "left" | "middle" | "right";

/** Replace ties by signs (step 1); null when all four are ties. */
export function fillTies(signs: readonly Sign[]): Sign[] | null {
  if (signs.every((s) => s === 0)) return null;
  return signs.map((s, i) => {
    if (s !== 0) return s;
    if (signs.slice(i + 1).includes(1)) return 1;
    if (signs.slice(0, i).includes(-1)) return -1;
    return 1;
  });
}

/** Apply the paper's default-order rule to valleys (step 2). */
export function repairValleys(signs: readonly Sign[]): Sign[] {
  const out = signs.slice();
  for (let i = out.length - 2; i >= 0; i--) {
    if (out[i] === -1 && out[i + 1] === 1) out[i] = 1;
  }
  return out;
}

/** True when the (tie-filled) signs are unimodal: no -1 before a +1. */
export function isConsistent(signs: readonly Sign[]): boolean {
  const filled = fillTies(signs);
  if (filled === null) return true;
  let seenDown = false;
  for (const s of filled) {
    if (s === -1) seenDown = true;
    else if (s === 1 && seenDown) return false;
  }
  return true;
}

/**
 * The outcome of ShrinkInterval for the four signs (a-c, c-d, d-e, e-b).
 * @example shrinkOutcome([1, 1, -1, -1]) // "middle": the peak is at d
 * @example shrinkOutcome([-1, 1, -1, -1]) // "middle": the valley at c is read as increasing
 */
export function shrinkOutcome(signs: readonly Sign[]): ShrinkOutcome {
  if (signs.length !== 4) throw new RangeError("ShrinkInterval takes exactly four comparisons");
  const filled = fillTies(signs);
  if (filled === null) return "middle";
  const repaired = repairValleys(filled);
  let peak = 0;
  while (peak < 4 && repaired[peak] === 1) peak++;
  if (peak <= 1) return "left";
  if (peak === 2) return "middle";
  return "right";
}

/**
 * The new interval for an outcome.
 * @example shrink(0, 1, "middle") // [0.25, 0.75]
 */
export function shrink(lo: number, hi: number, outcome: ShrinkOutcome): [number, number] {
  const c = (3 * lo + hi) / 4;
  const d = (lo + hi) / 2;
  const e = (lo + 3 * hi) / 4;
  if (outcome === "left") return [lo, d];
  if (outcome === "middle") return [c, e];
  return [d, hi];
}

/**
 * The tied plateau at the top of a fully known sign pattern: point indices `[s, t]` (0 = a,
 * ..., 4 = b) of equal points with no strict rise after them and no strict fall before them,
 * when there are unexplored gaps on both sides (s >= 1 and t <= 3); otherwise null. Only then
 * is the optimum's side (before s or after t) unknown.
 * @example topPlateau([1, 0, -1, -1]) // [1, 2]: c = d, the optimum is in (a, c) or (c, e)
 */
export function topPlateau(signs: readonly Sign[]): [number, number] | null {
  let s = -1;
  let t = -1;
  for (let i = 0; i < signs.length; i++) {
    if (signs[i] !== 0) continue;
    const riseAfter = signs.slice(i + 1).includes(1);
    const fallBefore = signs.slice(0, i).includes(-1);
    if (riseAfter || fallBefore) continue;
    if (s < 0) s = i;
    t = i + 1;
  }
  if (s < 1 || t > 3 || signs.every((x) => x === 0)) return null;
  return [s, t];
}

/**
 * The half to keep once the side of a top plateau `[s, t]` is known: the one covering the
 * gap before `s` or the gap after `t`.
 * @example plateauOutcome([1, 2], "before") // "left"
 */
export function plateauOutcome(
  plateau: readonly [number, number],
  side: "before" | "after",
): ShrinkOutcome {
  const start =
    side === "before" ? Math.min(2, plateau[0] - 1) : Math.min(2, Math.max(0, plateau[1] - 1));
  return start <= 0 ? "left" : start === 1 ? "middle" : "right";
}
