// The debrief's agreement sentence: M over all Phase III pairs and over the pairs the
// participant's result does not decide in advance, in plain words (issue 11).

import {
  DEFAULT_PAGE_LABELS,
  type PageLabels,
} from "../../../src/server/study/page-label-defaults.ts";

/** The agreement both ways, as the API's `agreementDetail` carries it. */
export interface AgreementCounts {
  all: number | null;
  undecided: number | null;
  pairs: number;
  ties: number;
  undecidedPairs: number;
  undecidedTies: number;
  metricTies: number;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** The agreement's wording: the study's page labels (default the built-in ones). */
type AgreementLabels = Pick<
  PageLabels,
  "debriefAgreement" | "debriefAgreementOpen" | "debriefAgreementSettled" | "pairOne" | "pairMany"
>;

function fill(template: string, v: Record<string, string | number>): string {
  let out = template;
  for (const [k, x] of Object.entries(v)) out = out.replaceAll(`{${k}}`, String(x));
  return out;
}

/**
 * One plain paragraph stating M both ways with the pairs each share is out of; null when no
 * Phase III answer counts (all "about the same"). A metric tie lies inside the result's range,
 * so it is one of the undecided pairs: both shares leave it out. The wording is the study's
 * (`labels`, default the built-in sentences).
 * @example
 * agreementSentence({ all: 0.8, undecided: 0.5, pairs: 10, ties: 0, undecidedPairs: 4,
 *   undecidedTies: 0, metricTies: 0 })
 * // "Your result agrees with 80% of your own choices in the last part (8 of 10 pairs). On the
 * //  4 pairs your earlier answers did not already settle, it agrees with 50% (2 of 4)."
 */
export function agreementSentence(
  d: AgreementCounts,
  labels: AgreementLabels = DEFAULT_PAGE_LABELS,
): string | null {
  if (d.all === null) return null;
  const pairs = (n: number) => `${n} ${n === 1 ? labels.pairOne : labels.pairMany}`;
  const counted = d.pairs - d.ties - d.metricTies;
  const first = fill(labels.debriefAgreement, {
    share: pct(d.all),
    agree: Math.round(d.all * counted),
    pairs: pairs(counted),
    count: counted,
  });
  const open = d.undecidedPairs - d.undecidedTies - d.metricTies;
  if (d.undecided === null || open <= 0) return `${first} ${labels.debriefAgreementSettled}`;
  const second = fill(labels.debriefAgreementOpen, {
    share: pct(d.undecided),
    agree: Math.round(d.undecided * open),
    pairs: pairs(open),
    count: open,
  });
  return `${first} ${second}`;
}
