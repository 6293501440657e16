import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { DataError } from "../../../data/errors.ts";
import { STUDY_GRID_POINTS } from "../../../elicit/adaptive/binary-study.ts";
import { type GroupQuerySpace, groupQuerySpace } from "../../../elicit/fair/group-space.ts";
import { groupPairs, normalizeFair, pairKey } from "../../../elicit/fair/metric.ts";
import {
  type PreparedFair,
  prepareFairFromCsv,
  prepareFairFromPredictions,
} from "../../../population/fair.ts";
import type { CreateStudyBody } from "../../api-schemas.ts";
import { ApiError } from "../../errors.ts";
import { sha256 } from "../../security/tokens.ts";
import {
  ADAPTIVE_DEFAULTS,
  canonicalJson,
  FAIR_DATASETS,
  type FairDataset,
  type FairLambdaSpec,
  type FairSpec,
  phaseThreeOf,
  type StudyAnswerModel,
  type StudyConfig,
  studyAnswerModel,
  UPLOADED_DATASET,
} from "../../study/config.ts";
import { comprehensionPair } from "../../study/kind-comprehension.ts";
import { bundledDataPath, generalStudyBase } from "../../study/template.ts";
import { withTexts } from "../../study/texts.ts";
import { checkParameterBudget } from "../parameter-budget.ts";
import { fairComprehension } from "./comprehension.ts";
import { fairStudyFamily, fairView } from "./participant.ts";

/**
 * The bundled fairness data as a participant reads them (the default story): what the system
 * decides, with the label's own values, and each group column in words. The audit found the
 * story naming the "released" column and "colour" and never saying what “Yes” decides.
 * Sources: data/ATTRIBUTION-fairness.md (carData's Arrests and TitanicSurvival).
 */
const BUNDLED_FAIR_WORDS = {
  arrests: {
    decides:
      "A computer system decides, for each person arrested in Toronto for holding a small amount of marijuana, whether they are released with a summons (“Yes”) or not (“No”).",
    groups: { colour: "skin colour", sex: "sex" },
  },
  titanic: {
    decides:
      "A computer system guesses, for each passenger of the Titanic, whether they survived (“yes”) or not (“no”).",
    groups: { sex: "sex", passengerClass: "passenger class" },
  },
} as const satisfies Record<
  FairDataset,
  { decides: string; groups: Partial<Record<string, string>> }
>;

/**
 * Defaults of a fairness study: issue 12's 25 questions, lambda to 0.05, and the engine told
 * the screen's precision (each group's rates as whole counts out of 100, so steps of 0.01).
 * The person's slip rate is learned from their answers (issue 26): on the people panel's
 * held-out truths (`--truth-seed held-out-1`, 30 per cell, the engine on the counts shown),
 * lambda's 90% region held the truth for a side-biased person in 97% of runs against 37%
 * with the fixed human model, the random responder was flagged in 83% against 53% (3 silent
 * misses against 12), for about 21 questions instead of 14 from a careful person; the whole
 * fair metric covered 20% flips in 100% against 80%.
 */
export const FAIR_DEFAULTS = {
  tolerance: 0.05,
  budget: 25,
  displayStep: 0.01,
  model: "learned",
} as const;

/**
 * Defaults of a whole-metric (fair-quadratic) study: 45 questions, each coordinate to 0.1.
 * With two classes and two groups that is five numbers (a linear multiclass study of six
 * costs has 45 questions too); the gap weights often stay open, which the debrief and the
 * exports then say (`unidentified`). The budget was 30 until the people panel's tuning truths
 * (`reproduce people --families fair-quadratic --trials 30 --truth-seed tune-1|tune-2
 * --budget fair-quadratic=30|45`, under `learned-sharp-checked`) showed what 15 more answers
 * buy: error p95 at 30 / 45 on tune-1 and tune-2, careful 0.0933 / 0.0212 and 0.0646 /
 * 0.0248, 5% flips 0.2512 / 0.0802 and 0.3599 / 0.1439, 10% flips 0.6448 / 0.2341 and
 * 0.4770 / 0.2385, lapses 0.5403 / 0.5033 and 0.5707 / 0.4607; probit 0.2749 / 0.3812 and
 * 0.5215 / 0.4696, a tired person 0.8228 / 0.9267 and 1.2040 / 1.0210 (no better); every
 * non-random person's region held their truth in 97-100% of runs (100% at 30) and no run was
 * left unflagged. Earlier, under other answer models: at 60 questions under
 * `learned-lean` a careful person's p95 fell to 0.03, but a tired, side-biased or
 * often-flipping person stayed above 0.2; under `learned` at 60 and 90 the tired and the
 * side-biased person's regions held the truth in only 60-80% of runs, since their late
 * answers are nearly a coin's.
 */
export const FAIR_FULL_DEFAULTS = {
  tolerance: 0.1,
  budget: 45,
  model: "learned-flips-checked",
} as const;

/**
 * A fairness study's answer model: lambda's is a study's with or without Phase III
 * (`studyAnswerModel`), but with a Phase III `learned-blunt-lean` rather than `learned-lean`
 * (its leaning people are blunter: a side bias's region held the truth more often on the
 * people panel's tuning truths, `BLUNT_LEAN_LAPSES`; studies made with `learned-lean` keep
 * it); the whole fair metric's with a Phase III is `learned-flips-checked` (below; before it
 * `learned-sharp-checked`, whose story follows) (without one,
 * `learned`, whose Phase II flags a coin that the careful reader would explain). Its careful
 * reader (`learned-sharp`) pins a careful person's metric down, which `learned` does not (on
 * the people panel's tuning truths, `reproduce people --families fair-quadratic --trials 30
 * --truth-seed tune-N --answer-model M`, a careful person's error p95 0.6112 on tune-1 under
 * `learned`), but alone it ended runs far off their truth unflagged: on held-out-1 a
 * side-biased person's at an error of 0.5064 with a credible radius of 0.1009 and a tired
 * one's at 0.2743, even with `a` and `B` reported open as a whole (`AdaptiveFamily.parts`);
 * `learned-lean` did the same on tune-1 / tune-2. Read again by `learned` (`check`: the region
 * and the unidentified coordinates answer for both readings; the questions and the estimate
 * are `learned-sharp`'s), no run was left unflagged on tune-1, tune-2 or held-out-1, the
 * careful person's p95 0.0933 / 0.0646 / 0.0919, and every non-random person's region held
 * their truth in every run (a random responder's in 77-93%). But `learned` has no careful
 * reader: it left a careful person's gap weights open in every run, so every run was flagged
 * and the flag told a researcher nothing. Once Phase III is answered the study states the
 * first reading alone where Phase III bears it out (`trustedReading`: the careful reader at
 * least 0.9 likely, 10 answers counted, none against the result, every repeat the same):
 * a careful person's runs are flagged in none of 20 on tune-1 and of 30 on held-out-1 (5%
 * flips' in 70% and 63%), no run is left unflagged beyond twice the tolerance and every
 * non-random person's region holds their truth in at least 95% of runs, where the
 * probability alone (without Phase III) left two side-biased runs of held-out-1 far off
 * their truth unflagged (errors 0.256 and 0.492).
 * `learned-flips-checked` (`LEARNED_FLIPS_CHECKED_MODEL`) adds sharp flippers to its people and
 * chooses each question by the spread of the metric's parts it leaves: on the tuning truths
 * tune-1 / tune-2, 10% flips' p95 0.2341 / 0.2385 -> 0.1557 / 0.1190, within twice the
 * tolerance; the figures of every person are with the model.
 * @example fairAnswerModel("fair-quadratic", 15) // "learned-flips-checked"
 */
export function fairAnswerModel(
  family: "fair-lambda" | "fair-quadratic",
  evaluationPairs: number,
): StudyAnswerModel {
  return studyAnswerModel(
    evaluationPairs,
    FAIR_DEFAULTS.model,
    family === "fair-quadratic" ? FAIR_FULL_DEFAULTS.model : "learned-blunt-lean",
  );
}

/** The spec a create request asks for: lambda (with the default known a, B) or the whole metric. */
function fairSpec(body: CreateStudyBody, prepared: PreparedFair): FairSpec {
  const whole = body.family === "fair-quadratic";
  const defaults = whole ? FAIR_FULL_DEFAULTS : FAIR_DEFAULTS;
  const common = {
    tolerance: body.tolerance ?? defaults.tolerance,
    strategy: "adaptive" as const,
    budget: body.budget ?? defaults.budget,
    credibility: body.credibility ?? ADAPTIVE_DEFAULTS.credibility,
    model: fairAnswerModel(
      whole ? "fair-quadratic" : "fair-lambda",
      phaseThreeOf(body).evaluationPairs,
    ),
    displayStep: FAIR_DEFAULTS.displayStep,
    asShown: true as const,
  };
  if (whole) return { family: "fair-quadratic", ...common };
  const known = defaultKnown(prepared.classNames.length, prepared.groupNames.length);
  return { family: "fair-lambda", ...common, known, gridPoints: STUDY_GRID_POINTS };
}

/** A fairness study's prepared data: one soft-label pool per group, tau, the query ball. */
export interface FairStudyData extends PreparedFair {
  /** The ball inside every group's feasible rates and the realisation of its profiles. */
  readonly space: GroupQuerySpace;
}

/**
 * The costs and violation weights a fairness study fixes (Algorithm 5's "known" a and B):
 * every class's error counts the same (`a` uniform: the average of the per-class error rates)
 * and every group pair's gap in every class counts the same (`B^{uv}` the identity), in
 * `normalizeFair`'s normalisation.
 * @example defaultKnown(2, 2) // { a: [0.707, 0.707], B: { "0-1": [[1.414, 0], [0, 1.414]] } }
 */
export function defaultKnown(k: number, groups: number): FairLambdaSpec["known"] {
  const identity = Array.from({ length: k }, (_, i) =>
    Array.from({ length: k }, (_, j) => (i === j ? 1 : 0)),
  );
  const B: Record<string, number[][]> = {};
  for (const [u, v] of groupPairs(groups)) B[pairKey(u, v)] = identity;
  const n = normalizeFair({ a: new Array<number>(k).fill(1), B, lambda: 0.5 });
  return { a: n.a, B: n.B };
}

/** Prepare a fairness study's data (throws `DataError` / `RangeError` on bad data). */
export function prepareFairStudyData(config: StudyConfig): FairStudyData {
  const s = config.source;
  if (s.kind === "fair-predictions") {
    const prepared = prepareFairFromPredictions(s.csv, s.groups);
    return { ...prepared, space: groupQuerySpace(prepared.pools) };
  }
  if (s.kind !== "fair-dataset") throw new Error("not a fairness study");
  const text = s.csv ?? readFileSync(bundledDataPath(s.file), "utf8");
  const prepared = prepareFairFromCsv(text, {
    target: s.target,
    groups: s.groups,
    splitSeed: s.splitSeed,
    ...(s.dropColumns ? { dropColumns: s.dropColumns } : {}),
  });
  return { ...prepared, space: groupQuerySpace(prepared.pools) };
}

const cache = new Map<string, FairStudyData>();

/** The prepared data of a fairness study, computed once per configuration hash. */
export function fairStudyData(configHash: string, config: StudyConfig): FairStudyData {
  let p = cache.get(configHash);
  if (!p) {
    p = prepareFairStudyData(config);
    if (cache.size > 64) cache.clear();
    cache.set(configHash, p);
  }
  return p;
}

/**
 * A fairness study over a dataset with a group column, bundled (arrests by colour or sex,
 * titanic by sex or passenger class) or uploaded (`datasetCsv` with its `target` and `groups`
 * columns, stored in the configuration): the softmax model is fitted as the CLI fits it, each
 * group's held-out probabilities form its pool, and the trade-off lambda is elicited with the
 * adaptive engine on the ball inside every group's feasible rates. As in a multiclass study
 * there is no cost story or guess; Part 1 asks about two systems of its own pool
 * (kind-comprehension.ts) and Phase III has its own random pairs (participant/phase-three.ts).
 * @example fairStudyConfig({ name: "Release decisions", kind: "fair", dataset: "arrests" })
 */
export function fairStudyConfig(body: CreateStudyBody): { config: StudyConfig; hash: string } {
  const base = generalStudyBase(body.name);
  const predictions = body.predictionsCsv !== undefined;
  const uploaded = body.datasetCsv !== undefined || predictions;
  const what = predictions ? "predictions CSV" : "dataset CSV";
  let name: string;
  let dataset: { readonly file: string; readonly target: string };
  let groups: string;
  let text: string;
  if (predictions) {
    // The schema asks predictions for their group column; the label column is "label".
    name = "uploaded predictions";
    dataset = { file: "uploaded predictions", target: "label" };
    groups = body.groups!;
    text = body.predictionsCsv!;
    if (text.trim() === "")
      throw new ApiError(400, "invalid_csv", "predictions CSV: the predictions CSV is empty");
  } else if (uploaded) {
    // The schema asks an upload for its label (target) and group columns.
    name = "uploaded";
    dataset = { file: UPLOADED_DATASET, target: body.target! };
    groups = body.groups!;
    text = body.datasetCsv!;
    if (text.trim() === "")
      throw new ApiError(400, "invalid_csv", "dataset CSV: the dataset CSV is empty");
  } else {
    const bundled = FAIR_DATASETS[body.dataset === "titanic" ? "titanic" : "arrests"];
    name = body.dataset === "titanic" ? "titanic" : "arrests";
    dataset = bundled;
    groups = body.groups ?? bundled.groups[0];
    if (!(bundled.groups as readonly string[]).includes(groups)) {
      throw new ApiError(
        400,
        "invalid_study",
        `the ${name} data's group columns are ${bundled.groups.map((g) => `"${g}"`).join(", ")}`,
      );
    }
    text = readFileSync(bundledDataPath(dataset.file), "utf8");
  }
  const sha = createHash("sha256").update(text).digest("hex");
  const source: StudyConfig["source"] = predictions
    ? { kind: "fair-predictions", csv: text, sha256: sha, groups }
    : {
        kind: "fair-dataset",
        file: dataset.file,
        ...(uploaded ? { csv: text } : {}),
        sha256: sha,
        target: dataset.target,
        groups,
        splitSeed: 1,
        ...(uploaded && body.dropColumns?.length ? { dropColumns: [...body.dropColumns] } : {}),
      };
  let prepared: FairStudyData;
  try {
    prepared = prepareFairStudyData({ ...base, source });
  } catch (e) {
    if (e instanceof DataError || e instanceof RangeError) {
      if (uploaded) throw new ApiError(400, "invalid_csv", `${what}: ${e.message}`);
      throw new ApiError(400, "invalid_study", e.message);
    }
    throw e;
  }
  const classes = prepared.classNames.map((c) => `“${c}”`).join(" and ");
  const groupList = prepared.groupNames.map((g) => `“${g}”`).join(", ");
  // The bundled data in the participant's words; an upload by its own column names.
  const plain = !predictions && !uploaded ? BUNDLED_FAIR_WORDS[name as FairDataset] : undefined;
  const groupWords = plain?.groups[groups as keyof typeof plain.groups] ?? groups;
  const config: StudyConfig = {
    ...base,
    kind: "fair",
    template: null,
    source,
    pool: "soft",
    spec: fairSpec(body, prepared),
    words: {
      ...base.words,
      question: "Which system would you rather use?",
      systemNoun: "system",
      ...Object.fromEntries(Object.entries(body.words ?? {}).filter(([, v]) => v !== undefined)),
    },
    consentText: body.consentText ?? base.consentText,
    story: {
      paragraphs: [
        plain
          ? `${plain.decides} No system is perfect: each one gets some people wrong.`
          : `A computer system decides between ${classes} for each person (the "${dataset.target}" column of the ${predictions ? name : `${name} data`}). No system is perfect: each one gets some people wrong.`,
        `People belong to groups (${groupWords}: ${groupList}). A system can get more people right overall and still be right more often for one group than for another.`,
        `Each chart shows, for 100 people of every group and every true answer, how many the system gets right, and the gap between the groups. You will compare pairs of systems and tell us which one you would rather use: how much being right overall matters to you against treating the groups alike${body.family === "fair-quadratic" ? ", and which mistakes and which gaps matter most to you" : ""}.`,
      ],
      costs: { missed: "", falseAlarm: "" },
    },
    comprehension: { ...base.comprehension, questions: [] },
    guessPrompt: null,
    ...phaseThreeOf(body),
    display: { population: 100 },
  };
  // Part 1: two systems of the study's own pool and questions about reading them.
  const family = fairStudyFamily(config.spec as FairSpec, prepared);
  checkParameterBudget(family.dim, (config.spec as FairSpec).budget, [
    "elicit the trade-off lambda alone (family fair-lambda)",
    "keep fewer groups or classes",
  ]);
  const pair = comprehensionPair(family);
  const noun = config.words.systemNoun;
  const check = fairComprehension(
    fairView(prepared, pair.first),
    fairView(prepared, pair.second),
    prepared.classNames,
    prepared.groupNames,
    noun.charAt(0).toUpperCase() + noun.slice(1),
  );
  // The request's own texts (those a fairness study shows; the schema refused the rest).
  const own = withTexts(
    { ...config, comprehension: { ...config.comprehension, ...check } },
    body.texts,
  );
  return { config: own, hash: sha256(canonicalJson(own)) };
}
