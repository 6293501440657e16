// The progress line of the elicitation page, from the server's progress fields.

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
export function elicitationProgress(p: {
  answered: number;
  estimatedRemaining: number;
  atMost?: number;
  searchDone?: number;
  remainingAtMost?: number;
}): { text: string; value: number } {
  const n = p.answered + 1;
  if (p.atMost !== undefined) {
    return { text: `Question ${n} of at most ${p.atMost}`, value: p.answered / p.atMost };
  }
  if (p.remainingAtMost !== undefined) {
    const left = Math.max(0, p.remainingAtMost - 1);
    const text =
      left === 0
        ? `Question ${n} · the last question of this part`
        : `Question ${n} · at most ${left} more after this one`;
    return { text, value: p.searchDone ?? n / (n + left) };
  }
  const left = Math.max(0, Math.round(p.estimatedRemaining) - 1);
  return {
    text: `Question ${n} · about ${left} more after this one`,
    value: n / (n + left),
  };
}
