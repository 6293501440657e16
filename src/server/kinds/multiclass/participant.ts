import { type AdaptiveResult, adaptiveSteps } from "../../../elicit/adaptive/engine.ts";
import { multiclassLinearFamily } from "../../../elicit/adaptive/families/multiclass.ts";
import type { AdaptiveFamily } from "../../../elicit/adaptive/family.ts";
import type { MulticlassPoint } from "../../../elicit/multiclass/point.ts";
import type { AutoAnswer, ReplayState, Steps } from "../../../elicit/session.ts";
import type { Classifier } from "../../../geometry/multiclass/classifier.ts";
import { expectedConfusion } from "../../../geometry/multiclass/expected-confusion.ts";
import type { MulticlassPool } from "../../../geometry/multiclass/pool.ts";
import type { Answer } from "../../../search/question.ts";
import { inWords } from "../../../words.ts";
import type { MulticlassView } from "../../api-schemas.ts";
import { replayCache, SERVER_RUNS } from "../../participant/replay-cache.ts";
import { largestRemainder } from "../../participant/views.ts";
import type { MulticlassAdaptiveSpec } from "../../study/config.ts";

/** The engine's result for a multiclass study: diagonal weights >= 0 summing to 1. */
export type MulticlassStudyResult = AdaptiveResult<MulticlassPoint, number[]>;

/** People of each true class a multiclass chart counts (every row shows this many). */
export const MULTICLASS_ROW_TOTAL = 100;

/**
 * What a participant sees of a classifier: for each true class, `MULTICLASS_ROW_TOTAL` people
 * of that class split over the predicted classes as whole counts (largest remainder, so every
 * row sums to the same fixed total on every page), and the share of each class predicted
 * right (the diagonal count over the row total, so the rate agrees with the counts on screen).
 */
export function multiclassView(pool: MulticlassPool, classifier: Classifier): MulticlassView {
  const k = pool.k;
  const c = expectedConfusion(pool, classifier);
  const counts: number[][] = [];
  for (let i = 0; i < k; i++) {
    const row = Array.from({ length: k }, (_, j) => Math.max(0, c[i * k + j]!));
    counts.push(
      row.some((x) => x > 0)
        ? largestRemainder(row, MULTICLASS_ROW_TOTAL)
        : row.map((_, j) => (j === i ? MULTICLASS_ROW_TOTAL : 0)),
    );
  }
  return { counts, rates: counts.map((r, i) => r[i]! / MULTICLASS_ROW_TOTAL) };
}

/**
 * The confusion matrix a participant sees of a system, in the pool's joint shares (what the
 * engine of a study computes on, `MulticlassAdaptiveSpec.asShown`): each class's counts of
 * 100 times the class's share.
 * @example shownConfusion(pool, point) // Float64Array of k * k entries
 */
export function shownConfusion(pool: MulticlassPool, p: MulticlassPoint): Float64Array {
  const counts = multiclassView(pool, p.classifier).counts;
  return Float64Array.from({ length: pool.k * pool.k }, (_, a) => {
    const i = Math.floor(a / pool.k);
    return (counts[i]![a % pool.k]! / MULTICLASS_ROW_TOTAL) * pool.priors[i]!;
  });
}

/** What decides a diagonal-linear comparison on screen: the correct count of each class. */
function shownDiagonal(pool: MulticlassPool, p: MulticlassPoint): string {
  return multiclassView(pool, p.classifier)
    .counts.map((r, i) => r[i])
    .join(",");
}

/**
 * "tie" for every question whose two systems look the same on screen (`shown` gives what
 * decides a comparison there): such a pair is equal to the participant, so it is never asked
 * (as `identicalOnScreen` does for the binary study). Only the questions shown reach the
 * participant and the answer log. Serves the multiclass (correct count of each class) and
 * the fairness (each group's correct counts) studies.
 * @example liveRun(steps, answers, sameOnScreen((p) => shownDiagonal(pool, p)))
 */
export function sameOnScreen<P>(shown: (point: P) => string): AutoAnswer<P> {
  return (q) => (shown(q.first) === shown(q.second) ? "tie" : undefined);
}

/** What decides a linear comparison on screen: every count (each kind of mistake's too). */
function shownCounts(pool: MulticlassPool, p: MulticlassPoint): string {
  return JSON.stringify(multiclassView(pool, p.classifier).counts);
}

/**
 * The adaptive family of a multiclass study: its metric family on the study's pool, on the
 * counts shown when the spec says so (`asShown`).
 * @example multiclassStudyFamily(spec, pool).features(point)
 */
export function multiclassStudyFamily(
  spec: MulticlassAdaptiveSpec,
  pool: MulticlassPool,
): AdaptiveFamily<MulticlassPoint, number[]> {
  return multiclassLinearFamily(spec.family, pool, {
    displayStep: spec.displayStep,
    ...(spec.asShown ? { shown: (p: MulticlassPoint) => shownConfusion(pool, p) } : {}),
  });
}

/**
 * The adaptive procedure of a multiclass study for one participant (seeded with theirs), as
 * a resumable run (`liveRun`; `stepsProcedure` makes it a `Procedure`).
 */
export function multiclassStudySteps(
  spec: MulticlassAdaptiveSpec,
  pool: MulticlassPool,
  seed: number,
): Steps<MulticlassPoint, MulticlassStudyResult> {
  return adaptiveSteps(multiclassStudyFamily(spec, pool), {
    tolerance: spec.tolerance,
    budget: spec.budget,
    credibility: spec.credibility,
    model: spec.model,
    seed,
  });
}

// One cache for every adaptive study kind replayed here (keys start with the config hash).
// A multiclass run holds about 0.7 MB of particles, a fairness run about 1 MB of grid; the
// runs kept share the server's memory budget with the binary ones (`SERVER_RUNS`).
const cache = replayCache<unknown, unknown>(4096, 4096, SERVER_RUNS);

/** Forget every remembered replay (tests). */
export function clearMulticlassReplayCache(): void {
  cache.clear();
}

/**
 * Where a participant's run stands after their answer log, with the pairs that look the same
 * on screen skipped (`sameOnScreen`): the pending question or the result. Served as the
 * binary adaptive replays are (adaptive.ts, `replayCache`): a remembered state, the kept run
 * resumed with the newest answer, or a replay of the log; `steps` is built only for a replay.
 * The multiclass and fairness kinds both replay through here.
 * @example replayShown(hash, seed, answers, () => mySteps(seed), (p) => key(p))
 */
export function replayShown<P, R>(
  configHash: string,
  seed: number,
  answers: readonly Answer[],
  steps: () => Steps<P, R>,
  shown: (point: P) => string,
): ReplayState<P, R> {
  return cache.get(configHash, seed, answers, () => ({
    steps: steps() as Steps<unknown, unknown>,
    auto: sameOnScreen(shown) as AutoAnswer<unknown>,
  })) as ReplayState<P, R>;
}

/** Replay a multiclass study's answer log (`replayShown` with the correct counts on screen). */
export function replayMulticlass(
  configHash: string,
  spec: MulticlassAdaptiveSpec,
  pool: MulticlassPool,
  seed: number,
  answers: readonly Answer[],
): ReplayState<MulticlassPoint, MulticlassStudyResult> {
  return replayShown(
    configHash,
    seed,
    answers,
    () => multiclassStudySteps(spec, pool, seed),
    multiclassShownKey(spec.family, pool),
  );
}

/**
 * What decides a multiclass comparison on screen, as a key (two systems with equal keys look
 * the same): each class's correct count (diagonal-linear), or every count (linear).
 * @example multiclassShownKey("diagonal-linear", pool)(point) // "93,88,71"
 */
export function multiclassShownKey(
  family: MulticlassAdaptiveSpec["family"],
  pool: MulticlassPool,
): (p: MulticlassPoint) => string {
  return family === "linear" ? (p) => shownCounts(pool, p) : (p) => shownDiagonal(pool, p);
}

/**
 * A linear metric's mistakes (true class i taken for j, in the family's order: row by row,
 * the diagonal left out), each with its share of the per-person cost (|a_ij| over their sum)
 * and, when the engine flags weight `a{i}{j}`, its credible half-width.
 * @example linearMistakes([-0.5, -0.5, -0.5, -0.5, 0, 0], [], ["a", "b", "c"])[0] // { from: "a", to: "b", share: 0.25, halfWidth: null }
 */
export function linearMistakes(
  weights: readonly number[],
  unidentified: readonly { readonly name: string; readonly halfWidth: number }[],
  classes: readonly string[],
): { from: string; to: string; share: number; halfWidth: number | null }[] {
  const k = classes.length;
  const total = weights.reduce((s, w) => s + Math.abs(w), 0);
  const open = new Map(unidentified.map((u) => [u.name, u.halfWidth]));
  const out: { from: string; to: string; share: number; halfWidth: number | null }[] = [];
  let a = 0;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      if (i === j) continue;
      const w = Math.abs(weights[a]!);
      out.push({
        from: classes[i]!,
        to: classes[j]!,
        share: total > 0 ? w / total : 1 / weights.length,
        halfWidth: open.get(`a${i}${j}`) ?? null,
      });
      a++;
    }
  return out;
}

/**
 * The linear debrief in words: the mistake the participant minds most and least (per person),
 * and how many times as much; said to be approximate when weights are not pinned down.
 * @example linearDebriefSentence(linearMistakes(w, [], classes))
 */
export function linearDebriefSentence(
  mistakes: readonly { from: string; to: string; share: number; halfWidth: number | null }[],
): string {
  const order = [...mistakes].sort((x, y) => y.share - x.share);
  const most = order[0]!;
  const least = order[order.length - 1]!;
  const what = (m: { from: string; to: string }) => `calling a true “${m.from}” a “${m.to}”`;
  const ratio = least.share > 0 ? most.share / least.share : Number.POSITIVE_INFINITY;
  const times = ratio >= 20 ? "far more than" : `about ${ratio.toFixed(1)} times as much as`;
  const head =
    most.share - least.share < 0.02
      ? "Your answers weigh every kind of mistake about equally."
      : `The mistake you mind most is ${what(most)}: for one person it weighs ${times} ${what(least)}, the one you mind least.`;
  const open = mistakes.filter((m) => m.halfWidth !== null).length;
  const tail =
    open === 0
      ? ""
      : ` Your answers do not settle ${open === mistakes.length ? "any of these weights" : `${open} of the ${mistakes.length} weights`} precisely, so read this order as approximate.`;
  return `${head}${tail}`;
}

/**
 * The elicited weights per shown rate: `sum_i a_i C_ii = sum_i a_i p_i R_ii` with `p_i` the
 * class's share, so a person reading per-class rates weighs class i by `a_i p_i` (normalised
 * to sum 1). What the debrief puts in words.
 */
export function rateWeights(weights: readonly number[], priors: ArrayLike<number>): number[] {
  const w = weights.map((a, i) => a * priors[i]!);
  const s = w.reduce((x, y) => x + y, 0);
  return s > 0 ? w.map((x) => x / s) : w.map(() => 1 / w.length);
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/**
 * Each class's credible half-width when the engine could not pin its weight down to the
 * tolerance (`unidentified` names the diagonal weights `a0`, `a1`, ...), else null: what the
 * debrief and the dashboard mark as uncertain, in the weights' own measure (the export's).
 * @example weightHalfWidths([{ name: "a1", halfWidth: 0.08 }], 3) // [null, 0.08, null]
 */
export function weightHalfWidths(
  unidentified: readonly { readonly name: string; readonly halfWidth: number }[],
  k: number,
): (number | null)[] {
  const out: (number | null)[] = new Array(k).fill(null);
  for (const u of unidentified) {
    const m = /^a(\d+)$/.exec(u.name);
    const i = m ? Number(m[1]) : -1;
    if (i >= 0 && i < k) out[i] = u.halfWidth;
  }
  return out;
}

/**
 * What the debrief adds when some weights are not pinned down (no shown pair left that tells
 * the candidates apart, or the budget ran out): which classes, in words; "" when none.
 * @example uncertaintySentence([null, 0.08, 0.11], ["a", "b", "c"])
 */
export function uncertaintySentence(
  halfWidths: readonly (number | null)[],
  classes: readonly string[],
): string {
  const names = halfWidths.flatMap((h, i) => (h === null ? [] : [`“${classes[i]}”`]));
  if (names.length === 0) return "";
  const list = inWords(names);
  const which = names.length === classes.length ? "any of the weights" : "every weight";
  return `Your answers do not settle ${which} precisely: the weight${names.length === 1 ? "" : "s"} of ${list} could be noticeably higher or lower, so read ${names.length === 1 ? "its" : "their"} place in this order as approximate.`;
}

/**
 * The debrief in words: which mistake the participant minds most (calling a member of class X
 * something else) and how much more than the one they mind least, from the rate weights. With
 * the ranges the answers leave (`ranges`, as the debrief shows them): when the most and the
 * least minded classes' ranges overlap, the answers do not settle which is which, let alone
 * "how many times as much", and the sentence says so instead of a ratio (the audit read
 * "about 2.9 times as much" beside ranges of 1-51% and 0-27%).
 * @example debriefSentence([0.5, 0.3, 0.2], ["setosa", "versicolor", "virginica"])
 */
export function debriefSentence(
  rate: readonly number[],
  classes: readonly string[],
  ranges?: readonly { readonly low: number; readonly high: number }[],
): string {
  const order = rate.map((w, i) => ({ w, i })).sort((a, b) => b.w - a.w || a.i - b.i);
  const most = order[0]!;
  const least = order[order.length - 1]!;
  const name = (i: number) => `“${classes[i]}”`;
  const ranking = order.map((o) => `${name(o.i)} (${pct(o.w)})`).join(", ");
  if (most.w - least.w < 0.05) {
    return `Your answers weigh mistakes about every class about equally: getting a member of any class wrong matters about as much to you as any other (${ranking}).`;
  }
  const [hi, lo] = [ranges?.[most.i], ranges?.[least.i]];
  if (hi && lo && hi.low <= lo.high) {
    const span = (r: { low: number; high: number }) => `${pct(r.low)} to ${pct(r.high)}`;
    return `Your answers lean to minding mistakes about ${name(most.i)} most and about ${name(least.i)} least, but they do not settle it: the weight of ${name(most.i)} could be anywhere from ${span(hi)}, that of ${name(least.i)} from ${span(lo)}. Your weights as estimated, per case of each class: ${ranking}.`;
  }
  const ratio = least.w > 0 ? most.w / least.w : Number.POSITIVE_INFINITY;
  const times = ratio >= 20 ? "far more than" : `about ${ratio.toFixed(1)} times as much as`;
  return `The mistake you mind most is calling a true ${name(most.i)} something else: it weighs ${times} the same mistake for ${name(least.i)}, the one you mind least. Your weights, per case of each class: ${ranking}.`;
}

/**
 * A linear multiclass study's debrief: the mistakes in words (`linearDebriefSentence`), each
 * kind of mistake's share with its half-width when open (`mistakes`), and per true class the
 * share of the cost its people's mistakes carry (`classWeights`; `halfWidths`: the largest
 * half-width among that class's open weights).
 */
export function linearDebrief(
  data: {
    readonly classNames: readonly string[];
    readonly pool: { readonly priors: ArrayLike<number> };
  },
  result: MulticlassStudyResult,
  completionCode: string,
  toMetric?: (w: readonly number[]) => number[],
) {
  const { classWeights, halfWidths, mistakes, classRanges } = multiclassFigures(
    data,
    "linear",
    result,
    toMetric,
  );
  return {
    summary: linearDebriefSentence(mistakes!),
    metric: { weights: [...result.metric] },
    halfWidths,
    classes: [...data.classNames],
    classWeights,
    ...(classRanges ? { classRanges } : {}),
    mistakes: mistakes!,
    completionCode,
  };
}

/**
 * The figures a multiclass participant's result is stated in, the same on the debrief, the
 * dashboard, both CSVs and study.json (issue 27 item 4: one normalisation per figure):
 * `classWeights`, per true class the share of the weight a case of that class carries (a
 * diagonal-linear study: the weight per shown rate, `rateWeights`; a linear study: the share
 * of the per-person cost its people's mistakes carry), summing to 1; `halfWidths`, per class
 * the credible half-width (the metric's measure) where the answers did not pin its weight
 * down, else null; a linear study also each kind of mistake's share (`mistakes`).
 * @example multiclassFigures(data, "diagonal-linear", result).classWeights // [0.31, 0.27, 0.42]
 */
export function multiclassFigures(
  data: {
    readonly classNames: readonly string[];
    readonly pool: { readonly priors: ArrayLike<number> };
  },
  family: MulticlassAdaptiveSpec["family"],
  result: Pick<MulticlassStudyResult, "metric" | "unidentified" | "posterior" | "credible">,
  toMetric?: (w: readonly number[]) => number[],
): {
  classWeights: number[];
  halfWidths: (number | null)[];
  classRanges?: { low: number; high: number }[];
  mistakes?: { from: string; to: string; share: number; halfWidth: number | null }[];
} {
  const classes = data.classNames;
  // Each class's weight per case from one metric's weights (the figure, unrounded).
  const perCase = (weights: readonly number[]): number[] => {
    if (family !== "linear") return rateWeights(weights, data.pool.priors);
    const mistakes = linearMistakes(weights, [], classes);
    return classes.map((c) =>
      mistakes.filter((m) => m.from === c).reduce((sum, m) => sum + m.share, 0),
    );
  };
  // The range of each figure over the belief the answers left (its draws, as metrics).
  const draws = toMetric ? result.posterior?.draws : undefined;
  const ranges: { classRanges?: { low: number; high: number }[] } =
    toMetric && draws && draws.length > 0
      ? {
          classRanges: figureRanges(
            draws.map((w) => perCase(toMetric(w))),
            result.credible.level,
          ),
        }
      : {};
  const classWeights = perCase(result.metric);
  // The stated range always holds the figure stated (the belief's mean).
  if (ranges.classRanges)
    ranges.classRanges = ranges.classRanges.map((r, i) => ({
      low: Math.min(r.low, classWeights[i]!),
      high: Math.max(r.high, classWeights[i]!),
    }));
  if (family === "linear") {
    const mistakes = linearMistakes(result.metric, result.unidentified, classes);
    return {
      classWeights,
      halfWidths: classes.map((c) => {
        const open = mistakes.filter((m) => m.from === c && m.halfWidth !== null);
        return open.length === 0 ? null : Math.max(...open.map((m) => m.halfWidth!));
      }),
      ...ranges,
      mistakes,
    };
  }
  return {
    classWeights,
    halfWidths: weightHalfWidths(result.unidentified, result.metric.length),
    ...ranges,
  };
}

/**
 * Per entry, the central `level` range of a figure over the belief's draws (each draw's
 * figures a row): its (1 - level) / 2 and (1 + level) / 2 quantiles.
 * @example figureRanges([[0.2, 0.8], [0.4, 0.6]], 0.9)[0] // { low: 0.2, high: 0.4 }
 */
export function figureRanges(
  rows: readonly (readonly number[])[],
  level: number,
): { low: number; high: number }[] {
  const k = rows[0]?.length ?? 0;
  return Array.from({ length: k }, (_, i) => {
    const xs = rows.map((r) => r[i]!).sort((x, y) => x - y);
    const at = (q: number) =>
      xs[Math.min(xs.length - 1, Math.max(0, Math.round(q * (xs.length - 1))))]!;
    return { low: at((1 - level) / 2), high: at((1 + level) / 2) };
  });
}
