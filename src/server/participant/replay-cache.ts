import { runBytes } from "../../elicit/adaptive/engine.ts";
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

/** What a kept run is counted as when its generator does not say (not an adaptive run). */
const UNKNOWN_RUN_BYTES = 1 << 20;

/**
 * Added to a run's arrays (`runBytes`) for its other objects: the generator, its family and
 * question objects (measured 33 KB for a binary run, 52 KB fairness, 103 KB multiclass).
 */
export const RUN_OBJECT_BYTES = 64 * 1024;

/** `elicit serve --run-memory`'s default, in MB. */
export const DEFAULT_RUN_MEMORY_MB = 320;

/**
 * The memory the kept runs of one or more caches share: when their bytes exceed `limit`, the
 * least recently used run of any of them is dropped (its participant's next answer replays
 * the log). One budget serves every kind of study a server runs, so a busy binary study and
 * a quiet multiclass one share it as their participants need.
 * @example
 * const budget = new RunBudget(256 * 2 ** 20);
 * const replays = replayCache<MyPoint, MyResult>(1024, 4096, budget);
 */
export class RunBudget {
  private readonly kept = new Map<object, { bytes: number; drop: () => void }>();
  private used = 0;
  constructor(public limit: number) {}

  /** Count `run` (again) as `bytes` and the most recently used; drop the oldest beyond the limit. */
  hold(run: object, bytes: number, drop: () => void): void {
    this.release(run);
    this.kept.set(run, { bytes, drop });
    this.used += bytes;
    while (this.used > this.limit) {
      const [oldest, entry] = this.kept.entries().next().value!;
      if (oldest === run) break;
      this.release(oldest);
      entry.drop();
    }
  }

  /** Stop counting `run` (resumed, evicted or cleared). */
  release(run: object): void {
    const entry = this.kept.get(run);
    if (entry === undefined) return;
    this.used -= entry.bytes;
    this.kept.delete(run);
  }

  /** The kept runs' bytes and count. */
  get usage(): { bytes: number; runs: number } {
    return { bytes: this.used, runs: this.kept.size };
  }
}

/**
 * The budget of every participant cache of this server process (binary, multiclass, fairness
 * and quadratic runs): 320 MB unless `elicit serve --run-memory` says otherwise, room for
 * about 500 people answering at once in a mix of kinds (a new binary or fairness study's
 * run about 0.4 MB, a multiclass one of iris 0.6-0.9 MB).
 */
export const SERVER_RUNS = new RunBudget(DEFAULT_RUN_MEMORY_MB * 2 ** 20);

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
 * mutated; runs hold a whole belief (a few hundred KB to a few MB), so they are kept within
 * `budget`'s bytes (shared with other caches; `runBytes` measures a run) as well as `runs`.
 * @example
 * const replays = replayCache<MyPoint, MyResult>(512, 16);
 * replays.get(hash, seed, answers, () => ({ steps: mySteps(seed) }));
 */
export function replayCache<P, R>(
  size: number,
  runs: number,
  budget: RunBudget = new RunBudget(Number.POSITIVE_INFINITY),
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
  /** A kept run and how many bytes it holds now (its generator's `runBytes`). */
  interface Kept {
    readonly run: LiveRun<P, R>;
    readonly bytes: () => number;
  }
  const live = new Map<string, Kept>();
  let lastServed: "state" | "resumed" | "replayed" | null = null;
  const keyOf = (configHash: string, seed: number, answers: readonly Answer[]) =>
    `${configHash}|${seed}|${answers.join(",")}`;
  // Most recently used last, so the oldest entry is the one evicted.
  const remember = <V>(
    map: Map<string, V>,
    bound: number,
    key: string,
    value: V,
    evicted: (v: V) => void = () => {},
  ) => {
    map.delete(key);
    if (map.size >= bound) {
      const [oldest, v] = map.entries().next().value!;
      map.delete(oldest);
      evicted(v);
    }
    map.set(key, value);
  };
  const keep = (key: string, kept: Kept) => {
    const replaced = live.get(key);
    if (replaced !== undefined) budget.release(replaced);
    remember(live, runs, key, kept, (v) => budget.release(v));
    budget.hold(kept, kept.bytes(), () => {
      if (live.get(key) === kept) live.delete(key);
    });
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
      let bytes: (() => number) | undefined;
      let from = answers.length;
      for (let n = answers.length - 1; n >= Math.max(0, answers.length - CATCH_UP); n--) {
        const prefix = keyOf(configHash, seed, answers.slice(0, n));
        const kept = live.get(prefix);
        if (kept !== undefined && kept.run.state.status === "pending") {
          live.delete(prefix);
          budget.release(kept);
          run = kept.run;
          bytes = kept.bytes;
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
      if (run !== undefined && state !== undefined && bytes !== undefined) {
        lastServed = "resumed";
      } else {
        const s = start();
        run = liveRun(s.steps, answers, s.auto);
        bytes = () => RUN_OBJECT_BYTES + (runBytes(s.steps) ?? UNKNOWN_RUN_BYTES);
        state = run.state;
        lastServed = "replayed";
      }
      remember(states, size, key, state);
      if (state.status === "pending") keep(key, { run, bytes });
      return state;
    },
    get lastServed() {
      return lastServed;
    },
    clear: () => {
      states.clear();
      for (const kept of live.values()) budget.release(kept);
      live.clear();
      lastServed = null;
    },
  };
}
