import {
  type AutoAnswer,
  type LiveRun,
  liveRun,
  type ReplayState,
  type Steps,
} from "../../elicit/session.ts";
import type { Answer } from "../../search/question.ts";

/** How a participant's run starts: the procedure's generator and the questions never shown. */
export interface RunStart<P, R> {
  readonly steps: Steps<P, R>;
  readonly auto?: AutoAnswer<P>;
}

/**
 * Participants' replays by (configuration, seed, answers), least recently used evicted first,
 * with the suspended runs behind the most recent ones (issue 28: incremental answers).
 *
 * The answer log stays the source of truth. An answer extends a log by one; when the run
 * that stopped at the shorter log is still kept, it is resumed with that one answer (one
 * engine step) instead of replaying the whole log. On a miss (another server answered, a
 * restart, an eviction, an undo followed by another answer) the log is replayed from the
 * start through the same generator, so both paths give the same states bit for bit. A run is
 * taken out of the cache while it is resumed, so it is never resumed twice. States are never
 * mutated; runs hold a whole belief (up to a few MB), so fewer of them are kept than states.
 * @example
 * const replays = replayCache<MyPoint, MyResult>(512, 16);
 * replays.get(hash, seed, answers, () => ({ steps: mySteps(seed) }));
 */
export function replayCache<P, R>(
  size: number,
  runs: number,
): {
  get(
    configHash: string,
    seed: number,
    answers: readonly Answer[],
    start: () => RunStart<P, R>,
  ): ReplayState<P, R>;
  /** How the last `get` was served: a remembered state, a resumed run or a whole replay. */
  readonly lastServed: "state" | "resumed" | "replayed" | null;
  clear(): void;
} {
  const states = new Map<string, ReplayState<P, R>>();
  const live = new Map<string, LiveRun<P, R>>();
  let lastServed: "state" | "resumed" | "replayed" | null = null;
  const keyOf = (configHash: string, seed: number, answers: readonly Answer[]) =>
    `${configHash}|${seed}|${answers.join(",")}`;
  // Most recently used last, so the oldest entry is the one evicted.
  const remember = <V>(map: Map<string, V>, bound: number, key: string, value: V) => {
    map.delete(key);
    if (map.size >= bound) map.delete(map.keys().next().value!);
    map.set(key, value);
  };
  return {
    get(configHash, seed, answers, start) {
      const key = keyOf(configHash, seed, answers);
      const hit = states.get(key);
      if (hit !== undefined) {
        remember(states, size, key, hit);
        lastServed = "state";
        return hit;
      }
      const before = answers.length > 0 ? keyOf(configHash, seed, answers.slice(0, -1)) : null;
      let run = before === null ? undefined : live.get(before);
      let state: ReplayState<P, R>;
      if (run !== undefined && run.state.status === "pending") {
        live.delete(before!);
        state = run.answer(answers[answers.length - 1]!);
        lastServed = "resumed";
      } else {
        const s = start();
        run = liveRun(s.steps, answers, s.auto);
        state = run.state;
        lastServed = "replayed";
      }
      remember(states, size, key, state);
      if (state.status === "pending") remember(live, runs, key, run);
      return state;
    },
    get lastServed() {
      return lastServed;
    },
    clear: () => {
      states.clear();
      live.clear();
      lastServed = null;
    },
  };
}
