// The debrief's agreement sentence: M over all Phase III pairs and over the pairs the
// participant's result does not decide in advance, in plain words (issue 11).

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
const pairs = (n: number) => `${n} ${n === 1 ? "pair" : "pairs"}`;

/**
 * One plain paragraph stating M both ways with the pairs each share is out of; null when no
 * Phase III answer counts (all "about the same"). A metric tie lies inside the result's range,
 * so it is one of the undecided pairs: both shares leave it out.
 * @example
 * agreementSentence({ all: 0.8, undecided: 0.5, pairs: 10, ties: 0, undecidedPairs: 4,
 *   undecidedTies: 0, metricTies: 0 })
 * // "Your result agrees with 80% of your own choices in the last part (8 of 10 pairs). On the
 * //  4 pairs your earlier answers did not already settle, it agrees with 50% (2 of 4)."
 */
export function agreementSentence(d: AgreementCounts): string | null {
  if (d.all === null) return null;
  const counted = d.pairs - d.ties - d.metricTies;
  const first = `Your result agrees with ${pct(d.all)} of your own choices in the last part (${Math.round(d.all * counted)} of ${pairs(counted)}).`;
  const open = d.undecidedPairs - d.undecidedTies - d.metricTies;
  if (d.undecided === null || open <= 0) {
    return `${first} Your earlier answers already settled every one of these pairs, so none of them tests your result further.`;
  }
  return `${first} On the ${pairs(open)} your earlier answers did not already settle, it agrees with ${pct(d.undecided)} (${Math.round(d.undecided * open)} of ${open}).`;
}
