import { type BinaryStudyResult, binaryStudySteps } from "../../elicit/adaptive/binary-study.ts";
import { identicalOnScreen } from "../../elicit/binary/display.ts";
import type { BinaryPoint } from "../../elicit/binary/point.ts";
import type { ReplayState } from "../../elicit/session.ts";
import type { BinaryPopulation } from "../../geometry/binary/population.ts";
import type { Answer } from "../../search/question.ts";
import type { AdaptiveStudySpec } from "../study/config.ts";
import { replayCache, SERVER_RUNS } from "./replay-cache.ts";
import type { DisplayFrame } from "./views.ts";

/** The engine's result for a web study: `metric` is `{ a0 }` or unit-norm `{ tp, tn }`. */
export type AdaptiveStudyResult = BinaryStudyResult;

// A binary run holds its grid of directions with their weights (about 330 KB for a new
// study's 4,096 points per component, 1.3 MB for an older study's 16,384): the runs kept
// share the server's memory budget with the other kinds' (`SERVER_RUNS`).
const cache = replayCache<BinaryPoint, AdaptiveStudyResult>(4096, 4096, SERVER_RUNS);

/** Forget every remembered replay (tests: prove a state is recomputed from the log alone). */
export function clearAdaptiveReplayCache(): void {
  cache.clear();
}

/**
 * Replay an adaptive study's answer log: the pending question or the result. The engine's
 * display step is the frame's (create.ts), so it never proposes a pair identical on screen;
 * `identicalOnScreen` is the guard for the one case the two differ (a point clamped to a class
 * total when the pool's share rounds on a half). The participant's run is kept between
 * answers and resumed (`replayCache`); the log stays the source of truth.
 */
export function replayAdaptive(
  configHash: string,
  spec: AdaptiveStudySpec,
  population: BinaryPopulation,
  seed: number,
  answers: readonly Answer[],
  frame: DisplayFrame | null = null,
): ReplayState<BinaryPoint, AdaptiveStudyResult> {
  return cache.get(configHash, seed, answers, () => ({
    steps: binaryStudySteps(spec, population, seed),
    auto: identicalOnScreen(frame),
  }));
}
