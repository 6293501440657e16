/**
 * `elicit reproduce adaptive` (issue 10): for every family the adaptive engine supports, the
 * papers' procedure (`paper`), the lazy bisection (`bisect`) and the adaptive engine side by
 * side on the same truths and seeds, under several noise conditions. Pure: builds the table,
 * prints nothing (the command prints; `onTrial` only reports progress).
 */
import type { AnswerModelName } from "../elicit/adaptive/answer-model.ts";
import { adaptiveProcedure } from "../elicit/adaptive/engine.ts";
import { binaryLinearFamily, binaryThresholdFamily } from "../elicit/adaptive/families/binary.ts";
import { cubicFamily } from "../elicit/adaptive/families/cubic.ts";
import { fairQuadraticFamily, lambdaFamily } from "../elicit/adaptive/families/fair.ts";
import { multiclassLinearFamily } from "../elicit/adaptive/families/multiclass.ts";
import { quadraticFamily } from "../elicit/adaptive/families/quadratic.ts";
import type { AdaptiveFamily } from "../elicit/adaptive/family.ts";
import type { BinaryTruth } from "../elicit/binary/truth.ts";
import { truthValue } from "../elicit/binary/truth.ts";
import { type FairPoint, fairError, fairUtility, normalizeFair } from "../elicit/fair/metric.ts";
import {
  randomFairTruth,
  type SimulateFairOptions,
  simulateFair,
} from "../elicit/fair/simulate.ts";
import type { MulticlassPoint } from "../elicit/multiclass/point.ts";
import type { MulticlassSpec } from "../elicit/multiclass/spec.ts";
import {
  cubicError,
  elicitCubic,
  evaluateCubic,
  normalizeCubic,
  randomCubicMetric,
} from "../elicit/quadratic/cubic.ts";
import type { RatePoint } from "../elicit/quadratic/lpme.ts";
import {
  evaluateQuadratic,
  normalizeQuadratic,
  quadraticError,
} from "../elicit/quadratic/metric.ts";
import { defaultVarrho, PAPER_RHO, type QpmeOptions } from "../elicit/quadratic/qpme.ts";
import { randomSphereTruth, simulateQuadratic } from "../elicit/quadratic/simulate.ts";
import { runProcedure } from "../elicit/session.ts";
import { syntheticPopulation } from "../geometry/binary/synthetic.ts";
import { createSpace } from "../geometry/multiclass/space.ts";
import { findSphere } from "../geometry/multiclass/sphere.ts";
import { createRng, type Rng } from "../math/rng.ts";
import { mean, quantile } from "../math/stats.ts";
import { normalizeLinear } from "../metrics/binary-linear.ts";
import type { NoiseModel } from "../oracle/noise.ts";
import { simulatedOracle } from "../oracle/simulated-oracle.ts";
import { syntheticMulticlassPool } from "../population/multiclass.ts";
import { STRATEGIES } from "../search/strategy.ts";
import { escapeXml } from "./error-plot.ts";
import { logisticNoiseFor } from "./simulate-adaptive.ts";
import { randomBinaryTruth, simulateBinary } from "./simulate-binary.ts";
import {
  normalizeMulticlassTruth,
  randomMulticlassTruth,
  simulateMulticlass,
} from "./simulate-multiclass.ts";

/** The noise conditions: none, 5% / 10% independent flips, logistic (10% at a tenth of the range). */
export type NoiseCondition = "none" | "flip5" | "flip10" | "logistic";
export const NOISE_CONDITIONS: readonly NoiseCondition[] = ["none", "flip5", "flip10", "logistic"];

/**
 * The strategies compared: `matched` is adaptive asked for the precision `paper` reached on
 * the same truths (credible radius at most paper's 95th-percentile error and posterior
 * expected error at most paper's mean error), so that questions
 * are compared at equal accuracy.
 */
export type ComparedStrategy = "paper" | "bisect" | "adaptive" | "matched";
export const COMPARED_STRATEGIES: readonly ComparedStrategy[] = [
  "paper",
  "bisect",
  "adaptive",
  "matched",
];

/** What one strategy did on one trial. */
interface Outcome {
  readonly questions: number;
  /** One error per measure of the setting. */
  readonly errors: readonly number[];
  readonly ms: number;
  /** Adaptive only: the truth within the 90% credible region. */
  readonly covered?: boolean;
}

/** One family setting (family, classes, tolerance) and how to run it. */
interface Setting {
  /** The family name `--families` selects by. */
  readonly family: string;
  /** Label of the setting, e.g. "linear k=3". */
  readonly label: string;
  readonly tolerance: number;
  readonly budget: number;
  /** Names of the error measures (the first is the family's own). */
  readonly measures: readonly string[];
  /** What paper and bisect run here, one line. */
  readonly classic: string;
  /**
   * Paper and bisect on one truth drawn from `rng`, with oracle and engine seed, and the
   * adaptive run on that truth for a given stop radius and budget.
   */
  trial(rng: Rng, noise: NoiseCondition, seed: number): Trial;
}

/** The runs of one truth: adaptive stops once its credible radius is at most `radius`. */
interface Trial {
  readonly paper: Outcome;
  readonly bisect: Outcome;
  /** `expected`: also stop only once the posterior's expected error is at most this. */
  adaptive(radius: number, budget: number, expected?: number): Outcome;
}

/** Summary of one strategy on one setting and noise condition. */
export interface AdaptiveComparisonRow {
  readonly family: string;
  readonly setting: string;
  readonly noise: NoiseCondition;
  readonly strategy: ComparedStrategy;
  readonly tolerance: number;
  readonly trials: number;
  /** Mean number of questions. */
  readonly questions: number;
  /** Per error measure: mean, 95th percentile and max over trials. */
  readonly errors: readonly {
    readonly measure: string;
    readonly mean: number;
    readonly p95: number;
    readonly max: number;
  }[];
  /** Adaptive only: fraction of trials whose truth lies in the 90% credible region. */
  readonly coverage?: number;
  /** Wall time per question (ms). */
  readonly msPerQuestion: number;
}

/** The whole comparison and the settings it ran. */
export interface AdaptiveReproduction {
  readonly trials: number;
  readonly noises: readonly NoiseCondition[];
  readonly settings: readonly {
    readonly family: string;
    readonly setting: string;
    readonly tolerance: number;
    readonly budget: number;
    readonly measures: readonly string[];
    /** What paper and bisect run on this setting. */
    readonly classic: string;
  }[];
  readonly rows: readonly AdaptiveComparisonRow[];
}

/** Credibility of the adaptive runs' regions (coverage is measured against it). */
export const COMPARISON_CREDIBILITY = 0.9;

function fixedNoise(c: NoiseCondition): NoiseModel | undefined {
  switch (c) {
    case "none":
      return { kind: "none" };
    case "flip5":
      return { kind: "flip", probability: 0.05 };
    case "flip10":
      return { kind: "flip", probability: 0.1 };
    case "logistic":
      return undefined;
  }
}

/**
 * The adaptive engine's answer model for a noise condition: exact when noise-free, the flip
 * model matching the flip rate, and the default human model (logistic with slips, the same
 * shape as the logistic oracle) for logistic noise. A real person's model is `human`.
 */
export function answerModelFor(c: NoiseCondition): AnswerModelName {
  switch (c) {
    case "none":
      return "exact";
    case "flip5":
      return "flips:0.05";
    case "flip10":
      return "flips:0.1";
    case "logistic":
      return "human";
  }
}

/** The adaptive run, measured. */
function adaptiveOutcome<P, M>(
  family: AdaptiveFamily<P, M>,
  truth: M,
  value: (p: P) => number,
  noise: NoiseModel,
  c: NoiseCondition,
  o: {
    radius: number;
    budget: number;
    seed: number;
    expected?: number | undefined;
    errors: (t: M, e: M) => number[];
  },
): Outcome {
  const oracle = simulatedOracle(value, noise, o.seed);
  const start = performance.now();
  const run = runProcedure(
    adaptiveProcedure(family, {
      // The engine stops at a credible radius of half its tolerance.
      tolerance: 2 * o.radius,
      budget: o.budget,
      credibility: COMPARISON_CREDIBILITY,
      model: answerModelFor(c),
      seed: o.seed,
      ...(o.expected === undefined ? {} : { expectedError: o.expected }),
    }),
    oracle.ask,
  );
  const ms = performance.now() - start;
  const r = run.result;
  return {
    questions: r.questions,
    errors: o.errors(truth, r.metric),
    ms,
    covered: family.error(truth, r.metric) <= r.credible.radius,
  };
}

function timed<T>(f: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = f();
  return { value, ms: performance.now() - start };
}

function binarySetting(kind: "binary-linear" | "binary-threshold"): Setting {
  const population = syntheticPopulation(5);
  const tolerance = kind === "binary-linear" ? 0.02 : 0.05;
  const family =
    kind === "binary-linear"
      ? binaryLinearFamily(population, { displayStep: 1e-4 })
      : binaryThresholdFamily(population, { displayStep: 1e-4 });
  const measure = kind === "binary-linear" ? "angle" : "a0";
  return {
    family: kind,
    label: kind,
    tolerance,
    budget: 30,
    measures: [measure],
    classic:
      "paper: the paper's search (4 questions per halving); bisect: ShrinkInterval asking c-d first",
    trial(rng, c, seed) {
      const truth: BinaryTruth = randomBinaryTruth(kind, rng, population.zeta);
      const value = truthValue(truth);
      const noise = fixedNoise(c) ?? logisticNoiseFor(family, value);
      const classic = (strategy: "paper" | "bisect"): Outcome => {
        const { value: r, ms } = timed(() =>
          simulateBinary({ family: kind, tolerance, strategy }, truth, population, noise, seed),
        );
        return {
          questions: r.queries,
          errors: [(r.error as Record<string, number>)[measure]!],
          ms,
        };
      };
      const adaptive = (radius: number, budget: number, expected?: number): Outcome => {
        const o = { radius, budget, seed, expected };
        return truth.family === "binary-linear"
          ? adaptiveOutcome(
              family as ReturnType<typeof binaryLinearFamily>,
              normalizeLinear(truth.metric),
              value,
              noise,
              c,
              { ...o, errors: (t, e) => [family.error(t as never, e as never)] },
            )
          : adaptiveOutcome(
              family as ReturnType<typeof binaryThresholdFamily>,
              { a0: (truth as { a0: number }).a0 },
              value,
              noise,
              c,
              { ...o, errors: (t, e) => [Math.abs(t.a0 - e.a0)] },
            );
      };
      return { paper: classic("paper"), bisect: classic("bisect"), adaptive };
    },
  };
}

function multiclassSetting(kind: "diagonal-linear" | "linear", k: number): Setting {
  const pool = syntheticMulticlassPool(k);
  const sphere = kind === "linear" ? findSphere(createSpace("offdiag-confusion", pool)) : undefined;
  const family = multiclassLinearFamily(kind, pool, {
    displayStep: 1e-4,
    ...(sphere ? { sphere } : {}),
  });
  const tolerance = 0.01;
  const specs: Record<"paper" | "bisect", MulticlassSpec> =
    kind === "diagonal-linear"
      ? {
          paper: { family: kind, tolerance, strategy: "paper", pivot: "first" },
          bisect: { family: kind, tolerance, strategy: "bisect", pivot: "first" },
        }
      : {
          paper: { family: kind, tolerance, strategy: "paper", cycles: 2, order: "forward" },
          bisect: { family: kind, tolerance, strategy: "bisect", cycles: 1, order: "reverse" },
        };
  return {
    family: kind,
    label: `${kind} k=${k}`,
    tolerance,
    budget: kind === "diagonal-linear" ? 40 : 300,
    measures: ["linf"],
    classic:
      kind === "diagonal-linear"
        ? "paper: DLPME, pivot first; bisect: the same with ShrinkInterval asking c-d first"
        : "paper: LPME, 2 forward cycles; bisect: ShrinkInterval asking c-d first, reverse order, 1 cycle",
    trial(rng, c, seed) {
      const truth = normalizeMulticlassTruth(kind, randomMulticlassTruth(kind, k, rng));
      const value = (p: MulticlassPoint) => {
        let v = 0;
        for (let i = 0; i < truth.length; i++) v += truth[i]! * p.point[i]!;
        return v;
      };
      const noise = fixedNoise(c) ?? logisticNoiseFor(family, value);
      const classic = (strategy: "paper" | "bisect"): Outcome => {
        const { value: r, ms } = timed(() =>
          simulateMulticlass(specs[strategy], truth, pool, sphere, noise, seed),
        );
        return { questions: r.queries, errors: [r.error.linf], ms };
      };
      return {
        paper: classic("paper"),
        bisect: classic("bisect"),
        adaptive: (radius, budget, expected) =>
          adaptiveOutcome(family, truth, value, noise, c, {
            radius,
            expected,
            budget,
            seed,
            errors: (t, e) => [family.error(t, e)],
          }),
      };
    },
  };
}

/** The paper's synthetic sphere (UAI 2022 Section 6): radius 0.2 around 1/k, varrho = rho / 200. */
const SPHERE = { rho: PAPER_RHO, varrho: defaultVarrho(PAPER_RHO) } as const;

/** QPME search of `paper` (lazy = Table 1's counting, 3 forward cycles) and `bisect`. */
const QPME_SEARCH: Record<
  "paper" | "bisect",
  Pick<QpmeOptions, "strategy" | "cycles" | "order">
> = {
  paper: { strategy: STRATEGIES.lazy, cycles: 3, order: "forward" },
  bisect: { strategy: STRATEGIES.bisect, cycles: 1, order: "reverse" },
};

/** Adaptive budgets of the QPME settings, k = 2..5 (issue 10's targets). */
const QUADRATIC_BUDGETS: Record<number, number> = { 2: 40, 3: 90, 4: 160, 5: 250 };

function quadraticSetting(k: number): Setting {
  const tolerance = 0.01;
  const family = quadraticFamily(k, { displayStep: 1e-4 });
  const centre = new Array<number>(k).fill(1 / k);
  return {
    family: "quadratic",
    label: `quadratic k=${k}`,
    tolerance,
    budget: QUADRATIC_BUDGETS[k] ?? 250,
    measures: ["a", "B"],
    classic:
      "paper: QPME, lazy search (Table 1's counting), 3 forward cycles, ratio reconstruction; bisect: QPME with ShrinkInterval asking c-d first, reverse order, 1 cycle",
    trial(rng, c, seed) {
      const truth = normalizeQuadratic(randomSphereTruth(k, rng, SPHERE.rho, SPHERE.varrho));
      const value = (p: RatePoint) => evaluateQuadratic(truth, p.point);
      const noise = fixedNoise(c) ?? logisticNoiseFor(family, value);
      const classic = (strategy: "paper" | "bisect"): Outcome => {
        const { value: r, ms } = timed(() =>
          simulateQuadratic(
            truth,
            {
              tolerance,
              ...QPME_SEARCH[strategy],
              centre,
              ...SPHERE,
              reconstruction: "ratios",
            },
            noise,
            seed,
          ),
        );
        return { questions: r.queries, errors: [r.error.a, r.error.B], ms };
      };
      return {
        paper: classic("paper"),
        bisect: classic("bisect"),
        adaptive: (radius, budget, expected) =>
          adaptiveOutcome(family, truth, value, noise, c, {
            radius,
            expected,
            budget,
            seed,
            errors: (t, e) => {
              const q = quadraticError(t, e);
              return [q.a, q.B];
            },
          }),
      };
    },
  };
}

/**
 * Fair QPME (Algorithm 4, `fair-quadratic`) or Algorithm 5 (`lambda`: a and B known) on the
 * synthetic sphere, truths and tau from `randomFairTruth` (reproduce-fair's sampler).
 */
function fairSetting(kind: "fair-quadratic" | "lambda", k: number, m: number): Setting {
  const tolerance = 0.01;
  const lambdaOnly = kind === "lambda";
  return {
    family: kind,
    label: `${kind} k=${k} m=${m}`,
    tolerance,
    budget: lambdaOnly ? 25 : 300,
    measures: lambdaOnly ? ["lambda"] : ["a", "B", "lambda"],
    classic: lambdaOnly
      ? "paper: Algorithm 5 (a and B known), lazy search; bisect: Algorithm 5 with ShrinkInterval asking c-d first"
      : "paper: Fair QPME (Algorithm 4 + the LPME run for a), lazy search, 3 forward cycles; bisect: ShrinkInterval asking c-d first, reverse order, 1 cycle",
    trial(rng, c, seed) {
      const drawn = randomFairTruth(k, m, rng, SPHERE.rho, SPHERE.varrho);
      const truth = normalizeFair(drawn.truth);
      const { tau } = drawn;
      const family = lambdaOnly
        ? lambdaFamily(k, tau, { a: truth.a, B: truth.B }, { displayStep: 1e-4 })
        : fairQuadraticFamily(k, tau, { displayStep: 1e-4 });
      const value = (p: FairPoint) => fairUtility(truth, tau, p.rates);
      const noise = fixedNoise(c) ?? logisticNoiseFor(family, value);
      const measure = (e: { a: number; B: number; lambda: number }) =>
        lambdaOnly ? [e.lambda] : [e.a, e.B, e.lambda];
      const classic = (strategy: "paper" | "bisect"): Outcome => {
        const options: SimulateFairOptions = {
          tolerance,
          ...QPME_SEARCH[strategy],
          tau,
          ...SPHERE,
          reconstruction: "ratios",
          aFrom: "lpme",
          procedure: lambdaOnly ? "lambda" : "fair-qpme",
        };
        const { value: r, ms } = timed(() => simulateFair(truth, options, noise, seed));
        return { questions: r.queries, errors: measure(r.error), ms };
      };
      return {
        paper: classic("paper"),
        bisect: classic("bisect"),
        adaptive: (radius, budget, expected) =>
          adaptiveOutcome(family, truth, value, noise, c, {
            radius,
            expected,
            budget,
            seed,
            errors: (t, e) => measure(fairError(t, e)),
          }),
      };
    },
  };
}

/** Search tolerance of the paper-mode cubic runs (the cubic command's default). */
export const CUBIC_CLASSIC_TOLERANCE = 0.001;

/** Adaptive budgets of the cubic settings (k = 2: 9 coordinates, k = 3: 19). */
const CUBIC_BUDGETS: Record<number, number> = { 2: 90, 3: 300 };

function cubicSetting(k: number): Setting {
  const tolerance = 0.01;
  const family = cubicFamily(k, { displayStep: 1e-4 });
  return {
    family: "cubic",
    label: `cubic k=${k}`,
    tolerance,
    budget: CUBIC_BUDGETS[k] ?? 300,
    measures: ["a", "B", "C"],
    classic: `paper: k + 1 local QPME runs (lazy search, 3 forward cycles) and the cubic reconstruction, search tolerance ${CUBIC_CLASSIC_TOLERANCE} (the cubic command's default; at 0.01 its errors are several tenths); bisect: the same with ShrinkInterval asking c-d first, reverse order, 1 cycle`,
    trial(rng, c, seed) {
      const truth = normalizeCubic(randomCubicMetric(k, rng));
      const value = (p: RatePoint) => evaluateCubic(truth, p.point);
      const noise = fixedNoise(c) ?? logisticNoiseFor(family, value);
      const classic = (strategy: "paper" | "bisect"): Outcome => {
        const oracle = simulatedOracle(value, noise, seed);
        const { value: r, ms } = timed(() =>
          elicitCubic(oracle.ask, k, {
            tolerance: CUBIC_CLASSIC_TOLERANCE,
            ...QPME_SEARCH[strategy],
            reconstruction: "ratios",
          }),
        );
        const e = cubicError(truth, r.metric);
        return { questions: r.questions, errors: [e.a, e.B, e.C], ms };
      };
      return {
        paper: classic("paper"),
        bisect: classic("bisect"),
        adaptive: (radius, budget, expected) =>
          adaptiveOutcome(family, truth, value, noise, c, {
            radius,
            expected,
            budget,
            seed,
            errors: (t, e) => {
              const x = cubicError(t, e);
              return [x.a, x.B, x.C];
            },
          }),
      };
    },
  };
}

/**
 * The settings of every supported family, built lazily (pools and spheres take time), with
 * their number of settings (for the progress bar).
 */
const SETTINGS: Record<string, { readonly count: number; readonly build: () => Setting[] }> = {
  "binary-linear": { count: 1, build: () => [binarySetting("binary-linear")] },
  "binary-threshold": { count: 1, build: () => [binarySetting("binary-threshold")] },
  "diagonal-linear": {
    count: 2,
    build: () => [3, 4].map((k) => multiclassSetting("diagonal-linear", k)),
  },
  linear: { count: 2, build: () => [3, 4].map((k) => multiclassSetting("linear", k)) },
  quadratic: { count: 4, build: () => [2, 3, 4, 5].map((k) => quadraticSetting(k)) },
  "fair-quadratic": { count: 1, build: () => [fairSetting("fair-quadratic", 3, 3)] },
  lambda: { count: 1, build: () => [fairSetting("lambda", 3, 3)] },
  cubic: { count: 2, build: () => [2, 3].map((k) => cubicSetting(k)) },
};

/** Families whose settings take minutes per trial batch (QPME k up to 5, fair, cubic). */
export const SLOW_FAMILIES: readonly string[] = ["quadratic", "fair-quadratic", "cubic"];

/** Family names `reproduceAdaptive` accepts, in table order. */
export const COMPARED_FAMILIES: readonly string[] = Object.keys(SETTINGS);

/** Options of `reproduceAdaptive`. */
export interface ReproduceAdaptiveOptions {
  /** Random truths per setting and noise condition (the command's default is 50). */
  readonly trials: number;
  /** Families to run (default all, `COMPARED_FAMILIES`). */
  readonly families?: readonly string[];
  readonly noises: readonly NoiseCondition[];
  /**
   * Only these settings of the chosen families, by label (`"linear k=3"`); default all. The
   * truths of a setting do not depend on the others run, so a subset reruns its rows.
   */
  readonly settings?: readonly string[];
  /** Override every setting's adaptive budget. */
  readonly budget?: number;
  /**
   * Also run `matched`: adaptive stopped at paper's 95th-percentile and mean error on the same truths
   * (default true; it runs adaptive a second time per trial).
   */
  readonly matched?: boolean;
  /** Called after every trial (progress). */
  readonly onTrial?: () => void;
}

/** Number of trials `reproduceAdaptive` will run (for a progress bar). */
export function comparisonSize(o: ReproduceAdaptiveOptions): number {
  const fams = o.families ?? COMPARED_FAMILIES;
  const runs = o.matched === false ? 1 : 2;
  return (
    (o.settings?.length ?? fams.reduce((s, f) => s + (SETTINGS[f]?.count ?? 0), 0)) *
    o.noises.length *
    o.trials *
    runs
  );
}

/**
 * Paper, bisect and adaptive on the same truths and seeds (trial t of a setting: the t-th
 * truth of a generator seeded by the setting's label, oracle and engine seed t + 1), for every
 * setting of the chosen families and every noise condition.
 * @example reproduceAdaptive({ trials: 2, families: ["binary-linear"], noises: ["none"] }).rows
 */
export function reproduceAdaptive(o: ReproduceAdaptiveOptions): AdaptiveReproduction {
  const fams = o.families ?? COMPARED_FAMILIES;
  for (const f of fams)
    if (!SETTINGS[f])
      throw new RangeError(`unknown family "${f}"; choose ${COMPARED_FAMILIES.join(", ")}`);
  const built = COMPARED_FAMILIES.filter((f) => fams.includes(f)).flatMap((f) =>
    SETTINGS[f]!.build(),
  );
  for (const label of o.settings ?? [])
    if (!built.some((s) => s.label === label))
      throw new RangeError(
        `unknown setting "${label}"; choose ${built.map((s) => s.label).join(", ")}`,
      );
  const settings = o.settings ? built.filter((s) => o.settings!.includes(s.label)) : built;
  const rows: AdaptiveComparisonRow[] = [];
  for (const s of settings) {
    const budget = o.budget ?? s.budget;
    for (const c of o.noises) {
      const rng = createRng(`reproduce-adaptive:${s.label}`);
      const outcomes: Record<ComparedStrategy, Outcome[]> = {
        paper: [],
        bisect: [],
        adaptive: [],
        matched: [],
      };
      const trials: Trial[] = [];
      for (let t = 0; t < o.trials; t++) {
        const r = s.trial(rng, c, t + 1);
        trials.push(r);
        outcomes.paper.push(r.paper);
        outcomes.bisect.push(r.bisect);
        outcomes.adaptive.push(r.adaptive(s.tolerance / 2, budget));
        o.onTrial?.();
      }
      const names = o.matched === false ? COMPARED_STRATEGIES.slice(0, 3) : COMPARED_STRATEGIES;
      if (o.matched !== false) {
        // Paper's precision on these truths, in the family's own error measure; the budget
        // grows to paper's own count if that is larger (a fair cap for the same accuracy).
        const paperError = quantile(
          outcomes.paper.map((x) => x.errors[0]!),
          0.95,
        );
        const paperMean = mean(outcomes.paper.map((x) => x.errors[0]!));
        const paperQuestions = Math.ceil(mean(outcomes.paper.map((x) => x.questions)));
        for (const r of trials) {
          outcomes.matched.push(
            r.adaptive(
              Math.max(paperError, 1e-6),
              Math.max(budget, paperQuestions),
              Math.max(paperMean, 1e-6),
            ),
          );
          o.onTrial?.();
        }
      }
      for (const name of names) {
        const xs = outcomes[name];
        const questions = xs.reduce((sum, x) => sum + x.questions, 0);
        rows.push({
          family: s.family,
          setting: s.label,
          noise: c,
          strategy: name,
          tolerance: s.tolerance,
          trials: xs.length,
          questions: mean(xs.map((x) => x.questions)),
          errors: s.measures.map((measure, i) => {
            const e = xs.map((x) => x.errors[i]!);
            return { measure, mean: mean(e), p95: quantile(e, 0.95), max: Math.max(...e) };
          }),
          ...(name === "adaptive" || name === "matched"
            ? { coverage: xs.filter((x) => x.covered).length / xs.length }
            : {}),
          msPerQuestion: xs.reduce((sum, x) => sum + x.ms, 0) / Math.max(1, questions),
        });
      }
    }
  }
  return {
    trials: o.trials,
    noises: o.noises,
    settings: settings.map((s) => ({
      family: s.family,
      setting: s.label,
      tolerance: s.tolerance,
      budget: o.budget ?? s.budget,
      measures: s.measures,
      classic: s.classic,
    })),
    rows,
  };
}

const STRATEGY_COLOURS: Record<ComparedStrategy, string> = {
  paper: "#1f77b4",
  bisect: "#ff7f0e",
  adaptive: "#2ca02c",
  matched: "#9467bd",
};

/**
 * Error against questions as SVG: one panel per noise condition, one marker per strategy and
 * setting at (mean questions, mean error / tolerance), questions on a log axis, the setting's
 * label beside its markers; a dashed line at error = tolerance / 2, the adaptive stopping
 * target.
 * @example adaptiveComparisonSvg(reproduceAdaptive({ trials: 2, noises: ["none"] }))
 */
export function adaptiveComparisonSvg(r: AdaptiveReproduction): string {
  const W = 420;
  const H = 320;
  const m = { l: 56, r: 16, t: 48, b: 44 };
  const width = W * Math.max(1, r.noises.length);
  const height = H + 16;
  const px = (v: number) => Math.round(v * 100) / 100;
  const parts: string[] = [];
  const ratio = (row: AdaptiveComparisonRow) => row.errors[0]!.mean / row.tolerance;
  r.noises.forEach((noise, pi) => {
    const ox = pi * W;
    const rows = r.rows.filter((row) => row.noise === noise);
    const qs = rows.map((row) => Math.max(1, row.questions));
    const lo = Math.floor(Math.log10(Math.min(...qs, 10)));
    const hi = Math.ceil(Math.log10(Math.max(...qs, 10)));
    // Both axes in decades: errors span three orders of magnitude across strategies.
    const rs = rows.map(ratio).filter((v) => Number.isFinite(v) && v > 0);
    const ylo = Math.floor(Math.log10(Math.min(...rs, 0.1)));
    const yhi = Math.ceil(Math.log10(Math.max(...rs, 1)));
    const X = (q: number) =>
      px(ox + m.l + ((Math.log10(Math.max(1, q)) - lo) / Math.max(1, hi - lo)) * (W - m.l - m.r));
    const Y = (v: number) =>
      px(
        m.t +
          (1 - (Math.log10(Math.max(10 ** ylo, v)) - ylo) / Math.max(1, yhi - ylo)) *
            (H - m.b - m.t),
      );
    const bottom = H - m.b;
    const placed: { x: number; y: number; w: number }[] = [];
    parts.push(
      `<text x="${ox + W / 2}" y="18" text-anchor="middle" font-size="13">${escapeXml(`noise: ${noise}`)}</text>`,
      `<line x1="${ox + m.l}" y1="${bottom}" x2="${ox + W - m.r}" y2="${bottom}" stroke="black"/>`,
      `<line x1="${ox + m.l}" y1="${m.t}" x2="${ox + m.l}" y2="${bottom}" stroke="black"/>`,
      `<line x1="${ox + m.l}" y1="${Y(0.5)}" x2="${ox + W - m.r}" y2="${Y(0.5)}" stroke="#888" stroke-dasharray="4 3"/>`,
      `<text x="${ox + W / 2}" y="${bottom + 32}" text-anchor="middle" font-size="11">mean questions (log scale)</text>`,
      `<text x="${ox + 14}" y="${(m.t + bottom) / 2}" transform="rotate(-90 ${ox + 14} ${(m.t + bottom) / 2})" text-anchor="middle" font-size="11">${escapeXml("mean error / tolerance (log scale)")}</text>`,
    );
    for (let e = lo; e <= hi; e++) {
      const x = X(10 ** e);
      parts.push(
        `<line x1="${x}" y1="${bottom}" x2="${x}" y2="${bottom + 3}" stroke="black"/>`,
        `<text x="${x}" y="${bottom + 15}" text-anchor="middle" font-size="10">${10 ** e}</text>`,
      );
    }
    for (let e = ylo; e <= yhi; e++) {
      const v = 10 ** e;
      parts.push(
        `<text x="${ox + m.l - 5}" y="${px(Y(v) + 4)}" text-anchor="end" font-size="10">${String(Number(v.toPrecision(6)))}</text>`,
      );
    }
    // One grey line per setting through its strategies' markers, labelled at paper's marker.
    for (const setting of [...new Set(rows.map((row) => row.setting))]) {
      const own = rows.filter((row) => row.setting === setting && ratio(row) > 0);
      const pts = own.map((row) => `${X(row.questions)},${Y(ratio(row))}`).join(" ");
      parts.push(`<polyline points="${pts}" fill="none" stroke="#ccc" stroke-width="1"/>`);
      for (const row of own) {
        parts.push(
          `<circle cx="${X(row.questions)}" cy="${Y(ratio(row))}" r="4" fill="${STRATEGY_COLOURS[row.strategy]}" fill-opacity="0.8"/>`,
        );
      }
      const paper = own.find((row) => row.strategy === "paper");
      if (paper) {
        // Labels right of their point, or left of it in the right half (no clipping at the
        // edge), moved down a line while they would overlap a label already placed.
        const x0 = X(paper.questions);
        const right = x0 > ox + W / 2;
        const w = setting.length * 4.4;
        const left = right ? x0 - 6 - w : x0 + 6;
        let y = Y(ratio(paper)) - 5;
        while (placed.some((b) => left < b.x + b.w && b.x < left + w && Math.abs(b.y - y) < 9))
          y += 9;
        placed.push({ x: left, y, w });
        parts.push(
          `<text x="${px(right ? x0 - 6 : x0 + 6)}" y="${px(y)}"${right ? ' text-anchor="end"' : ""} font-size="8" fill="#444">${escapeXml(setting)}</text>`,
        );
      }
    }
  });
  COMPARED_STRATEGIES.forEach((s, i) => {
    const x = width / 2 - 120 + 80 * i;
    parts.push(
      `<circle cx="${x}" cy="34" r="5" fill="${STRATEGY_COLOURS[s]}"/>`,
      `<text x="${x + 9}" y="38" font-size="11">${s}</text>`,
    );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">\n<rect width="100%" height="100%" fill="white"/>\n${parts.join("\n")}\n</svg>\n`;
}
