import { type AdaptiveResult, adaptiveSteps } from "../../../elicit/adaptive/engine.ts";
import {
  fairQuadraticFamily,
  fairToW,
  lambdaFamily,
} from "../../../elicit/adaptive/families/fair.ts";
import type { AdaptiveFamily } from "../../../elicit/adaptive/family.ts";
import type { FairMetric, FairPoint } from "../../../elicit/fair/metric.ts";
import type { ReplayState, Steps } from "../../../elicit/session.ts";
import type { Answer } from "../../../search/question.ts";
import { inWords } from "../../../words.ts";
import type { FairLambdaSpec, FairSpec } from "../../study/config.ts";
import { replayShown } from "../multiclass/participant.ts";
import type { FairStudyData } from "./study.ts";

/** The engine's result for a fairness study: the metric with the study's a, B and lambda. */
export type FairStudyResult = AdaptiveResult<FairPoint, FairMetric>;

/** People of each group and true class a fairness chart counts (every cell out of this). */
export const FAIR_ROW_TOTAL = 100;

/**
 * What a participant sees of a rate profile: `counts[g][i]`, how many of 100 people of group g
 * whose true class is i the system gets right (whole people: the rate the group-wise
 * classifiers achieve, rounded); `overall[i]`, the share right of everyone of class i in
 * percent, the groups weighted by their share of the class (`tau`) from the counts shown, to
 * one decimal; `gaps[i]`, the largest difference between two groups' counts in class i.
 */
export interface FairShown {
  readonly counts: number[][];
  readonly overall: number[];
  readonly gaps: number[];
}

/**
 * The view of a queried profile: each group's classifier is realised on its pool (the
 * rates shown are the ones it achieves) and read as whole counts out of 100.
 * @example fairView(data, profile).counts // [[72, 64], [75, 61]]
 */
export function fairView(data: FairStudyData, point: FairPoint): FairShown {
  const rates = data.space.realise(point).rates;
  return shownOfRates(rates, data.tau);
}

/** `fairView` from the rates themselves (a stored point's rates, tests). */
export function shownOfRates(
  rates: readonly ArrayLike<number>[],
  tau: readonly (readonly number[])[],
): FairShown {
  const counts = rates.map((r) =>
    Array.from(r, (x) => Math.min(FAIR_ROW_TOTAL, Math.max(0, Math.round(x * FAIR_ROW_TOTAL)))),
  );
  const k = counts[0]!.length;
  const overall = Array.from(
    { length: k },
    (_, i) => Math.round(10 * counts.reduce((s, row, g) => s + tau[g]![i]! * row[i]!, 0)) / 10,
  );
  const gaps = Array.from({ length: k }, (_, i) => {
    const col = counts.map((row) => row[i]!);
    return Math.max(...col) - Math.min(...col);
  });
  return { counts, overall, gaps };
}

/**
 * The rates a participant sees of a profile: every group's correct counts out of 100, as
 * rates (what the engine of a study computes on, `FairLambdaSpec.asShown`).
 * @example shownRatesOf(data, profile) // [[0.72, 0.64], [0.75, 0.61]]
 */
export function shownRatesOf(data: FairStudyData, p: FairPoint): number[][] {
  return fairView(data, p).counts.map((row) => row.map((c) => c / FAIR_ROW_TOTAL));
}

/**
 * What decides a fairness comparison on screen, as a key (two profiles with equal keys look
 * the same): every group's correct counts.
 * @example fairShownKey(data, profile) // "72,64;75,61"
 */
export function fairShownKey(data: FairStudyData, p: FairPoint): string {
  return fairView(data, p)
    .counts.map((r) => r.join(","))
    .join(";");
}

/**
 * The adaptive family of a fairness study: lambda with the study's known costs and violation
 * weights, or (fair-quadratic) the whole fair metric, on the data's query ball.
 * @example fairStudyFamily(spec, data).optimal(fairStudyWeights(spec, metric, 2))
 */
export function fairStudyFamily(
  spec: FairSpec,
  data: FairStudyData,
): AdaptiveFamily<FairPoint, FairMetric> {
  const options = {
    rho: data.space.sphere.rho,
    displayStep: spec.displayStep,
    ...(spec.asShown ? { shown: (p: FairPoint) => shownRatesOf(data, p) } : {}),
  };
  return spec.family === "fair-quadratic"
    ? fairQuadraticFamily(data.classNames.length, data.tau, options)
    : lambdaFamily(
        data.classNames.length,
        data.tau,
        { a: [...spec.known.a], B: knownB(spec) },
        options,
      );
}

/**
 * A fair metric as the parameter vector of its study's family (for `optimal`): `(1 - lambda,
 * lambda)` for the lambda family, `fairToW` for the whole metric.
 * @example fairStudyWeights({ family: "fair-lambda" }, { a, B, lambda: 0.3 }, 2) // [0.7, 0.3]
 */
export function fairStudyWeights(
  spec: Pick<FairSpec, "family">,
  m: FairMetric,
  groups: number,
): Float64Array {
  return spec.family === "fair-quadratic"
    ? fairToW(m, groups)
    : Float64Array.of(1 - m.lambda, m.lambda);
}

/**
 * The adaptive procedure of a fairness study for one participant (seeded with theirs): the
 * study's family (`fairStudyFamily`) with its tolerance, budget and credibility, as a
 * resumable run (`liveRun`; `stepsProcedure` makes it a `Procedure`).
 */
export function fairStudySteps(
  spec: FairSpec,
  data: FairStudyData,
  seed: number,
): Steps<FairPoint, FairStudyResult> {
  const family = fairStudyFamily(spec, data);
  return adaptiveSteps(family, {
    tolerance: spec.tolerance,
    budget: spec.budget,
    credibility: spec.credibility,
    model: spec.model,
    seed,
    ...(spec.family === "fair-lambda" && spec.gridPoints !== undefined
      ? { gridPoints: spec.gridPoints }
      : {}),
  });
}

function knownB(spec: FairLambdaSpec): Record<string, number[][]> {
  return Object.fromEntries(
    Object.entries(spec.known.B).map(([key, M]) => [key, M.map((row) => [...row])]),
  );
}

/**
 * Replay a fairness study's answer log (the multiclass kind's `replayShown`: the same replay,
 * cache and screen guard, here with every group's correct counts as what is shown).
 */
export function replayFair(
  configHash: string,
  spec: FairSpec,
  data: FairStudyData,
  seed: number,
  answers: readonly Answer[],
): ReplayState<FairPoint, FairStudyResult> {
  return replayShown(
    configHash,
    seed,
    answers,
    () => fairStudySteps(spec, data, seed),
    (p) => fairShownKey(data, p),
  );
}

/** A profile as stored in the answer log: each group's queried rates. */
export function fairPointJson(p: FairPoint): string {
  return JSON.stringify({ rates: p.rates.map((r) => Array.from(r)) });
}

/**
 * The participant's lambda and the range the engine's credible region leaves for it (the
 * estimate plus and minus the region's radius, clipped to [0, 1], rounded outward to two
 * decimals). The debrief, the dashboard and the exports all state this one record.
 * @example lambdaRecord({ metric: { lambda: 0.62 }, credible: { radius: 0.031 } }) // { lambda: 0.62, low: 0.58, high: 0.66 }
 */
export function lambdaRecord(r: {
  readonly metric: { readonly lambda: number };
  readonly credible: { readonly radius: number };
}): { lambda: number; low: number; high: number } {
  const l = r.metric.lambda;
  const rad = r.credible.radius;
  return {
    lambda: l,
    low: Math.max(0, Math.floor((l - rad) * 100 + 1e-9) / 100),
    high: Math.min(1, Math.ceil((l + rad) * 100 - 1e-9) / 100),
  };
}

/**
 * The half-width of lambda's stated range: the credible radius for the lambda family (its
 * error is |lambda - lambda'|); for the whole metric, lambda's own half-width when the engine
 * flags it, else the tolerance the engine found it within (the radius there is over every
 * coordinate, mostly B's).
 * @example lambdaRadius(result, { family: "fair-quadratic", tolerance: 0.1 }) // 0.1 unless flagged
 */
export function lambdaRadius(
  r: Pick<FairStudyResult, "credible" | "unidentified">,
  spec: Pick<FairSpec, "family" | "tolerance">,
): number {
  if (spec.family !== "fair-quadratic") return r.credible.radius;
  return r.unidentified.find((u) => u.name === "lambda")?.halfWidth ?? spec.tolerance;
}

/** A fairness participant's metric as every output states it (lambda; fair-quadratic: a, B). */
export type FairMetricRecord = ReturnType<typeof lambdaRecord> & {
  a?: number[];
  B?: Record<string, number[][]>;
};

/**
 * The record of a fairness result the debrief, dashboard and exports share: lambda with its
 * range (`lambdaRecord`), and for the whole metric its costs `a` and violation weights `B`.
 * @example fairMetricRecord(result, spec) // { lambda: 0.62, low: 0.52, high: 0.72, a: [..], B: { "0-1": .. } }
 */
export function fairMetricRecord(
  r: Pick<FairStudyResult, "metric" | "credible" | "unidentified">,
  spec: Pick<FairSpec, "family" | "tolerance">,
): FairMetricRecord {
  const rec = lambdaRecord({ metric: r.metric, credible: { radius: lambdaRadius(r, spec) } });
  if (spec.family !== "fair-quadratic") return rec;
  return {
    ...rec,
    a: [...r.metric.a],
    B: Object.fromEntries(
      Object.entries(r.metric.B).map(([key, M]) => [key, M.map((row) => [...row])]),
    ),
  };
}

/**
 * The whole fair metric in words: which true class's mistakes cost the participant most (the
 * largest `a_i`) and which class's gap between groups they mind most (the largest diagonal of
 * `B`, summed over group pairs), each said to be approximate when the engine left those
 * coordinates open (names a1.., B12_11.., as the family's coordinates) or the parts of its
 * error (a, B: `AdaptiveFamily.parts`).
 * @example fullFairSentence({ a: [0.8, 0.6], B: { "0-1": [[0.7, 0], [0, 0.3]] } }, [], ["no", "yes"])
 */
export function fullFairSentence(
  m: {
    readonly a: readonly number[];
    readonly B: Readonly<Record<string, readonly (readonly number[])[]>>;
  },
  unidentified: readonly { readonly name: string }[],
  classes: readonly string[],
): string {
  const open = new Set(unidentified.map((u) => u.name));
  const gaps = classes.map((_, i) => Object.values(m.B).reduce((s, M) => s + (M[i]?.[i] ?? 0), 0));
  // The classes whose figure is within 5% of the largest: a ranking of near-equal figures
  // (the audit's 0.71 against 0.70) is not stated as one.
  const top = (xs: readonly number[]) => {
    const most = Math.max(...xs);
    return xs.flatMap((x, i) => (x >= 0.95 * most ? [`“${classes[i]}”`] : []));
  };
  const [costs, gapsTop] = [top(m.a), top(gaps)];
  // "a": the costs' norm (the family's part of its error), open though each cost may be close.
  const costOpen = open.has("a") || m.a.some((_, i) => open.has(`a${i + 1}`));
  const gapOpen = [...open].some((n) => n.startsWith("B"));
  const costText =
    costs.length === 1
      ? `Of the wrong decisions, those about people whose true answer is ${costs[0]} cost most for you.`
      : `Wrong decisions about people whose true answer is ${inWords(costs)} cost you about the same${costs.length === classes.length ? "" : ", more than any other"}.`;
  const gapText =
    gapsTop.length === 1
      ? `Of the gaps between groups, you mind most the one among people whose true answer is ${gapsTop[0]}.`
      : `You mind the gaps between groups among people whose true answer is ${inWords(gapsTop)} about the same${gapsTop.length === classes.length ? "" : ", more than any other"}.`;
  return `${costText}${costOpen ? " Your answers left this close, so read it as approximate." : ""} ${gapText}${gapOpen ? " Your answers did not pin down how much each gap matters to you, so read this as approximate." : ""}`;
}

/**
 * How many correct decisions in 100 (in every class, for everyone) the metric gives up to
 * make the gap between the first two groups 10 points smaller in every class: with cost
 * `(1 - lambda) <a, 1 - r> + lambda/2 d^T B d`, closing `d = 0.1` saves `lambda 0.005 1^T B 1`
 * and losing `x` in every class costs `(1 - lambda) x sum a`. Infinite at lambda = 1.
 * @example accuracyForGap(0.5, [0.7071, 0.7071], { "0-1": [[1.4142, 0], [0, 1.4142]] }) // 1.0
 */
export function accuracyForGap(
  lambda: number,
  a: readonly number[],
  B: Readonly<Record<string, readonly (readonly number[])[]>>,
): number {
  const M = B["0-1"] ?? [];
  const quad = M.reduce((s, row) => s + row.reduce((x, y) => x + y, 0), 0);
  const lin = a.reduce((x, y) => x + y, 0);
  if (lambda >= 1) return Number.POSITIVE_INFINITY;
  return (100 * lambda * 0.005 * quad) / ((1 - lambda) * lin);
}

/**
 * How many more people in 100 a number stands for, in whole people (issue 27: "about 0.4 more
 * people in 100"): rounded, "fewer than 1 more person" when it rounds to 0, and "person" for 1.
 * The unrounded number stays in the debrief's `gapWorth`.
 * @example morePeopleIn100(2.6) // "about 3 more people in 100"
 * @example morePeopleIn100(0.4) // "fewer than 1 more person in 100"
 */
export function morePeopleIn100(x: number): string {
  const n = Math.round(x);
  if (n < 1) return "fewer than 1 more person in 100";
  return `about ${n} more ${n === 1 ? "person" : "people"} in 100`;
}

/**
 * The debrief in words: where the participant's lambda lies between accuracy only (0) and
 * equal treatment only (1), its range, and what it means on the screen they saw.
 * @example fairDebriefSentence({ lambda: 0.5, low: 0.45, high: 0.55 }, 1, ["Black", "White"])
 */
export function fairDebriefSentence(
  rec: { readonly lambda: number; readonly low: number; readonly high: number },
  gapWorth: number,
  groups: readonly string[],
): string {
  const { lambda, low, high } = rec;
  const lean =
    high < 0.5
      ? "Being right overall matters more to you than treating the groups alike."
      : low > 0.5
        ? "Treating the groups alike matters more to you than being right overall."
        : "You weigh being right overall and treating the groups alike about evenly.";
  // The worth is of the first two groups' gap (`accuracyForGap`); with more groups, say so.
  const pair = `“${groups[0]}” and “${groups[1]}”${groups.length > 2 ? ` (one of the ${(groups.length * (groups.length - 1)) / 2} pairs of groups)` : ""}`;
  const worth = Number.isFinite(gapWorth)
    ? `${morePeopleIn100(gapWorth)} decided wrongly (in every class)`
    : "any loss of accuracy";
  return `Your trade-off lambda is ${lambda.toFixed(2)}, between ${low.toFixed(2)} and ${high.toFixed(2)} given your answers (0 would mean only being right overall matters, 1 only treating the groups alike). ${lean} For you, making the gap between ${pair} 10 points smaller in every class is worth ${worth}.`;
}
