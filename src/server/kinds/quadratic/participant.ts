// A quadratic study's engine and figures: the UAI 2022 quadratic family on the study's ball of
// class rates, each point shown as the mixture of the pool's classifiers that realises it
// (people per class, as a multiclass study shows a system), and the debrief's figures.

import { type AdaptiveResult, adaptiveSteps } from "../../../elicit/adaptive/engine.ts";
import { quadraticFamily } from "../../../elicit/adaptive/families/quadratic.ts";
import type { AdaptiveFamily } from "../../../elicit/adaptive/family.ts";
import type { RatePoint } from "../../../elicit/quadratic/lpme.ts";
import type { QuadraticMetric } from "../../../elicit/quadratic/metric.ts";
import type { ReplayState, Steps } from "../../../elicit/session.ts";
import { realiseOnSphere } from "../../../geometry/multiclass/realise.ts";
import type { Answer } from "../../../search/question.ts";
import type { MulticlassView } from "../../api-schemas.ts";
import { figureRanges, multiclassView, replayShown } from "../multiclass/participant.ts";
import type { QuadraticStudyData } from "./data.ts";
import type { QuadraticStudySpec } from "./spec.ts";

/** The engine's result for a quadratic study: the metric (a, B) in the family's normalisation. */
export type QuadraticStudyResult = AdaptiveResult<RatePoint, QuadraticMetric>;

const views = new WeakMap<RatePoint, MulticlassView>();

/**
 * What a participant sees of a point of the ball: the mixture of the pool's classifiers that
 * realises its rates, as people per class (`multiclassView`). Remembered per point object (the
 * engine asks for a candidate's features many times).
 * @example quadraticView(data, { point: data.sphere.centre }).counts[0] // [34, 33, 33]
 */
export function quadraticView(data: QuadraticStudyData, p: RatePoint): MulticlassView {
  let v = views.get(p);
  if (!v) {
    v = multiclassView(data.pool, realiseOnSphere(data.sphere, p.point));
    views.set(p, v);
  }
  return v;
}

/** What decides a comparison on screen: each class's count right. @example "93,88,71" */
export function quadraticShownKey(data: QuadraticStudyData, p: RatePoint): string {
  return quadraticView(data, p)
    .counts.map((row, i) => row[i]!)
    .join(",");
}

/**
 * The adaptive family of a quadratic study: the quadratic metric of the class rates on the
 * study's ball, computed on the rates shown (whole people of 100 per class).
 * @example quadraticStudyFamily(spec, data).dim // 9 for k = 3
 */
export function quadraticStudyFamily(
  spec: QuadraticStudySpec,
  data: QuadraticStudyData,
): AdaptiveFamily<RatePoint, QuadraticMetric> {
  return quadraticFamily(data.pool.k, {
    centre: Array.from(data.sphere.centre),
    rho: data.sphere.rho,
    displayStep: spec.displayStep,
    shown: (p) => quadraticView(data, p).rates,
  });
}

/** The adaptive procedure of a quadratic study for one participant (seeded with theirs). */
function quadraticStudySteps(
  spec: QuadraticStudySpec,
  data: QuadraticStudyData,
  seed: number,
): Steps<RatePoint, QuadraticStudyResult> {
  return adaptiveSteps(quadraticStudyFamily(spec, data), {
    tolerance: spec.tolerance,
    budget: spec.budget,
    credibility: spec.credibility,
    model: spec.model,
    seed,
  });
}

/** Replay a quadratic study's answer log (pairs identical on screen skipped, as multiclass). */
export function replayQuadratic(
  configHash: string,
  spec: QuadraticStudySpec,
  data: QuadraticStudyData,
  seed: number,
  answers: readonly Answer[],
): ReplayState<RatePoint, QuadraticStudyResult> {
  return replayShown(
    configHash,
    seed,
    answers,
    () => quadraticStudySteps(spec, data, seed),
    (p) => quadraticShownKey(data, p),
  );
}

/** The imbalance a debrief speaks of: 10 more of 100 right in one class and 10 fewer in another. */
export const IMBALANCE_STEP = 0.1;

/** A quadratic metric's figures as the debrief, the dashboard and the exports state them. */
export interface QuadraticFigures {
  /**
   * Per class, its share of the value of one more person right, at the middle of the systems
   * shown (the metric's gradient `a + B o` at the ball's centre o, negative parts as 0,
   * summing to 1).
   */
  readonly classWeights: number[];
  /**
   * The pair of classes (indices) between which an imbalance costs most, and what it costs:
   * `IMBALANCE_STEP` more right in one and as many fewer in the other is as bad as this many
   * fewer people right of 100 in every class (the curvature `-1/2 d^T B d` over the value of
   * one more right in every class, `sum_i (a + B o)_i`); null when the metric has no such
   * value (every class's gradient share <= 0). `even`: every pair's cost is within half a
   * person of it (no pair stands out).
   */
  readonly imbalance: { first: number; second: number; people: number; even: boolean } | null;
}

/** The metric's gradient `a + B o` at `o`: the value of one more person right in each class. */
function gradientAt(m: QuadraticMetric, o: ArrayLike<number>): number[] {
  return m.a.map((ai, i) => ai + m.B[i]!.reduce((s, b, j) => s + b * o[j]!, 0));
}

/**
 * What an imbalance between classes i and j costs under `m`, as people fewer right of 100 in
 * every class (null when one more right in every class has no positive value).
 */
function pairCost(m: QuadraticMetric, o: ArrayLike<number>, i: number, j: number): number | null {
  const perEveryone = gradientAt(m, o).reduce((s, x) => s + x, 0);
  if (!(perEveryone > 0)) return null;
  const curvature = m.B[i]![i]! + m.B[j]![j]! - 2 * m.B[i]![j]!;
  return (100 * (-0.5 * IMBALANCE_STEP ** 2 * curvature)) / perEveryone;
}

/**
 * The figures of a quadratic metric about the study's ball centre `o`.
 * @example quadraticFigures({ a: [1, 1, 1], B: [[-1, 0, 0], [0, -1, 0], [0, 0, -1]] }, [0.5, 0.5, 0.5]).imbalance?.people // 0.67
 */
export function quadraticFigures(m: QuadraticMetric, o: ArrayLike<number>): QuadraticFigures {
  const k = m.a.length;
  const positive = gradientAt(m, o).map((x) => Math.max(0, x));
  const total = positive.reduce((s, x) => s + x, 0);
  const classWeights = total > 0 ? positive.map((x) => x / total) : positive.map(() => 1 / k);
  let imbalance: QuadraticFigures["imbalance"] = null;
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      const people = pairCost(m, o, i, j);
      if (people === null) continue;
      least = Math.min(least, people);
      if (imbalance === null || people > imbalance.people)
        imbalance = { first: i, second: j, people, even: false };
    }
  }
  if (imbalance) imbalance.even = imbalance.people - least < 0.5;
  return { classWeights, imbalance };
}

/** Whole people, as a sentence states them. @example peopleText(2.4) // "2 people" */
function peopleText(x: number): string {
  const n = Math.round(x);
  return n === 1 ? "1 person" : `${n} people`;
}

/**
 * The debrief's sentence on imbalance: between which classes uneven results cost most and as
 * how many fewer people right of 100 in every class, with its range over the belief.
 * @example imbalanceSentence({ first: 0, second: 2, people: 3.2, even: false }, { low: 1.6, high: 4.9 }, ["a", "b", "c"])
 */
export function imbalanceSentence(
  imbalance: QuadraticFigures["imbalance"],
  range: { low: number; high: number } | null,
  classes: readonly string[],
): string {
  if (imbalance === null)
    return "Your answers do not say how much uneven results between classes cost you.";
  const step = Math.round(IMBALANCE_STEP * 100);
  const between = imbalance.even
    ? "any two classes"
    : `“${classes[imbalance.first]}” and “${classes[imbalance.second]}”`;
  const spread =
    range && Math.round(range.high) > Math.round(range.low)
      ? ` (your answers allow between ${Math.max(0, Math.round(range.low))} and ${peopleText(range.high)})`
      : "";
  if (Math.round(imbalance.people) < 1)
    return `Uneven results between classes cost you next to nothing beyond the people they get wrong: even between ${between}, ${step} more right of 100 in one and ${step} fewer in the other is as bad as less than 1 person fewer right of 100 in every class${spread}.`;
  const where = imbalance.even ? `about the same between ${between}` : `most between ${between}`;
  return `Uneven results between classes cost you ${where}: ${step} more right of 100 in one and ${step} fewer in the other is as bad as ${peopleText(imbalance.people)} fewer right of 100 in every class${spread}.`;
}

/**
 * The imbalance in a few words, for the dashboard's table: the pair, the whole people and
 * their range.
 * @example imbalanceShort({ first: 0, second: 2, people: 3.2, even: false }, { low: 1.6, high: 4.9 }, ["a", "b", "c"]) // "imbalance “a”–“c”: 3 people of 100 (2–5)"
 */
export function imbalanceShort(
  imbalance: QuadraticFigures["imbalance"],
  range: { low: number; high: number } | null,
  classes: readonly string[],
): string {
  if (imbalance === null) return "imbalance: not stated";
  const pair = imbalance.even
    ? "any two classes"
    : `“${classes[imbalance.first]}”–“${classes[imbalance.second]}”`;
  const n = Math.round(imbalance.people);
  const people = n < 1 ? "less than 1 person" : n === 1 ? "1 person" : `${n} people`;
  const spread =
    range && Math.round(range.high) > Math.round(range.low)
      ? ` (${Math.max(0, Math.round(range.low))}–${Math.round(range.high)})`
      : "";
  return `imbalance ${pair}: ${people} of 100${spread}`;
}

/**
 * Each figure's range over the belief the answers left (its draws, as metrics): the class
 * weights, and the cost of an imbalance between the stated pair; each widened to hold the
 * stated value. Null without draws.
 */
export function quadraticRanges(
  stated: QuadraticFigures,
  draws: readonly QuadraticMetric[],
  o: ArrayLike<number>,
  level: number,
): {
  classRanges: { low: number; high: number }[];
  imbalance: { low: number; high: number } | null;
} | null {
  if (draws.length === 0) return null;
  const hold = (r: { low: number; high: number }, x: number) => ({
    low: Math.min(r.low, x),
    high: Math.max(r.high, x),
  });
  const classRanges = figureRanges(
    draws.map((m) => quadraticFigures(m, o).classWeights),
    level,
  ).map((r, i) => hold(r, stated.classWeights[i]!));
  const s = stated.imbalance;
  if (s === null) return { classRanges, imbalance: null };
  const costs = draws.map((m) => [pairCost(m, o, s.first, s.second) ?? 0]);
  return { classRanges, imbalance: hold(figureRanges(costs, level)[0]!, s.people) };
}
