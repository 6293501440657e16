// A study's figures in words, as the dashboard (web/src/researcher/metric.ts re-exports these),
// the debrief and `elicit report` (src/report/text.ts) print them: one wording and rounding
// for all three. The web bundle reads this module too: its one runtime import is a pure
// math kernel.

import { binomialUpperTail } from "../../math/binomial.ts";

/** A share as a whole percentage, or "—". @example percent(0.8666) // "87%" */
export function percent(x: number | null | undefined): string {
  return x === null || x === undefined ? "—" : `${Math.round(x * 100)}%`;
}

/**
 * Agreement M on the Phase III pairs the result did not decide in advance, with their count;
 * "none" when it decided every pair (M is then undefined, and "— of 0" read as a figure).
 * @example undecidedText({ undecided: 0.5, undecidedPairs: 4 }) // "50% of 4"
 * @example undecidedText({ undecided: null, undecidedPairs: 0 }) // "none"
 */
export function undecidedText(a: {
  readonly undecided: number | null;
  readonly undecidedPairs: number;
}): string {
  return a.undecidedPairs === 0 ? "none" : `${percent(a.undecided)} of ${a.undecidedPairs}`;
}

/**
 * A cost ratio as the debrief prints it: one decimal below 10, whole numbers from 10.
 * @example ratioText(4.25) // "4.3"
 */
export function ratioText(x: number): string {
  return x >= 10 ? String(Math.round(x)) : x.toFixed(1).replace(/\.0$/, "");
}

/**
 * The debrief's range of cost ratios (missed positive / false alarm) as the dashboard shows
 * it: "3–4.5", "about 4" when both ends print alike, "≥ 12" when unbounded, "—" without one.
 * @example formatRange({ low: 3, high: 4.5 }) // "3–4.5"
 */
export function formatRange(
  range: { low: number; high: number | null } | null | undefined,
): string {
  if (range === null || range === undefined) return "—";
  if (range.high === null) return `≥ ${ratioText(range.low)}`;
  const lo = ratioText(range.low);
  const hi = ratioText(range.high);
  return lo === hi ? `about ${lo}` : `${lo}–${hi}`;
}

/**
 * A class's weight per case as the debrief and the dashboard print it: whole per cent, and its
 * range when there is one.
 * @example classWeightText(0.31, { low: 0.25, high: 0.38 }) // "31% (25–38%)"
 */
export function classWeightText(
  w: number,
  range?: { readonly low: number; readonly high: number },
): string {
  const pct = (x: number) => Math.round(x * 100);
  return range === undefined ? `${pct(w)}%` : `${pct(w)}% (${pct(range.low)}–${pct(range.high)}%)`;
}

/**
 * A fairness participant's trade-off lambda with the range the debrief states.
 * @example lambdaText({ lambda: 0.3, low: 0.2, high: 0.4 }) // "lambda 0.30 (0.20–0.40)"
 */
export function lambdaText(m: { lambda: number; low: number; high: number }): string {
  return `lambda ${m.lambda.toFixed(2)} (${m.low.toFixed(2)}–${m.high.toFixed(2)})`;
}

/**
 * A fair-quadratic metric's costs `a` and gap weights (each class's diagonal of `B`, summed
 * over group pairs), 2 decimals, each coordinate the engine left open (`unidentified`, the
 * dashboard's) with its half-width (a gap: the sum of its entries' half-widths), and the
 * costs' or the gap weights' distance as a whole when the engine left that open (`a`, `B`).
 * @example fairWholeText({ a: [0.46, 0.89], B: { "0-1": [[1.89, 0], [0, 0.64]] } }) // "costs 0.46 / 0.89; gap weights 1.89 / 0.64"
 * @example fairWholeText({ a: [0.46, 0.89], B: { "0-1": [[1.89, 0], [0, 0.64]] } }, [{ name: "B12_22", halfWidth: 0.39 }])
 * // "costs 0.46 / 0.89; gap weights 1.89 / 0.64 ±0.39"
 * @example fairWholeText({ a: [0.46, 0.89], B: { "0-1": [[1.89, 0], [0, 0.64]] } }, [{ name: "B", halfWidth: 0.5 }])
 * // "costs 0.46 / 0.89; gap weights 1.89 / 0.64 (±0.50 in all)"
 */
export function fairWholeText(
  m: { a: readonly number[]; B: Readonly<Record<string, readonly (readonly number[])[]>> },
  unidentified: readonly { name: string; halfWidth: number }[] = [],
): string {
  const hw = new Map(unidentified.map((u) => [u.name, u.halfWidth]));
  const pm = (x: number, h: number | undefined) =>
    h === undefined ? x.toFixed(2) : `${x.toFixed(2)} ±${h.toFixed(2)}`;
  const costs = m.a.map((x, i) => pm(x, hw.get(`a${i + 1}`)));
  const gaps = m.a.map((_, i) => {
    const d = `_${i + 1}${i + 1}`;
    const open = unidentified.filter((u) => u.name.startsWith("B") && u.name.endsWith(d));
    const sum = Object.values(m.B).reduce((s, M) => s + (M[i]?.[i] ?? 0), 0);
    return pm(sum, open.length > 0 ? open.reduce((s, u) => s + u.halfWidth, 0) : undefined);
  });
  // The error's parts (AdaptiveFamily.parts): the costs' and the gap weights' distance as a whole.
  const whole = (name: string) => {
    const h = hw.get(name);
    return h === undefined ? "" : ` (±${h.toFixed(2)} in all)`;
  };
  return `costs ${costs.join(" / ")}${whole("a")}; gap weights ${gaps.join(" / ")}${whole("B")}`;
}

/** The coin test's p above which answers count as indistinguishable from a coin's. */
export const COIN_LEVEL = 0.05;

/**
 * The coin test's p above which answers told from a coin's at `COIN_LEVEL` are still hard to
 * tell from one (`nearCoin`): the usual stricter level, not fitted to any draw.
 */
export const NEAR_COIN_LEVEL = 0.01;

/**
 * Whether `trials` answers can tell a person from a coin at `level` (`COIN_LEVEL`): a coin
 * matches all of them with probability 2^-trials, so at least 5 (4 give 0.0625 even for a
 * perfect record); at `NEAR_COIN_LEVEL`, 7.
 * @example coinTestCanTell(4) // false
 * @example coinTestCanTell(6, NEAR_COIN_LEVEL) // false
 */
export function coinTestCanTell(trials: number, level = COIN_LEVEL): boolean {
  return 0.5 ** trials <= level;
}

/**
 * The fewest answers against a participant's own result, of `trials` counted (Phase III's
 * pairs and repeats), that leave their answers indistinguishable from a coin's at
 * `COIN_LEVEL` (the one-sided binomial test every kind runs; a binary study judges against
 * every metric of its range, which a coin fits more easily, so it can flag sooner). Null when
 * the test cannot tell anyone from a coin (fewer than 5 answers).
 * @example slipsToCoin(17) // 5 (12 of 17 agreeing: p 0.072)
 * @example slipsToCoin(7) // 1 (6 of 7: p 0.0625)
 */
export function slipsToCoin(trials: number): number | null {
  if (!coinTestCanTell(trials)) return null;
  let k = 0;
  while (binomialUpperTail(trials - k, trials, 0.5) <= COIN_LEVEL) k++;
  return k;
}

/** How consistently a participant answered: the fields of `ConsistencySchema` shown here. */
export interface Consistency {
  readonly errorRate: number | null;
  readonly errorLow: number | null;
  readonly errorHigh: number | null;
  readonly retestPairs: number;
  readonly retestSame: number;
  readonly coinLike: boolean;
  /** Told from a coin at 0.05, not at 0.01 (absent from figures made before it existed). */
  readonly nearCoin?: boolean;
  /** The coin test's p (absent from figures made before it was shown here). */
  readonly coinP?: number | null;
  /** Absent in figures made before it existed: no lean. */
  readonly leansTo?: "left" | "right" | null;
}

/**
 * The dashboard's consistency cell: the share of counted answers against the participant's
 * own result with its 90% range, the repeats answered the same, "like a coin" when a coin
 * could have answered as well (issue 26), "hard to tell from a coin" when only the 5% level
 * tells them apart (`nearCoin`), and "leans left" (right) when the answer model finds them
 * choosing by the side of the screen on close pairs. The exports' `error_rate`,
 * `error_rate_low`, `error_rate_high`, `retest_same` / `retest_pairs`, `coin_like`,
 * `near_coin` and `leans_to`.
 * @example consistencyText({ errorRate: 0.267, errorLow: 0.12, errorHigh: 0.47, retestPairs: 2, retestSame: 2, coinLike: false, nearCoin: true }) // "27% (12%–47%); 2 of 2; hard to tell from a coin"
 * @example consistencyText({ errorRate: 0.067, errorLow: 0.015, errorHigh: 0.251, retestPairs: 2, retestSame: 2, coinLike: false }) // "7% (2%–25%); 2 of 2"
 * @example consistencyText({ errorRate: 0.1, errorLow: 0.03, errorHigh: 0.3, retestPairs: 0, retestSame: 0, coinLike: false, leansTo: "left" }) // "10% (3%–30%); leans left"
 */
export function consistencyText(c: Consistency | null | undefined): string {
  if (c === null || c === undefined) return "—";
  const share =
    c.errorRate === null
      ? "—"
      : `${percent(c.errorRate)} (${percent(c.errorLow)}–${percent(c.errorHigh)})`;
  const repeats = c.retestPairs > 0 ? `; ${c.retestSame} of ${c.retestPairs}` : "";
  const lean = c.leansTo ? `; leans ${c.leansTo}` : "";
  // A coin's p of 1 with nothing counted: every answer "about the same". Above the level but
  // not flagged: too few answers for the test to tell anyone from a coin.
  const coin = c.coinLike
    ? c.errorRate === null && c.coinP === 1
      ? "; no choice made (every answer “about the same”), like a coin"
      : "; like a coin"
    : c.coinP != null && c.coinP > COIN_LEVEL
      ? "; too few answers to tell from a coin"
      : c.nearCoin
        ? "; hard to tell from a coin"
        : "";
  return `${share}${repeats}${coin}${lean}`;
}

/**
 * Seconds as minutes and seconds, or "—".
 * @example formatSeconds(75) // "1 min 15 s"
 */
export function formatSeconds(s: number | null): string {
  if (s === null || !Number.isFinite(s)) return "—";
  const m = Math.floor(s / 60);
  const r = Math.round(s % 60);
  return m > 0 ? `${m} min ${r} s` : `${r} s`;
}
