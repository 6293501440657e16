import {
  type BinaryStudyResult,
  binaryStudyProcedure,
} from "../../elicit/adaptive/binary-study.ts";
import type { BinaryPoint } from "../../elicit/binary/point.ts";
import { type Procedure, type ReplayState, replay } from "../../elicit/session.ts";
import type { BinaryPopulation } from "../../geometry/binary/population.ts";
import type { Answer } from "../../search/question.ts";
import type { AdaptiveStudySpec } from "../study/config.ts";
import { replayCache } from "./replay-cache.ts";
import { type DisplayFrame, unlessIdenticalOnScreen } from "./views.ts";

/** The engine's result for a web study: `metric` is `{ a0 }` or unit-norm `{ tp, tn }`. */
export type AdaptiveStudyResult = BinaryStudyResult;

/**
 * The adaptive procedure of a study for one participant (`binaryStudyProcedure` with the
 * stored spec): `elicit simulate`, `elicit reproduce people` and the engine's own tests build
 * the same procedure from the same options, so the questions are the same for the same answers.
 */
export function adaptiveStudyProcedure(
  spec: AdaptiveStudySpec,
  population: BinaryPopulation,
  seed: number,
): Procedure<BinaryPoint, AdaptiveStudyResult> {
  return binaryStudyProcedure(spec, population, seed);
}

const cache = replayCache<ReplayState<BinaryPoint, AdaptiveStudyResult>>(512);

/** Forget every remembered replay (tests: prove a state is recomputed from the log alone). */
export function clearAdaptiveReplayCache(): void {
  cache.clear();
}

/**
 * Replay an adaptive study's answer log: the pending question or the result. The engine's
 * display step is the frame's (create.ts), so it never proposes a pair identical on screen;
 * `unlessIdenticalOnScreen` is the guard for the one case the two differ (a point clamped to
 * a class total when the pool's share rounds on a half).
 */
export function replayAdaptive(
  configHash: string,
  spec: AdaptiveStudySpec,
  population: BinaryPopulation,
  seed: number,
  answers: readonly Answer[],
  frame: DisplayFrame | null = null,
): ReplayState<BinaryPoint, AdaptiveStudyResult> {
  return cache.get(configHash, seed, answers, () =>
    replay(unlessIdenticalOnScreen(adaptiveStudyProcedure(spec, population, seed), frame), answers),
  );
}
