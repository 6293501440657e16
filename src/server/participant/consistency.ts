import { binomialUpperTail, wilsonInterval } from "../../math/binomial.ts";
import type { AgreementReport } from "./evaluation-pairs.ts";

/**
 * How consistently a participant answered (issue 26 item 4: measured, not assumed), from
 * their Phase III answers against their own elicited result and the Phase II pairs they were
 * shown again (test-retest).
 */
export interface Consistency {
  /** Phase III answers counted (no "about the same", no tie of the metric), repeats apart. */
  readonly counted: number;
  /** Of them, answers against the participant's own elicited metric. */
  readonly against: number;
  /** `against / counted`: the estimated share of answers that went against their own result. */
  readonly errorRate: number | null;
  /** Its 90% (Wilson) interval. */
  readonly errorLow: number | null;
  readonly errorHigh: number | null;
  /** Phase II pairs shown again in Phase III, and how many got the same answer. */
  readonly retestPairs: number;
  readonly retestSame: number;
  /**
   * The chance that a coin would agree with the result and with itself at least this often
   * (one-sided binomial over the counted answers and the repeats, p = 1/2); null when there is
   * nothing to count.
   */
  readonly coinP: number | null;
  /** `coinP > 0.05`: the answers cannot be told apart from a coin's. */
  readonly coinLike: boolean;
}

/** The level above which answers count as indistinguishable from a coin. */
export const COIN_LEVEL = 0.05;

/**
 * The consistency figures of one participant: `report` is the agreement of their Phase III
 * answers (repeats left out) with their result, `retests` the original and repeated answer of
 * each pair shown twice (procedure order, so "first" means the same system both times).
 * @example consistencyOf(report, [{ original: "first", repeat: "first" }]).retestSame // 1
 */
export function consistencyOf(
  report: Pick<AgreementReport, "all" | "pairs" | "ties" | "metricTies"> | null,
  retests: readonly { original: string; repeat: string }[],
): Consistency {
  const counted = report ? report.pairs - report.ties - report.metricTies : 0;
  const agree = report && report.all !== null ? Math.round(report.all * counted) : 0;
  const against = counted - agree;
  const interval = wilsonInterval(against, counted);
  // A repeat answered "about the same" either time says nothing about agreeing with oneself.
  const decided = retests.filter((r) => r.original !== "tie" && r.repeat !== "tie");
  const same = decided.filter((r) => r.original === r.repeat).length;
  const trials = counted + decided.length;
  const coinP = trials === 0 ? null : binomialUpperTail(agree + same, trials, 0.5);
  return {
    counted,
    against,
    errorRate: counted === 0 ? null : against / counted,
    errorLow: interval?.low ?? null,
    errorHigh: interval?.high ?? null,
    retestPairs: retests.length,
    retestSame: retests.filter((r) => r.original === r.repeat).length,
    coinP,
    coinLike: coinP !== null && coinP > COIN_LEVEL,
  };
}
