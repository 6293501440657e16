// The debrief's agreement sentence: M over all Phase III pairs and over the pairs the
// participant's result does not decide in advance, in plain words (issue 11).

import type { z } from "zod";
import type { ConsistencySchema } from "../../../src/server/api-schemas.ts";
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

/** A participant's consistency, as the API's `consistency` carries it. */
export type ConsistencyCounts = z.infer<typeof ConsistencySchema>;

/**
 * The debrief's consistency sentences (issue 26): how many counted choices of the last part
 * went against the participant's own result (in a binary study, `versus: "range"`, against
 * the weighing of those their earlier answers point to that fits these choices best), with the 90% range
 * of that share, and how many
 * of the pairs shown twice got the same answer. Null when nothing was counted or repeated.
 * The figures are the exports' (`error_rate`, `error_rate_low`, `error_rate_high`,
 * `retest_same` of `retest_pairs`), rounded to whole per cent.
 * @example consistencySentence({ counted: 15, against: 1, errorRate: 0.067, errorLow: 0.015, errorHigh: 0.251, retestPairs: 2, retestSame: 2, coinP: 0.001, coinLike: false })
 * // "In the last part, 1 of your 15 choices went against your own result (7%; from 2% to 25% is likely). You saw 2 of the pairs twice and chose the same way both times on 2 of them."
 */
export function consistencySentence(
  c: ConsistencyCounts,
  labels: Pick<
    PageLabels,
    "debriefConsistency" | "debriefConsistencyRange" | "debriefRetest" | "debriefSlips"
  > = DEFAULT_PAGE_LABELS,
): string | null {
  const parts: string[] = [];
  // A study without the last part: the learned answer model's estimate, nothing counted.
  if (c.basis === "answer-model") {
    if (c.errorRate === null || c.errorLow === null || c.errorHigh === null) return null;
    return fill(labels.debriefSlips, {
      share: pct(c.errorRate),
      low: pct(c.errorLow),
      high: pct(c.errorHigh),
    });
  }
  if (c.errorRate !== null && c.errorLow !== null && c.errorHigh !== null) {
    parts.push(
      fill(c.versus === "range" ? labels.debriefConsistencyRange : labels.debriefConsistency, {
        against: c.against,
        counted: c.counted,
        share: pct(c.errorRate),
        low: pct(c.errorLow),
        high: pct(c.errorHigh),
      }),
    );
  }
  if (c.retestPairs > 0) {
    parts.push(fill(labels.debriefRetest, { repeats: c.retestPairs, same: c.retestSame }));
  }
  return parts.length === 0 ? null : parts.join(" ");
}
