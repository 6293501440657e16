// The texts of a binary study made from uploaded data (issue 27 defect 1): the built-in study's
// texts speak of breast cancer and quote its pool ("34 of them actually have cancer"), so a
// study of other data never starts from them. A request that leaves a text out gets a general
// one written here from the study's own words (the create form offers the same), and texts
// still the built-in study's are found (`builtInTextsLeft`) so that such a study is refused.
// Pure (no Node imports): the create form imports it too.

import type { ComprehensionQuestion, Field, StudyWords } from "./config.ts";

/** The words of a binary study of uploaded data that sets none of its own. */
export const GENERAL_BINARY_WORDS: StudyWords = {
  positive: "were positive",
  negative: "were negative",
  predictedPositive: "predicted positive",
  predictedNegative: "predicted negative",
  missed: "missed positives",
  falseAlarm: "false alarms",
  question: "Which system would you rather have used?",
  systemNoun: "system",
  people: "people",
};

/**
 * The longest each of a study's words may be, in characters: the create request's limits,
 * and the create form's inputs stop there too. Names of classes, outcomes and things are
 * short labels (as a study's name); the question on each comparison page is a sentence (as a
 * page label).
 * @example WORD_MAX_CHARS.question // 500
 */
export const WORD_MAX_CHARS: Readonly<Record<keyof StudyWords, number>> = {
  positive: 200,
  negative: 200,
  predictedPositive: 200,
  predictedNegative: 200,
  missed: 200,
  falseAlarm: 200,
  question: 500,
  systemNoun: 200,
  people: 200,
};

/**
 * The consent text of a binary study of uploaded data (no medical screening in it). No time:
 * nobody has timed it (see `GENERAL_CONSENT`).
 */
export const GENERAL_BINARY_CONSENT =
  "This is a research study about how people weigh the mistakes of automated decision systems. " +
  "You will answer a short questionnaire, a few questions to check you can read the charts, and " +
  "then a series of comparisons of two systems (the pages count them as you go). Your answers " +
  "are stored without your name and used only for research. You can stop at any time by closing " +
  "the page. Do you agree to take part?";

/** The texts `generalBinaryTexts` writes (what a create request's `texts` may set). */
export interface GeneralBinaryTexts {
  readonly consentText: string;
  readonly story: {
    readonly paragraphs: readonly string[];
    readonly costs: { readonly missed: string; readonly falseAlarm: string };
  };
  /** Part 1's questions with their numbers as tokens (`{A.fn}`), the built-in ones' ids. */
  readonly comprehension: readonly ComprehensionQuestion[];
  readonly guessPrompt: string;
  readonly post: readonly Field[];
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * General texts for a binary study of any data, in its words: a story and two mistakes that
 * name the chart's own boxes, Part 1's four questions (the built-in ones' ids and answer
 * structure, the numbers as tokens filled in from the study's pool), the guess question, and
 * the post-task questions with the first one in these words (the others, `builtInPost`'s
 * from the second on, say nothing of a disease). No number of any pool is written in them.
 * @example generalBinaryTexts(GENERAL_BINARY_WORDS, PAPER_POST_QUESTIONS).guessPrompt // "In your opinion, how many times worse is one of the missed positives than one of the false alarms? ..."
 */
export function generalBinaryTexts(
  words: StudyWords,
  builtInPost: readonly Field[],
): GeneralBinaryTexts {
  const w = words;
  const people = w.people ?? "people";
  const yes = cap(w.predictedPositive);
  const no = cap(w.predictedNegative);
  return {
    consentText: GENERAL_BINARY_CONSENT,
    story: {
      paragraphs: [
        `A computer system looks at each case and puts it under “${yes}” or “${no}”. Each chart shows how many ${people} it puts each way, split by what was actually true: those who actually ${w.positive} and those who actually ${w.negative}.`,
        `No system is perfect. Every system makes two kinds of mistakes, ${w.missed} and ${w.falseAlarm}, and systems differ in how many of each they make. You will compare pairs of systems and tell us which one you would rather have used.`,
      ],
      costs: {
        missed: `${cap(w.missed)}: ${people} who actually ${w.positive}, but whom the system puts under “${no}”.`,
        falseAlarm: `${cap(w.falseAlarm)}: ${people} who actually ${w.negative}, but whom the system puts under “${yes}”.`,
      },
    },
    comprehension: [
      {
        id: "count-missed",
        prompt: `Look at System A. Of the {population} ${people}, how many who actually ${w.positive} did it put under “${no}” (${w.missed})?`,
        options: ["{A.fn}", "{A.fp}", "{A.tp}", "{A.tn}"],
        correct: "{A.fn}",
        explanation: `Follow the arrow from the box “Actually ${w.positive} ({positives})” to “${no}”: {A.fn} ${people}. {A.tp} were caught, {A.fn} were missed.`,
      },
      {
        id: "more-false-alarms",
        prompt: `Which system makes more ${w.falseAlarm} (puts under “${yes}” ${people} who actually ${w.negative})?`,
        options: ["System A", "System B", "Both give the same number"],
        correct: "System A",
        explanation: `${cap(w.falseAlarm)} are the arrows from “Actually ${w.negative}” to “${yes}”: {A.fp} for System A and {B.fp} for System B.`,
      },
      {
        id: "conditional-rate",
        prompt: `Of the ${people} who actually ${w.positive}, how many does System B put under “${yes}”?`,
        options: [
          "{B.tp} out of {positives} ({B.tpr}%)",
          "{B.tp} out of {population} ({B.tpShare}%)",
          "{B.tp} out of {B.flagged} ({B.ppv}%)",
          "{B.fn} out of {positives} ({B.fnr}%)",
        ],
        correct: "{B.tp} out of {positives} ({B.tpr}%)",
        explanation: `Start from the {positives} ${people} who actually ${w.positive}; System B puts {B.tp} of them under “${yes}”, {B.tpr}%.`,
      },
      {
        id: "trade-off",
        prompt: "Compared with System B, what does System A do?",
        options: [
          `It makes fewer ${w.missed} and more ${w.falseAlarm}`,
          `It makes fewer ${w.missed} and fewer ${w.falseAlarm}`,
          `It makes more ${w.missed} and more ${w.falseAlarm}`,
          `It makes more ${w.missed} and fewer ${w.falseAlarm}`,
        ],
        correct: `It makes fewer ${w.missed} and more ${w.falseAlarm}`,
        explanation: `System A makes {A.fn} ${w.missed} (B: {B.fn}) but {A.fp} ${w.falseAlarm} (B: {B.fp}): better on one mistake, worse on the other. This trade-off is what the comparisons ask about.`,
      },
    ],
    guessPrompt: `In your opinion, how many times worse is one of the ${w.missed} than one of the ${w.falseAlarm}? (For example 1 = equally bad, 5 = five times as bad, 0.5 = half as bad.)`,
    post: [
      {
        id: "q1",
        label: `Q1. Which mistake do you think is worse: ${w.missed} or ${w.falseAlarm}? Why?`,
        kind: "text",
        required: true,
      },
      ...builtInPost.slice(1),
    ],
  };
}

/** The texts of a study that `builtInTextsLeft` compares (a request's, a configuration's). */
export interface TextsToCheck {
  readonly words: Partial<StudyWords>;
  readonly consentText: string;
  readonly story: {
    readonly paragraphs: readonly string[];
    readonly costs: { readonly missed: string; readonly falseAlarm: string };
  };
  readonly comprehension: readonly Pick<
    ComprehensionQuestion,
    "prompt" | "options" | "correct" | "explanation"
  >[];
  readonly guessPrompt: string | null;
  readonly post: readonly Pick<Field, "label">[];
}

/**
 * What marks a built-in text as the breast-cancer study's own (its disease, its patients,
 * their doctor and clinic, its risk words); its other texts ("false alarms", "Q3. How did you
 * decide between the two systems?", the questionnaire) fit any study.
 */
const OWN_DATA = /cancer|patient|doctor|clinic|medical|biops|high risk|low risk/i;

/** A text with its numbers and tokens as "#": a built-in question reads the same filled in. */
const shape = (s: string) =>
  s
    .replace(/\{[A-Za-z.]+\}|\d+(?:\.\d+)?/g, "#")
    .replace(/\s+/g, " ")
    .trim();

/**
 * The parts of a binary study's texts that are still the built-in breast-cancer study's own
 * (its disease, patients, numbers), as "the story", "4 comprehension questions", "the words
 * “had cancer”, ...": right for the built-in data, wrong for any other (issue 27: an uploaded
 * dataset ran with "34 of them actually have cancer" beside a worked example with 35). A
 * comprehension question counts when any of its parts reads as the built-in one's with its
 * numbers filled in.
 * @example builtInTextsLeft(builtIn, builtIn)[0] // "the story"
 */
export function builtInTextsLeft(study: TextsToCheck, builtIn: TextsToCheck): string[] {
  const own = (texts: readonly (string | null | undefined)[]) =>
    new Set(texts.filter((t): t is string => t != null && OWN_DATA.test(t)).map((t) => t.trim()));
  const out: string[] = [];
  const paragraphs = own(builtIn.story.paragraphs);
  const left = study.story.paragraphs
    .map((p, i) => (paragraphs.has(p.trim()) ? i + 1 : 0))
    .filter((i) => i > 0);
  if (left.length > 0)
    out.push(
      left.length === study.story.paragraphs.length
        ? "the story"
        : `story paragraph${left.length === 1 ? "" : "s"} ${left.join(", ")}`,
    );
  const costs = own([builtIn.story.costs.missed, builtIn.story.costs.falseAlarm]);
  const missed = costs.has(study.story.costs.missed.trim());
  const falseAlarm = costs.has(study.story.costs.falseAlarm.trim());
  if (missed && falseAlarm) out.push("what each mistake costs");
  else if (missed) out.push("what a missed positive costs");
  else if (falseAlarm) out.push("what a false alarm costs");
  const parts = (q: TextsToCheck["comprehension"][number]) => [
    q.prompt,
    q.explanation,
    q.correct,
    ...q.options,
  ];
  const questionParts = new Set(
    [...own(builtIn.comprehension.flatMap(parts))].map((t) => shape(t)),
  );
  const cq = study.comprehension.filter((q) =>
    parts(q).some((t) => questionParts.has(shape(t))),
  ).length;
  if (cq > 0) out.push(`${cq} comprehension question${cq === 1 ? "" : "s"}`);
  if (study.guessPrompt !== null && own([builtIn.guessPrompt]).has(study.guessPrompt.trim()))
    out.push("the guess question");
  const postLabels = own(builtIn.post.map((f) => f.label));
  const post = study.post.filter((f) => postLabels.has(f.label.trim())).length;
  if (post > 0) out.push(`${post} post-task question${post === 1 ? "" : "s"}`);
  const words = (Object.keys(builtIn.words) as (keyof StudyWords)[]).filter((k) => {
    const b = builtIn.words[k];
    return b !== undefined && OWN_DATA.test(b) && study.words[k]?.trim() === b.trim();
  });
  if (words.length > 0)
    out.push(`the words ${words.map((k) => `“${builtIn.words[k]}”`).join(", ")}`);
  if (own([builtIn.consentText]).has(study.consentText.trim())) out.push("the consent text");
  return out;
}

/** The parts of a study's texts `replaceBuiltInTexts` rewrites (the create form's own shape). */
export interface ReplaceableTexts<
  Q extends ComprehensionQuestion,
  F extends Pick<Field, "id" | "label">,
> {
  readonly consentText: string;
  readonly story: {
    readonly paragraphs: readonly string[];
    readonly costs: { readonly missed: string; readonly falseAlarm: string };
  };
  readonly comprehension: readonly Q[];
  readonly guessPrompt: string | null;
  readonly post: readonly F[];
}

/**
 * The texts with every part still the built-in study's own (as `builtInTextsLeft` finds them)
 * replaced by its general counterpart, and every other part kept as the researcher wrote it:
 * built-in story paragraphs dropped (the general story when none of the study's own is left),
 * each built-in mistake, question (by id), guess question, post-task question (by id) and
 * the consent text replaced. The create form's "Use general texts" button.
 * @example replaceBuiltInTexts(builtIn, builtIn, general).story // general.story
 */
export function replaceBuiltInTexts<
  Q extends ComprehensionQuestion,
  F extends Pick<Field, "id" | "label">,
>(
  study: ReplaceableTexts<Q, F>,
  builtIn: TextsToCheck,
  general: GeneralBinaryTexts,
): ReplaceableTexts<Q, F> {
  const only = (t: TextsToCheck) => builtInTextsLeft(t, builtIn).length > 0;
  const blank: TextsToCheck = {
    words: {},
    consentText: "",
    story: { paragraphs: [], costs: { missed: "", falseAlarm: "" } },
    comprehension: [],
    guessPrompt: null,
    post: [],
  };
  const paragraphs = study.story.paragraphs.filter(
    (p) => !only({ ...blank, story: { ...blank.story, paragraphs: [p] } }),
  );
  const cost = (missed: string, falseAlarm: string) =>
    only({ ...blank, story: { paragraphs: [], costs: { missed, falseAlarm } } });
  const question = (q: Q): Q => {
    if (!only({ ...blank, comprehension: [q] })) return q;
    const g = general.comprehension.find((x) => x.id === q.id);
    return g === undefined ? q : ({ ...q, ...g, options: [...g.options] } as Q);
  };
  return {
    consentText: only({ ...blank, consentText: study.consentText })
      ? general.consentText
      : study.consentText,
    story: {
      paragraphs: paragraphs.length > 0 ? paragraphs : [...general.story.paragraphs],
      costs: {
        missed: cost(study.story.costs.missed, "")
          ? general.story.costs.missed
          : study.story.costs.missed,
        falseAlarm: cost("", study.story.costs.falseAlarm)
          ? general.story.costs.falseAlarm
          : study.story.costs.falseAlarm,
      },
    },
    comprehension: study.comprehension
      .map(question)
      .filter((q) => !only({ ...blank, comprehension: [q] })),
    guessPrompt:
      study.guessPrompt !== null && only({ ...blank, guessPrompt: study.guessPrompt })
        ? general.guessPrompt
        : study.guessPrompt,
    post: study.post.map((f) => {
      if (!only({ ...blank, post: [f] })) return f;
      const g = general.post.find((x) => x.id === f.id);
      return g === undefined ? f : ({ ...f, label: g.label } as F);
    }),
  };
}

/**
 * Why a binary study of other data may not use these texts, or null when none is left;
 * `remedy` says what to do instead (the API's and the form's differ).
 * @example builtInTextsRefusal(["the story"], "write your own") // "This study's data are not the built-in study's, but these texts are still ...: the story. Write your own."
 */
export function builtInTextsRefusal(left: readonly string[], remedy: string): string | null {
  if (left.length === 0) return null;
  return `This study's data are not the built-in study's, but these texts are still the built-in breast-cancer study's (its disease, patients and numbers): ${left.join("; ")}. ${remedy}`;
}

/** What the API's refusal tells a client to do. */
export const API_REMEDY =
  "Write this study's own text there, or leave those texts out of the request to get general ones written in this study's words.";
