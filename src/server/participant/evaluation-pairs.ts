import { type BinaryPoint, thresholdPoint } from "../../elicit/binary/point.ts";
import type { BinaryPopulation } from "../../geometry/binary/population.ts";
import { createRng } from "../../math/rng.ts";
import { type FitAnswer, type RangeFit, rangeFit } from "./range-fit.ts";
import type { AnswerRow } from "./service.ts";
import { type DisplayFrame, LEGACY_DISPLAY_STEP, type ShownCounts, shownCounts } from "./views.ts";

/** One Phase III pair (the order is the procedure's "first"/"second", not the placement). */
export interface EvaluationPair {
  readonly first: BinaryPoint;
  readonly second: BinaryPoint;
  /** The `a` at which `a TN + (1 - a) TP` is indifferent between the two systems. */
  readonly flip: number;
}

/**
 * Counts as shown: the study's frame, or for a study from before frames 0.1 in 100.
 * @example shownOnScreen(point.confusion, displayFrame(100, 0.34)).tp // 31
 */
export function shownOnScreen(
  c: BinaryPoint["confusion"],
  frame: DisplayFrame | null,
): ShownCounts {
  if (frame !== null) return shownCounts(c, frame);
  const r = (x: number) => Math.round(x / LEGACY_DISPLAY_STEP);
  return { tp: r(c.tp), tn: r(c.tn), fn: 0, fp: 0 };
}

/**
 * Phase III pairs for one participant: random, as the user-study paper's fifteen random
 * queries, and seeded (the same seed gives the same pairs). Each pair is two threshold
 * classifiers of the study's pool at two thresholds drawn uniformly from (0, 1), kept only
 * when it is a trade-off *as shown* (one system shows at least one more true positive, the
 * other at least one more true negative, in whole people of the study's `frame`; for a study
 * without a frame, 0.1 in 100), so no pair is dominated or identical on screen; a system that
 * shows no true positive or no true negative ("everyone high risk", "nobody high risk") is
 * not used, and no pair is drawn twice. Nothing depends on the participant's answers or
 * result, so agreement on these pairs is not built in. Returns fewer pairs only when the pool
 * cannot supply `count` distinct ones.
 * @example evaluationPairs(pool, 15, 42, displayFrame(100, pool.zeta)).length // 15
 */
export function evaluationPairs(
  population: BinaryPopulation,
  count: number,
  seed: number,
  frame: DisplayFrame | null = null,
): EvaluationPair[] {
  const rng = createRng(`${seed}:evaluation-pairs:uniform`);
  const pairs: EvaluationPair[] = [];
  const seen = new Set<string>();
  for (let attempt = 0; pairs.length < count && attempt < 20_000; attempt++) {
    const t1 = rng.next();
    const t2 = rng.next();
    if (t1 === t2) continue;
    // The lower threshold flags more people: more true positives, fewer true negatives.
    const p = thresholdPoint(population, Math.min(t1, t2));
    const q = thresholdPoint(population, Math.max(t1, t2));
    const sp = shownOnScreen(p.confusion, frame);
    const sq = shownOnScreen(q.confusion, frame);
    if (sp.tp === 0 || sp.tn === 0 || sq.tp === 0 || sq.tn === 0) continue;
    if (!(sp.tp > sq.tp && sq.tn > sp.tn)) continue;
    const dTp = p.confusion.tp - q.confusion.tp;
    const dTn = q.confusion.tn - p.confusion.tn;
    if (!(dTp > 0 && dTn > 0)) continue;
    const k = `${sp.tp},${sp.tn}|${sq.tp},${sq.tn}`;
    if (seen.has(k)) continue;
    seen.add(k);
    const flip = dTp / (dTp + dTn);
    pairs.push(rng.next() < 0.5 ? { first: p, second: q, flip } : { first: q, second: p, flip });
  }
  return pairs;
}

const cache = new Map<string, EvaluationPair[]>();

/**
 * `evaluationPairs` memoised by (population key, count, seed, frame): the pairs are a pure
 * function of these, and a participant's requests in Phase III all need the same pairs.
 * @example cachedEvaluationPairs(configHash, pool, 15, seed, frame)
 */
export function cachedEvaluationPairs(
  populationKey: string,
  population: BinaryPopulation,
  count: number,
  seed: number,
  frame: DisplayFrame | null = null,
): EvaluationPair[] {
  const key = `${populationKey}|${count}|${seed}|${frame?.population ?? "-"}`;
  let pairs = cache.get(key);
  if (!pairs) {
    pairs = evaluationPairs(population, count, seed, frame);
    if (cache.size > 10_000) cache.clear();
    cache.set(key, pairs);
  }
  return pairs;
}

/**
 * The agreement M between a participant's result and their own Phase III answers, counted two
 * ways, with every "about the same" answer kept and reported.
 *
 * - `all`: the share of the non-tie answers on which the elicited metric prefers the same
 *   system (null when there is none).
 * - `undecided`: the same share over the pairs the participant's result does *not decide in
 *   advance*. The result is a range of metrics `(1 - a) TP + a TN`, `a` in `[lo, hi]` (the
 *   range the debrief states: every metric that gives the Phase II answers). A pair is decided
 *   in advance when every metric of that range prefers the same system of it (its flip point
 *   lies outside the range): the Phase II answers already imply the Phase III answer, so
 *   agreeing on it shows only that the participant stayed consistent. Only the other pairs
 *   test whether the elicited metric predicts choices the answers did not fix.
 *
 * A tie of the elicited metric itself (equal utilities) is counted as neither agreeing nor
 * disagreeing (`metricTies`).
 */
export interface AgreementReport {
  /** M over every answered pair except "about the same" (null: no such answer). */
  readonly all: number | null;
  /** M over the pairs the result's range does not decide in advance (null: none answered). */
  readonly undecided: number | null;
  /** Phase III answers counted (undone answers excluded). */
  readonly pairs: number;
  /** Of them, "about the same". */
  readonly ties: number;
  /** Pairs the range does not decide in advance (ties included). */
  readonly undecidedPairs: number;
  /** Of them, "about the same". */
  readonly undecidedTies: number;
  /** Pairs on which the elicited metric itself is indifferent (left out of both M). */
  readonly metricTies: number;
  /**
   * Binary studies: how well one metric of the result's range explains the counted answers,
   * and how well it would a coin's (`rangeFit`). The coin test then asks whether the answers
   * follow *some* metric the Phase II answers allow, not the stated point of the range.
   * Absent for the adaptive kinds, whose test counts answers against the result.
   */
  readonly fit?: RangeFit;
}

/** The TP and TN a pair is judged on: the counts a person saw, or the stored rates. */
export type JudgedCounts = Pick<BinaryPoint["confusion"], "tp" | "tn">;

/**
 * Agreement M both ways (see `AgreementReport`) from the elicited utility `u`, the result's
 * range `[lo, hi]` of `a` in `(1 - a) TP + a TN`, and the stored Phase III rows, each pair
 * judged on `view` of its systems: the counts the participant saw (issue 26: a person answers
 * on the screen, so a result is right or wrong on what it showed), or by default the stored
 * rates.
 * @example agreementReport(u, { lo: 0.15, hi: 0.25 }, rows, (c) => shownOnScreen(c, frame)) // { all: 0.93, undecided: 0.67, pairs: 15, ties: 1, ... }
 */
export function agreementReport(
  u: (c: JudgedCounts) => number,
  range: { lo: number; hi: number },
  rows: readonly Pick<AnswerRow, "answer" | "first_point" | "second_point">[],
  view: (c: BinaryPoint["confusion"]) => JudgedCounts = (c) => c,
): AgreementReport {
  const fitted: FitAnswer[] = [];
  const report = countAgreement(
    rows.map((r) => {
      const first = view((JSON.parse(r.first_point) as BinaryPoint).confusion);
      const second = view((JSON.parse(r.second_point) as BinaryPoint).confusion);
      const dTp = first.tp - second.tp;
      const dTn = first.tn - second.tn;
      // The preference of the metric with weight `a` on TN: the sign of (1 - a) dTp + a dTn,
      // linear in `a`, so the same on all of [lo, hi] exactly when the same at both ends.
      const at = (a: number) => Math.sign((1 - a) * dTp + a * dTn);
      const d = u(first) - u(second);
      const metric = Math.abs(d) < 1e-12 ? 0 : d;
      const answer = r.answer as JudgedAnswer["answer"];
      // The coin test's answers: the ones M counts (a choice, on a pair the metric ranks).
      // On the counts shown alone: a person reads the screen (a simulated one who weighs the
      // systems behind it instead was marked hard to tell from a coin in 8 of 40 papers'-search
      // runs; judging either reading cleared them, but let a 20% flipper of the people panel
      // through unflagged, far off its truth).
      if (answer !== "tie" && metric !== 0) fitted.push({ dTp, dTn, answer });
      return { answer, metric, decided: at(range.lo) !== 0 && at(range.lo) === at(range.hi) };
    }),
  );
  return { ...report, fit: rangeFit(fitted, range) };
}

/** A Phase III answer with the elicited result's judgement of its pair. */
export interface JudgedAnswer {
  readonly answer: "first" | "second" | "tie";
  /** The elicited metric's preference: > 0 first, < 0 second, 0 indifferent (a metric tie). */
  readonly metric: number;
  /** Whether the result decides the pair in advance (every metric it allows agrees). */
  readonly decided: boolean;
}

/**
 * Agreement M both ways (see `AgreementReport`) from judged answers, whatever the kind: a
 * pair the elicited metric is indifferent on is never "settled in advance", even when the
 * stated range (rounded for display) lies just beside the point estimate, since the debrief
 * subtracts metric ties from the undecided pairs.
 * @example countAgreement([{ answer: "first", metric: 0.2, decided: false }]).undecided // 1
 */
export function countAgreement(items: readonly JudgedAnswer[]): AgreementReport {
  let ties = 0;
  let metricTies = 0;
  let counted = 0;
  let matches = 0;
  let undecidedPairs = 0;
  let undecidedTies = 0;
  let undecidedCounted = 0;
  let undecidedMatches = 0;
  for (const r of items) {
    const metricTie = r.metric === 0;
    const decided = !metricTie && r.decided;
    if (!decided) undecidedPairs++;
    if (r.answer === "tie") {
      ties++;
      if (!decided) undecidedTies++;
      continue;
    }
    if (metricTie) {
      metricTies++;
      continue;
    }
    const match = r.metric > 0 === (r.answer === "first");
    counted++;
    if (match) matches++;
    if (!decided) {
      undecidedCounted++;
      if (match) undecidedMatches++;
    }
  }
  return {
    all: counted === 0 ? null : matches / counted,
    undecided: undecidedCounted === 0 ? null : undecidedMatches / undecidedCounted,
    pairs: items.length,
    ties,
    undecidedPairs,
    undecidedTies,
    metricTies,
  };
}

/**
 * The agreement as the API carries it: `agreement` (M over all pairs, kept for old clients)
 * and `agreementDetail` (both ways, with the "about the same" counts).
 * @example agreementFields(report) // { agreement: 0.93, agreementDetail: { all: 0.93, ... } }
 */
export function agreementFields(report: AgreementReport): {
  agreement: number | null;
  agreementDetail: Omit<AgreementReport, "fit">;
} {
  const { fit: _fit, ...detail } = report;
  return { agreement: report.all, agreementDetail: detail };
}

/** A Phase III question that repeats a Phase II pair (test-retest, issue 26). */
export interface RetestPair {
  /** The Phase II question repeated, and the id of its answer row (its shown points). */
  readonly retestOf: number;
  readonly rowId: number;
}

/**
 * A Phase III question: a random trade-off (a binary study's `EvaluationPair`, or another
 * kind's pair of its points), or a repeat of a Phase II pair.
 */
export type PhaseThreePair<T = EvaluationPair> = T | RetestPair;

/** Whether a Phase III question repeats a Phase II pair. */
export function isRetest<T extends object>(p: T | RetestPair): p is RetestPair {
  return "retestOf" in p;
}

/**
 * Phase III with `count` of the participant's Phase II pairs repeated among the random ones
 * (test-retest): the repeats are Phase II questions answered with a preference (not "about the
 * same"), never the last one (so a pair is never shown twice in a row), drawn with the
 * participant's seed, and placed evenly through Phase III, never first. The same seed and
 * answers give the same schedule. `phase2` are the effective Phase II rows in order.
 * @example withRetests(pairs, phase2Rows, 2, seed).length // pairs.length + 2
 */
export function withRetests<T>(
  pairs: readonly T[],
  phase2: readonly Pick<AnswerRow, "id" | "answer">[],
  count: number,
  seed: number,
): PhaseThreePair<T>[] {
  const candidates = phase2
    .map((r, index) => ({ index, id: r.id, answer: r.answer }))
    .slice(0, -1)
    .filter((r) => r.answer !== "tie");
  const rng = createRng(`${seed}:retest`);
  const chosen: RetestPair[] = [];
  for (let j = 0; j < count && candidates.length > 0; j++) {
    const [c] = candidates.splice(rng.int(candidates.length), 1);
    chosen.push({ retestOf: c!.index, rowId: c!.id });
  }
  // In the order asked, so the earlier Phase II pair comes back first.
  chosen.sort((a, b) => a.retestOf - b.retestOf);
  const out: PhaseThreePair<T>[] = [...pairs];
  const total = pairs.length + chosen.length;
  for (const [j, r] of chosen.entries()) {
    const at = Math.max(1, Math.floor(((j + 1) * total) / (chosen.length + 1)));
    out.splice(Math.min(at, out.length), 0, r);
  }
  return out;
}
