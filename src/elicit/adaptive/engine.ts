import { createRng, type Rng } from "../../math/rng.ts";
import { firstOnLeft } from "../../search/placement.ts";
import type { Answer } from "../../search/question.ts";
import { type Procedure, type Steps, stepsProcedure } from "../session.ts";
import {
  type AnswerModel,
  type AnswerModelName,
  HUMAN_MODEL,
  parseAnswerModel,
} from "./answer-model.ts";
import { ParticleBelief } from "./belief.ts";
import type { AdaptiveFamily } from "./family.ts";
import { orderByValue } from "./order.ts";
import { selectPair } from "./select.ts";

/** Options of the adaptive strategy (all defaults documented here and in the README). */
export interface AdaptiveOptions {
  /**
   * Target accuracy in the family's error measure (as the papers' tolerance): the engine
   * stops once the credible region's radius is at most half of it, the papers' final
   * interval width.
   */
  readonly tolerance: number;
  /** Credibility of the reported region (default 0.9). */
  readonly credibility?: number;
  /** Largest number of questions (default 30). */
  readonly budget?: number;
  /**
   * How answers are believed to arise: `exact` (noise free), `human` (default), `flips:P`
   * (a simulated stakeholder flipping answers with probability P), or a model.
   */
  readonly model?: AnswerModelName | AnswerModel;
  /** Number of particles (default 1000; one free parameter uses a fixed grid instead). */
  readonly particles?: number;
  /**
   * Hit-and-run moves per particle after each answer (default: the family's `exactMoves`
   * under the exact model, else `defaultMoves`: max(8, dim) under the exact model, whose
   * moves are cheap chords, and max(4, dim / 2) otherwise): fewer are
   * faster in high dimension (the cost of a question grows with particles x moves x answers).
   */
  readonly moves?: number;
  /** Seed of every random draw (default 0): with the answers, it fixes every question. */
  readonly seed?: number | string;
  /**
   * Also stop when the recommended classifier is optimal with probability at least the
   * credibility ("decision-sufficient"; default false: stop on accuracy).
   */
  readonly stopWhenDecided?: boolean;
  /** Stop when no candidate question is worth this many bits (default 0.02). */
  readonly minInformation?: number;
  /**
   * Also require the posterior's expected error (in the family's error measure) to be at
   * most this before stopping on accuracy (default: no such requirement). The credible
   * radius bounds a tail; this bounds the mean, e.g. to match another method's mean error.
   */
  readonly expectedError?: number;
  /**
   * Share of the prior's mass on sparse metrics (default: the family's `sparseShare`, else
   * `SPARSE_SHARE`): the prior is a
   * mixture of the uniform prior on directions and a sparse one (see `SPARSE_ALPHA`).
   */
  readonly sparseShare?: number;
  /**
   * Grid points per prior component for the families with one free parameter (default
   * `GRID_POINTS`, 16384). The belief's cost per answer is linear in it; a web study's
   * pairs, shown as whole people, cannot tell angles much nearer than 0.01 rad apart, so new
   * binary studies store a coarser grid (`STUDY_GRID_POINTS`) and run several times faster.
   */
  readonly gridPoints?: number;
  /** Called after each question with the belief's summary (progress, plots). */
  readonly onStep?: (step: AdaptiveStep) => void;
}

/** Why the engine stopped. */
export type AdaptiveStop =
  | "tolerance"
  | "decision-sufficient"
  | "budget"
  | "no-informative-question";

/** The belief after some answers. */
export interface AdaptiveStep {
  readonly questions: number;
  /** Radius of the credible region in the family's error measure. */
  readonly radius: number;
}

/** Result of an adaptive elicitation, with its confidence. */
export interface AdaptiveResult<P, M> {
  readonly family: string;
  readonly strategy: "adaptive";
  /** The elicited metric (the belief's mean direction, in the family's normalisation). */
  readonly metric: M;
  readonly questions: number;
  readonly stop: AdaptiveStop;
  /** The credible region: every plausible metric within `radius` of `metric` (`level` mass). */
  readonly credible: {
    readonly level: number;
    readonly radius: number;
    readonly errorName: string;
  };
  /** The point (classifier) optimal for the elicited metric. */
  readonly recommended: P;
  /**
   * Probability under the belief that the recommended point is optimal: its regret at most
   * `NEAR_OPTIMAL` (0.1%) of the metric's range.
   */
  readonly pOptimal: number;
  /**
   * Coordinates the answers left uncertain beyond the tolerance (credible half-width above
   * it), with their half-widths: empty when everything is identified.
   */
  readonly unidentified: readonly { readonly name: string; readonly halfWidth: number }[];
  /**
   * A checked model's first reading alone (`AnswerModel.check`; absent otherwise): the
   * probability it gives that the person is a careful reader, and the radius and unidentified
   * coordinates it states by itself, around the same estimate. `credible` and `unidentified`
   * answer for the check as well; a study states this reading instead only when the person's
   * own Phase III answers bear it out (`trustedReading`).
   */
  readonly firstReading?: {
    readonly careful: number;
    readonly radius: number;
    readonly unidentified: readonly { readonly name: string; readonly halfWidth: number }[];
  };
  /** Answers the exact model had to treat as slips (they contradicted earlier ones). */
  readonly inconsistent: number;
  /** The answer model used. */
  readonly model: AnswerModel["kind"];
  /**
   * With a learned lapse (the `learned` model): the person's lapse as the answers left it,
   * its posterior mean and each level's posterior probability; `coin` is the probability that
   * the person answers as a coin would (the level 1, when the prior has it); `lean`, when the
   * prior has people who lean to one side of the screen (`learned-lean`, `learned-blunt-lean`,
   * `learned-tiring`), the probability that the person leans to the left and to the right;
   * `tiring`, when the prior has people whose noise grows over the session (`learned-tiring`),
   * the probability that this person's does.
   */
  readonly person?: {
    readonly lapse: number;
    readonly coin: number;
    readonly levels: readonly { readonly lapse: number; readonly probability: number }[];
    readonly lean?: { readonly left: number; readonly right: number };
    readonly tiring?: number;
  };
  /**
   * The belief the answers left, for judging pairs asked after the elicitation (a study's
   * Phase III: does the elicited metric prefer one system, do the answers already decide the
   * pair?): the mean parameter vector `w` (the metric's) and `POSTERIOR_DRAWS` vectors drawn
   * by posterior weight, in the family's parameter space (`features` gives the values).
   */
  readonly posterior?: {
    readonly mean: readonly number[];
    readonly draws: readonly (readonly number[])[];
  };
}

/** Number of belief samples used to generate candidates and to score pairs. */
const CANDIDATE_SAMPLES = 16;
const SCORING_SAMPLES = 128;

/**
 * Belief samples scoring each pair. With one free parameter (dim 2) a question is a cut of an
 * interval and is cheap to score, so every particle scores it: 128 samples estimate a split
 * to about +-4%, and the chosen cut wanders off the median (binary LPM, matched: 8.4
 * questions for 8 halvings).
 */
function scoringSamples(dim: number): number {
  return dim <= 2 ? 1000 : SCORING_SAMPLES;
}
const PRIOR_SAMPLES = 16;

/**
 * Grid points per prior component for the families with one free parameter (the belief's
 * `grid`): a spacing of 0.00038 rad on the quarter circle, five times finer than the papers'
 * own precision, where particles' split estimates wandered by a few per cent per question.
 */
export const GRID_POINTS = 16384;

/** Principal axes of the belief offered to `cutPoints` per question. */
const AXES = 3;

/**
 * The `count` directions of largest spread of the belief's unit directions, orthogonal to
 * their mean `w` (power iteration with deflation on the weighted covariance; the start vectors
 * come from `rng`, so the result is deterministic).
 */
export function principalAxes(
  belief: ParticleBelief,
  w: Float64Array,
  count: number,
  rng: Rng,
): Float64Array[] {
  const d = belief.dim;
  const cov = new Float64Array(d * d);
  const x = new Float64Array(d);
  for (let p = 0; p < belief.size; p++) {
    const v = belief.direction(p);
    let along = 0;
    for (let i = 0; i < d; i++) along += v[i]! * w[i]!;
    for (let i = 0; i < d; i++) x[i] = v[i]! - along * w[i]!;
    const wt = belief.weight[p]!;
    for (let i = 0; i < d; i++) {
      const xi = wt * x[i]!;
      for (let j = 0; j < d; j++) cov[i * d + j]! += xi * x[j]!;
    }
  }
  const axes: Float64Array[] = [];
  for (let c = 0; c < Math.min(count, d - 1); c++) {
    let v = Float64Array.from({ length: d }, () => rng.normal());
    for (let iter = 0; iter < 30; iter++) {
      const next = new Float64Array(d);
      for (let i = 0; i < d; i++) {
        let s = 0;
        for (let j = 0; j < d; j++) s += cov[i * d + j]! * v[j]!;
        next[i] = s;
      }
      // Stay orthogonal to the mean and to the axes found so far.
      for (const u of [w, ...axes]) {
        let s = 0;
        for (let i = 0; i < d; i++) s += next[i]! * u[i]!;
        for (let i = 0; i < d; i++) next[i]! -= s * u[i]!;
      }
      let n = 0;
      for (let i = 0; i < d; i++) n += next[i]! * next[i]!;
      n = Math.sqrt(n);
      if (!(n > 1e-300)) break;
      for (let i = 0; i < d; i++) next[i]! /= n;
      v = next;
    }
    axes.push(v);
  }
  return axes;
}

/**
 * A uniform draw from the family's prior directions (the sign cone of the unit sphere).
 * @example priorDirection(family, createRng(1)) // a unit Float64Array of family.dim entries
 */
export function priorDirection<P, M>(family: AdaptiveFamily<P, M>, rng: Rng): Float64Array {
  const w = new Float64Array(family.dim);
  let n = 0;
  for (let i = 0; i < family.dim; i++) {
    const g = rng.normal();
    const s = family.signs[i] ?? 0;
    w[i] = s === 0 ? g : s * Math.abs(g);
    n += w[i]! * w[i]!;
  }
  n = Math.sqrt(n) || 1;
  for (let i = 0; i < family.dim; i++) w[i]! /= n;
  return w;
}

/** The answer model of the options (default `human`). */
export function resolveModel(model: AdaptiveOptions["model"]): AnswerModel {
  if (model === undefined) return HUMAN_MODEL;
  return typeof model === "string" ? parseAnswerModel(model) : model;
}

/**
 * The weighted q-quantile of `values`. With `interpolate`, each value's mass is spread
 * between the previous value and it (a grid's cell, not an atom), so a grid of n points
 * does not round the quantile up to the next point.
 */
function weightedQuantile(
  values: Float64Array,
  weights: Float64Array,
  q: number,
  interpolate = false,
  sorted?: readonly number[],
): number {
  // `sorted`: the indices in order of value, ties by index (what this sort gives), when the
  // caller has it already.
  const order = sorted ?? Array.from(values.keys()).sort((i, j) => values[i]! - values[j]!);
  let c = 0;
  let previous = 0;
  for (const i of order) {
    const w = weights[i]!;
    if (c + w >= q) {
      if (!interpolate || !(w > 0)) return values[i]!;
      return previous + ((q - c) / w) * (values[i]! - previous);
    }
    c += w;
    previous = values[i]!;
  }
  return values[order[order.length - 1]!]!;
}

/** Draw `count` particle indices in proportion to their weights (systematic). */
function drawIndices(belief: ParticleBelief, count: number, rng: Rng): number[] {
  const out: number[] = [];
  const step = 1 / count;
  let c = belief.weight[0]!;
  let j = 0;
  const start = rng.next() * step;
  for (let s = 0; s < count; s++) {
    const t = start + s * step;
    while (t > c && j < belief.size - 1) c += belief.weight[++j]!;
    out.push(j);
  }
  return out;
}

/**
 * The samples that score each pair and their weights: a grid's own points with their exact
 * weights when at most `GRID_SCORING` carry any (a split is then measured exactly, not to the
 * +-2% of a sample), otherwise `count` systematic draws of equal weight.
 */
function scoringSet(
  belief: ParticleBelief,
  count: number,
  rng: Rng,
): { indices: number[]; weights: Float64Array } {
  if (belief.gridded) {
    const live: number[] = [];
    for (let p = 0; p < belief.size && live.length <= GRID_SCORING; p++)
      if (belief.weight[p]! > 0) live.push(p);
    if (live.length <= GRID_SCORING) {
      let mass = 0;
      for (const p of live) mass += belief.weight[p]!;
      return { indices: live, weights: Float64Array.from(live, (p) => belief.weight[p]! / mass) };
    }
  }
  const indices = drawIndices(belief, Math.min(count, belief.size), rng);
  return { indices, weights: new Float64Array(indices.length).fill(1 / indices.length) };
}

/** Posterior quantiles of a grid whose optimal points join the candidates. */
const GRID_QUANTILES = [0.2, 0.3, 0.38, 0.44, 0.47, 0.49, 0.5, 0.51, 0.53, 0.56, 0.62, 0.7, 0.8];

/**
 * Directions at posterior quantiles of a grid belief (its components share the angles, so
 * their weights add per angle): the optimal points of two directions close around the
 * median make a pair that cuts near it, so each answer halves the belief more exactly than
 * pairs from random draws can (binary LPM: 8.3 questions for 8 halvings without them).
 */
function gridQuantileDirections(belief: ParticleBelief): Float64Array[] {
  const n = belief.size / (belief.componentOf(belief.size - 1) + 1);
  const mass = new Float64Array(n);
  for (let p = 0; p < belief.size; p++) mass[p % n]! += belief.weight[p]!;
  const out: Float64Array[] = [];
  let c = 0;
  let i = 0;
  for (const q of GRID_QUANTILES) {
    while (i < n - 1 && c + mass[i]! < q) c += mass[i++]!;
    out.push(belief.direction(i));
  }
  return out;
}

/** The family's reported coordinates of each sample's metric, row-major. */
function coordinateTable<P, M>(family: AdaptiveFamily<P, M>, ws: readonly Float64Array[]) {
  const dim = family.coordinateNames.length;
  const out = new Float64Array(ws.length * dim);
  ws.forEach((w, s) => {
    const c = family.coordinates(family.toMetric(w));
    for (let i = 0; i < dim; i++) out[s * dim + i] = c[i] ?? 0;
  });
  return out;
}

/** Most live grid points scored directly (see `scoringSet`). */
const GRID_SCORING = 1500;

function meanDirection(belief: ParticleBelief): Float64Array {
  const d = belief.dim;
  const m = new Float64Array(d);
  const w = new Float64Array(d);
  for (let p = 0; p < belief.size; p++) {
    belief.directionInto(p, w);
    const wt = belief.weight[p]!;
    for (let i = 0; i < d; i++) m[i]! += wt * w[i]!;
  }
  let n = 0;
  for (let i = 0; i < d; i++) n += m[i]! * m[i]!;
  n = Math.sqrt(n) || 1;
  for (let i = 0; i < d; i++) m[i]! /= n;
  return m;
}

/** Scaled values `<w, f(candidate)> / scale` for every sample and candidate. */
function valueTable(
  ws: readonly Float64Array[],
  features: readonly Float64Array[],
  scale: number,
): Float64Array {
  const out = new Float64Array(ws.length * features.length);
  for (let s = 0; s < ws.length; s++) {
    const w = ws[s]!;
    for (let c = 0; c < features.length; c++) {
      const f = features[c]!;
      let v = 0;
      for (let i = 0; i < w.length; i++) v += w[i]! * f[i]!;
      out[s * features.length + c] = v / scale;
    }
  }
  return out;
}

/** Prior directions whose candidates make the reference points of a relative model. */
const REFERENCE_DRAWS = 32;

/**
 * Whether the answer model measures differences relative to each metric's own range: the
 * human model's logistic part does ("a tenth of the metric's range"); the exact model and
 * the sharp flips:P models only read the sign, where the unit does not matter.
 */
function isRelative(model: AnswerModel): boolean {
  return model.kind === "human" && model.temperature >= 0.01;
}

/**
 * Features (divided by `scale`) of the candidates of prior directions: the questions over
 * which a metric's range is measured.
 */
function referencePoints<P, M>(
  family: AdaptiveFamily<P, M>,
  scale: number,
  rng: Rng,
): Float64Array {
  const ws = Array.from({ length: REFERENCE_DRAWS }, () => priorDirection(family, rng));
  const points = family.candidates(ws, rng);
  const out = new Float64Array(points.length * family.dim);
  points.forEach((c, j) => {
    const f = family.features(c);
    for (let i = 0; i < family.dim; i++) out[j * family.dim + i] = f[i]! / scale;
  });
  return out;
}

/**
 * The metric's typical range over the questions: the median over prior draws of
 * (max - min) of its value over their candidates. Differences are measured in this unit.
 */
function valueScale<P, M>(family: AdaptiveFamily<P, M>, belief: ParticleBelief, rng: Rng): number {
  const ws = drawIndices(belief, 16, rng).map((p) => belief.direction(p));
  const features = family.candidates(ws, rng).map((c) => family.features(c));
  const values = valueTable(ws, features, 1);
  const ranges: number[] = [];
  for (let s = 0; s < ws.length; s++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let c = 0; c < features.length; c++) {
      const v = values[s * features.length + c]!;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    if (hi > lo) ranges.push(hi - lo);
  }
  ranges.sort((x, y) => x - y);
  const median = ranges[Math.floor(ranges.length / 2)];
  if (!(median !== undefined && median > 0)) {
    throw new RangeError(
      `${family.name}: every candidate question shows the same value to every metric (the feasible set is flat)`,
    );
  }
  return median;
}

/**
 * The adaptive strategy for any family (issue 10): keep a belief over the metric, ask the
 * realisable pair with the most expected information, stop when the credible region is
 * within the tolerance, at the budget, or when no question is informative. A pure function
 * of (family, options, answers), so `replay` of any prefix finds the same next question.
 * @example
 * const procedure = adaptiveProcedure(binaryLinearFamily(pop), { tolerance: 0.02, model: "exact" });
 * runProcedure(procedure, oracle.ask).result.metric;
 */
export function adaptiveProcedure<P, M>(
  family: AdaptiveFamily<P, M>,
  options: AdaptiveOptions,
): Procedure<P, AdaptiveResult<P, M>> {
  checkOptions(options);
  return stepsProcedure(() => steps(family, options, {}));
}

function checkOptions(options: AdaptiveOptions): void {
  const level = options.credibility ?? 0.9;
  const budget = options.budget ?? 30;
  resolveModel(options.model);
  if (!(options.tolerance > 0)) throw new RangeError("the tolerance must be positive");
  if (!(level > 0 && level < 1)) throw new RangeError("the credibility must be in (0, 1)");
  if (options.expectedError !== undefined && !(options.expectedError > 0)) {
    throw new RangeError("the expected error must be positive");
  }
  if (!(Number.isInteger(budget) && budget >= 1)) {
    throw new RangeError("the budget must be a whole number of questions, at least 1");
  }
}

/**
 * The adaptive strategy as a resumable run (`adaptiveProcedure` drives this generator): it
 * yields each question and is resumed with the answer, so a server keeps a participant's run
 * between answers instead of replaying their log (issue 28). Options are checked first.
 * @example
 * const run = liveRun(adaptiveSteps(binaryLinearFamily(pop), { tolerance: 0.02 }), []);
 * run.state; // { status: "pending", question: {...}, questions: [] }
 */
export function adaptiveSteps<P, M>(
  family: AdaptiveFamily<P, M>,
  options: AdaptiveOptions,
): Steps<P, AdaptiveResult<P, M>> {
  checkOptions(options);
  const held: { belief?: ParticleBelief; reread?: ParticleBelief } = {};
  const run = steps(family, options, held);
  footprints.set(run, () => (held.belief?.bytes ?? 0) + (held.reread?.bytes ?? 0));
  return run;
}

/** Each adaptive run's `runBytes`, by its generator. */
const footprints = new WeakMap<object, () => number>();

/**
 * The bytes an adaptive run (`adaptiveSteps`) holds between questions, its belief's arrays;
 * undefined for other generators. A server bounds the memory of the runs it keeps with it.
 * @example runBytes(adaptiveSteps(family, { tolerance: 0.05 })) // 0 until it starts, then e.g. 700000
 */
export function runBytes(run: object): number | undefined {
  return footprints.get(run)?.();
}

function* steps<P, M>(
  family: AdaptiveFamily<P, M>,
  options: AdaptiveOptions,
  held: { belief?: ParticleBelief; reread?: ParticleBelief },
): Steps<P, AdaptiveResult<P, M>> {
  const level = options.credibility ?? 0.9;
  const budget = options.budget ?? 30;
  const model = resolveModel(options.model);
  const particles = options.particles ?? 1000;
  const minInformation = options.minInformation ?? 0.02;
  const rng = createRng(options.seed ?? 0);
  const settings = {
    dim: family.dim,
    signs: family.signs,
    particles,
    sparse: {
      share: options.sparseShare ?? family.sparseShare ?? SPARSE_SHARE,
      alpha: SPARSE_ALPHA,
    },
    grid: options.gridPoints ?? GRID_POINTS,
  };
  const belief = new ParticleBelief({
    ...settings,
    model,
    moves: options.moves ?? (model.kind === "exact" ? family.exactMoves : undefined),
    rng: rng.fork(),
  });
  held.belief = belief;
  const scale = valueScale(family, belief, rng.fork());
  if (isRelative(model)) belief.useReference(referencePoints(family, scale, rng.fork()));
  // The second reading of the answers (`check`), fed every answer the first one is. Its
  // stream is its own, not forked from the run's: the questions and the estimate are the
  // first reading's alone, as without the check, until it keeps the run from stopping.
  const checked = model.kind === "human" && model.check ? model.check : undefined;
  const reread = checked
    ? secondBelief(family, settings, checked, scale, createRng(`check:${options.seed ?? 0}`))
    : undefined;
  held.reread = reread;
  let stop: AdaptiveStop = "budget";
  // The pair asked last, as shown: never asked again straight away (issue 26: a repeat is
  // a deliberate test-retest, later in the study, never a pair shown twice in a row).
  let last = "";
  const summaryNow = () => {
    const own = summarise(family, belief, level);
    return reread ? alsoFor(family, reread, own, level) : own;
  };
  let summary = summaryNow();
  const accurate = (x: Summary<M>) =>
    x.radius <= options.tolerance / 2 &&
    (options.expectedError === undefined || x.expected <= options.expectedError);
  for (let q = 0; q < budget; q++) {
    if (accurate(summary)) {
      stop = "tolerance";
      break;
    }
    const qrng = rng.fork();
    if (
      options.stopWhenDecided &&
      decisionProbability(family, belief, summary.w, 64, qrng, scale) >= level
    ) {
      stop = "decision-sufficient";
      break;
    }
    const chosen = nextQuestion(family, belief, summary.w, model, scale, qrng, last);
    if (!chosen || chosen.information < minInformation) {
      stop = "no-informative-question";
      break;
    }
    const { first, second, fa, fb } = chosen;
    last = chosen.key;
    // The side `first` is shown on, as a study shows Phase II question q (a function of the
    // seed and the question alone, not of the engine's stream): a model with a lean to one
    // side weighs the answer with it.
    const left = firstOnLeft(options.seed ?? 0, "elicitation", q) ? "first" : "second";
    const answer: Answer = yield { stage: "adaptive", first, second, left };
    const delta = new Float64Array(family.dim);
    for (let i = 0; i < family.dim; i++) delta[i] = (fa[i]! - fb[i]!) / scale;
    belief.observe(delta, answer, left);
    reread?.observe(delta, answer, left);
    summary = summaryNow();
    options.onStep?.({ questions: belief.observed, radius: summary.radius });
    if (q === budget - 1) stop = accurate(summary) ? "tolerance" : "budget";
  }
  const recommended = family.optimal(summary.w);
  const pOptimal = decisionProbability(family, belief, summary.w, 200, rng.fork(), scale);
  return {
    family: family.name,
    strategy: "adaptive",
    metric: summary.metric,
    questions: belief.observed,
    stop,
    credible: { level, radius: summary.radius, errorName: family.errorName },
    recommended,
    pOptimal,
    unidentified: widest([belief, ...(reread ? [reread] : [])], (b) =>
      unidentified(family, b, summary.metric, level, options.tolerance),
    ),
    ...(reread
      ? {
          firstReading: {
            careful: carefulProbability(belief),
            radius: summarise(family, belief, level).radius,
            unidentified: unidentified(family, belief, summary.metric, level, options.tolerance),
          },
        }
      : {}),
    inconsistent: belief.inconsistent,
    model: model.kind,
    ...personOf(belief),
    posterior: {
      mean: Array.from(summary.w),
      draws: drawIndices(belief, POSTERIOR_DRAWS, rng.fork()).map((p) =>
        Array.from(belief.direction(p)),
      ),
    },
  };
}

/** Two display keys as one, whichever side each was shown on. */
const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

/**
 * The next question: the most informative pair of candidate points (`selectPair`) that is
 * neither the pair asked last (`last`, a `pairKey`) nor dominated, with its points'
 * features and its key; undefined when no pair is left. A function of its own so that a
 * suspended run keeps none of its tables (a server keeps hundreds of runs; issue 28).
 */
function nextQuestion<P, M>(
  family: AdaptiveFamily<P, M>,
  belief: ParticleBelief,
  w: Float64Array,
  model: AnswerModel,
  scale: number,
  qrng: Rng,
  last: string,
):
  | {
      first: P;
      second: P;
      fa: ArrayLike<number>;
      fb: ArrayLike<number>;
      key: string;
      information: number;
    }
  | undefined {
  // Optimal points of belief draws (near the answer) and of fresh prior draws (spread over
  // the boundary): pairs of far-apart points whose chord still splits the belief are the
  // clearest questions, and the selection prefers them. Fresh draws at every question
  // matter: a fixed set offers too few chords (binary, 5% flips: 25 questions instead of 18).
  const ws = drawIndices(belief, CANDIDATE_SAMPLES, qrng).map((p) => belief.direction(p));
  ws.push(w);
  if (belief.gridded) ws.push(...gridQuantileDirections(belief));
  const points: P[] = [];
  const keys: string[] = [];
  const seen = new Set<string>();
  for (let s = 0; s < PRIOR_SAMPLES; s++) ws.push(priorDirection(family, qrng));
  const cuts = family.cutPoints?.(principalAxes(belief, w, AXES, qrng)) ?? [];
  const every = family.everyPoint?.() ?? [];
  for (const c of [...family.candidates(ws, qrng), ...cuts, ...every]) {
    const key = family.displayKey(c);
    if (seen.has(key)) continue;
    seen.add(key);
    points.push(c);
    keys.push(key);
  }
  const features = points.map((c) => family.features(c));
  const { indices: scoring, weights } = scoringSet(belief, scoringSamples(family.dim), qrng);
  const sw = scoring.map((p) => belief.direction(p));
  const values = valueTable(sw, features, scale);
  for (let s = 0; s < sw.length; s++) {
    const r = belief.rangeOf(sw[s]!);
    if (r !== 1) for (let c = 0; c < points.length; c++) values[s * points.length + c]! /= r;
  }
  // A grid's splits are exact, and exact answers are right however close the pair: clarity
  // then only breaks ties within 0.001 bit (0.01 let the binary LPM's first splits drift to
  // 47/53, and 8 halvings took 8.2 questions). Particle splits are only good to a few per
  // cent, and on the multiclass families 0.001 lost calibration (DLPM k = 3: 83%).
  const clarityWeight = belief.gridded && model.kind === "exact" ? 0.001 : 0.01;
  const byspread =
    !belief.gridded &&
    (model.kind === "exact" ? family.cutBy === "spread" : model.selectBy === "spread");
  const spread = byspread
    ? { coords: coordinateTable(family, sw), dim: family.coordinateNames.length }
    : undefined;
  const pick = selectPair(
    values,
    sw.length,
    points.length,
    weights,
    keys,
    selectionModel(model, belief),
    clarityWeight,
    spread,
    (a, b) =>
      pairKey(keys[a]!, keys[b]!) === last || dominated(features[a]!, features[b]!, family.signs),
  );
  if (!pick) return undefined;
  return {
    first: points[pick.first]!,
    second: points[pick.second]!,
    fa: features[pick.first]!,
    fb: features[pick.second]!,
    key: pairKey(keys[pick.first]!, keys[pick.second]!),
    information: pick.information,
  };
}

/** Belief draws a result keeps (`AdaptiveResult.posterior`): a share to about +-3.5%. */
const POSTERIOR_DRAWS = 200;

/**
 * The model questions are scored under: with a learned lapse, the human model at the
 * person's posterior mean lapse and sharpness (what the answers so far say of them).
 */
function selectionModel(model: AnswerModel, belief: ParticleBelief): AnswerModel {
  const person = personOf(belief).person;
  if (!person || model.kind !== "human") return model;
  const sharpness = belief.levelSharpnesses()!;
  const fatigue = belief.levelFatigues()!;
  if (sharpness.every((x) => x === 1) && fatigue.every((x) => x === 0))
    return { ...model, lapse: person.lapse };
  const post = belief.lapsePosterior()!;
  // A tiring level answers the next question as sharply as its growth leaves it.
  const next = belief.observed;
  let sharp = 0;
  for (let j = 0; j < sharpness.length; j++)
    sharp += (post[j]! * sharpness[j]!) / (1 + fatigue[j]! * next);
  return { ...model, lapse: person.lapse, temperature: model.temperature / sharp };
}

/** The result's `person`, when the belief learns the lapse. */
function personOf(belief: ParticleBelief): Pick<AdaptiveResult<unknown, unknown>, "person"> {
  const post = belief.lapsePosterior();
  const levels = belief.lapseLevels();
  if (!post || !levels) return {};
  const sides = belief.levelSides() ?? [];
  const fatigue = belief.levelFatigues() ?? [];
  let lapse = 0;
  let coin = 0;
  let left = 0;
  let right = 0;
  let tiring = 0;
  for (let j = 0; j < levels.length; j++) {
    lapse += post[j]! * levels[j]!;
    if ((fatigue[j] ?? 0) > 0) tiring += post[j]!;
    if (levels[j]! >= 1) coin += post[j]!;
    if ((sides[j] ?? 0) > 0) left += post[j]!;
    else if ((sides[j] ?? 0) < 0) right += post[j]!;
  }
  const leans = sides.some((x) => x !== 0);
  const tires = fatigue.some((x) => x > 0);
  return {
    person: {
      lapse,
      coin,
      levels: levels.map((l, j) => ({ lapse: l, probability: post[j]! })),
      ...(leans ? { lean: { left, right } } : {}),
      ...(tires ? { tiring } : {}),
    },
  };
}

/**
 * The belief's posterior probability that the person is a careful reader: its kinds of person
 * sharper than the model's temperature (`LapsePrior.sharpness` above 1) who do not tire; 0
 * without such kinds. A sharp flipper (`FLIPS_LAPSES`) counts: they read every count right,
 * and their random answers are what Phase III must not show before a study trusts the
 * reading (`trustedReading`: none against the result, every repeat the same).
 */
function carefulProbability(belief: ParticleBelief): number {
  const post = belief.lapsePosterior();
  const sharp = belief.levelSharpnesses();
  const fatigue = belief.levelFatigues() ?? [];
  if (!post || !sharp) return 0;
  let p = 0;
  for (let j = 0; j < post.length; j++) if (sharp[j]! > 1 && !(fatigue[j]! > 0)) p += post[j]!;
  return p;
}

/** Two features this close are the same value (float rounding of equal sums). */
const SAME_FEATURE = 1e-12;

/**
 * Whether one of two points is at least as good as the other on every feature, for a family
 * whose every parameter has a known sign: then every metric of the family prefers it (or is
 * indifferent), so the answer says nothing about the trade-off, only about the person's noise
 * (issue 26: no dominated pair is shown). Families with a parameter of either sign (quadratic,
 * fair) have no such pairs. With features as shown (a web study) this is dominance on screen.
 * @example dominated(Float64Array.of(0.31, 0.59), Float64Array.of(0.31, 0.58), [1, 1]) // true
 */
export function dominated(fa: Float64Array, fb: Float64Array, signs: readonly number[]): boolean {
  let aBetter = false;
  let bBetter = false;
  for (let i = 0; i < fa.length; i++) {
    const s = signs[i] ?? 0;
    if (s === 0) return false;
    // Features summed in another order differ by rounding alone (equal counts on screen):
    // equal within SAME_FEATURE.
    const d = s * (fa[i]! - fb[i]!);
    if (d > SAME_FEATURE) aBetter = true;
    else if (d < -SAME_FEATURE) bBetter = true;
    if (aBetter && bBetter) return false;
  }
  return true;
}

interface Summary<M> {
  readonly w: Float64Array;
  readonly metric: M;
  readonly radius: number;
  /** Posterior expected error of `metric` (the larger of the mixture components'). */
  readonly expected: number;
}

function summarise<P, M>(
  family: AdaptiveFamily<P, M>,
  belief: ParticleBelief,
  level: number,
  around?: M,
): Summary<M> {
  const w = meanDirection(belief);
  const metric = around ?? family.toMetric(w);
  const errors = new Float64Array(belief.size);
  // One buffer for every point's direction: each metric made from it is used at once.
  const v = new Float64Array(belief.dim);
  // A grid's components share their angles: one error per angle, and one sort of them.
  const angles = belief.gridAngles;
  const angleOrder = angles > 0 ? gridErrors(family, belief, metric, errors) : undefined;
  // Points without weight (a grid's excluded cells) cannot move a quantile: skip them.
  if (angles === 0) {
    const errorOf =
      family.errorFrom?.(metric) ?? ((x: Float64Array) => family.error(family.toMetric(x), metric));
    for (let p = 0; p < belief.size; p++)
      if (belief.weight[p]! > 0) errors[p] = errorOf(belief.directionInto(p, v));
  }
  // The region answers for both priors of the mixture: its radius is the larger of the two
  // components' posterior quantiles (each component keeps its own particles), of those the
  // answers have not all but ruled out (`COMPONENT_FLOOR`).
  // The expected error answers for both components, however unlikely: the larger of their
  // posterior means (the mixture's own mean stopped LPM k = 4 runs short of paper's mean
  // error: 0.00247 against 0.00234 on 30 truths; this, 0.00230; with the floor, 0.00247 too).
  let radius = 0;
  let expected = 0;
  for (const { comp, members, mass, live } of components(belief)) {
    const e = new Float64Array(members.length);
    const wt = new Float64Array(members.length);
    for (let i = 0; i < members.length; i++) {
      e[i] = errors[members[i]!]!;
      wt[i] = belief.weight[members[i]!]! / mass;
    }
    const order = angleOrder && memberOrder(angleOrder, members, comp * angles, angles);
    if (live) radius = Math.max(radius, weightedQuantile(e, wt, level, belief.gridded, order));
    let m = 0;
    for (let i = 0; i < e.length; i++) m += e[i]! * wt[i]!;
    expected = Math.max(expected, m);
  }
  if (belief.gridded) radius += gridStep(family, belief, w);
  return { w, metric, radius, expected };
}

/**
 * A grid's errors: each live angle's (a point of either component with weight) error from
 * `metric`, written to every point at that angle; returns the live angles sorted by error,
 * ties by angle.
 */
function gridErrors<P, M>(
  family: AdaptiveFamily<P, M>,
  belief: ParticleBelief,
  metric: M,
  errors: Float64Array,
): Int32Array {
  const n = belief.gridAngles;
  const live = new Uint8Array(n);
  for (let p = 0; p < belief.size; p++) if (belief.weight[p]! > 0) live[p % n] = 1;
  const angleError = new Float64Array(n);
  const v = new Float64Array(belief.dim);
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (!live[i]) continue;
    angleError[i] = family.error(family.toMetric(belief.directionInto(i, v)), metric);
    count++;
  }
  for (let p = 0; p < belief.size; p++) if (live[p % n]) errors[p] = angleError[p % n]!;
  const liveAngles = new Int32Array(count);
  let k = 0;
  for (let i = 0; i < n; i++) if (live[i]) liveAngles[k++] = i;
  return orderByValue(angleError, liveAngles);
}

/**
 * The positions in `members` (one component's points with weight, in index order; the
 * component's angles start at `offset`) in the order of `angleOrder`: a grid component's
 * errors sorted as `weightedQuantile` would sort them.
 */
function memberOrder(
  angleOrder: Int32Array,
  members: readonly number[],
  offset: number,
  angles: number,
): number[] {
  const position = new Int32Array(angles).fill(-1);
  members.forEach((p, m) => {
    position[p - offset] = m;
  });
  const out: number[] = [];
  for (const i of angleOrder) if (position[i]! >= 0) out.push(position[i]!);
  return out;
}

/**
 * One grid cell in the family's error measure, next to the mean `w`: a grid's cut falls
 * between two points and its quantile between two cells, so its region is short by up to a
 * cell (noise-free binary LPM, 1000 truths: 88.2% coverage for 90% without this margin).
 */
function gridStep<P, M>(family: AdaptiveFamily<P, M>, belief: ParticleBelief, w: Float64Array) {
  let nearest = 0;
  let best = -Infinity;
  // One row of `u` per angle (the components share them): the first of the equal rows wins.
  const rows = Math.min(belief.gridAngles, belief.size - 1);
  for (let p = 0; p < rows; p++) {
    const dot = belief.u[2 * p]! * w[0]! + belief.u[2 * p + 1]! * w[1]!;
    if (dot > best) {
      best = dot;
      nearest = p;
    }
  }
  const next =
    belief.componentOf(nearest + 1) === belief.componentOf(nearest) ? nearest + 1 : nearest - 1;
  return family.error(
    family.toMetric(belief.direction(nearest)),
    family.toMetric(belief.direction(next)),
  );
}

/**
 * Concentration of the prior's sparse component: the squared sign-constrained weights are
 * Dirichlet(SPARSE_ALPHA) instead of the uniform prior's 1/2, i.e. metrics with a few large
 * weights and many near zero (the papers' random LPMs: "negative with geometrically shrinking
 * tail entries"), which a uniform prior in 12 dimensions almost never draws.
 */
export const SPARSE_ALPHA = 0.25;

/**
 * Default share of the sparse component in the prior mixture. Each component keeps its own
 * particles and the credible radius is the larger of the two posteriors' quantiles, so the
 * region answers for both kinds of truth (issue 10, calibration: LPM k = 4 noise-free covered
 * 67% of the papers' truths under the uniform prior alone, 83% with the mixture).
 */
export const SPARSE_SHARE = 0.5;

/** A recommendation within this fraction of the metric's range of the optimum counts as optimal. */
export const NEAR_OPTIMAL = 1e-3;

/**
 * Belief mass (over `count` draws) for which the point optimal for `w` is optimal too: its
 * regret (the drawn metric's value at its own optimum minus at the recommendation) is at most
 * `NEAR_OPTIMAL` of the metric's range. On a finite pool that is the same classifier; on a
 * continuous population, one whose difference nobody could tell.
 */
function decisionProbability<P, M>(
  family: AdaptiveFamily<P, M>,
  belief: ParticleBelief,
  w: Float64Array,
  count: number,
  rng: Rng,
  scale: number,
): number {
  const recommended = family.features(family.optimal(w));
  const draws = drawIndices(belief, count, rng);
  let near = 0;
  for (const p of draws) {
    const v = belief.direction(p);
    const own = family.features(family.optimal(v));
    let regret = 0;
    for (let i = 0; i < v.length; i++) regret += v[i]! * (own[i]! - recommended[i]!);
    if (regret <= NEAR_OPTIMAL * scale) near++;
  }
  return near / draws.length;
}

/**
 * The belief of a model's second reading (`AnswerModel.check`): the first belief's settings,
 * under the second model with reference questions of its own.
 */
function secondBelief<P, M>(
  family: AdaptiveFamily<P, M>,
  settings: Omit<ConstructorParameters<typeof ParticleBelief>[0], "model" | "rng">,
  model: AnswerModel,
  scale: number,
  rng: Rng,
): ParticleBelief {
  const belief = new ParticleBelief({ ...settings, model, rng: rng.fork() });
  if (isRelative(model)) belief.useReference(referencePoints(family, scale, rng.fork()));
  return belief;
}

/**
 * `own` (the first reading's summary) with its radius and expected error answering for the
 * second reading's belief too: that belief's errors from `own.metric`, the larger of each.
 */
function alsoFor<P, M>(
  family: AdaptiveFamily<P, M>,
  second: ParticleBelief,
  own: Summary<M>,
  level: number,
): Summary<M> {
  const other = summarise(family, second, level, own.metric);
  return {
    ...own,
    radius: Math.max(own.radius, other.radius),
    expected: Math.max(own.expected, other.expected),
  };
}

/** The entries of every list of `of(b)`, each name once at its widest half-width. */
function widest<B>(
  beliefs: readonly B[],
  of: (b: B) => readonly { name: string; halfWidth: number }[],
): { name: string; halfWidth: number }[] {
  const out = new Map<string, number>();
  for (const b of beliefs)
    for (const u of of(b)) out.set(u.name, Math.max(out.get(u.name) ?? 0, u.halfWidth));
  return [...out].map(([name, halfWidth]) => ({ name, halfWidth }));
}

/**
 * The coordinates, and the family's parts of its error (`AdaptiveFamily.parts`), whose
 * credible half-width at `level` around `metric` is above the tolerance.
 */
function unidentified<P, M>(
  family: AdaptiveFamily<P, M>,
  belief: ParticleBelief,
  metric: M,
  level: number,
  tolerance: number,
): { name: string; halfWidth: number }[] {
  const centre = family.coordinates(metric);
  const names = [
    ...centre.map((_, i) => family.coordinateNames[i] ?? `w${i}`),
    ...(family.parts?.names ?? []),
  ];
  const spread = names.map(() => new Float64Array(belief.size));
  for (let p = 0; p < belief.size; p++) {
    const own = family.toMetric(belief.direction(p));
    const c = family.coordinates(own);
    for (let i = 0; i < centre.length; i++) spread[i]![p] = Math.abs(c[i]! - centre[i]!);
    const parts = family.parts?.distances(own, metric) ?? [];
    for (let i = 0; i < parts.length; i++) spread[centre.length + i]![p] = parts[i]!;
  }
  // As the radius does (`summarise`), each half-width answers for both priors of the mixture:
  // the larger of the two components' posterior quantiles (of those above `COMPONENT_FLOOR`).
  // Over the whole belief, a component holding most of the weight hid the other's spread (a
  // 20% flipper's LPM run stopped at its budget with a radius of 0.79 and every coordinate
  // "within the tolerance").
  const parts = componentWeights(belief);
  const out: { name: string; halfWidth: number }[] = [];
  names.forEach((name, i) => {
    let halfWidth = 0;
    for (const wt of parts)
      halfWidth = Math.max(halfWidth, weightedQuantile(spread[i]!, wt, level));
    if (halfWidth > tolerance) out.push({ name, halfWidth });
  });
  return out;
}

/**
 * A prior component's share of the posterior below which it no longer sets the region: the
 * mixture's probability that the truth lies within the radius falls by at most this share
 * (from 0.9 to 0.891). Without it a component the answers had all but ruled out kept the
 * region wide: careful LPM readers on tune-1 asked to the budget of 45 in 4 of 30 runs, their
 * uniform component at 0.19-0.89% of the posterior and a radius of 0.40-0.83, at errors of
 * 0.002-0.004. On tune-2 (DLPM, LPM, lambda, every person) it changed no error p95, max or
 * coverage; a careful LPM reader took 36.5 questions (37.3; p50 0.0087, 0.0088 before), and
 * the half-widths taken per component flagged more noisy runs (LPM probit 43% -> 60%, lapses
 * 53% -> 83%; one careful run, 3%).
 */
const COMPONENT_FLOOR = 0.01;

/**
 * The prior components with weight left: each one's points with weight (in index order), its
 * posterior mass, and whether it sets the region (`live`: above `COMPONENT_FLOOR`).
 */
function components(
  belief: ParticleBelief,
): { comp: number; members: number[]; mass: number; live: boolean }[] {
  const parts = [0, 1].map((comp) => ({ comp, members: [] as number[], mass: 0 }));
  let total = 0;
  for (let p = 0; p < belief.size; p++) {
    const w = belief.weight[p]!;
    if (!(w > 0)) continue;
    const part = parts[belief.componentOf(p)]!;
    part.members.push(p);
    part.mass += w;
    total += w;
  }
  return parts
    .filter((c) => c.members.length > 0 && c.mass > 0)
    .map((c) => ({ ...c, live: c.mass > COMPONENT_FLOOR * total }));
}

/**
 * Each component that sets the region (`components`, `live`): its posterior weights over the
 * whole belief (zero off the component), normalised to sum 1.
 */
function componentWeights(belief: ParticleBelief): Float64Array[] {
  return components(belief)
    .filter((c) => c.live)
    .map(({ members, mass }) => {
      const wt = new Float64Array(belief.size);
      for (const p of members) wt[p] = belief.weight[p]! / mass;
      return wt;
    });
}
