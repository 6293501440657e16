import type { BinaryPoint } from "../../elicit/binary/point.ts";
import { type BinaryResult, type BinarySpec, binaryProcedure } from "../../elicit/binary/spec.ts";
import { type Procedure, type ReplayState, replay } from "../../elicit/session.ts";
import type { BinaryPopulation } from "../../geometry/binary/population.ts";
import { firstOnLeft } from "../../search/placement.ts";
import type { Answer } from "../../search/question.ts";
import { halvingsNeeded } from "../../search/unimodal-search.ts";
import { isAdaptiveSpec, isBinarySpec, type StudySpec } from "../study/config.ts";
import { type AdaptiveStudyResult, replayAdaptive } from "./adaptive.ts";
import { type DisplayFrame, unlessIdenticalOnScreen } from "./views.ts";

/** The result of Phase II: one of the papers' searches or the adaptive engine's. */
export type ElicitationResult = BinaryResult | AdaptiveStudyResult;

/** Whether a Phase II result comes from the adaptive engine. */
export function isAdaptiveResult(r: ElicitationResult): r is AdaptiveStudyResult {
  return "strategy" in r && r.strategy === "adaptive";
}

/**
 * What the adaptive engine's learned answer model says of the participant (none for the
 * papers' searches or a fixed model).
 * @example learnedPerson(result)?.lean // { left: 0.8, right: 0.01 }
 */
export function learnedPerson(r: ElicitationResult): AdaptiveStudyResult["person"] {
  return isAdaptiveResult(r) ? r.person : undefined;
}

/** Where Phase II stands after replaying the stored answers, with an honest estimate. */
export interface ElicitationReplay {
  readonly state: ReplayState<BinaryPoint, ElicitationResult>;
  /**
   * The questions still to come, the pending one included: for `adaptive`, what the budget
   * leaves (the engine usually stops sooner); for the searches an estimate, the strategy's
   * usual questions per halving, which can fall short or run over (`remainingAtMost` bounds it).
   */
  readonly estimatedRemaining: number;
  /** `adaptive`: the most questions Phase II can ask (the budget); null for the searches. */
  readonly atMost: number | null;
  /**
   * The papers' searches: the share of the search done, halvings completed / halvings needed
   * (exact: a search always runs its halvings; how many questions each takes depends on the
   * answers, so `estimatedRemaining` is only an estimate).
   */
  readonly searchDone?: number;
  /**
   * The papers' searches: a true upper bound of the questions still to come, the pending one
   * included: no halving asks more than five (its four comparisons and, after a tie, one more
   * about a plateau), and pairs skipped as identical on screen only lower it.
   */
  readonly remainingAtMost?: number;
}

const MAX_PER_HALVING = { paper: 4, lazy: 3, bisect: 2 } as const;

/**
 * Replay (spec, answers) through the same engine the CLI uses; no state is kept between
 * requests (adaptive replays are memoised by their inputs, see adaptive.ts). For the searches,
 * counts halvings on the way to estimate the questions left. `seed` (the participant's) seeds
 * the adaptive engine; the searches are deterministic and ignore it. `frame` is how the study
 * shows points: a pair identical in it is never asked (the adaptive engine is told the frame's
 * step as its display step and never proposes one; the searches' fixed questions are skipped).
 */
export function replayElicitation(
  spec: StudySpec,
  population: BinaryPopulation,
  answers: readonly Answer[],
  adaptive: { readonly configHash: string; readonly seed: number },
  frame: DisplayFrame | null = null,
): ElicitationReplay {
  if (!isBinarySpec(spec)) throw new Error(`a ${spec.family} study replays with its own kind`);
  if (isAdaptiveSpec(spec)) {
    const state = replayAdaptive(
      adaptive.configHash,
      spec,
      population,
      adaptive.seed,
      answers,
      frame,
    );
    const estimatedRemaining = state.status === "done" ? 0 : spec.budget - answers.length;
    return { state, estimatedRemaining, atMost: spec.budget };
  }
  return replaySearch(spec, population, answers, frame);
}

function replaySearch(
  spec: BinarySpec,
  population: BinaryPopulation,
  answers: readonly Answer[],
  frame: DisplayFrame | null,
): ElicitationReplay {
  let asked = 0;
  let shrinks = 0;
  let askedAtShrink = 0;
  const inner = unlessIdenticalOnScreen(
    binaryProcedure(spec, population, () => {
      shrinks++;
      askedAtShrink = asked;
    }),
    frame,
  );
  const procedure: Procedure<BinaryPoint, BinaryResult> = (ask) =>
    inner((q) => {
      const a = ask(q);
      asked++;
      return a;
    });
  const state = replay(procedure, answers);
  if (state.status === "done") return { state, estimatedRemaining: 0, atMost: null };
  const range = spec.family === "binary-threshold" ? 1 : Math.PI / 2;
  const searches = spec.family === "binary-linear-fractional" ? 2 : 1;
  const halvings = halvingsNeeded(range, spec.tolerance) * searches;
  const per = MAX_PER_HALVING[spec.strategy];
  const remaining = (halvings - shrinks) * per - (asked - askedAtShrink);
  return {
    state,
    estimatedRemaining: Math.max(1, remaining),
    atMost: null,
    searchDone: Math.min(1, shrinks / halvings),
    remainingAtMost: Math.max(1, (halvings - shrinks) * 5 - (asked - askedAtShrink)),
  };
}

/**
 * Left/right placement of question `index` of a phase: a pure function of the seed
 * (`firstOnLeft`), unless the question carries its own (`left`, the adaptive engine's, the
 * same function of the seed and its question count).
 */
export function placementOf(
  seed: number,
  phase: "elicitation" | "evaluation",
  index: number,
  left?: "first" | "second",
): "first-left" | "first-right" {
  if (left !== undefined) return left === "first" ? "first-left" : "first-right";
  return firstOnLeft(seed, phase, index) ? "first-left" : "first-right";
}

/** Map a shown choice back to the engine's answer. */
export function answerOf(
  choice: "left" | "right" | "same",
  placement: "first-left" | "first-right",
): Answer {
  if (choice === "same") return "tie";
  const leftIsFirst = placement === "first-left";
  return (choice === "left") === leftIsFirst ? "first" : "second";
}
