import type { AnswerModelName } from "../elicit/adaptive/answer-model.ts";
/**
 * Simulated elicitations with the adaptive strategy (issue 10), for `elicit simulate
 * --strategy adaptive` and `elicit reproduce adaptive`. Pure: no I/O (the run time per question
 * is measured with `performance.now`, nothing is printed or written).
 */
import { type AdaptiveResult, adaptiveProcedure } from "../elicit/adaptive/engine.ts";
import type { AdaptiveFamily } from "../elicit/adaptive/family.ts";
import { runProcedure } from "../elicit/session.ts";
import { createRng } from "../math/rng.ts";
import { logisticForRange, type NoiseModel } from "../oracle/noise.ts";
import { simulatedOracle } from "../oracle/simulated-oracle.ts";
import type { Answer } from "../search/question.ts";

/** The adaptive options the command line exposes (defaults in `ADAPTIVE_DEFAULTS`). */
export interface AdaptiveSettings {
  /** The family's tolerance: the engine stops at credible radius <= tolerance / 2. */
  readonly tolerance: number;
  readonly budget: number;
  readonly credibility: number;
  readonly model: AnswerModelName;
  /** Precision at which a person sees a point (pairs identical at it are never asked). */
  readonly displayStep: number;
  /**
   * Binary families: believe answers are about TP and TN as shown, rounded to `displayStep`
   * (as a web study does; default false, exact).
   */
  readonly asShown?: boolean;
  /**
   * Binary families: also weigh every threshold classifier as shown for the questions
   * (`BinaryFamilyOptions.everyShown`, as binary web studies do; default false).
   */
  readonly everyShown?: boolean;
  /** The belief's grid points per prior component (binary families; default the engine's). */
  readonly gridPoints?: number;
}

/** Defaults of `--budget`, `--credibility`, `--display-step` (the model follows the noise). */
export const ADAPTIVE_DEFAULTS = { budget: 30, credibility: 0.9, displayStep: 1e-4 } as const;

/** What `replay` needs besides the family's data: the spec, the seed and the answers. */
export interface AdaptiveSession<S> {
  readonly spec: S & {
    readonly strategy: "adaptive";
    readonly tolerance: number;
    readonly budget: number;
    readonly credibility: number;
    readonly model: AnswerModelName;
    readonly displayStep: number;
    readonly gridPoints?: number;
  };
  readonly seed: number;
  readonly answers: Answer[];
}

/** One simulated adaptive elicitation. */
export interface AdaptiveRun<P, M> {
  readonly result: AdaptiveResult<P, M>;
  readonly answers: Answer[];
  /** The family's error between the truth and the elicited metric. */
  readonly error: number;
  /** Whether the truth lies in the reported credible region (error <= radius). */
  readonly covered: boolean;
  /** Wall time per question (belief updates and question selection), in ms. */
  readonly msPerQuestion: number;
}

/**
 * Run the adaptive engine on `family` against a stakeholder whose metric value at a point is
 * `value` (true metric `truth`, in the family's normalisation), answering with `noise`.
 * The oracle's noise and the engine share the `seed`.
 * @example simulateAdaptive(binaryLinearFamily(pop), truth, value, { kind: "none" }, settings, 1)
 */
export function simulateAdaptive<P, M>(
  family: AdaptiveFamily<P, M>,
  truth: M,
  value: (p: P) => number,
  noise: NoiseModel,
  settings: AdaptiveSettings,
  seed: number,
): AdaptiveRun<P, M> {
  const oracle = simulatedOracle(value, noise, seed);
  const procedure = adaptiveProcedure(family, {
    tolerance: settings.tolerance,
    budget: settings.budget,
    credibility: settings.credibility,
    model: settings.model,
    seed,
    ...(settings.gridPoints !== undefined ? { gridPoints: settings.gridPoints } : {}),
  });
  const start = performance.now();
  const run = runProcedure(procedure, oracle.ask);
  const elapsed = performance.now() - start;
  const error = family.error(truth, run.result.metric);
  return {
    result: run.result,
    answers: [...run.answers],
    error,
    covered: error <= run.result.credible.radius,
    msPerQuestion: elapsed / Math.max(1, run.result.questions),
  };
}

/** What `truthRange` needs of a family: its prior's signs and its candidate questions. */
export type QuestionSet<P> = Pick<AdaptiveFamily<P, unknown>, "dim" | "signs" | "candidates">;

/** A uniform draw from the family's prior directions (unit sphere within the sign cone). */
function priorDirection(signs: readonly number[], dim: number, rng: ReturnType<typeof createRng>) {
  const w = new Float64Array(dim);
  let n = 0;
  for (let i = 0; i < dim; i++) {
    const g = rng.normal();
    const s = signs[i] ?? 0;
    w[i] = s === 0 ? g : s * Math.abs(g);
    n += w[i]! * w[i]!;
  }
  n = Math.sqrt(n) || 1;
  for (let i = 0; i < dim; i++) w[i]! /= n;
  return w;
}

/**
 * The truth's value range on the question set: `max - min` of `value` over the family's
 * candidate points for `draws` directions drawn uniformly from the family's prior (seeded),
 * i.e. over the classifiers optimal for a spread of metrics. This is the range the
 * `logistic` noise is scaled to.
 * @example truthRange(binaryLinearFamily(pop), value) // e.g. 0.41
 */
export function truthRange<P>(
  family: QuestionSet<P>,
  value: (p: P) => number,
  draws = 32,
  seed: number | string = "truth-range",
): number {
  const rng = createRng(seed);
  const ws = Array.from({ length: draws }, () => priorDirection(family.signs, family.dim, rng));
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of family.candidates(ws, rng)) {
    const v = value(p);
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return hi - lo;
}

/**
 * Logistic noise for a truth: 10% wrong answers (or `errorRate`) on pairs a tenth of the
 * truth's range (`truthRange`) apart.
 * @example logisticNoiseFor(family, value, 0.1)
 */
export function logisticNoiseFor<P>(
  family: QuestionSet<P>,
  value: (p: P) => number,
  errorRate = 0.1,
): NoiseModel {
  const range = truthRange(family, value);
  if (!(range > 0)) {
    throw new RangeError("the true metric takes one value on every question: no logistic scale");
  }
  return logisticForRange(range, 0.1, errorRate);
}
