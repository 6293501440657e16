// A diabetes study in its own words, for the tests of a study created from an uploaded
// dataset (test/server/upload-study.test.ts, test/e2e/upload-study.spec.ts). Not one of its
// texts mentions cancer: a page that does got its text from somewhere else.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { resolveComprehension } from "../../src/server/study/comprehension-systems.ts";
import type { ComprehensionQuestion, FixedSystem } from "../../src/server/study/config.ts";

/** The bundled Pima Indians Diabetes CSV (768 rows, label column `diabetes`, pos / neg). */
export const DIABETES_CSV_PATH = fileURLToPath(
  new URL("../../data/pima_indians_diabetes.csv", import.meta.url),
);
export const diabetesCsv = (): string => readFileSync(DIABETES_CSV_PATH, "utf8");

export const DIABETES_WORDS = {
  positive: "had diabetes",
  negative: "did not have diabetes",
  predictedPositive: "flagged for a glucose test",
  predictedNegative: "not flagged",
  missed: "missed diabetes cases",
  falseAlarm: "needless glucose tests",
  question: "Which screening system would you rather the clinic used?",
  systemNoun: "system",
  people: "adults",
};

/** Texts beyond the words (`texts` of the create request). */
export const DIABETES_TEXTS = {
  title: "Diabetes screening",
  story: {
    paragraphs: [
      "Imagine a clinic that screens 100 adults for type 2 diabetes. About a third of them have it without knowing.",
      "A computer system looks at each person's health record and either flags them for a glucose test or does not.",
      "No system is perfect. You will compare pairs of systems and tell us which one you would rather the clinic used.",
    ],
    costs: {
      missed:
        "A missed diabetes case: a person with diabetes is not flagged. Their blood sugar stays untreated for years, which can damage eyes, kidneys and nerves.",
      falseAlarm:
        "A needless glucose test: a person without diabetes is flagged. They lose a morning to a fasting blood test and worry until the result comes.",
    },
  },
  comprehension: [
    {
      id: "count-missed",
      prompt:
        "Look at System A. Of the 100 adults, how many who had diabetes did it not flag (missed diabetes cases)?",
      options: ["{A.fn}", "{A.fp}", "{A.tp}", "{A.tn}"],
      correct: "{A.fn}",
      explanation:
        "Follow the arrow from 'Actually had diabetes ({positives})' to 'Not flagged': {A.fn} people. {A.tp} were flagged, {A.fn} were missed.",
    },
    {
      id: "more-tests",
      prompt: "Which system sends more people without diabetes for a needless glucose test?",
      options: ["System A", "System B", "Both the same"],
      correct: "System A",
      explanation:
        "Needless tests are the arrows from 'Did not have diabetes' to 'Flagged for a glucose test': {A.fp} for System A, {B.fp} for System B.",
    },
  ],
  guessPrompt:
    "In your opinion, how many times worse is a missed diabetes case than a needless glucose test?",
  questionnaire: [
    {
      id: "age",
      label: "Your age",
      kind: "single",
      options: ["18-39", "40-64", "65 or older", "Prefer not to say"],
      required: true,
    },
    {
      id: "tested",
      label: "Have you ever had a glucose test?",
      kind: "single",
      options: ["Yes", "No", "Not sure"],
      required: true,
    },
  ],
  post: [
    {
      id: "worse",
      label: "Which mistake is worse to you, and why?",
      kind: "text",
      required: true,
    },
    {
      id: "other",
      label: "Anything else you would like to tell us?",
      kind: "text",
      required: false,
    },
  ],
} as const;

export const DIABETES_CONSENT =
  "This is a research study about how people weigh the mistakes of diabetes screening systems. It takes about 15 minutes. Do you agree to take part?";

/** The create request of the diabetes study from the uploaded CSV (plus `extra` fields). */
export function diabetesStudyBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: "Diabetes screening",
    datasetCsv: diabetesCsv(),
    target: "diabetes",
    positive: "pos",
    words: DIABETES_WORDS,
    texts: DIABETES_TEXTS,
    consentText: DIABETES_CONSENT,
    ...extra,
  };
}

/**
 * A diabetes comprehension question as a participant reads it: its tokens filled in from the
 * two systems the page shows (the participant state's `comprehension.systems`).
 */
export function shownQuestion(
  id: string,
  shown: readonly { tp: number; fn: number; fp: number; tn: number }[],
): ComprehensionQuestion {
  const systems = shown.map(({ tp, fn, fp, tn }) => ({ tp, fn, fp, tn })) as [
    FixedSystem,
    FixedSystem,
  ];
  const q = DIABETES_TEXTS.comprehension.find((x) => x.id === id)!;
  return resolveComprehension([q], systems).questions[0]!;
}
