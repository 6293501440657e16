import { binomialUpperTail, wilsonInterval } from "../../math/binomial.ts";
import { COIN_LEVEL, coinTestCanTell, NEAR_COIN_LEVEL } from "../study/figure-text.ts";
import type { AgreementReport } from "./evaluation-pairs.ts";
import { coinFitP } from "./range-fit.ts";

/**
 * How consistently a participant answered (issue 26 item 4: measured, not assumed), from
 * their Phase III answers against their own elicited result and the Phase II pairs they were
 * shown again (test-retest); in a multiclass or fairness study made without Phase III, from the lapse the
 * engine's learned answer model inferred from their answers.
 */
export interface Consistency {
  /**
   * What the figures rest on: `phase-three` (answers and repeats counted) or `answer-model`
   * (the engine's posterior over the person's slip rate; nothing counted, no `coinP`).
   */
  readonly basis: "phase-three" | "answer-model";
  /** Phase III answers counted (no "about the same", no tie of the metric), repeats apart. */
  readonly counted: number;
  /**
   * What `against` counts against: `result`, the participant's own elicited metric (the
   * adaptive kinds, whose range is the result's narrow credible region); `range`, in a binary
   * study, the metric of the range the Phase II answers allow (or the result) that explains
   * the most of them (`rangeFit`). A person answering consistently on the counts shown whose
   * result is a poor point of a wide range (the papers' searches, on unrounded rates) had up
   * to 7 of 15 answers "against their own result" while answering as one metric of its range
   * would; against the range, none. Absent (`result`) in exports made before it.
   */
  readonly versus: "result" | "range";
  /** Of them, answers against the participant's own result (`versus`). */
  readonly against: number;
  /**
   * `against / counted`: the estimated share of answers that went against their own result
   * (`versus`). Against the best metric of a wide range a coin can score below 1/2, so it
   * is the coin test (`coinP`), not this share, that flags one.
   */
  readonly errorRate: number | null;
  /** Its 90% (Wilson) interval. */
  readonly errorLow: number | null;
  readonly errorHigh: number | null;
  /** Phase II pairs shown again in Phase III, and how many got the same answer. */
  readonly retestPairs: number;
  readonly retestSame: number;
  /**
   * The chance that a coin would agree with the result and with itself at least this often
   * (one-sided binomial over the counted answers and the repeats, p = 1/2); in a binary study,
   * that one metric of the range the Phase II answers allow would explain a coin's answers,
   * plus its repeats answered the same, at least as often as the participant's (`rangeFit`:
   * a consistent person is not judged against a point of the range far from their own
   * metric); 1 when every Phase III answer was "about the same" (no choice at all); null when
   * there is nothing to count.
   */
  readonly coinP: number | null;
  /**
   * The answers cannot be told apart from a coin's: `coinP > 0.05` where the test can tell
   * (a perfect record could fall below 0.05: at least 5 answers count, or in a binary study
   * the coin's chance of a perfect fit is at most 0.05; with fewer, everyone would be "like a
   * coin"), or every Phase III answer "about the same".
   */
  readonly coinLike: boolean;
  /**
   * The answers are told apart from a coin's at `COIN_LEVEL` but not at `NEAR_COIN_LEVEL`
   * (`coinP` above 0.01 where at least 7 answers count): a coin agrees as often about once in
   * forty sessions of the study's 17 Phase III answers. Marked on the dashboard, kept in the
   * consensus. Without it a random responder's run stopped on the tolerance far off its truth
   * with nothing said (the people panel's binary-linear cell, 13 of 17 agreeing, p 0.025).
   */
  readonly nearCoin: boolean;
  /**
   * The side of the screen the engine's learned answer model finds the participant leaning to
   * on close pairs (posterior probability above `LEAN_PROBABILITY`), as if the system shown
   * there were better; null when it finds no lean or cannot tell (no `learned-lean`,
   * `learned-blunt-lean`, `learned-tiring`, `learned-flipping` or `learned-flipping-moderate`
   * model).
   */
  readonly leansTo: "left" | "right" | null;
}

/** The answer model's probability of a lean to one side above which a participant leans. */
export const LEAN_PROBABILITY = 0.5;

/** What the engine's learned answer model says of a participant (`AdaptiveResult.person`). */
export interface LearnedPerson {
  readonly lapse: number;
  readonly coin: number;
  readonly levels: readonly { readonly lapse: number; readonly probability: number }[];
  readonly lean?: { readonly left: number; readonly right: number };
}

/**
 * The side a participant leans to, by the learned answer model: the side whose lean has
 * posterior probability above `LEAN_PROBABILITY`, else null (also without a lean model).
 * @example leansTo({ lapse: 0.1, coin: 0, levels: [], lean: { left: 0.8, right: 0.01 } }) // "left"
 */
export function leansTo(person: LearnedPerson | undefined): "left" | "right" | null {
  const lean = person?.lean;
  if (!lean) return null;
  if (lean.left > LEAN_PROBABILITY) return "left";
  if (lean.right > LEAN_PROBABILITY) return "right";
  return null;
}

// The level above which answers count as indistinguishable from a coin, and whether a count
// of answers can tell: one with the dashboard's and the create form's wording of the test
// (figure-text.ts, which the web bundle reads too).
export { COIN_LEVEL, coinTestCanTell, NEAR_COIN_LEVEL };

/**
 * The consistency figures of one participant: `report` is the agreement of their Phase III
 * answers (repeats left out) with their result, `retests` the original and repeated answer of
 * each pair shown twice (procedure order, so "first" means the same system both times),
 * `person` what the engine's learned answer model says of them (for `leansTo`; none for a
 * paper-strategy result).
 * @example consistencyOf(report, [{ original: "first", repeat: "first" }]).retestSame // 1
 */
export function consistencyOf(
  report: Pick<AgreementReport, "all" | "pairs" | "ties" | "metricTies" | "fit"> | null,
  retests: readonly { original: string; repeat: string }[],
  person?: LearnedPerson,
): Consistency {
  const counted = report ? report.pairs - report.ties - report.metricTies : 0;
  const agree = report && report.all !== null ? Math.round(report.all * counted) : 0;
  // Binary studies: against the metric of the range (or the result, which is always allowed)
  // that explains the most answers; the fit counts the same answers as `counted`.
  const versus = report?.fit ? "range" : "result";
  const against = counted - Math.max(agree, report?.fit && counted > 0 ? report.fit.explained : 0);
  const interval = wilsonInterval(against, counted);
  // A repeat answered "about the same" either time says nothing about agreeing with oneself.
  const decided = retests.filter((r) => r.original !== "tie" && r.repeat !== "tie");
  const same = decided.filter((r) => r.original === r.repeat).length;
  const trials = counted + decided.length;
  // Someone who answered every Phase III pair (and repeat) "about the same" made no choice a
  // coin could not have made: flagged with the coin's own p (the audit found such a
  // participant counted in the consensus, unflagged).
  const noChoice =
    report !== null &&
    report.pairs + retests.length > 0 &&
    report.ties === report.pairs &&
    retests.every((r) => r.repeat === "tie");
  // Binary studies: the counted answers against the best metric of the range (`rangeFit`),
  // with the coin's own best fit as the null; the adaptive kinds: against the result.
  const fitted = report?.fit && counted > 0 ? coinFitP(report.fit, decided.length, same) : null;
  const coinP = noChoice
    ? 1
    : trials === 0
      ? null
      : (fitted?.p ?? binomialUpperTail(agree + same, trials, 0.5));
  const canTell = (level: number) =>
    fitted ? fitted.least <= level : coinTestCanTell(trials, level);
  const coinLike = noChoice || (coinP !== null && coinP > COIN_LEVEL && canTell(COIN_LEVEL));
  return {
    basis: "phase-three",
    counted,
    versus,
    against,
    errorRate: counted === 0 ? null : against / counted,
    errorLow: interval?.low ?? null,
    errorHigh: interval?.high ?? null,
    retestPairs: retests.length,
    retestSame: retests.filter((r) => r.original === r.repeat).length,
    coinP,
    coinLike,
    nearCoin: !coinLike && coinP !== null && coinP > NEAR_COIN_LEVEL && canTell(NEAR_COIN_LEVEL),
    leansTo: leansTo(person),
  };
}

/** The probability of answering as a coin above which the answer model flags a participant. */
export const COIN_PROBABILITY = 0.5;

/**
 * The consistency figures of a participant of a study without Phase III, from the engine's
 * learned answer model (`AdaptiveResult.person`): a slip is a coin flip, so the share of
 * answers against the person's own metric is half their lapse; its posterior mean, and the
 * 5% and 95% points of its posterior as the range. `coinLike` when the posterior probability
 * that they answer as a coin exceeds `COIN_PROBABILITY`. Null without a learned model.
 * @example modelConsistency({ lapse: 0.05, coin: 0, levels: [{ lapse: 0.02, probability: 0.6 }, { lapse: 0.1, probability: 0.4 }] })?.errorRate // 0.025
 */
export function modelConsistency(person: LearnedPerson | undefined): Consistency | null {
  if (!person) return null;
  const levels = [...person.levels].sort((a, b) => a.lapse - b.lapse);
  const quantile = (q: number) => {
    let mass = 0;
    for (const l of levels) {
      mass += l.probability;
      if (mass >= q) return l.lapse / 2;
    }
    return levels.at(-1)!.lapse / 2;
  };
  return {
    basis: "answer-model",
    counted: 0,
    versus: "result",
    against: 0,
    errorRate: person.lapse / 2,
    errorLow: quantile(0.05),
    errorHigh: quantile(0.95),
    retestPairs: 0,
    retestSame: 0,
    coinP: null,
    coinLike: person.coin > COIN_PROBABILITY,
    nearCoin: false,
    leansTo: leansTo(person),
  };
}
