// The two fixed systems of Part 1's comprehension check, in the study's own class totals, and
// the `{A.fn}`-style tokens that let the questions quote their numbers. Pure (no Node imports):
// the create form's preview imports it too.

import type { ComprehensionQuestion, FixedSystem } from "./config.ts";

/** A study's class totals as shown (the display frame's whole people). */
export interface ClassTotals {
  readonly positives: number;
  readonly negatives: number;
}

/** Whole percent of `part` in `whole` (0 when the whole is empty). */
const pct = (part: number, whole: number): number =>
  whole > 0 ? Math.round((100 * part) / whole) : 0;

/**
 * The systems' rates carried to other class totals: each keeps its true positive rate and false
 * positive rate, rounded to whole people, so a study whose pool shows 35 of 100 positive asks
 * about systems that show 35 too (issue 11: one pair of class totals for the whole study).
 * @example scaleSystems([{ tp: 31, fn: 3, fp: 13, tn: 53 }], { positives: 34, negatives: 66 }) // [{ tp: 31, fn: 3, fp: 13, tn: 53 }]
 */
export function scaleSystems<T extends readonly FixedSystem[]>(
  systems: T,
  totals: ClassTotals,
): { -readonly [K in keyof T]: FixedSystem } {
  return systems.map((s) => {
    const tp = Math.round((s.tp / Math.max(1, s.tp + s.fn)) * totals.positives);
    const fp = Math.round((s.fp / Math.max(1, s.fp + s.tn)) * totals.negatives);
    return { tp, fn: totals.positives - tp, fp, tn: totals.negatives - fp };
  }) as { -readonly [K in keyof T]: FixedSystem };
}

/** Whether every system shows exactly these class totals. */
export function systemsMatch(systems: readonly FixedSystem[], totals: ClassTotals): boolean {
  return systems.every((s) => s.tp + s.fn === totals.positives && s.fp + s.tn === totals.negatives);
}

/** What each token of a system stands for (counts, or whole percentages). */
const SYSTEM_TOKENS: Record<string, (s: FixedSystem) => number> = {
  tp: (s) => s.tp,
  fn: (s) => s.fn,
  fp: (s) => s.fp,
  tn: (s) => s.tn,
  /** Predicted positive: tp + fp. */
  flagged: (s) => s.tp + s.fp,
  /** Percent of the positives predicted positive. */
  tpr: (s) => pct(s.tp, s.tp + s.fn),
  fnr: (s) => pct(s.fn, s.tp + s.fn),
  fpr: (s) => pct(s.fp, s.fp + s.tn),
  tnr: (s) => pct(s.tn, s.fp + s.tn),
  /** Percent of the predicted positives that are positive. */
  ppv: (s) => pct(s.tp, s.tp + s.fp),
  /** tp as a percent of everyone. */
  tpShare: (s) => pct(s.tp, s.tp + s.fn + s.fp + s.tn),
};

/** Every token a comprehension text may use, for the create form's help and the errors. */
export const COMPREHENSION_TOKENS: readonly string[] = [
  ...["A", "B"].flatMap((x) => Object.keys(SYSTEM_TOKENS).map((k) => `{${x}.${k}}`)),
  "{positives}",
  "{negatives}",
  "{population}",
];

const TOKEN = /\{(?:([AB])\.([A-Za-z]+)|(positives|negatives|population))\}/g;
/** A single-brace word that looks meant as a token (double braces are placeholders). */
const TOKEN_LIKE = /(?<!\{)\{[A-Za-z][A-Za-z.]*\}(?!\})/g;

/** Whether a text uses any token. */
export function hasTokens(text: string): boolean {
  return new RegExp(TOKEN.source).test(text);
}

/**
 * A text with its tokens replaced by the systems' numbers.
 * @example fillTokens("{A.fn} of {positives}", [{ tp: 31, fn: 3, fp: 13, tn: 53 }, { tp: 25, fn: 9, fp: 4, tn: 62 }]) // "3 of 34"
 */
export function fillTokens(text: string, systems: readonly [FixedSystem, FixedSystem]): string {
  const [a] = systems;
  return text.replace(TOKEN, (whole, which?: string, key?: string, total?: string) => {
    if (total !== undefined) {
      const positives = a.tp + a.fn;
      const negatives = a.fp + a.tn;
      return String(
        total === "positives"
          ? positives
          : total === "negatives"
            ? negatives
            : positives + negatives,
      );
    }
    const f = SYSTEM_TOKENS[key!];
    return f ? String(f(systems[which === "A" ? 0 : 1])) : whole;
  });
}

/**
 * The questions as participants will read them: tokens filled in, then checked (the right
 * answer still one of the options, the options still different, no unknown token left).
 * Returns the problems instead of throwing, each with the question's index.
 * @example resolveComprehension(phase1Questions(), PHASE1_SYSTEMS).problems // []
 */
export function resolveComprehension(
  questions: readonly ComprehensionQuestion[],
  systems: readonly [FixedSystem, FixedSystem],
): { questions: ComprehensionQuestion[]; problems: { index: number; message: string }[] } {
  const problems: { index: number; message: string }[] = [];
  const out = questions.map((q, index) => {
    const fill = (t: string) => fillTokens(t, systems);
    const r: ComprehensionQuestion = {
      id: q.id,
      prompt: fill(q.prompt),
      options: q.options.map(fill),
      correct: fill(q.correct),
      explanation: fill(q.explanation),
    };
    const unknown = [r.prompt, ...r.options, r.correct, r.explanation].flatMap(
      (t) => t.match(TOKEN_LIKE) ?? [],
    );
    if (unknown.length > 0)
      problems.push({
        index,
        message: `unknown token ${unknown[0]}; the tokens are ${COMPREHENSION_TOKENS.join(", ")}`,
      });
    if (new Set(r.options).size !== r.options.length)
      problems.push({
        index,
        message: `with these systems two options read the same (${r.options.join(" / ")})`,
      });
    if (!r.options.includes(r.correct))
      problems.push({ index, message: "the correct answer is not one of the options" });
    return r;
  });
  return { questions: out, problems };
}
