import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { DataError } from "../../data/errors.ts";
import { formatPredictions } from "../../data/predictions.ts";
import { DEFAULT_TOLERANCE } from "../../elicit/binary/spec.ts";
import { type PreparedBinary, prepareBinaryFromCsv } from "../../population/binary.ts";
import type { PreparedMulticlass } from "../../population/multiclass.ts";
import type { CreateStudyBody, MulticlassView } from "../api-schemas.ts";
import { ApiError } from "../errors.ts";
import { prepareStudyData } from "../kinds/binary/data.ts";
import { prepareMulticlassStudyData } from "../kinds/multiclass/data.ts";
import { multiclassStudyFamily, multiclassView } from "../kinds/multiclass/participant.ts";
import { studyKindOf } from "../kinds/registry.ts";
import { DEFAULT_POPULATION, type DisplayFrame, displayFrame } from "../participant/views.ts";
import { sha256 } from "../security/tokens.ts";
import {
  COMPREHENSION_TOKENS,
  hasTokens,
  resolveComprehension,
  scaleSystems,
  systemsMatch,
} from "./comprehension-systems.ts";
import {
  ADAPTIVE_DEFAULTS,
  canonicalJson,
  DEFAULT_RETEST_PAIRS,
  MULTICLASS_DATASETS,
  type MulticlassAdaptiveSpec,
  phaseThreeOf,
  type StudyConfig,
  type StudyKind,
  type StudySource,
  type StudySpec,
  UPLOADED_DATASET,
} from "./config.ts";
import {
  API_REMEDY,
  builtInTextsRefusal,
  GENERAL_BINARY_WORDS,
  generalBinaryTexts,
} from "./general-texts.ts";
import { comprehensionPair, multiclassComprehension } from "./kind-comprehension.ts";
import {
  bundledDataPath,
  cancerDiagnosisConfig,
  generalStudyBase,
  PAPER_POST_QUESTIONS,
  PHASE1_SYSTEMS,
  phase1QuestionTemplates,
} from "./template.ts";
import { builtInTextsOf, withTexts } from "./texts.ts";

/** Fewest distinct predicted probabilities an uploaded study accepts. */
export const MIN_DISTINCT_PROBABILITIES = 10;

/**
 * Build and validate a study configuration from a create request. The data are prepared once
 * here, so a bad upload fails with the parser's message before anything is stored.
 */
export function buildStudyConfig(body: CreateStudyBody): { config: StudyConfig; hash: string } {
  return studyKindOf(body).buildConfig(body);
}

/**
 * A binary study's configuration from a create request: the built-in study, or an upload's
 * general texts in the study's words.
 * @example binaryStudyConfig({ name: "Screening", template: "cancer-diagnosis" }).config.spec.family // "binary-threshold"
 */
export function binaryStudyConfig(body: CreateStudyBody): { config: StudyConfig; hash: string } {
  if (body.template && body.predictionsCsv !== undefined) {
    throw new ApiError(
      400,
      "invalid_study",
      "give either a template or a predictions CSV, not both",
    );
  }
  const uploaded = body.predictionsCsv !== undefined || body.datasetCsv !== undefined;
  // Uploaded data start from general texts in the study's words, never from the built-in
  // study's (its breast cancer, its patients, its "34 of them"); the request's texts replace
  // either (issue 27 defect 1).
  const start = uploaded ? generalBinaryBase(body) : cancerDiagnosisConfig(body.name);
  const base = withTexts(start, body.texts);
  const family = body.family ?? "binary-threshold";
  // Another kind's family: the schema refuses it.
  if (family !== "binary-threshold" && family !== "binary-linear")
    throw new Error(`unreachable: ${family} in a binary study`);
  const population = body.population ?? DEFAULT_POPULATION;
  let config: StudyConfig = {
    ...base,
    template:
      body.predictionsCsv === undefined && body.datasetCsv === undefined
        ? "cancer-diagnosis"
        : null,
    words: { ...base.words, ...stripUndefined(body.words ?? {}) },
    consentText: body.consentText ?? base.consentText,
    evaluationPairs: body.evaluationPairs ?? base.evaluationPairs,
    spec: studySpec(body, family, population),
    display: { population },
  };
  // Test-retest pairs in Phase III for the adaptive engine's studies; the papers' searches
  // keep the user-study paper's Phase III of random pairs only.
  const { retestPairs: _, ...rest } = config;
  config =
    config.spec.strategy === "adaptive"
      ? { ...rest, retestPairs: body.retestPairs ?? DEFAULT_RETEST_PAIRS }
      : rest;
  if (body.predictionsCsv !== undefined) {
    if (body.predictionsCsv.trim() === "") {
      throw new ApiError(400, "invalid_csv", "the predictions CSV is empty");
    }
    config = {
      ...config,
      source: {
        kind: "predictions",
        csv: body.predictionsCsv,
        ...(body.positive ? { positive: body.positive } : {}),
      },
    };
  }
  if (body.datasetCsv !== undefined) config = { ...config, source: fittedSource(body) };
  let zeta: number;
  try {
    const prepared = prepareStudyData(config);
    zeta = prepared.pool.zeta;
    if (prepared.pool.size < 2) throw new DataError("the predictions need at least two rows");
    // Every question shows two threshold classifiers; with few distinct probabilities there
    // are few distinct classifiers, and participants would compare identical systems.
    const distinct = new Set(prepared.test.probabilities).size;
    if (distinct < MIN_DISTINCT_PROBABILITIES)
      throw new DataError(
        `the predictions have ${distinct} distinct probabilit${distinct === 1 ? "y" : "ies"}; a study needs at least ${MIN_DISTINCT_PROBABILITIES} (with fewer, participants would compare identical systems)`,
      );
  } catch (e) {
    if (e instanceof DataError || e instanceof RangeError) {
      throw new ApiError(400, "invalid_csv", e.message);
    }
    throw e;
  }
  config = withComprehensionSystems(
    config,
    body,
    displayFrame(population, zeta),
    uploaded ? generalTexts(config.words).comprehension : phase1QuestionTemplates(),
  );
  const refusal = builtInTextsRefusal(builtInTextsOf(config), API_REMEDY);
  if (refusal !== null) throw new ApiError(400, "invalid_study", `texts: ${refusal}`);
  return { config, hash: sha256(canonicalJson(config)) };
}

/** General texts of a binary study of other data in `words` (general-texts.ts). */
function generalTexts(words: StudyConfig["words"]) {
  return generalBinaryTexts(words, PAPER_POST_QUESTIONS);
}

/**
 * The starting point of a binary study of uploaded data: the built-in study's settings with
 * the request's words over general ones, and general texts written in those words (consent,
 * story, mistakes, guess, post-task questions; Part 1's questions come in
 * `withComprehensionSystems`).
 */
function generalBinaryBase(body: CreateStudyBody): StudyConfig {
  const builtIn = cancerDiagnosisConfig(body.name);
  const words = { ...GENERAL_BINARY_WORDS, ...stripUndefined(body.words ?? {}) };
  const g = generalTexts(words);
  return {
    ...builtIn,
    words,
    consentText: g.consentText,
    story: { paragraphs: [...g.story.paragraphs], costs: { ...g.story.costs } },
    guessPrompt: g.guessPrompt,
    post: [...g.post],
  };
}

/**
 * Part 1's two fixed systems in the study's own class totals, and its questions with their
 * tokens filled in from them: the systems a request gives (which must show those totals), or
 * else the built-in systems' rates carried to them, so that the comprehension charts and every
 * comparison after them show the same class totals (issue 11). Questions that quote numbers
 * literally were written for the built-in systems: on a pool with other totals they are
 * refused unless the request gives its own systems, never shown beside charts that disagree.
 */
function withComprehensionSystems(
  config: StudyConfig,
  body: CreateStudyBody,
  frame: DisplayFrame,
  templates: StudyConfig["comprehension"]["questions"],
): StudyConfig {
  const given = body.texts?.comprehensionSystems as
    | readonly [
        { tp: number; fn: number; fp: number; tn: number },
        { tp: number; fn: number; fp: number; tn: number },
      ]
    | undefined;
  const w = config.words;
  const totals = `${frame.positives} who ${w.positive} and ${frame.negatives} who ${w.negative}, of ${frame.population}`;
  if (given !== undefined && !systemsMatch(given, frame)) {
    throw new ApiError(
      400,
      "invalid_study",
      `texts.comprehensionSystems: each system must show this study's class totals (${totals}): tp + fn = ${frame.positives} and fp + tn = ${frame.negatives}; with the same rates that is ${JSON.stringify(scaleSystems(given, frame))}`,
    );
  }
  const own = body.texts?.comprehension;
  const builtInTotals = systemsMatch(PHASE1_SYSTEMS, frame);
  if (given === undefined && own !== undefined && !builtInTotals) {
    const literal = own.findIndex(
      (q) =>
        [q.prompt, ...q.options, q.correct, q.explanation].some((t) => /\d/.test(t)) &&
        ![q.prompt, ...q.options, q.correct, q.explanation].some(hasTokens),
    );
    if (literal >= 0)
      throw new ApiError(
        400,
        "invalid_study",
        `texts.comprehension[${literal}] quotes numbers of the built-in systems (34 and 66 of 100), but this study's pool shows ${totals}: write its numbers as tokens (${COMPREHENSION_TOKENS.slice(0, 4).join(", ")}, {positives}, ...) or give texts.comprehensionSystems`,
      );
  }
  const systems = given ?? scaleSystems(PHASE1_SYSTEMS, frame);
  const resolved = resolveComprehension(own ?? templates, systems);
  const problem = resolved.problems[0];
  if (problem !== undefined)
    throw new ApiError(
      400,
      "invalid_study",
      `texts.comprehension[${problem.index}]: ${problem.message}`,
    );
  return {
    ...config,
    comprehension: { ...config.comprehension, systems, questions: resolved.questions },
  };
}

/**
 * A study's data from an uploaded dataset CSV (features and a label column): the logistic
 * regression is fitted exactly as `elicit fit` fits it (prepareBinaryFromCsv with the CLI's
 * defaults: stratified 50/50 split with seed 1, L2 penalty 1) and its held-out predictions
 * are stored in the configuration as the CLI writes them (formatPredictions), with where they
 * came from. The study then replays from those stored predictions, never by fitting again.
 */
function fittedSource(body: CreateStudyBody): FittedPredictionsSource {
  const name = "uploaded dataset";
  let prepared: PreparedBinary;
  try {
    if (body.datasetCsv!.trim() === "") throw new DataError("the dataset CSV is empty");
    prepared = prepareBinaryFromCsv(
      body.datasetCsv!,
      {
        target: body.target!,
        ...(body.positive ? { positive: body.positive } : {}),
        ...(body.dropColumns ? { dropColumns: body.dropColumns } : {}),
        splitSeed: FIT_DEFAULTS.splitSeed,
        l2: FIT_DEFAULTS.l2,
      },
      name,
    );
  } catch (e) {
    if (e instanceof DataError || e instanceof RangeError)
      throw new ApiError(400, "invalid_csv", `dataset CSV: ${e.message}`);
    throw e;
  }
  const m = prepared.model!;
  return {
    kind: "predictions",
    csv: formatPredictions({
      labels: prepared.test.labels,
      probabilities: prepared.test.probabilities,
      positiveLabel: prepared.positiveLabel,
      negativeLabel: prepared.negativeLabel,
    }),
    positive: prepared.positiveLabel,
    fittedFrom: {
      sha256: createHash("sha256").update(body.datasetCsv!).digest("hex"),
      target: body.target!,
      positive: prepared.positiveLabel,
      dropColumns: body.dropColumns ?? [],
      splitSeed: FIT_DEFAULTS.splitSeed,
      l2: FIT_DEFAULTS.l2,
      features: m.features,
      trainRows: m.trainSize,
      testRows: m.testSize,
      testAccuracy: m.testAccuracy,
    },
  };
}

/** How an uploaded dataset became a study's predictions (stored with them, in study.json). */
export interface FittedFrom {
  /** SHA-256 of the uploaded CSV text. */
  readonly sha256: string;
  readonly target: string;
  readonly positive: string;
  readonly dropColumns: readonly string[];
  readonly splitSeed: number;
  readonly l2: number;
  readonly features: number;
  readonly trainRows: number;
  readonly testRows: number;
  /** Held-out accuracy at threshold 0.5, as `elicit fit` reports it. */
  readonly testAccuracy: number;
}

/** Predictions fitted by the server from an uploaded dataset. */
export type FittedPredictionsSource = Extract<StudySource, { kind: "predictions" }> & {
  readonly fittedFrom: FittedFrom;
};

/** `elicit fit`'s defaults (src/cli/population-options.ts): split seed 1, L2 penalty 1. */
export const FIT_DEFAULTS = { splitSeed: 1, l2: 1 } as const;

/** The elicitation part of a new study (the zod schema has checked every field's range). */
function studySpec(
  body: CreateStudyBody,
  family: "binary-threshold" | "binary-linear",
  population: number,
): StudySpec {
  const tolerance = body.tolerance ?? DEFAULT_TOLERANCE[family];
  const grid = family === "binary-threshold" ? { grid: 1e-4 } : {};
  // The adaptive engine unless the request names another strategy (issue 26: the papers'
  // searches compute on unrounded rates, not on the counts a participant sees).
  if (body.strategy === undefined || body.strategy === "adaptive") {
    return {
      family,
      tolerance,
      strategy: "adaptive",
      budget: body.budget ?? ADAPTIVE_DEFAULTS.budget,
      credibility: body.credibility ?? ADAPTIVE_DEFAULTS.credibility,
      model: "human",
      // One person of the shown population: the engine never asks a pair that looks
      // identical on screen (views.ts rounds with the same step and expression).
      displayStep: 1 / population,
      ...grid,
    };
  }
  return { family, tolerance, strategy: body.strategy ?? "paper", ...grid };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Defaults of a multiclass study (diagonal-linear, adaptive): issue 12's 25 questions, and
 * the `learned` answer model (issue 26).
 */
export const MULTICLASS_DEFAULTS = {
  tolerance: 0.05,
  budget: 25,
  displayStep: 1e-3,
  model: "learned",
} as const;

/**
 * Defaults of a linear multiclass study (a cost per kind of mistake: 6 for k = 3): 30
 * questions, each weight to 0.1. On iris at 25 questions, noise-free, the largest weight
 * error was 0.024 to 0.081 over 12 random truths, every run flagging weights above 0.05.
 */
export const MULTICLASS_LINEAR_DEFAULTS = { tolerance: 0.1, budget: 30 } as const;

/**
 * A multiclass study over a bundled or uploaded dataset (k = 3..6 classes; an upload is stored
 * in the configuration and names its label column, `target`): the softmax model is fitted
 * as the CLI fits it, and the diagonal-linear (or linear) metric elicited with the adaptive
 * engine on the counts shown.
 * @example multiclassStudyConfig({ name: "Flowers", kind: "multiclass", dataset: "iris" }).config.spec.family // "diagonal-linear"
 */
export function multiclassStudyConfig(body: CreateStudyBody): {
  config: StudyConfig;
  hash: string;
} {
  const defaults = body.family === "linear" ? MULTICLASS_LINEAR_DEFAULTS : MULTICLASS_DEFAULTS;
  const spec: MulticlassAdaptiveSpec = {
    family: body.family === "linear" ? "linear" : "diagonal-linear",
    tolerance: body.tolerance ?? defaults.tolerance,
    strategy: "adaptive",
    budget: body.budget ?? defaults.budget,
    credibility: body.credibility ?? ADAPTIVE_DEFAULTS.credibility,
    // The person's slip rate learned from their answers (issue 26: on the people panel's
    // held-out truths it flagged the random responder and covered 20% flips, DLPM and LPM,
    // where the fixed model did not).
    model: MULTICLASS_DEFAULTS.model,
    displayStep: MULTICLASS_DEFAULTS.displayStep,
    asShown: true,
  };
  return classStudyConfig(body, {
    kind: "multiclass",
    spec,
    comprehensionPair: (prepared) => {
      const pair = comprehensionPair(multiclassStudyFamily(spec, prepared.pool));
      return [
        multiclassView(prepared.pool, pair.first.classifier),
        multiclassView(prepared.pool, pair.second.classifier),
      ];
    },
  });
}

/**
 * A study over the classes of a bundled or uploaded dataset, or of a predictions CSV (k = 3..6
 * classes), shown as people per class (a multiclass study, or another kind over the same
 * data): the kind's spec, and Part 1 made from two systems of its pool as the kind's pages
 * show them (`comprehensionPair`).
 */
export function classStudyConfig(
  body: CreateStudyBody,
  kind: {
    readonly kind: StudyKind;
    readonly spec: StudySpec;
    readonly comprehensionPair: (prepared: PreparedMulticlass) => [MulticlassView, MulticlassView];
  },
): { config: StudyConfig; hash: string } {
  const base = generalStudyBase(body.name);
  // The schema asks for a multiclass dataset, an upload with its label column (target) or a
  // predictions CSV (label, p_<class> columns: the user's model, nothing fitted here).
  const predictions = body.predictionsCsv !== undefined;
  const uploaded = body.datasetCsv !== undefined || predictions;
  const what = predictions ? "predictions CSV" : "dataset CSV";
  const dataset =
    body.datasetCsv !== undefined
      ? { file: UPLOADED_DATASET, target: body.target! }
      : MULTICLASS_DATASETS[(body.dataset ?? "iris") as keyof typeof MULTICLASS_DATASETS];
  const text =
    body.predictionsCsv ?? body.datasetCsv ?? readFileSync(bundledDataPath(dataset.file), "utf8");
  if (uploaded && text.trim() === "")
    throw new ApiError(400, "invalid_csv", `${what}: the ${what} is empty`);
  const sha = createHash("sha256").update(text).digest("hex");
  const config: StudyConfig = {
    ...base,
    kind: kind.kind,
    template: null,
    source: predictions
      ? { kind: "multiclass-predictions", csv: text, sha256: sha }
      : {
          kind: "multiclass-dataset",
          file: dataset.file,
          ...(uploaded ? { csv: text } : {}),
          sha256: sha,
          target: dataset.target,
          splitSeed: 1,
          ...(body.classes !== undefined ? { classes: [...body.classes] } : {}),
          ...(uploaded && body.dropColumns?.length ? { dropColumns: [...body.dropColumns] } : {}),
        },
    pool: "soft",
    spec: kind.spec,
    words: {
      ...base.words,
      question: "Which system would you rather use?",
      systemNoun: "system",
      ...stripUndefined(body.words ?? {}),
    },
    consentText: body.consentText ?? base.consentText,
    story: {
      paragraphs: [
        "A computer system sorts each case into one of several classes. No system is perfect: each one gets some cases of each class wrong, and systems differ in which classes they get wrong.",
        "Each chart shows 100 cases of every true class and how many of them the system put in each class. Some mistakes may matter more to you than others. You will compare pairs of systems and tell us which one you would rather use.",
      ],
      // Binary studies' two named mistakes; a multiclass study's pages do not show them.
      costs: { missed: "", falseAlarm: "" },
    },
    comprehension: { ...base.comprehension, questions: [] },
    guessPrompt: null,
    ...phaseThreeOf(body),
    display: { population: 100 },
  };
  let prepared: ReturnType<typeof prepareMulticlassStudyData>;
  try {
    prepared = prepareMulticlassStudyData(config);
    if (prepared.pool.k > 6)
      throw new DataError(
        predictions
          ? `the predictions have ${prepared.pool.k} classes; a study shows 3 to 6`
          : `the dataset has ${prepared.pool.k} classes; a study shows 3 to 6 (keep 3 to 6 of them with classes)`,
      );
  } catch (e) {
    if (e instanceof DataError || e instanceof RangeError) {
      if (uploaded) throw new ApiError(400, "invalid_csv", `${what}: ${e.message}`);
      throw new ApiError(400, "invalid_study", e.message);
    }
    throw e;
  }
  // Part 1: two systems of the study's own pool and questions about reading them.
  const [left, right] = kind.comprehensionPair(prepared);
  const check = multiclassComprehension(
    left,
    right,
    prepared.classNames,
    config.words.systemNoun.charAt(0).toUpperCase() + config.words.systemNoun.slice(1),
  );
  // The request's own texts (those a multiclass study shows; the schema refused the rest).
  const own = withTexts(
    { ...config, comprehension: { ...config.comprehension, ...check } },
    body.texts,
  );
  return { config: own, hash: sha256(canonicalJson(own)) };
}
