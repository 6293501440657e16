// The progress line of the elicitation page, from the server's progress fields.

import {
  DEFAULT_PAGE_LABELS,
  type PageLabels,
} from "../../../src/server/study/page-label-defaults.ts";

/** The progress lines' wording: a study's labels, or the defaults. */
export type ProgressLabels = Pick<
  PageLabels,
  "progressAtMostMore" | "progressLast" | "progressAbout" | "progressOfAtMost" | "progressOf"
>;

/**
 * A progress label with its numbers filled in: {n}, {left} and {total}.
 * @example fillProgress("Question {n} of {total}", { n: 3, total: 15 }) // "Question 3 of 15"
 */
export function fillProgress(
  template: string,
  v: { n: number; left?: number; total?: number },
): string {
  return template
    .replaceAll("{n}", String(v.n))
    .replaceAll("{left}", String(v.left ?? ""))
    .replaceAll("{total}", String(v.total ?? ""));
}

/**
 * The elicitation page's progress line and bar. The papers' searches send `remainingAtMost`,
 * a true upper bound of the questions left (the one shown included), and `searchDone`, the
 * exact share of the search done: the line says "Question 4 · at most 12 more after this one"
 * (a search often ends sooner, which "at most" allows; the old "about 1 more" was followed by
 * Part 3) or "the last question of this part" when the bound says so, and the bar shows the
 * share done. An adaptive study gives its budget (`atMost`): "Question 4 of at most 30".
 * Without either (an older server), the estimate: "Question 4 · about 6 more after this one".
 * @example elicitationProgress({ answered: 3, estimatedRemaining: 7, remainingAtMost: 13, searchDone: 0.4 }) // { text: "Question 4 · at most 12 more after this one", value: 0.4 }
 */
export function elicitationProgress(
  p: {
    answered: number;
    estimatedRemaining: number;
    atMost?: number;
    searchDone?: number;
    remainingAtMost?: number;
  },
  labels: ProgressLabels = DEFAULT_PAGE_LABELS,
): { text: string; value: number } {
  const n = p.answered + 1;
  if (p.atMost !== undefined) {
    return {
      text: fillProgress(labels.progressOfAtMost, { n, total: p.atMost }),
      value: p.answered / p.atMost,
    };
  }
  if (p.remainingAtMost !== undefined) {
    const left = Math.max(0, p.remainingAtMost - 1);
    const text =
      left === 0
        ? fillProgress(labels.progressLast, { n })
        : fillProgress(labels.progressAtMostMore, { n, left });
    return { text, value: p.searchDone ?? n / (n + left) };
  }
  const left = Math.max(0, Math.round(p.estimatedRemaining) - 1);
  return {
    text: fillProgress(labels.progressAbout, { n, left }),
    value: n / (n + left),
  };
}
