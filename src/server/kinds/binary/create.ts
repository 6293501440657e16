import { STUDY_GRID_POINTS } from "../../../elicit/adaptive/binary-study.ts";
// A binary study's configuration from a create request: the built-in study, or uploaded
// predictions or a dataset with general texts in the study's words; Part 1's systems.

import { createHash } from "node:crypto";
import { DataError } from "../../../data/errors.ts";
import { formatPredictions } from "../../../data/predictions.ts";
import { DEFAULT_TOLERANCE } from "../../../elicit/binary/spec.ts";
import { type PreparedBinary, prepareBinaryFromCsv } from "../../../population/binary.ts";
import type { CreateStudyBody } from "../../api-schemas.ts";
import { ApiError } from "../../errors.ts";
import { DEFAULT_POPULATION, type DisplayFrame, displayFrame } from "../../participant/views.ts";
import { sha256 } from "../../security/tokens.ts";
import {
  COMPREHENSION_TOKENS,
  hasTokens,
  resolveComprehension,
  scaleSystems,
  systemsMatch,
} from "../../study/comprehension-systems.ts";
import {
  ADAPTIVE_DEFAULTS,
  binaryAnswerModel,
  canonicalJson,
  DEFAULT_RETEST_PAIRS,
  type StudyConfig,
  type StudySource,
  type StudySpec,
} from "../../study/config.ts";
import { stripUndefined } from "../../study/create.ts";
import {
  API_REMEDY,
  builtInTextsRefusal,
  GENERAL_BINARY_WORDS,
  generalBinaryTexts,
} from "../../study/general-texts.ts";
import {
  cancerDiagnosisConfig,
  PAPER_POST_QUESTIONS,
  PHASE1_SYSTEMS,
  phase1QuestionTemplates,
} from "../../study/template.ts";
import { builtInTextsOf, withTexts } from "../../study/texts.ts";
import { prepareStudyData } from "./data.ts";

/** Fewest distinct predicted probabilities an uploaded study accepts. */
export const MIN_DISTINCT_PROBABILITIES = 10;

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
    spec: studySpec(body, family, population, body.evaluationPairs ?? base.evaluationPairs),
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
  evaluationPairs: number,
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
      // A binary study without Phase III keeps the fixed human model (its participants'
      // consistency is then not measured).
      model: binaryAnswerModel(family, evaluationPairs),
      // One person of the shown population: the engine never asks a pair that looks
      // identical on screen (views.ts rounds with the same step and expression).
      displayStep: 1 / population,
      ...grid,
      gridPoints: STUDY_GRID_POINTS,
      everyShown: true,
    };
  }
  return { family, tolerance, strategy: body.strategy ?? "paper", ...grid };
}
