/**
 * `elicit reproduce people` (issue 26, item 3; the binary families, DLPM and LPM k = 3 so
 * far): the panel of simulated people (`src/oracle/people.ts`) answers the papers' procedure
 * (`paper`, binary only: the web's multiclass studies are adaptive only) and the adaptive
 * engine (`adaptive`, each study kind's answer model) on the same truths and seeds, on pools shown as
 * whole people out of 100 as the web studies show them. Every person judges the DISPLAYED
 * counts; the engine is never told who answers. Pure: builds the table, prints nothing, reads
 * no file (the caller passes the pools); `onRun` only reports progress.
 */
import {
  type BinaryStudySettings,
  binaryStudyFamily,
  binaryStudyProcedure,
  STUDY_GRID_POINTS,
} from "../elicit/adaptive/binary-study.ts";
import type { AdaptiveResult } from "../elicit/adaptive/engine.ts";
import type { ThresholdMetric } from "../elicit/adaptive/families/binary.ts";
import { multiclassLinearFamily } from "../elicit/adaptive/families/multiclass.ts";
import type { AdaptiveFamily } from "../elicit/adaptive/family.ts";
import {
  judgePair,
  randomTradeOffs,
  trustedReading,
  unmeasuredReading,
} from "../elicit/adaptive/phase-three.ts";
import {
  type DisplayFrame,
  displayFrame,
  type ShownCounts,
  shownCounts,
  unlessIdenticalOnScreen,
} from "../elicit/binary/display.ts";
import type { BinaryPoint } from "../elicit/binary/point.ts";
import { type BinarySpec, binaryProcedure } from "../elicit/binary/spec.ts";
import { type BinaryTruth, elicitationError } from "../elicit/binary/truth.ts";
import {
  dominatedFair,
  type FairMetric,
  type FairPoint,
  fairUtility,
  randomFairMetric,
} from "../elicit/fair/metric.ts";
import type { MulticlassPoint } from "../elicit/multiclass/point.ts";
import {
  type Procedure,
  runProcedure,
  stepsProcedure,
  withAutoAnswers,
} from "../elicit/session.ts";
import type { BinaryPopulation } from "../geometry/binary/population.ts";
import type { MulticlassPool } from "../geometry/multiclass/pool.ts";
import { createRng, type Rng } from "../math/rng.ts";
import { mean, quantile } from "../math/stats.ts";
import { type BinaryLinearMetric, normalizeLinear } from "../metrics/binary-linear.ts";
import { makePerson, PERSON_TYPES, type PersonType } from "../oracle/people.ts";
import type { Answer, Ask } from "../search/question.ts";
import {
  fairShownKey,
  fairStudyFamily,
  fairStudySteps,
  fairView,
  shownRatesOf,
} from "../server/kinds/fair/participant.ts";
import {
  defaultKnown,
  FAIR_DEFAULTS,
  FAIR_FULL_DEFAULTS,
  type FairStudyData,
  fairAnswerModel,
} from "../server/kinds/fair/study.ts";
import {
  MULTICLASS_DEFAULTS,
  MULTICLASS_LINEAR_DEFAULTS,
  multiclassAnswerModel,
} from "../server/kinds/multiclass/create.ts";
import {
  MULTICLASS_ROW_TOTAL,
  multiclassShownKey,
  multiclassStudyFamily,
  multiclassStudySteps,
  multiclassView,
  sameOnScreen,
} from "../server/kinds/multiclass/participant.ts";
import { agreement, type ShownAnswerRow } from "../server/participant/agreement.ts";
import { type Consistency, consistencyOf } from "../server/participant/consistency.ts";
import type { ElicitationResult } from "../server/participant/elicitation.ts";
import {
  countAgreement,
  evaluationPairs,
  isRetest,
  type JudgedAnswer,
  withRetests,
} from "../server/participant/evaluation-pairs.ts";
import {
  binaryAnswerModel,
  DEFAULT_EVALUATION_PAIRS,
  DEFAULT_RETEST_PAIRS,
  type FairSpec,
  type MulticlassAdaptiveSpec,
  type StudyAnswerModel,
} from "../server/study/config.ts";
import { truthRange } from "./simulate-adaptive.ts";
import { randomBinaryTruth } from "./simulate-binary.ts";
import { randomMulticlassTruth } from "./simulate-multiclass.ts";

/**
 * The families `reproducePeople` runs (the binary ones and the multiclass study's DLPM and
 * LPM), in table order.
 * @example PEOPLE_FAMILIES.includes("binary-threshold") // true
 */
export const PEOPLE_FAMILIES = [
  "binary-threshold",
  "binary-linear",
  "diagonal-linear",
  "linear",
  "fair-lambda",
  "fair-quadratic",
] as const;

/**
 * One of `PEOPLE_FAMILIES`.
 * @example const f: PeopleFamily = "binary-linear";
 */
export type PeopleFamily = (typeof PEOPLE_FAMILIES)[number];

/**
 * The strategies compared: `paper` (the papers' search, as the built-in study runs it) and
 * `adaptive` (the engine with the `human` model, told the display step, as a web study runs it).
 * @example PEOPLE_STRATEGIES[0] // "paper"
 */
export const PEOPLE_STRATEGIES = ["paper", "adaptive"] as const;

/**
 * One of `PEOPLE_STRATEGIES`.
 * @example const s: PeopleStrategy = "adaptive";
 */
export type PeopleStrategy = (typeof PEOPLE_STRATEGIES)[number];

/**
 * The strategies run for a family: both for the binary ones; adaptive only for DLPM and LPM
 * (a web multiclass study runs only the adaptive engine).
 * @example strategiesOf("diagonal-linear") // ["adaptive"]
 */
export function strategiesOf(family: PeopleFamily): readonly PeopleStrategy[] {
  return isMulticlassFamily(family) || isFairFamily(family) ? ["adaptive"] : PEOPLE_STRATEGIES;
}

/** Whether a family of the panel is a fairness study's (on the fairness data). */
function isFairFamily(f: PeopleFamily): f is "fair-lambda" | "fair-quadratic" {
  return f === "fair-lambda" || f === "fair-quadratic";
}

/** Whether a family of the panel is a multiclass study's (DLPM or LPM on the multiclass pool). */
function isMulticlassFamily(f: PeopleFamily): f is "diagonal-linear" | "linear" {
  return f === "diagonal-linear" || f === "linear";
}

/**
 * The settings of a family, as a web study of that family stores them: the built-in study's
 * spec for the threshold family (CANCER_SPEC: tolerance 0.05, thresholds on a 1e-4 grid) and
 * the create form's default tolerance (0.02 rad) for the linear one, adaptive budget 30; a
 * multiclass study's defaults for DLPM (MULTICLASS_DEFAULTS: tolerance 0.05 in max |a - a'|,
 * budget 25) and LPM (MULTICLASS_LINEAR_DEFAULTS: tolerance 0.1, budget 45); credibility 0.9.
 * @example PEOPLE_SETTINGS["binary-threshold"].tolerance // 0.05
 */
export const PEOPLE_SETTINGS: Readonly<
  Record<
    PeopleFamily,
    {
      readonly tolerance: number;
      /** The family's error measure. */
      readonly measure: "a0" | "angle" | "weights" | "lambda" | "fair";
      /** The adaptive engine's budget (a web study's default). */
      readonly budget: number;
      readonly grid?: number;
    }
  >
> = {
  "binary-threshold": { tolerance: 0.05, measure: "a0", budget: 30, grid: 1e-4 },
  "binary-linear": { tolerance: 0.02, measure: "angle", budget: 30 },
  "diagonal-linear": {
    tolerance: MULTICLASS_DEFAULTS.tolerance,
    measure: "weights",
    budget: MULTICLASS_DEFAULTS.budget,
  },
  linear: {
    tolerance: MULTICLASS_LINEAR_DEFAULTS.tolerance,
    measure: "weights",
    budget: MULTICLASS_LINEAR_DEFAULTS.budget,
  },
  "fair-lambda": {
    tolerance: FAIR_DEFAULTS.tolerance,
    measure: "lambda",
    budget: FAIR_DEFAULTS.budget,
  },
  "fair-quadratic": {
    tolerance: FAIR_FULL_DEFAULTS.tolerance,
    measure: "fair",
    budget: FAIR_FULL_DEFAULTS.budget,
  },
};

/**
 * Adaptive options of every family's runs (the budget and the answer model are the family's
 * study's with a Phase III, as every panel run has one: `peopleModel`).
 */
export const PEOPLE_ADAPTIVE = {
  credibility: 0.9,
} as const;

/**
 * An answer model the people panel may run the engine under: a study's, or `flips:P`, the
 * engine told that the person flips a share P of their answers. `flips:P` is a diagnosis,
 * never a comparison: told a flipping person's own noise, the engine shows what knowing the
 * person would buy (issue 26 asks that no comparison tells the engine its answerer's model).
 * @example const m: PeopleAnswerModel = "flips:0.2";
 */
export type PeopleAnswerModel = StudyAnswerModel | `flips:${string}`;

/**
 * A panel model's name as a study spec carries it. The panel's specs drive the study's engine
 * in memory and are never stored, and the engine resolves every name with `parseAnswerModel`,
 * `flips:P` included; stored studies keep the zod-checked study models only.
 */
function studyModelName(model: PeopleAnswerModel): StudyAnswerModel {
  return model as StudyAnswerModel;
}

/**
 * The answer model of a family's runs, as its study with a Phase III runs it.
 * @example peopleModel("fair-quadratic") // "learned-flips-checked"
 */
export function peopleModel(family: PeopleFamily): StudyAnswerModel {
  if (isFairFamily(family)) return fairAnswerModel(family, DEFAULT_EVALUATION_PAIRS);
  if (isMulticlassFamily(family)) return multiclassAnswerModel(family, DEFAULT_EVALUATION_PAIRS);
  return binaryAnswerModel(family, DEFAULT_EVALUATION_PAIRS);
}

/** People shown per page (the built-in study's `display.population`). */
export const PEOPLE_POPULATION = 100;

/** One question as shown: the two points' whole-people counts and the answer given. */
export interface ShownQuestion {
  readonly first: ShownCounts;
  readonly second: ShownCounts;
  readonly answer: Answer;
}

/**
 * Why an adaptive run is flagged: the result names a coordinate it could not pin down, the
 * engine found no informative question left, or the dashboard takes the participant's Phase
 * III answers for a coin's (`coin-like`) or marks them hard to tell from one (`near-coin`).
 */
export type PeopleFlag = "unidentified" | "no-informative-question" | "coin-like" | "near-coin";

/** The flags of an adaptive run, in `PeopleFlag` order. */
function flagsOf(
  unidentified: number,
  stop: string,
  c: Pick<Consistency, "coinLike" | "nearCoin">,
): PeopleFlag[] {
  return [
    ...(unidentified > 0 ? (["unidentified"] as const) : []),
    ...(stop === "no-informative-question" ? (["no-informative-question"] as const) : []),
    ...(c.coinLike ? (["coin-like"] as const) : []),
    ...(c.nearCoin ? (["near-coin"] as const) : []),
  ];
}

/** One run: one strategy, one person, one truth. */
export interface PeopleRun {
  readonly family: PeopleFamily;
  readonly strategy: PeopleStrategy;
  readonly person: PersonType;
  /** 0-based trial (truth) index. */
  readonly trial: number;
  readonly truth: PeopleTruth;
  /** Questions shown (pairs identical on screen are answered "tie" unasked, not counted). */
  readonly questions: number;
  /** Error in the family's measure (`|a0 - a0'|` or the angle in radians). */
  readonly error: number;
  /** Adaptive only: the truth within the region the study states (error <= radius). */
  readonly covered?: boolean;
  /**
   * Adaptive only: the truth within the engine's own 90% region, before the study opens a
   * coin's to the whole space (`unmeasuredReading`): what comparisons of answer models weigh,
   * since the opening is the same under every model.
   */
  readonly engineCovered?: boolean;
  /** Adaptive only: why the engine stopped. */
  readonly stop?: string;
  /** Adaptive with a learned lapse: the probability that the person answers as a coin. */
  readonly coin?: number;
  /**
   * The dashboard's coin flag (adaptive runs): the person's Phase III answers (the study's
   * random pairs and repeats) cannot be told apart from a coin's.
   */
  readonly coinLike?: boolean;
  /**
   * The dashboard's coin test behind `coinLike` (adaptive runs): the chance that a coin agrees
   * with the result and with itself at least as often as the person did in Phase III
   * (`consistency.coinP`; coin-like above `COIN_LEVEL`, 0.05; null when nothing was counted).
   */
  readonly phaseThreeP?: number | null;
  /**
   * The dashboard's "leans left" (right), adaptive runs: the side the engine's learned answer
   * model finds the person choosing on close pairs (`consistency.leansTo`; null: none).
   */
  readonly leansTo?: "left" | "right" | null;
  /**
   * Adaptive only: the consistency figure the debrief, dashboard and exports state (the share
   * of counted Phase III answers against the person's own result, `estimate`, with its 90%
   * range) beside the share of the same random Phase III pairs, answered with a preference on
   * a pair the truth ranks, that went against the person's own truth (`truth`): whether the
   * instrument's consistency figure measures the person (null: nothing counted).
   */
  readonly slips?: PhaseThreeSlips;
  /** Adaptive only: the 90% credible region's radius in the family's error measure. */
  readonly radius?: number;
  /** Adaptive only: why the run is flagged (empty: not flagged). */
  readonly flags?: readonly PeopleFlag[];
  /** Adaptive: any of `flags` (unidentified, no informative question, coin-like); paper: never. */
  readonly flagged: boolean;
  /** Error above twice the tolerance and not flagged. */
  readonly silentMiss: boolean;
  /** Questions shown whose pair is dominated as shown (`isDominatedPair`). */
  readonly dominated: number;
  /** Every question shown, in order (binary families; empty for multiclass). */
  readonly shown: readonly ShownQuestion[];
  /** DLPM: every question shown, as each system's correct count per class (of 100). */
  readonly shownDiagonals?: readonly ShownDiagonals[];
  /**
   * LPM: every question shown, as each system's mistakes (of 100 per true class, row by row
   * without the diagonal) negated, so that larger is better as in `shownDiagonals`.
   */
  readonly shownMistakes?: readonly ShownDiagonals[];
  /** Fairness: every question shown, each profile's correct counts (of 100) per group, class. */
  readonly shownProfiles?: readonly ShownProfiles[];
}

/** One fairness question as shown: `counts[g][i]` of each profile, and the answer. */
export interface ShownProfiles {
  readonly first: readonly (readonly number[])[];
  readonly second: readonly (readonly number[])[];
  readonly answer: Answer;
}

/** A DLPM truth: weights >= 0 summing to 1 on the joint diagonal confusions. */
export interface DiagonalTruth {
  readonly family: "diagonal-linear";
  readonly weights: readonly number[];
}

/** An LPM truth: a cost <= 0 per kind of mistake (row by row, no diagonal), unit length. */
export interface LinearMulticlassTruth {
  readonly family: "linear";
  readonly costs: readonly number[];
}

/**
 * A fairness truth: the whole fair metric (fair-quadratic), or (fair-lambda) the study's
 * known costs and violation weights with the person's own lambda.
 */
export type FairTruth =
  | { readonly family: "fair-lambda"; readonly metric: FairMetric }
  | { readonly family: "fair-quadratic"; readonly metric: FairMetric };

/** A truth of any family of the panel. */
export type PeopleTruth = BinaryTruth | DiagonalTruth | LinearMulticlassTruth | FairTruth;

/** One multiclass question as shown: each system's correct count per class, and the answer. */
export interface ShownDiagonals {
  readonly first: readonly number[];
  readonly second: readonly number[];
  readonly answer: Answer;
}

/**
 * Whether a shown pair is dominated: one system at least as good on both shown counts TP and
 * TN and better on one (so the pair says nothing about the trade-off).
 * @example isDominatedPair({ tp: 34, fn: 0, fp: 4, tn: 62 }, { tp: 34, fn: 0, fp: 3, tn: 63 }) // true
 */
export function isDominatedPair(a: ShownCounts, b: ShownCounts): boolean {
  const ge = (x: ShownCounts, y: ShownCounts) =>
    x.tp >= y.tp && x.tn >= y.tn && (x.tp > y.tp || x.tn > y.tn);
  return ge(a, b) || ge(b, a);
}

/**
 * The truth's metric evaluated at whole-people counts, TP and TN as fractions of the
 * frame's population (what a person who knows their own metric sees).
 * @example shownValue({ family: "binary-threshold", a0: 0.25 }, { tp: 30, fn: 4, fp: 6, tn: 60 }, displayFrame(100, 0.34)) // 0.375
 */
export function shownValue(truth: BinaryTruth, s: ShownCounts, frame: DisplayFrame): number {
  const tp = s.tp / frame.population;
  const tn = s.tn / frame.population;
  switch (truth.family) {
    case "binary-threshold":
      return truth.a0 * tn + (1 - truth.a0) * tp;
    case "binary-linear": {
      const m = normalizeLinear(truth.metric);
      return m.tp * tp + m.tn * tn;
    }
    default:
      throw new RangeError(`reproduce people does not run ${truth.family}`);
  }
}

/** What `runPerson` needs. */
export interface RunPersonOptions {
  readonly family: PeopleFamily;
  readonly strategy: PeopleStrategy;
  readonly person: PersonType;
  readonly truth: PeopleTruth;
  readonly population: BinaryPopulation;
  /** Fairness families: the fairness study's data (required for them). */
  readonly fairData?: FairStudyData;
  /** DLPM, LPM: the multiclass study's pool (required for that family). */
  readonly multiclassPool?: MulticlassPool;
  /** 0-based trial: seeds the engine (trial + 1) and, with the family, the person. */
  readonly trial: number;
  /**
   * The truths' draw (`ReproducePeopleOptions.truthSeed`): any draw but the asserted one
   * (`reproduce-people`, the default) seeds its people too, so a draw's random responder
   * answers other coin flips than the asserted draw's, not only for other truths.
   */
  readonly draw?: string;
  /** People shown per page (default `PEOPLE_POPULATION`, 100). */
  readonly shownPopulation?: number;
  /** The adaptive engine's answer model (default the family's study's, `peopleModel`). */
  readonly model?: PeopleAnswerModel;
  /**
   * Multiclass and fairness families: the engine computes on the exact rates instead of the
   * counts shown, as studies created before issue 26 did (default false: as studies run
   * now). For side-by-side measurements only.
   */
  readonly exactEngine?: boolean;
  /** The adaptive engine's budget (default the family's, `PEOPLE_SETTINGS`). */
  readonly budget?: number;
}

/** The truths the people sweep asserts on (`ReproducePeopleOptions.truthSeed`'s default). */
export const ASSERTED_DRAW = "reproduce-people";

/**
 * A panel person's seed: `people:<family>:<trial>:<type>` on the asserted draw (the seeds its
 * figures were published with), `people:<draw>:<family>:<trial>:<type>` on any other, so that
 * tuning draws never replay the asserted draw's answer noise.
 * @example personSeed("binary-linear", { trial: 3, person: "random", draw: "tune-1" }) // "people:tune-1:binary-linear:3:random"
 */
export function personSeed(
  family: string,
  o: { readonly trial: number; readonly person: string; readonly draw?: string },
): string {
  const draw = o.draw !== undefined && o.draw !== ASSERTED_DRAW ? `${o.draw}:` : "";
  return `people:${draw}${family}:${o.trial}:${o.person}`;
}

/**
 * One person of the panel answering one strategy for one truth. The person's value is the
 * truth at the displayed counts, its range the spread of that value over the adaptive family's
 * candidate points (`truthRange`), its seed `people:<family>:<trial>:<type>` (the same person
 * for both strategies; `people:<draw>:<family>:...` on a draw other than the asserted one).
 * Pairs identical on screen are answered "tie" without being shown.
 * @example
 * runPerson({ family: "binary-threshold", strategy: "adaptive", person: "careful",
 *   truth: { family: "binary-threshold", a0: 0.3 }, population: pool, trial: 0 }).error
 */
export function runPerson(o: RunPersonOptions): PeopleRun {
  if (o.truth.family === "diagonal-linear" || o.truth.family === "linear") {
    return runMulticlass(o, o.truth);
  }
  if (o.truth.family === "fair-lambda" || o.truth.family === "fair-quadratic") {
    return runFair(o, o.truth);
  }
  const truth = o.truth;
  const kind = o.family;
  if (isMulticlassFamily(kind) || isFairFamily(kind)) {
    throw new RangeError(`a ${kind} run needs a ${kind} truth`);
  }
  const frame = displayFrame(o.shownPopulation ?? PEOPLE_POPULATION, o.population.zeta);
  const setting = PEOPLE_SETTINGS[kind];
  const shownOf = (p: BinaryPoint) => shownCounts(p.confusion, frame);
  const value = (p: BinaryPoint) => shownValue(truth, shownOf(p), frame);
  const family = binaryStudyFamily(
    { family: kind, displayStep: frame.step, grid: setting.grid ?? 0, everyShown: true },
    o.population,
  );
  const range = truthRange(family as AdaptiveFamily<BinaryPoint, unknown>, value);
  const person = makePerson<BinaryPoint>(o.person, {
    value,
    range: range > 0 ? range : 1,
    seed: personSeed(o.family, o),
  });
  const shown: ShownQuestion[] = [];
  const rows: ShownAnswerRow[] = [];
  // As on the web, a pair identical on screen is a "tie", unasked (unlessIdenticalOnScreen);
  // every pair that reaches the person is recorded as shown, and as the study stores it.
  const ask: Ask<BinaryPoint> = (q) => {
    const answer = person.ask(q);
    shown.push({ first: shownOf(q.first), second: shownOf(q.second), answer });
    rows.push({
      answer,
      first_point: JSON.stringify(q.first),
      second_point: JSON.stringify(q.second),
    });
    return answer;
  };
  const onScreen = <R>(procedure: Procedure<BinaryPoint, R>) =>
    unlessIdenticalOnScreen(procedure, frame);
  const base = {
    family: kind,
    strategy: o.strategy,
    person: o.person,
    trial: o.trial,
    truth: o.truth,
  };
  const finish = (error: number, flagged: boolean, extra: object): PeopleRun => ({
    ...base,
    questions: shown.length,
    error,
    ...extra,
    flagged,
    silentMiss: error > 2 * setting.tolerance && !flagged,
    dominated: shown.filter((q) => isDominatedPair(q.first, q.second)).length,
    shown,
  });
  if (o.strategy === "paper") {
    const spec: BinarySpec = {
      family: kind,
      tolerance: setting.tolerance,
      strategy: "paper",
      ...(setting.grid === undefined ? {} : { grid: setting.grid }),
    };
    const run = runProcedure(onScreen(binaryProcedure(spec, o.population)), ask);
    const e = elicitationError(truth, run.result, o.population) as Record<string, number>;
    return finish(e[setting.measure]!, false, {});
  }
  // The web study's own procedure (`binaryStudyProcedure`) with the participant's seed.
  const settings: BinaryStudySettings = {
    family: kind,
    tolerance: setting.tolerance,
    budget: o.budget ?? setting.budget,
    credibility: PEOPLE_ADAPTIVE.credibility,
    model: studyModelName(o.model ?? peopleModel(kind)),
    displayStep: frame.step,
    grid: setting.grid ?? 0,
    gridPoints: STUDY_GRID_POINTS,
    everyShown: true,
  };
  const r = runProcedure(
    onScreen(binaryStudyProcedure(settings, o.population, o.trial + 1)),
    ask,
  ).result;
  let error: number;
  if (truth.family === "binary-threshold") {
    const f = family as AdaptiveFamily<BinaryPoint, ThresholdMetric>;
    error = f.error({ a0: truth.a0 }, r.metric as ThresholdMetric);
  } else if (truth.family === "binary-linear") {
    const f = family as AdaptiveFamily<BinaryPoint, BinaryLinearMetric>;
    error = f.error(normalizeLinear(truth.metric), r.metric as BinaryLinearMetric);
  } else {
    throw new RangeError(`reproduce people does not run ${truth.family}`);
  }
  const { radius } = r.credible;
  const { stop } = r;
  const unidentified = r.unidentified.length;
  // Phase III as the study runs it: the person answers the study's random pairs and repeats,
  // and the dashboard flags answers a coin could have given (`consistency.coinLike`).
  const phase2 = rows.slice();
  const { consistency, slips } = phaseThreeConsistency(r, phase2, (q) => person.ask(q), {
    population: o.population,
    seed: o.trial + 1,
    frame,
    value,
  });
  const flags = flagsOf(unidentified, stop, consistency);
  // As the study states it: nothing measured for a coin (the whole space, `statedBinary`).
  const statedRadius = consistency.coinLike
    ? unmeasuredReading(
        r as AdaptiveResult<BinaryPoint, unknown>,
        family as AdaptiveFamily<BinaryPoint, unknown>,
        o.trial + 1,
      ).credible.radius
    : radius;
  return finish(error, flags.length > 0, {
    covered: error <= statedRadius,
    engineCovered: error <= radius,
    radius: statedRadius,
    flags,
    stop,
    coinLike: consistency.coinLike,
    phaseThreeP: consistency.coinP,
    leansTo: consistency.leansTo,
    slips,
    ...coinOf(r),
  });
}

/** Phase III of the built-in study: random pairs and repeats of Phase II pairs (its config). */
export const PEOPLE_PHASE_THREE = { pairs: 15, retests: DEFAULT_RETEST_PAIRS } as const;

/** A run's stated consistency figure beside the truth's (`PeopleRun.slips`). */
export interface PhaseThreeSlips {
  readonly estimate: number | null;
  readonly low: number | null;
  readonly high: number | null;
  readonly truth: number | null;
}

/** Counts the Phase III answers against the person's own truth (`PhaseThreeSlips.truth`). */
function truthSlips<P>(value: (p: P) => number) {
  let counted = 0;
  let against = 0;
  return {
    add(first: P, second: P, answer: Answer): void {
      const d = value(first) - value(second);
      if (answer === "tie" || d === 0) return;
      counted++;
      if (d > 0 !== (answer === "first")) against++;
    },
    of(c: Consistency): PhaseThreeSlips {
      return {
        estimate: c.errorRate,
        low: c.errorLow,
        high: c.errorHigh,
        truth: counted === 0 ? null : against / counted,
      };
    },
  };
}

/**
 * A binary participant's consistency after Phase III as the study measures it: the study's
 * random evaluation pairs with repeats of `phase2` (the shown rows, in order) among them,
 * answered by `ask`, then the agreement of the random ones with the elicited result and the
 * repeats' sameness (`consistencyOf`).
 */
function phaseThreeConsistency(
  result: ElicitationResult,
  phase2: readonly ShownAnswerRow[],
  ask: Ask<BinaryPoint>,
  o: {
    population: BinaryPopulation;
    seed: number;
    frame: DisplayFrame;
    value: (p: BinaryPoint) => number;
  },
): { consistency: Consistency; slips: PhaseThreeSlips } {
  const truth = truthSlips(o.value);
  const pairs = withRetests(
    evaluationPairs(o.population, PEOPLE_PHASE_THREE.pairs, o.seed, o.frame),
    phase2.map((r, id) => ({ id, answer: r.answer })),
    PEOPLE_PHASE_THREE.retests,
    o.seed,
  );
  const random: ShownAnswerRow[] = [];
  const retests: { original: string; repeat: string }[] = [];
  for (const pair of pairs) {
    if (isRetest(pair)) {
      const row = phase2[pair.retestOf]!;
      const first = JSON.parse(row.first_point) as BinaryPoint;
      const second = JSON.parse(row.second_point) as BinaryPoint;
      const repeat = ask({ stage: "retest", first, second });
      retests.push({ original: row.answer, repeat });
    } else {
      const answer = ask({ stage: "evaluation", first: pair.first, second: pair.second });
      truth.add(pair.first, pair.second, answer);
      random.push({
        answer,
        first_point: JSON.stringify(pair.first),
        second_point: JSON.stringify(pair.second),
      });
    }
  }
  const consistency = consistencyOf(
    agreement(result, phase2, random, o.frame),
    retests,
    "person" in result ? result.person : undefined,
  );
  return { consistency, slips: truth.of(consistency) };
}

/** A result's coin probability, when its engine learned the person's lapse. */
function coinOf(r: { readonly person?: { readonly coin: number } }): { coin?: number } {
  return r.person ? { coin: r.person.coin } : {};
}

/**
 * Whether one system is at least as good as the other on every class's correct count shown,
 * and better on one: every DLPM prefers it, so the pair says nothing about the trade-off.
 * @example isDominatedDiagonal([90, 80, 70], [90, 79, 70]) // true
 */
export function isDominatedDiagonal(a: readonly number[], b: readonly number[]): boolean {
  const ge = (x: readonly number[], y: readonly number[]) =>
    x.every((v, i) => v >= y[i]!) && x.some((v, i) => v > y[i]!);
  return ge(a, b) || ge(b, a);
}

/**
 * One person answering a multiclass study's adaptive questions as the web asks them
 * (`multiclassStudySteps` with the study's defaults, pairs that look the same on screen
 * answered "tie" unasked, `multiclassShownKey`). The person's value is the truth at the shown
 * counts (each row of a chart shows 100 people of a class): DLPM
 * `sum_i a_i p_i correct_i / 100`; LPM `sum_{i != j} a_ij p_i counts_ij / 100` (costs <= 0).
 */
function runMulticlass(
  o: RunPersonOptions,
  truth: DiagonalTruth | LinearMulticlassTruth,
): PeopleRun {
  const pool = o.multiclassPool;
  const kind = truth.family;
  if (pool === undefined) throw new RangeError(`${kind} needs the multiclass pool`);
  const setting = PEOPLE_SETTINGS[kind];
  const counts = (p: MulticlassPoint) => multiclassView(pool, p.classifier).counts;
  const correct = (p: MulticlassPoint) => counts(p).map((row, i) => row[i]!);
  // The mistakes shown, row by row without the diagonal (the LPM's coordinate order).
  const mistakes = (p: MulticlassPoint) =>
    counts(p).flatMap((row, i) => row.filter((_, j) => j !== i));
  const value = (p: MulticlassPoint) =>
    truth.family === "diagonal-linear"
      ? correct(p).reduce(
          (s, c, i) => s + (truth.weights[i]! * pool.priors[i]! * c) / MULTICLASS_ROW_TOTAL,
          0,
        )
      : mistakes(p).reduce(
          (s, c, a) =>
            s +
            (truth.costs[a]! * pool.priors[Math.floor(a / (pool.k - 1))]! * c) /
              MULTICLASS_ROW_TOTAL,
          0,
        );
  const spec: MulticlassAdaptiveSpec = {
    family: kind,
    tolerance: setting.tolerance,
    strategy: "adaptive",
    budget: o.budget ?? setting.budget,
    credibility: PEOPLE_ADAPTIVE.credibility,
    model: studyModelName(o.model ?? peopleModel(kind)),
    displayStep: MULTICLASS_DEFAULTS.displayStep,
    ...(o.exactEngine ? {} : { asShown: true as const }),
  };
  const family = multiclassLinearFamily(kind, pool, { displayStep: spec.displayStep });
  const range = truthRange(family, value);
  const person = makePerson<MulticlassPoint>(o.person, {
    value,
    range: range > 0 ? range : 1,
    seed: personSeed(kind, o),
  });
  // What decides the comparison, larger better: correct counts, or mistakes negated.
  const decisive = (p: MulticlassPoint) =>
    kind === "diagonal-linear" ? correct(p) : mistakes(p).map((x) => -x);
  const shown: ShownDiagonals[] = [];
  const asked: AskedPair<MulticlassPoint>[] = [];
  const ask: Ask<MulticlassPoint> = (q) => {
    const answer = person.ask(q);
    shown.push({ first: decisive(q.first), second: decisive(q.second), answer });
    asked.push({ first: q.first, second: q.second, answer });
    return answer;
  };
  const procedure = withAutoAnswers(
    stepsProcedure(() => multiclassStudySteps(spec, pool, o.trial + 1)),
    sameOnScreen(multiclassShownKey(kind, pool)),
  );
  const r = runProcedure(procedure, ask).result;
  const error = family.error(
    truth.family === "diagonal-linear" ? [...truth.weights] : [...truth.costs],
    r.metric,
  );
  return {
    ...adaptiveRun(o, truth, multiclassStudyFamily(spec, pool), r, asked, person, value, {
      error,
      tolerance: setting.tolerance,
      questions: shown.length,
      dominated: shown.filter((q) => isDominatedDiagonal(q.first, q.second)).length,
    }),
    ...(kind === "diagonal-linear" ? { shownDiagonals: shown } : { shownMistakes: shown }),
  };
}

/** A Phase II question as the person was asked it, with their answer. */
interface AskedPair<P> {
  readonly first: P;
  readonly second: P;
  readonly answer: Answer;
}

/**
 * A multiclass or fairness participant's consistency after Phase III as the study measures
 * it (participant/phase-three.ts): the study's random trade-offs (`randomTradeOffs`, the
 * study's count, the participant's seed) with repeats of Phase II pairs among them
 * (`withRetests`), answered by `ask`; the random ones judged by the result's belief
 * (`judgePair`) and counted (`countAgreement`), the repeats' sameness beside them.
 */
function kindPhaseThree<P, M>(
  family: AdaptiveFamily<P, M>,
  result: AdaptiveResult<P, M>,
  phase2: readonly AskedPair<P>[],
  ask: Ask<P>,
  seed: number,
  value: (p: P) => number,
): { consistency: Consistency; slips: PhaseThreeSlips } {
  const truth = truthSlips(value);
  const pairs = withRetests(
    randomTradeOffs(family, PEOPLE_PHASE_THREE.pairs, seed),
    phase2.map((q, id) => ({ id, answer: q.answer })),
    PEOPLE_PHASE_THREE.retests,
    seed,
  );
  const judged: JudgedAnswer[] = [];
  const retests: { original: string; repeat: string }[] = [];
  for (const pair of pairs) {
    if (isRetest(pair)) {
      const q = phase2[pair.retestOf]!;
      const repeat = ask({ stage: "retest", first: q.first, second: q.second });
      retests.push({ original: q.answer, repeat });
    } else {
      const answer = ask({ stage: "evaluation", first: pair.first, second: pair.second });
      truth.add(pair.first, pair.second, answer);
      const j = judgePair(family, result, pair.first, pair.second);
      judged.push({ answer, metric: j.metric, decided: j.decided });
    }
  }
  const consistency = consistencyOf(countAgreement(judged), retests, result.person);
  return { consistency, slips: truth.of(consistency) };
}

/**
 * A run of a multiclass or fairness study from its engine result, with its Phase III over
 * `family` answered by the same person after `asked` (Phase II), as the study states it once
 * Phase III is answered: nothing measured for a coin (`unmeasuredReading`), else the first
 * reading alone where Phase III bears it out (`trustedReading`). Flagged when the result names
 * an unidentified coordinate or found no informative question, or when the dashboard takes
 * the participant for a coin (Phase III's `consistency.coinLike`).
 */
function adaptiveRun<P, M>(
  o: RunPersonOptions,
  truth: PeopleTruth,
  family: AdaptiveFamily<P, M>,
  engine: AdaptiveResult<P, M>,
  asked: readonly AskedPair<P>[],
  person: { ask: Ask<P> },
  value: (p: P) => number,
  m: { error: number; tolerance: number; questions: number; dominated: number },
): PeopleRun {
  const { consistency, slips } = kindPhaseThree(
    family,
    engine,
    asked,
    (q) => person.ask(q),
    o.trial + 1,
    value,
  );
  // As the study states it: nothing measured for a coin (`statedAdaptive`), else the first
  // reading alone when Phase III bears it out.
  const r = consistency.coinLike
    ? unmeasuredReading(engine, family, o.trial + 1)
    : trustedReading(engine, consistency);
  // The dashboard flags a participant Phase III cannot tell apart from a coin, as it flags an
  // unidentified metric.
  const coinLike = consistency.coinLike;
  const flags = flagsOf(r.unidentified.length, r.stop, consistency);
  const flagged = flags.length > 0;
  return {
    family: truth.family as PeopleFamily,
    strategy: "adaptive",
    person: o.person,
    trial: o.trial,
    truth,
    questions: m.questions,
    error: m.error,
    covered: m.error <= r.credible.radius,
    engineCovered: m.error <= (consistency.coinLike ? engine.credible.radius : r.credible.radius),
    radius: r.credible.radius,
    flags,
    stop: r.stop,
    ...coinOf(r),
    ...(coinLike !== undefined ? { coinLike } : {}),
    phaseThreeP: consistency.coinP,
    leansTo: consistency.leansTo,
    slips,
    flagged,
    silentMiss: m.error > 2 * m.tolerance && !flagged,
    dominated: m.dominated,
    shown: [],
  };
}

/**
 * The fairness study's spec that the people panel runs for `truth` (a fairness study's
 * defaults, the engine on the counts shown unless `exactEngine`; lambda with the truth's
 * costs and gap weights known).
 * @example fairPeopleSpec(truth, {}).family === truth.family // true
 */
export function fairPeopleSpec(
  truth: FairTruth,
  o: Pick<RunPersonOptions, "budget" | "model" | "exactEngine">,
): FairSpec {
  const kind = truth.family;
  const setting = PEOPLE_SETTINGS[kind];
  const common = {
    tolerance: setting.tolerance,
    strategy: "adaptive" as const,
    budget: o.budget ?? setting.budget,
    credibility: PEOPLE_ADAPTIVE.credibility,
    model: studyModelName(o.model ?? peopleModel(kind)),
    displayStep: FAIR_DEFAULTS.displayStep,
    ...(o.exactEngine ? {} : { asShown: true as const }),
  };
  return kind === "fair-quadratic"
    ? { family: "fair-quadratic", ...common }
    : {
        family: "fair-lambda",
        ...common,
        known: { a: truth.metric.a, B: truth.metric.B },
        gridPoints: STUDY_GRID_POINTS,
      };
}

/**
 * One person answering a fairness study's adaptive questions as the web asks them
 * (`fairStudySteps` with the study's defaults, profiles with the same correct counts on screen
 * answered "tie" unasked, `fairShownKey`). The person's value is minus the truth's fair cost
 * at the rates shown (each group's correct counts of 100 per class, `fairView`).
 */
function runFair(o: RunPersonOptions, truth: FairTruth): PeopleRun {
  const data = o.fairData;
  const kind = truth.family;
  if (data === undefined) throw new RangeError(`${kind} needs the fairness data`);
  const setting = PEOPLE_SETTINGS[kind];
  const shownRates = (p: FairPoint) => shownRatesOf(data, p);
  const value = (p: FairPoint) => fairUtility(truth.metric, data.tau, shownRates(p));
  const spec = fairPeopleSpec(truth, o);
  const family = fairStudyFamily(spec, data);
  const range = truthRange(family, value);
  const person = makePerson<FairPoint>(o.person, {
    value,
    range: range > 0 ? range : 1,
    seed: personSeed(kind, o),
  });
  const shown: ShownProfiles[] = [];
  const asked: AskedPair<FairPoint>[] = [];
  let dominatedShown = 0;
  const ask: Ask<FairPoint> = (q) => {
    // lambda: both parts of the cost known; a profile no worse on the error part and on the
    // violation part (as shown) is preferred by every lambda.
    if (
      kind === "fair-lambda" &&
      dominatedFair(truth.metric, data.tau, shownRates(q.first), shownRates(q.second))
    )
      dominatedShown++;
    const answer = person.ask(q);
    const counts = (p: FairPoint) => fairView(data, p).counts;
    shown.push({ first: counts(q.first), second: counts(q.second), answer });
    asked.push({ first: q.first, second: q.second, answer });
    return answer;
  };
  const procedure = withAutoAnswers(
    stepsProcedure(() => fairStudySteps(spec, data, o.trial + 1)),
    sameOnScreen((p: FairPoint) => fairShownKey(data, p)),
  );
  const r = runProcedure(procedure, ask).result;
  const error = family.error(truth.metric, r.metric);
  return {
    ...adaptiveRun(o, truth, family, r, asked, person, value, {
      error,
      tolerance: setting.tolerance,
      questions: shown.length,
      dominated: dominatedShown,
    }),
    shownProfiles: shown,
  };
}

/**
 * A random fairness truth: fair-lambda, the study's known costs and violation weights
 * (`defaultKnown`) with lambda uniform on [0.1, 0.9]; fair-quadratic, a whole fair metric as
 * the UAI simulations draw one (`randomFairMetric`).
 */
export function randomFairTruth(
  family: "fair-lambda" | "fair-quadratic",
  data: FairStudyData,
  rng: Rng,
): FairTruth {
  const k = data.classNames.length;
  const groups = data.groupNames.length;
  if (family === "fair-quadratic") return { family, metric: randomFairMetric(k, groups, rng) };
  const known = defaultKnown(k, groups);
  const B = Object.fromEntries(
    Object.entries(known.B).map(([key, M]) => [key, M.map((row) => [...row])]),
  );
  return { family, metric: { a: [...known.a], B, lambda: rng.uniform(0.1, 0.9) } };
}

/**
 * A random DLPM truth as the multiclass tests draw one: uniform weights (plus 0.001) summed
 * to 1.
 */
function randomDiagonalTruth(rng: Rng, k: number): DiagonalTruth {
  const a = Array.from({ length: k }, () => rng.next() + 1e-3);
  const sum = a.reduce((x, y) => x + y, 0);
  return { family: "diagonal-linear", weights: a.map((x) => x / sum) };
}

/** Summary of one (family, strategy, person) cell. */
export interface PeopleRow {
  readonly family: PeopleFamily;
  readonly strategy: PeopleStrategy;
  readonly person: PersonType;
  readonly trials: number;
  readonly tolerance: number;
  /** The family's error measure: `a0` (`|a0 - a0'|`) or `angle` (radians). */
  readonly measure: string;
  /** Questions shown: mean and max over trials. */
  readonly questions: { readonly mean: number; readonly max: number };
  readonly error: { readonly p50: number; readonly p95: number; readonly max: number };
  /** Adaptive only: share of runs whose truth is in the region the study states. */
  readonly coverage?: number;
  /** Adaptive only: share of runs whose truth is in the engine's own region (`engineCovered`). */
  readonly engineCoverage?: number;
  /** Adaptive only: share of runs flagged (unidentified coordinates, no informative question or coin-like). */
  readonly flagged?: number;
  /**
   * Adaptive only: share of runs whose participant the dashboard flags as answering like a
   * coin (by Phase III), when every run says.
   */
  readonly coinLike?: number;
  /**
   * Adaptive only: share of runs whose participant the dashboard marks as leaning to one side
   * of the screen (`PeopleRun.leansTo`). Informative: not a flag.
   */
  readonly leaning?: number;
  /**
   * Adaptive only: the consistency figure the study states against the truth's
   * (`PeopleRun.slips`), over the runs where both are known: the mean stated share of
   * answers against the person's own result (`estimate`), the mean true share against their
   * own truth (`truth`), and the mean and largest gap between the two in a run; the mean gap
   * over the runs whose result is within twice the tolerance (`gapWithin`, of `within` runs;
   * the figure counts against the result, so a result far off moves it).
   */
  readonly slips?: {
    readonly estimate: number;
    readonly truth: number;
    readonly gap: number;
    readonly gapMax: number;
    readonly within: number;
    readonly gapWithin: number | null;
  };
  /** Runs with error above 2x tolerance and not flagged (paper flags nothing). */
  readonly silentMisses: number;
  /** Dominated pairs shown, summed over the trials. */
  readonly dominated: number;
}

/** The whole table and how it was made. */
export interface PeopleReproduction {
  readonly trials: number;
  readonly pool: string;
  readonly frame: DisplayFrame;
  /** Fairness: the fairness data's description, when those families ran. */
  readonly fairData?: string;
  /** Multiclass: the multiclass pool's description, when that family ran. */
  readonly multiclassPool?: string;
  readonly families: readonly PeopleFamily[];
  readonly people: readonly PersonType[];
  /**
   * The answer model of each family's adaptive runs: its study's with Phase III
   * (`peopleModel`), unless the options named one for all.
   */
  readonly models: Readonly<Partial<Record<PeopleFamily, PeopleAnswerModel>>>;
  /** The adaptive engine's budget per family run (the family's default unless overridden). */
  readonly budgets: Readonly<Partial<Record<PeopleFamily, number>>>;
  readonly rows: readonly PeopleRow[];
  /**
   * Every adaptive run whose error is above twice its family's tolerance, flagged or not
   * (the silent misses among them): family by family, the worst first.
   */
  readonly misses: readonly PeopleMiss[];
  /** Every run, when `keepRuns` was asked for (tests); absent otherwise. */
  readonly runs?: readonly PeopleRun[];
}

/** An adaptive run whose error is above twice the tolerance (`PeopleReproduction.misses`). */
export interface PeopleMiss {
  readonly family: PeopleFamily;
  readonly person: PersonType;
  /** 0-based trial: the truth's index in its family's draw, and the engine's seed - 1. */
  readonly trial: number;
  readonly truth: PeopleTruth;
  readonly questions: number;
  readonly error: number;
  /** The 90% credible region's radius the engine reported. */
  readonly radius: number;
  readonly stop: string;
  /** Why it is flagged; empty for a silent miss. */
  readonly flags: readonly PeopleFlag[];
  /**
   * The side the dashboard marks the person as leaning to (`PeopleRun.leansTo`; null: no
   * mark, or a model without leaning kinds of person).
   */
  readonly leansTo: "left" | "right" | null;
  /**
   * The learned answer model's probability that the person answers as a coin
   * (`PeopleRun.coin`; absent under a fixed model).
   */
  readonly coin?: number;
  /** Phase III's coin test (`PeopleRun.phaseThreeP`; null: nothing counted). */
  readonly phaseThreeP: number | null;
}

/** An adaptive run whose error is above twice its family's tolerance. */
function isMiss(r: PeopleRun): boolean {
  return r.strategy === "adaptive" && r.error > 2 * PEOPLE_SETTINGS[r.family].tolerance;
}

/**
 * The adaptive runs of `runs` whose error is above twice their family's tolerance, as
 * `PeopleMiss` records: in the order of `PEOPLE_FAMILIES`, the largest error first.
 * @example missesOf(runs).filter((m) => m.flags.length === 0) // the silent misses
 */
export function missesOf(runs: readonly PeopleRun[]): PeopleMiss[] {
  const order = (f: PeopleFamily) => PEOPLE_FAMILIES.indexOf(f);
  return runs
    .filter(isMiss)
    .sort((a, b) => order(a.family) - order(b.family) || b.error - a.error)
    .map((r) => ({
      family: r.family,
      person: r.person,
      trial: r.trial,
      truth: r.truth,
      questions: r.questions,
      error: r.error,
      radius: r.radius ?? Number.NaN,
      stop: r.stop ?? "",
      flags: r.flags ?? [],
      leansTo: r.leansTo ?? null,
      ...(r.coin === undefined ? {} : { coin: r.coin }),
      phaseThreeP: r.phaseThreeP ?? null,
    }));
}

/** Options of `reproducePeople`. */
export interface ReproducePeopleOptions {
  /** The pool the points come from (the built-in study's: `prepareStudyData(cancerDiagnosisConfig())`). */
  readonly population: BinaryPopulation;
  /** Random truths per family (the command's default is 30). */
  readonly trials: number;
  /**
   * Prefix of the truths' generator seeds (default `reproduce-people`, the truths the people
   * sweep asserts on): another prefix draws other truths, e.g. to tune on truths that no
   * sweep asserts on.
   */
  readonly truthSeed?: string;
  /**
   * The multiclass study's pool for DLPM and LPM (a web study of iris: `prepareMulticlassFromCsv`
   * with split seed 1) and its description.
   */
  readonly multiclass?: { readonly pool: MulticlassPool; readonly description: string };
  /**
   * The fairness study's data for fair-lambda and fair-quadratic (a web study of the bundled
   * arrests data by colour: `peopleFairData`) and its description.
   */
  readonly fair?: { readonly data: FairStudyData; readonly description: string };
  /**
   * Families to run (default `PEOPLE_FAMILIES`; DLPM and LPM only when `multiclass` is
   * given, the fairness families only when `fair` is).
   */
  readonly families?: readonly PeopleFamily[];
  /** Person types to run (default every one of `PERSON_TYPES`). */
  readonly people?: readonly PersonType[];
  /** People shown per page (default 100). */
  readonly shownPopulation?: number;
  /** Keep every run in the result (default false). */
  readonly keepRuns?: boolean;
  /** Called after every run (progress). */
  readonly onRun?: () => void;
  /** The adaptive engine's answer model (default each family's study's, `peopleModel`). */
  readonly model?: PeopleAnswerModel;
  /**
   * Multiclass and fairness families: the engine computes on the exact rates instead of the
   * counts shown, as studies created before issue 26 did (default false: as studies run
   * now). For side-by-side measurements only.
   */
  readonly exactEngine?: boolean;
  /**
   * The adaptive engine's budget per family, for families whose study may ask more or fewer
   * questions than its default (each a whole number from 5 to 100, as a study's; default the
   * family's, `PEOPLE_SETTINGS`).
   */
  readonly budgets?: Readonly<Partial<Record<PeopleFamily, number>>>;
}

/** The families of the options: as given, else every one whose pool is given. */
function familiesOf(o: Pick<ReproducePeopleOptions, "families" | "multiclass" | "fair">) {
  return (
    o.families ??
    PEOPLE_FAMILIES.filter(
      (f) => (!isMulticlassFamily(f) || o.multiclass) && (!isFairFamily(f) || o.fair),
    )
  );
}

/**
 * Number of runs `reproducePeople` will make (for a progress bar).
 * @example peopleSize({ trials: 30 }) // 2 families * 30 * 10 people * 2 strategies = 1200
 */
export function peopleSize(o: Omit<ReproducePeopleOptions, "population">): number {
  const people = o.people ?? PERSON_TYPES;
  return familiesOf(o).reduce((n, f) => n + o.trials * people.length * strategiesOf(f).length, 0);
}

/**
 * The truths of one family's runs (`o.trials` of them, drawn from the draw `o.truthSeed`):
 * trial t's truth is the t-th, whatever the people and the strategies run on it.
 * @example peopleTruths("fair-quadratic", { trials: 21, truthSeed: "held-out-1", population, fair })[20]
 */
export function peopleTruths(
  family: PeopleFamily,
  o: Pick<ReproducePeopleOptions, "trials" | "truthSeed" | "population" | "multiclass" | "fair">,
): PeopleTruth[] {
  const rng = createRng(`${o.truthSeed ?? ASSERTED_DRAW}:${family}`);
  return Array.from({ length: o.trials }, () =>
    family === "diagonal-linear"
      ? randomDiagonalTruth(rng, o.multiclass!.pool.k)
      : family === "linear"
        ? { family: "linear", costs: randomMulticlassTruth("linear", o.multiclass!.pool.k, rng) }
        : isFairFamily(family)
          ? randomFairTruth(family, o.fair!.data, rng)
          : randomBinaryTruth(family, rng, o.population.zeta),
  );
}

/**
 * Every person of the panel against `paper` and `adaptive` on the same truths and seeds:
 * trial t of a family is the t-th truth drawn (as `elicit simulate --random-truth` draws them)
 * from a generator seeded `reproduce-people:<family>`, engine seed t + 1, person seed
 * `people:<family>:<t>:<type>`. One row per (family, strategy, person).
 * @example reproducePeople({ population: pool, trials: 3, families: ["binary-threshold"] }).rows
 */
export function reproducePeople(o: ReproducePeopleOptions): PeopleReproduction {
  const families = familiesOf(o);
  const people = o.people ?? PERSON_TYPES;
  for (const f of families) {
    if (!PEOPLE_FAMILIES.includes(f)) {
      throw new RangeError(`unknown family "${f}"; choose ${PEOPLE_FAMILIES.join(", ")}`);
    }
  }
  for (const p of people) {
    if (!PERSON_TYPES.includes(p)) {
      throw new RangeError(`unknown person "${p}"; choose ${PERSON_TYPES.join(", ")}`);
    }
  }
  if (!(Number.isInteger(o.trials) && o.trials >= 1)) {
    throw new RangeError("trials must be a whole number, at least 1");
  }
  for (const [f, b] of Object.entries(o.budgets ?? {})) {
    if (!PEOPLE_FAMILIES.includes(f as PeopleFamily)) {
      throw new RangeError(`budget of unknown family "${f}"; choose ${PEOPLE_FAMILIES.join(", ")}`);
    }
    if (!(Number.isInteger(b) && b! >= 5 && b! <= 100)) {
      throw new RangeError(`the budget of ${f} must be a whole number from 5 to 100, got ${b}`);
    }
  }
  const budgetOf = (f: PeopleFamily) => o.budgets?.[f] ?? PEOPLE_SETTINGS[f].budget;
  const multiclassFamily = families.find(isMulticlassFamily);
  if (multiclassFamily && !o.multiclass) {
    throw new RangeError(`${multiclassFamily} needs the multiclass pool (option multiclass)`);
  }
  const fairFamily = families.find(isFairFamily);
  if (fairFamily && !o.fair) {
    throw new RangeError(`${fairFamily} needs the fairness data (option fair)`);
  }
  const shownPopulation = o.shownPopulation ?? PEOPLE_POPULATION;
  const frame = displayFrame(shownPopulation, o.population.zeta);
  const rows: PeopleRow[] = [];
  const all: PeopleRun[] = [];
  const missed: PeopleRun[] = [];
  for (const family of PEOPLE_FAMILIES.filter((f) => families.includes(f))) {
    const draw = o.truthSeed ?? ASSERTED_DRAW;
    const truths = peopleTruths(family, o);
    const cells = new Map<string, PeopleRun[]>();
    for (const person of people) {
      for (let t = 0; t < truths.length; t++) {
        for (const strategy of strategiesOf(family)) {
          const run = runPerson({
            family,
            strategy,
            person,
            truth: truths[t]!,
            population: o.population,
            ...(o.multiclass ? { multiclassPool: o.multiclass.pool } : {}),
            ...(o.fair ? { fairData: o.fair.data } : {}),
            trial: t,
            draw,
            shownPopulation,
            ...(o.model ? { model: o.model } : {}),
            ...(o.exactEngine ? { exactEngine: true } : {}),
            budget: budgetOf(family),
          });
          const key = `${strategy}:${person}`;
          cells.set(key, [...(cells.get(key) ?? []), run]);
          if (o.keepRuns) all.push(run);
          if (isMiss(run)) missed.push(run);
          o.onRun?.();
        }
      }
    }
    for (const strategy of strategiesOf(family)) {
      for (const person of people) {
        const runs = cells.get(`${strategy}:${person}`) ?? [];
        rows.push(summarise(family, strategy, person, runs));
      }
    }
  }
  return {
    trials: o.trials,
    pool: o.population.description,
    frame,
    ...(families.some(isMulticlassFamily) ? { multiclassPool: o.multiclass!.description } : {}),
    ...(families.some(isFairFamily) ? { fairData: o.fair!.description } : {}),
    families: PEOPLE_FAMILIES.filter((f) => families.includes(f)),
    people: [...people],
    models: Object.fromEntries(
      PEOPLE_FAMILIES.filter((f) => families.includes(f)).map((f) => [
        f,
        o.model ?? peopleModel(f),
      ]),
    ),
    budgets: Object.fromEntries(
      PEOPLE_FAMILIES.filter((f) => families.includes(f)).map((f) => [f, budgetOf(f)]),
    ),
    rows,
    misses: missesOf(missed),
    ...(o.keepRuns ? { runs: all } : {}),
  };
}

/**
 * Runs of `reproducePeople` over different families, or over different people of a family,
 * with the same trials, pools and options otherwise, as the one table a run over all of them
 * gives: a cell's rows and misses depend on its own family's truths and its person's seeds
 * only (the truths' generator is seeded by family, the person's by family, trial and type).
 * Every family must end with the same people, in the same order (a family's parts taken in
 * the order given). Lets a long table be made a family, or a cell, at a time (the people
 * sweep, whose one test ran past its limit).
 * @example mergePeopleReproductions(PEOPLE_FAMILIES.map((f) => reproducePeople({ ...o, families: [f] })))
 */
export function mergePeopleReproductions(parts: readonly PeopleReproduction[]): PeopleReproduction {
  const first = parts[0];
  if (!first) throw new RangeError("nothing to merge: give at least one table");
  // Each family's parts, in the order given, and the people they ran.
  const byFamily = new Map<PeopleFamily, PeopleReproduction[]>();
  for (const p of parts) {
    for (const f of p.families) byFamily.set(f, [...(byFamily.get(f) ?? []), p]);
  }
  const peopleOf = (f: PeopleFamily) => byFamily.get(f)!.flatMap((p) => p.people);
  for (const f of byFamily.keys()) {
    const people = peopleOf(f);
    if (new Set(people).size !== people.length) {
      throw new RangeError(
        `a family and person are in two of the tables: ${f} ${people.join(", ")}`,
      );
    }
  }
  const families = PEOPLE_FAMILIES.filter((f) => byFamily.has(f));
  const people = peopleOf(families[0]!);
  for (const p of parts) {
    const same =
      p.trials === first.trials &&
      p.pool === first.pool &&
      JSON.stringify(p.frame) === JSON.stringify(first.frame) &&
      p.families.every((f) => peopleOf(f).join() === people.join());
    if (!same) throw new RangeError("the tables differ in trials, pool, frame or people");
  }
  const ordered = families.flatMap((f) => byFamily.get(f)!.map((p) => [f, p] as const));
  const ofFamily = <T extends { readonly family: PeopleFamily }>(
    pick: (p: PeopleReproduction) => readonly T[] | undefined,
  ) => ordered.flatMap(([f, p]) => (pick(p) ?? []).filter((x) => x.family === f));
  // A family's rows by strategy, then person, as one run lists them.
  const rows = families.flatMap((f) =>
    strategiesOf(f).flatMap((strategy) =>
      people.flatMap((person) => {
        const row = byFamily
          .get(f)!
          .flatMap((p) => p.rows)
          .find((r) => r.family === f && r.strategy === strategy && r.person === person);
        return row ? [row] : [];
      }),
    ),
  );
  const order = (f: PeopleFamily) => PEOPLE_FAMILIES.indexOf(f);
  const sorted = ordered.map(([, p]) => p);
  const multiclassPool = sorted.find((p) => p.multiclassPool !== undefined)?.multiclassPool;
  const fairData = sorted.find((p) => p.fairData !== undefined)?.fairData;
  return {
    trials: first.trials,
    pool: first.pool,
    frame: first.frame,
    ...(multiclassPool !== undefined ? { multiclassPool } : {}),
    ...(fairData !== undefined ? { fairData } : {}),
    families,
    people,
    models: Object.fromEntries(families.map((f) => [f, byFamily.get(f)![0]!.models[f]])),
    budgets: Object.fromEntries(families.map((f) => [f, byFamily.get(f)![0]!.budgets[f]])),
    rows,
    // Within a family the worst first; equal errors in the parts' (the people's) order, as
    // one run's stable sort leaves them.
    misses: ofFamily((p) => p.misses).sort(
      (a, b) => order(a.family) - order(b.family) || b.error - a.error,
    ),
    ...(parts.every((p) => p.runs) ? { runs: ofFamily((p) => p.runs) } : {}),
  };
}

/** `PeopleRow.slips` of a cell's runs (nothing when no run has both figures). */
function slipsOf(runs: readonly PeopleRun[], tolerance: number): { slips?: PeopleRow["slips"] } {
  const both = runs.flatMap((r) =>
    r.slips && r.slips.estimate !== null && r.slips.truth !== null
      ? [{ estimate: r.slips.estimate, truth: r.slips.truth, error: r.error }]
      : [],
  );
  if (both.length === 0) return {};
  const gap = (b: (typeof both)[number]) => Math.abs(b.estimate - b.truth);
  const within = both.filter((b) => b.error <= 2 * tolerance);
  return {
    slips: {
      estimate: mean(both.map((b) => b.estimate)),
      truth: mean(both.map((b) => b.truth)),
      gap: mean(both.map(gap)),
      gapMax: Math.max(...both.map(gap)),
      within: within.length,
      gapWithin: within.length === 0 ? null : mean(within.map(gap)),
    },
  };
}

function summarise(
  family: PeopleFamily,
  strategy: PeopleStrategy,
  person: PersonType,
  runs: readonly PeopleRun[],
): PeopleRow {
  const setting = PEOPLE_SETTINGS[family];
  const qs = runs.map((r) => r.questions);
  const es = runs.map((r) => r.error);
  const share = (f: (r: PeopleRun) => boolean) => runs.filter(f).length / runs.length;
  return {
    family,
    strategy,
    person,
    trials: runs.length,
    tolerance: setting.tolerance,
    measure: setting.measure,
    questions: { mean: mean(qs), max: Math.max(...qs) },
    error: { p50: quantile(es, 0.5), p95: quantile(es, 0.95), max: Math.max(...es) },
    ...(strategy === "adaptive"
      ? {
          coverage: share((r) => r.covered === true),
          engineCoverage: share((r) => r.engineCovered === true),
          flagged: share((r) => r.flagged),
          ...(runs.every((r) => r.coinLike !== undefined)
            ? { coinLike: share((r) => r.coinLike === true) }
            : {}),
          leaning: share((r) => r.leansTo === "left" || r.leansTo === "right"),
          ...slipsOf(runs, setting.tolerance),
        }
      : {}),
    silentMisses: runs.filter((r) => r.silentMiss).length,
    dominated: runs.reduce((s, r) => s + r.dominated, 0),
  };
}
