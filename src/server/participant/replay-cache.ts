import {
  type AutoAnswer,
  type LiveRun,
  liveRun,
  type ReplayState,
  type Steps,
} from "../../elicit/session.ts";
import type { Answer } from "../../search/question.ts";

/**
 * How many answers back a kept run may be and still be resumed (a step per answer) rather
 * than the log replayed: with two servers taking answers at random, a server last saw a
 * participant k answers ago with probability 2^-k.
 */
const CATCH_UP = 16;

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
 * engine step) instead of replaying the whole log, and a run kept a few answers back (another
 * server took the answers between) with those answers, a step each (`CATCH_UP`). On a miss (a
 * restart, an eviction, a run on no prefix of the log) the log is replayed from the start
 * through the same generator, so every path gives the same states bit for bit. A run is
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
      // The kept run on the longest prefix of this log, up to CATCH_UP answers back: with
      // several servers, the one answering may have seen this participant last a few answers
      // ago (another server took the ones between); those answers are a step each.
      let run: LiveRun<P, R> | undefined;
      let from = answers.length;
      for (let n = answers.length - 1; n >= Math.max(0, answers.length - CATCH_UP); n--) {
        const prefix = keyOf(configHash, seed, answers.slice(0, n));
        const kept = live.get(prefix);
        if (kept !== undefined && kept.state.status === "pending") {
          live.delete(prefix);
          run = kept;
          from = n;
          break;
        }
      }
      let state: ReplayState<P, R> | undefined;
      if (run !== undefined) {
        let i = from;
        while (i < answers.length && run.state.status === "pending")
          state = run.answer(answers[i++]!);
        // The run ended before the log did: the replay refuses the log as it should.
        if (i < answers.length) run = undefined;
      }
      if (run !== undefined && state !== undefined) {
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
