import { ANSWER_MODEL_NAMES } from "../../elicit/adaptive/answer-model.ts";
import type { BinarySpec } from "../../elicit/binary/spec.ts";
import type { KindComprehensionViews } from "./kind-comprehension.ts";

/**
 * The answer models a study's engine runs under (see `BinaryAdaptiveSpec.model`);
 * `learned-tiring` is the default of DLPM studies with a Phase III (`multiclassAnswerModel`).
 */
export type StudyAnswerModel = Exclude<(typeof ANSWER_MODEL_NAMES)[number], "exact">;

/**
 * Every `StudyAnswerModel`, in `ANSWER_MODEL_NAMES`'s order.
 * @example STUDY_ANSWER_MODELS[0] // "human"
 */
export const STUDY_ANSWER_MODELS: readonly StudyAnswerModel[] = ANSWER_MODEL_NAMES.filter(
  (n): n is StudyAnswerModel => n !== "exact",
);

/**
 * Whether `name` is a `StudyAnswerModel`.
 * @example isStudyAnswerModel("exact") // false
 */
export function isStudyAnswerModel(name: string): name is StudyAnswerModel {
  return (STUDY_ANSWER_MODELS as readonly string[]).includes(name);
}

/**
 * A study run with the adaptive engine (src/elicit/adaptive; issue 10) instead of the papers'
 * searches. Everything that fixes the questions is stored here, frozen with the study, so a
 * stored log replays the same way whatever the defaults become later; the engine's seed is the
 * participant's seed.
 */
export interface AdaptiveStudySpec {
  readonly family: "binary-threshold" | "binary-linear";
  /** Target accuracy in the family's error measure (|a0 - a0'|, or radians). */
  readonly tolerance: number;
  readonly strategy: "adaptive";
  /** Largest number of Phase II questions. */
  readonly budget: number;
  /** Credibility of the reported credible region. */
  readonly credibility: number;
  /**
   * How answers are believed to arise: people slip, so the engine's `learned` model (the
   * person's lapse learned from their answers; studies created from issue 26 on) or its
   * fixed `human` model (older studies, replayed as they ran).
   */
  readonly model: StudyAnswerModel;
  /**
   * The precision at which the participant sees TP and TN (fractions of the population): the
   * engine never asks two points that agree at this step. `1 / display.population` (the
   * step of the study's display frame, views.ts); 0.001 in studies from before frames.
   */
  readonly displayStep: number;
  /** binary-threshold: thresholds snapped to this grid (as the paper strategies do). */
  readonly grid?: number;
  /**
   * The engine's belief grid, points per prior component (`STUDY_GRID_POINTS`, 4096, in
   * studies created from issue 28 on: a quarter of the CPU per answer); absent, the engine's
   * 16384, and older studies' answer logs replay as they ran.
   */
  readonly gridPoints?: number;
  /**
   * The engine also weighs every threshold classifier as shown for its questions (true in
   * studies created from issue 26's stop 49 on: pairs such as 5 missed against 4 false
   * alarms pin a person's trade-off where the belief's own candidates cannot); absent,
   * older studies' answer logs replay as they ran.
   */
  readonly everyShown?: boolean;
}

/**
 * A multiclass study's elicitation (issue 12): the diagonal-linear metric `sum_i a_i C_ii`
 * (weights >= 0 summing to 1 on the diagonal confusions), or the linear one
 * `sum_{i != j} a_ij C_ij` (a cost <= 0 for every kind of mistake, unit length), with the
 * adaptive engine.
 */
export interface MulticlassAdaptiveSpec {
  readonly family: "diagonal-linear" | "linear";
  /** Target accuracy: the largest weight difference, max |a_i - a_i'|. */
  readonly tolerance: number;
  readonly strategy: "adaptive";
  readonly budget: number;
  readonly credibility: number;
  readonly model: StudyAnswerModel;
  /** The engine's display step on the diagonal confusions (the screen guard is views). */
  readonly displayStep: number;
  /**
   * The engine computes on the counts shown (whole people of 100 per class), as the
   * participant judges them; absent (studies created before) it computed on the exact
   * confusions, and their answer logs replay as they ran.
   */
  readonly asShown?: true;
}

/**
 * A fairness study's elicitation (issue 12): the trade-off lambda of the UAI 2022 fair metric
 * `(1 - lambda) <a, 1 - r> + lambda/2 sum_{u<v} (r^u - r^v)^T B^{uv} (r^u - r^v)` (cost form)
 * with the costs `a` and the violation weights `B` fixed by the study (`known`, normalised as
 * `normalizeFair` does), elicited with the adaptive engine's lambda family (Algorithm 5's
 * setting) on the data's group query ball.
 */
export interface FairLambdaSpec {
  readonly family: "fair-lambda";
  /** Target accuracy: |lambda - lambda'|. */
  readonly tolerance: number;
  readonly strategy: "adaptive";
  readonly budget: number;
  readonly credibility: number;
  readonly model: StudyAnswerModel;
  /** The engine's display step on every group's rates (1 of the 100 shown per row). */
  readonly displayStep: number;
  /**
   * The engine computes on the counts shown (whole people of 100 per group and class), as the
   * participant judges them; absent (studies created before) it computed on the queried
   * rates, and their answer logs replay as they ran.
   */
  readonly asShown?: true;
  /**
   * The engine's belief grid over lambda, points per prior component (`STUDY_GRID_POINTS`,
   * 4096, in studies created from issue 28's kept-run budget on: a quarter of the memory a
   * server keeps per participant); absent, the engine's 16384, and older studies' answer
   * logs replay as they ran.
   */
  readonly gridPoints?: number;
  /** The accuracy costs per class and the violation weights per group pair ("u-v"). */
  readonly known: {
    readonly a: readonly number[];
    readonly B: Readonly<Record<string, readonly (readonly number[])[]>>;
  };
}

/**
 * A fairness study's full elicitation (issue 12 item 2): the whole UAI 2022 fair metric, the
 * costs `a` per class, the violation weights `B^{uv}` per group pair and the trade-off lambda,
 * with the adaptive engine's fair-quadratic family on the data's group query ball. Nothing is
 * fixed by the study; what the answers leave open is flagged per coordinate.
 */
export interface FairFullSpec extends Omit<FairLambdaSpec, "family" | "known" | "gridPoints"> {
  /**
   * `tolerance` here is the target accuracy of each coordinate (every a_i, every B entry,
   * lambda): the engine flags a coordinate whose credible half-width is above it.
   */
  readonly family: "fair-quadratic";
}

/** Either fairness elicitation: lambda with known a and B, or the full fair metric. */
export type FairSpec = FairLambdaSpec | FairFullSpec;

/**
 * Each kind's specs, by kind. A kind's folder adds its own by declaration merging
 * (`declare module "../../study/config.ts" { interface KindSpecs { mine: MySpec } }`).
 */
export interface KindSpecs {
  binary: BinarySpec | AdaptiveStudySpec;
  multiclass: MulticlassAdaptiveSpec;
  fair: FairSpec;
}

/** How a study elicits: one of the papers' searches, or the adaptive engine. */
export type StudySpec = KindSpecs[keyof KindSpecs];

import type { StudyKind } from "../kinds/catalogue.ts";

export type { StudyKind };

/** A study's kind: configurations from before kinds are binary. */
export function studyKind(config: Pick<StudyConfig, "kind">): StudyKind {
  return config.kind ?? "binary";
}

/**
 * Bundled multiclass datasets a study can be made from, with their label column, and for
 * those whose labels are codes, the words a participant reads instead (a study stores them as
 * `source.classLabels`): glass's types are UCI's numbers ("1", "2", ...; the audit's
 * participant read 'A true "1" taken for another class'), wine's its cultivars "class_0" ....
 */
export const MULTICLASS_DATASETS = {
  iris: { file: "iris.csv", target: "target" },
  wine: {
    file: "wine.csv",
    target: "target",
    labels: { class_0: "cultivar 1", class_1: "cultivar 2", class_2: "cultivar 3" },
  },
  vehicle: { file: "vehicle.csv", target: "Class" },
  glass: {
    file: "glass.csv",
    target: "Type",
    // UCI Glass Identification's types (4, vehicle windows of other glass, has no rows).
    labels: {
      "1": "building windows (float glass)",
      "2": "building windows (other glass)",
      "3": "vehicle windows",
      "5": "containers",
      "6": "tableware",
      "7": "headlamps",
    },
  },
} as const;
export type MulticlassDataset = keyof typeof MULTICLASS_DATASETS;

/** Bundled datasets with a protected group a fairness study can be made from. */
export const FAIR_DATASETS = {
  arrests: { file: "arrests.csv", target: "released", groups: ["colour", "sex"] },
  titanic: { file: "titanic_survival.csv", target: "survived", groups: ["sex", "passengerClass"] },
} as const;
export type FairDataset = keyof typeof FAIR_DATASETS;

/** Defaults of the adaptive strategy in a study (also the API's). */
export const ADAPTIVE_DEFAULTS = { budget: 30, credibility: 0.9 } as const;

/** Phase II pairs an adaptive study shows again in Phase III (test-retest, issue 26). */
export const DEFAULT_RETEST_PAIRS = 2;

/**
 * Phase III's random pairs in a multiclass or fairness study (as the binary study's 15).
 *
 * With the 2 repeats the coin test counts 17 answers, and a person who answers 15% of them
 * against their own result at random is taken for a coin 9.9% of the time (20%: 24.2%; a
 * coin 97.5%); on the people panel's asserted draw the probit person was flagged as a coin
 * in 20% of DLPM runs and 23% of LPM runs, with results within the tolerance. 20 pairs (22
 * answers: 3.7%, 13.3%, a coin 97.4%; binomial, printed by a scratch script) cut that on
 * tune-1 (probit: DLPM 17% -> 10%, LPM 10% -> 0%, lambda 10% -> 0%; lapses 27% / 13% / 17%
 * -> 7%) but were not kept: on the asserted draw an LPM run of 20% flips (trial 27) that the
 * weaker test had flagged became silent (error 0.23; it stopped at its budget with a radius
 * of 0.79 while every cost's half-width over the whole belief was within the tolerance,
 * III p 0.002), and on the model comparisons' draw a coin's DLPM run under the fixed `human`
 * model agreed with a result 0.63 off often enough (III p 0.008) to pass. Half-widths taken
 * per component of the prior, as the radius is, flagged trial 27's kind of run but also 13% of
 * a careful person's LPM runs on tune-1 (none before); they are the engine's now, with a
 * component below 1% of the posterior setting neither (`COMPONENT_FLOOR` in engine.ts: no
 * careful LPM run flagged on tune-1). The coin under `human` still stands against 20 pairs.
 */
export const DEFAULT_EVALUATION_PAIRS = 15;

/**
 * The Phase III of a new multiclass or fairness study: the request's random pairs and
 * repeats, or the defaults (no repeats without random pairs: no Phase III at all).
 * @example phaseThreeOf({}) // { evaluationPairs: 15, retestPairs: 2 }
 */
export function phaseThreeOf(body: { evaluationPairs?: number; retestPairs?: number }): {
  evaluationPairs: number;
  retestPairs: number;
} {
  const evaluationPairs = body.evaluationPairs ?? DEFAULT_EVALUATION_PAIRS;
  return {
    evaluationPairs,
    retestPairs: evaluationPairs === 0 ? 0 : (body.retestPairs ?? DEFAULT_RETEST_PAIRS),
  };
}

/**
 * The answer model of a new adaptive study (issue 26): with a Phase III, `learned-lean`,
 * whose careful reader lets a careful person's near pairs pin their metric down (and whose
 * leaning people weigh a lean to one side of the screen), while Phase III's random pairs and
 * repeats flag a coin that this reader's level would explain in Phase II; without one,
 * `without` (the study kind's model that flags a coin from Phase II alone). Studies made with
 * `learned-sharp` keep it and replay as they ran. A kind may name its own model for studies
 * with a Phase III (`withPhaseThree`: lambda's `learned-blunt-lean`, `fairAnswerModel`).
 * @example studyAnswerModel(15, "learned") // "learned-lean"
 */
export function studyAnswerModel(
  evaluationPairs: number,
  without: StudyAnswerModel,
  withPhaseThree: StudyAnswerModel = "learned-lean",
): StudyAnswerModel {
  return evaluationPairs > 0 ? withPhaseThree : without;
}

/**
 * A binary study's answer model (`studyAnswerModel`): with a Phase III, the threshold's is
 * `learned-flipping` (`learned-lean` with a sharp flipper among its people, `FLIPPING_LAPSES`,
 * chosen on the people panel's tuning truths, where it narrowed 20% flips' tail on the
 * threshold) and binary-linear's `learned-flipping-moderate` (the same with a flipper of
 * moderate sharpness, `MODERATE_FLIPPING_LAPSES`: there the sharp flipper took lapses and a
 * tired person beyond the target, and `learned-lean` left 20% flips silent misses). Studies
 * made with `learned-lean` keep it and replay as they ran.
 * @example binaryAnswerModel("binary-threshold", 15) // "learned-flipping"
 */
export function binaryAnswerModel(
  family: "binary-threshold" | "binary-linear",
  evaluationPairs: number,
): StudyAnswerModel {
  return studyAnswerModel(
    evaluationPairs,
    "human",
    family === "binary-threshold" ? "learned-flipping" : "learned-flipping-moderate",
  );
}

/** Whether a study's spec uses the adaptive engine. */
export function isAdaptiveSpec(
  spec: StudySpec,
): spec is AdaptiveStudySpec | MulticlassAdaptiveSpec | FairSpec {
  return spec.strategy === "adaptive";
}

/** Whether a spec is a binary one (a paper's search or the adaptive engine on two classes). */
export function isBinarySpec(spec: StudySpec): spec is BinarySpec | AdaptiveStudySpec {
  return spec.family.startsWith("binary-");
}

/** The study's own words for classes and outcomes (see docs/web-api.md). */
export interface StudyWords {
  readonly positive: string;
  readonly negative: string;
  readonly predictedPositive: string;
  readonly predictedNegative: string;
  readonly missed: string;
  readonly falseAlarm: string;
  readonly question: string;
  readonly systemNoun: string;
  /** The people the charts count, plural ("per 100 patients"); absent: "patients". */
  readonly people?: string;
}

/** A questionnaire or post-task field. */
export interface Field {
  readonly id: string;
  readonly label: string;
  readonly kind: "single" | "text" | "number";
  readonly options?: readonly string[];
  readonly required: boolean;
}

/** A fixed system of Phase I, as counts out of 100. */
export interface FixedSystem {
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
  readonly tn: number;
}

export interface ComprehensionQuestion {
  readonly id: string;
  readonly prompt: string;
  readonly options: readonly string[];
  readonly correct: string;
  /** Shown after a wrong answer (explains how to read the chart). */
  readonly explanation: string;
}

/** Where the candidate classifiers come from. */
export type StudySource =
  | {
      readonly kind: "dataset";
      readonly file: string;
      readonly sha256: string;
      readonly target: string;
      readonly positive: string;
      readonly dropColumns: readonly string[];
      readonly splitSeed: number;
    }
  | {
      readonly kind: "predictions";
      readonly csv: string;
      readonly positive?: string;
    }
  | {
      /**
       * A multiclass dataset, bundled or uploaded: the server fits the softmax model as the
       * CLI does.
       */
      readonly kind: "multiclass-dataset";
      /** The bundled file's name, or "uploaded dataset" (then `csv` holds the upload). */
      readonly file: string;
      /** An uploaded dataset's CSV text (absent: the bundled `file`). */
      readonly csv?: string;
      readonly sha256: string;
      readonly target: string;
      readonly splitSeed: number;
      /** Only the rows of these classes (absent: every class), e.g. 5 of glass's 6. */
      readonly classes?: readonly string[];
      /** Columns left out of the features (uploads only; absent: none). */
      readonly dropColumns?: readonly string[];
      /**
       * How each label is shown, for bundled data whose labels are codes (absent: as in the
       * data; studies made before it show the codes, as their participants saw them).
       */
      readonly classLabels?: Readonly<Record<string, string>>;
    }
  | {
      /** A dataset with a group column, bundled or uploaded: a softmax model fitted as the CLI does. */
      readonly kind: "fair-dataset";
      /** The bundled file's name, or "uploaded dataset" (then `csv` holds the upload). */
      readonly file: string;
      /** An uploaded dataset's CSV text (absent: the bundled `file`). */
      readonly csv?: string;
      readonly sha256: string;
      readonly target: string;
      readonly groups: string;
      readonly splitSeed: number;
      /** Columns left out of the features (uploads only; absent: none). */
      readonly dropColumns?: readonly string[];
    }
  | {
      /**
       * A multiclass study's uploaded predictions (`label`, one `p_<class>` per class): the
       * rows' probabilities are the pool, no model is fitted.
       */
      readonly kind: "multiclass-predictions";
      readonly csv: string;
      readonly sha256: string;
    }
  | {
      /** A fairness study's uploaded predictions with a group column (`groups` names it). */
      readonly kind: "fair-predictions";
      readonly csv: string;
      readonly sha256: string;
      readonly groups: string;
    };

/** The name an uploaded multiclass or fairness dataset is stored under (`source.file`). */
export const UPLOADED_DATASET = "uploaded dataset";

/**
 * Everything that defines a study. Frozen at creation: its SHA-256 (of the canonical JSON) is
 * stored with the study and with every answer.
 */
export interface StudyConfig<S extends StudySpec = StudySpec> {
  readonly version: 1;
  /** Absent: binary (every study from before kinds). */
  readonly kind?: StudyKind;
  readonly title: string;
  readonly template: "cancer-diagnosis" | null;
  readonly source: StudySource;
  readonly pool: "labelled" | "soft";
  readonly spec: S;
  readonly words: StudyWords;
  readonly consentText: string;
  readonly questionnaire: readonly Field[];
  readonly story: {
    readonly paragraphs: readonly string[];
    readonly costs: { readonly missed: string; readonly falseAlarm: string };
  };
  readonly comprehension: {
    readonly systems: readonly [FixedSystem, FixedSystem];
    /**
     * Multiclass and fairness studies: the two systems of the study's own pool their
     * questions are about, as their comparison pages draw them (kind-comprehension.ts);
     * absent in binary studies (`systems`) and in those made before Part 1 had them.
     */
    readonly views?: KindComprehensionViews;
    readonly questions: readonly ComprehensionQuestion[];
    readonly maxAttempts: number;
  };
  /** G3: the participant's own cost-ratio guess; null skips the page. */
  readonly guessPrompt: string | null;
  readonly evaluationPairs: number;
  /**
   * Binary adaptive studies: how many of the participant's own Phase II pairs Phase III shows
   * again among its random pairs (test-retest, issue 26; evaluation-pairs.ts `withRetests`).
   * Absent (0) in studies from before, which replay as they were answered.
   */
  readonly retestPairs?: number;
  readonly post: readonly Field[];
  /**
   * How points are shown: whole people out of `population`, with class totals from the pool's
   * prevalence fixed for the whole study (views.ts `displayFrame`); no question shows two
   * systems identical in it. Absent in studies created before whole counts, which keep their
   * one-decimal view and replay as they were answered.
   */
  readonly display?: { readonly population: number };
}

/** JSON with object keys sorted, so equal configurations hash equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
