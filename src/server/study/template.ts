import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { STUDY_GRID_POINTS } from "../../elicit/adaptive/binary-study.ts";
import type { BinarySpec } from "../../elicit/binary/spec.ts";
import { DEFAULT_POPULATION } from "../participant/views.ts";
import { resolveComprehension } from "./comprehension-systems.ts";
import {
  ADAPTIVE_DEFAULTS,
  type AdaptiveStudySpec,
  binaryAnswerModel,
  DEFAULT_EVALUATION_PAIRS,
  DEFAULT_RETEST_PAIRS,
  type Field,
  type FixedSystem,
  type StudyConfig,
  type StudyWords,
} from "./config.ts";

/** The bundled dataset of the "Cancer diagnosis" template. */
export const CANCER_DATA_FILE = "breast_cancer_wisconsin_original.csv";

/** Absolute path of a bundled data file. */
export function bundledDataPath(file: string): string {
  return fileURLToPath(new URL(`../../../data/${file}`, import.meta.url));
}

export const CANCER_WORDS: StudyWords = {
  positive: "had cancer",
  negative: "did not have cancer",
  predictedPositive: "predicted high risk",
  predictedNegative: "predicted low risk",
  missed: "missed cancers",
  falseAlarm: "false alarms",
  question: "Which system would you rather your doctor used?",
  systemNoun: "system",
};

/** The user-study paper's demographic questionnaire, as required single-choice fields. */
export const PAPER_QUESTIONNAIRE: readonly Field[] = [
  {
    id: "age",
    label: "Your age",
    kind: "single",
    options: ["18-24", "25-34", "35-44", "45-54", "55-64", "65 or older", "Prefer not to say"],
    required: true,
  },
  {
    id: "gender",
    label: "Your gender",
    kind: "single",
    options: ["Woman", "Man", "Non-binary", "Prefer to self-describe", "Prefer not to say"],
    required: true,
  },
  {
    // "Prefer to self-describe" needs somewhere to do so (issue 11).
    id: "gender_self_described",
    label: "If you prefer to self-describe: your gender (optional)",
    kind: "text",
    required: false,
  },
  {
    id: "race",
    label: "Your race or ethnicity",
    kind: "single",
    options: [
      "Asian",
      "Black or African American",
      "Hispanic or Latino",
      "Native American or Alaska Native",
      "Native Hawaiian or Pacific Islander",
      "White",
      "More than one / other",
      "Prefer not to say",
    ],
    required: true,
  },
  {
    id: "education",
    label: "Highest level of education completed",
    kind: "single",
    options: [
      "High school or less",
      "Some college",
      "Bachelor's degree",
      "Master's degree",
      "Doctorate or professional degree",
      "Prefer not to say",
    ],
    required: true,
  },
  {
    id: "mlExpertise",
    label: "Your experience with machine learning",
    kind: "single",
    options: ["None", "Beginner", "Intermediate", "Expert"],
    required: true,
  },
  {
    id: "healthcareExpertise",
    label: "Your experience working in healthcare",
    kind: "single",
    options: ["None", "Some (e.g. training or volunteering)", "Professional"],
    required: true,
  },
];

/** The paper's post-task interview questions Q1-Q6, as free text. */
export const PAPER_POST_QUESTIONS: readonly Field[] = [
  {
    id: "q1",
    label: "Q1. Which mistake do you think is worse: missing a cancer or a false alarm? Why?",
    kind: "text",
    required: true,
  },
  {
    id: "q2",
    label: "Q2. How many times worse is it, as a number?",
    kind: "text",
    required: true,
  },
  {
    id: "q3",
    label: "Q3. How did you decide between the two systems?",
    kind: "text",
    required: true,
  },
  { id: "q4", label: "Q4. What was hard about the task?", kind: "text", required: false },
  { id: "q5", label: "Q5. What would have helped you?", kind: "text", required: false },
  { id: "q6", label: "Q6. Any other feedback?", kind: "text", required: false },
];

/**
 * A question's label with its leading "Qn." set to `n` (labels without one stay as written).
 * @example renumber("Q3. How did you decide?", 2) // "Q2. How did you decide?"
 */
export function renumber(label: string, n: number): string {
  return label.replace(/^Q\d+\./, `Q${n}.`);
}

/**
 * The questionnaire of studies that are not about medical screening (multiclass and fairness
 * studies): the paper's, without its question on healthcare experience.
 */
export const GENERAL_QUESTIONNAIRE: readonly Field[] = PAPER_QUESTIONNAIRE.filter(
  (f) => f.id !== "healthcareExpertise",
);

/**
 * The post-task questions of multiclass and fairness studies: the paper's Q1-Q6 without its
 * two about one missed cancer against one false alarm. Their ids are the paper's (q1, q3-q6),
 * so the exports' `post_q3` ... columns line up with binary studies', but participants see
 * them numbered as shown, Q1-Q5 (issue 27: "Q1, Q3-Q6" read as a question left out).
 */
export const GENERAL_POST_QUESTIONS: readonly Field[] = (
  [
    {
      id: "q1",
      label: "Q1. Which mistakes mattered most to you when you chose, and why?",
      kind: "text",
      required: true,
    },
    ...PAPER_POST_QUESTIONS.filter((f) => f.id !== "q1" && f.id !== "q2"),
  ] satisfies Field[]
).map((f, i) => ({ ...f, label: renumber(f.label, i + 1) }));

/**
 * The consent text of multiclass and fairness studies (no medical screening in it). It names
 * no number of comparisons: their studies ask from 25 to 45 in Phase II by default, and 17
 * more in Phase III ("up to 25" understated all of them); the pages count them as they go.
 * Nor does it say how long the study takes: nobody has timed it ("15 to 25 minutes" was a
 * guess). The create form asks the researcher to add the time a pilot measured (the
 * dashboard lists each participant's).
 */
export const GENERAL_CONSENT =
  "This is a research study about how people weigh the mistakes of automated decision systems. " +
  "You will answer a short questionnaire and then a series of comparisons of two systems (the " +
  "pages count them as you go). Your answers are stored " +
  "without your name and used only for research. You can stop at any time by closing the page. " +
  "Do you agree to take part?";

/**
 * The two fixed systems of Phase I (counts out of 100 patients; 34 had cancer, as in the
 * comparisons that follow: the built-in pool's 34.4% shown in whole patients).
 */
export const PHASE1_SYSTEMS: readonly [FixedSystem, FixedSystem] = [
  { tp: 31, fn: 3, fp: 13, tn: 53 },
  { tp: 25, fn: 9, fp: 4, tn: 62 },
];

/**
 * The built-in study's consent text. Its largest number of comparisons is its own: the
 * adaptive engine's budget, then Phase III's random pairs and repeats ("up to 35" was the
 * papers' search's, and understated the adaptive study's). No time: nobody has timed it
 * ("about 15 minutes" was a guess; see `GENERAL_CONSENT`).
 */
export const DEFAULT_CONSENT =
  "This is a research study about how people weigh the mistakes of medical screening systems. " +
  "You will answer a short questionnaire, a few questions to check you can read the charts, and " +
  `then up to ${ADAPTIVE_DEFAULTS.budget + DEFAULT_EVALUATION_PAIRS + DEFAULT_RETEST_PAIRS} comparisons of two systems (the pages count them as you go). Your answers are stored ` +
  "without your name and used only for research. You can stop at any time by closing the page. " +
  "Do you agree to take part?";

/**
 * The built-in study's elicitation: the adaptive engine on the threshold family, told that
 * the participant sees whole patients out of 100 (issue 26). The papers' search (strategy
 * `paper`, `CANCER_PAPER_SPEC`) computes on unrounded rates and showed 8 or 9 dominated pairs
 * in 12 questions to a person judging the counts on screen; its results came out backwards.
 */
export const CANCER_SPEC: AdaptiveStudySpec = {
  family: "binary-threshold",
  tolerance: 0.05,
  strategy: "adaptive",
  budget: ADAPTIVE_DEFAULTS.budget,
  credibility: ADAPTIVE_DEFAULTS.credibility,
  // The built-in study has a Phase III (`binaryAnswerModel`).
  model: binaryAnswerModel("binary-threshold", DEFAULT_EVALUATION_PAIRS),
  displayStep: 1 / DEFAULT_POPULATION,
  grid: 1e-4,
  gridPoints: STUDY_GRID_POINTS,
  everyShown: true,
};

/** The user-study paper's own search on the built-in pool, kept for reproduction. */
export const CANCER_PAPER_SPEC: BinarySpec = {
  family: "binary-threshold",
  tolerance: 0.05,
  strategy: "paper",
  grid: 1e-4,
};

/**
 * Phase I questions about the two fixed systems (answers checked, with feedback), their numbers
 * written as tokens (`{A.fn}`, `{positives}`: comprehension-systems.ts) so that they hold for
 * whatever class totals a study's pool shows; the create form starts from these.
 */
export function phase1QuestionTemplates(): StudyConfig["comprehension"]["questions"] {
  return [
    // System B: the worked example above the first question reads System A's missed cancers
    // out loud, so asking for those tested copying, not reading.
    {
      id: "count-missed",
      prompt:
        "Look at System B. Of the {population} patients, how many who actually had cancer did it predict as low risk (missed cancers)?",
      options: ["{B.fn}", "{B.fp}", "{B.tp}", "{B.tn}"],
      correct: "{B.fn}",
      explanation:
        "Follow System B's arrow from the box 'Actually had cancer ({positives})' to 'Predicted low risk': {B.fn} patients. {B.tp} were caught, {B.fn} were missed.",
    },
    {
      id: "more-false-alarms",
      prompt:
        "Which system gives more false alarms (predicts high risk for patients who did not have cancer)?",
      options: ["System A", "System B", "Both give the same number"],
      correct: "System A",
      explanation:
        "False alarms are the arrows from 'Did not have cancer' to 'Predicted high risk': {A.fp} for System A and {B.fp} for System B.",
    },
    {
      id: "conditional-rate",
      prompt:
        "If a patient actually has cancer, how likely is System B to predict high risk for them?",
      options: [
        "{B.tp} out of {positives} ({B.tpr}%)",
        "{B.tp} out of {population} ({B.tpShare}%)",
        "{B.tp} out of {B.flagged} ({B.ppv}%)",
        "{B.fn} out of {positives} ({B.fnr}%)",
      ],
      correct: "{B.tp} out of {positives} ({B.tpr}%)",
      explanation:
        "Start from the {positives} patients who actually had cancer; System B predicts high risk for {B.tp} of them, {B.tpr}%.",
    },
    {
      id: "trade-off",
      prompt: "Compared with System B, what does System A do?",
      options: [
        "It catches more cancers and gives more false alarms",
        "It catches more cancers and gives fewer false alarms",
        "It catches fewer cancers and gives more false alarms",
        "It catches fewer cancers and gives fewer false alarms",
      ],
      correct: "It catches more cancers and gives more false alarms",
      explanation:
        "System A catches {A.tp} cancers (B: {B.tp}) but raises {A.fp} false alarms (B: {B.fp}): better on one mistake, worse on the other. This trade-off is what the comparisons ask about.",
    },
  ];
}

/**
 * Phase I questions with the numbers of `systems` filled in: the built-in study's by default;
 * a simulated participant passes the systems its page shows (`state.comprehension.systems`).
 * @example phase1Questions()[0].correct // "3"
 */
export function phase1Questions(
  systems: readonly [FixedSystem, FixedSystem] = PHASE1_SYSTEMS,
): StudyConfig["comprehension"]["questions"] {
  return resolveComprehension(phase1QuestionTemplates(), systems).questions;
}

/**
 * The built-in "Cancer diagnosis" study: the user-study paper's setup on Breast Cancer
 * Wisconsin (Original): logistic regression on half the data, candidate threshold classifiers
 * on the other half (held-out labels), the threshold metric to 0.05 (thresholds on a 1e-4
 * grid) by the adaptive engine on the counts as shown (`CANCER_SPEC`).
 */
export function cancerDiagnosisConfig(
  title = "Cancer diagnosis",
): StudyConfig<BinarySpec | AdaptiveStudySpec> {
  const text = readFileSync(bundledDataPath(CANCER_DATA_FILE), "utf8");
  return {
    version: 1,
    title,
    template: "cancer-diagnosis",
    source: {
      kind: "dataset",
      file: CANCER_DATA_FILE,
      sha256: createHash("sha256").update(text).digest("hex"),
      target: "Class",
      positive: "malignant",
      dropColumns: ["Id"],
      splitSeed: 1,
    },
    pool: "labelled",
    spec: CANCER_SPEC,
    words: CANCER_WORDS,
    consentText: DEFAULT_CONSENT,
    questionnaire: PAPER_QUESTIONNAIRE,
    story: {
      paragraphs: [
        "Imagine a clinic that screens 100 patients for breast cancer. 34 of them actually have cancer.",
        "A computer system looks at each patient's tests and predicts 'high risk' or 'low risk'. High-risk patients are sent for further tests; low-risk patients go home.",
        "No system is perfect. Every system makes two kinds of mistakes, and systems differ in how many of each they make. You will compare pairs of systems and tell us which one you would rather your doctor used.",
      ],
      costs: {
        missed:
          "A missed cancer: a patient who has cancer is told they are low risk. Their treatment is delayed until symptoms appear, when the cancer may be harder to treat.",
        falseAlarm:
          "A false alarm: a patient without cancer is told they are high risk. They go through worry, more scans and often a biopsy before learning they are healthy.",
      },
    },
    comprehension: { systems: PHASE1_SYSTEMS, questions: phase1Questions(), maxAttempts: 3 },
    guessPrompt:
      "In your opinion, how many times worse is missing a cancer than a false alarm? (For example 1 = equally bad, 5 = five times as bad, 0.5 = half as bad.)",
    evaluationPairs: DEFAULT_EVALUATION_PAIRS,
    retestPairs: DEFAULT_RETEST_PAIRS,
    post: PAPER_POST_QUESTIONS,
    display: { population: DEFAULT_POPULATION },
  };
}

/**
 * The base of a multiclass or fairness study: the built-in study's settings with texts that
 * say nothing of medical screening (consent, questionnaire, post-task questions); each kind
 * then sets its story, and a create request's `texts` may replace any of them.
 * @example generalStudyBase("Flowers").post[0].id // "q1"
 */
export function generalStudyBase(title: string): StudyConfig<BinarySpec | AdaptiveStudySpec> {
  // Each kind sets its own Phase III (`phaseThreeOf`: its random pairs and repeats).
  const { retestPairs: _, ...builtIn } = cancerDiagnosisConfig(title);
  return {
    ...builtIn,
    // Binary words a multiclass or fairness page does not show, but the state and the exports
    // carry: no disease in them either.
    words: {
      positive: "were positive",
      negative: "were negative",
      predictedPositive: "Predicted positive",
      predictedNegative: "Predicted negative",
      missed: "missed positives",
      falseAlarm: "false alarms",
      question: "Which system would you rather use?",
      systemNoun: "system",
      people: "people",
    },
    consentText: GENERAL_CONSENT,
    questionnaire: GENERAL_QUESTIONNAIRE,
    post: GENERAL_POST_QUESTIONS,
  };
}
