import { describe, expect, it } from "vitest";
import { STUDY_GRID_POINTS } from "../../src/elicit/adaptive/binary-study.ts";
import { adaptiveSteps, runBytes } from "../../src/elicit/adaptive/engine.ts";
import { displayFrame, identicalOnScreen } from "../../src/elicit/binary/display.ts";
import {
  type AutoAnswer,
  liveRun,
  type ReplayState,
  replay,
  stepsProcedure,
  withAutoAnswers,
} from "../../src/elicit/session.ts";
import { simulatedOracle } from "../../src/oracle/simulated-oracle.ts";
import type { Answer } from "../../src/search/question.ts";
import {
  RUN_OBJECT_BYTES,
  RunBudget,
  replayCache,
} from "../../src/server/participant/replay-cache.ts";
import {
  familyCases,
  casesPopulation as pop,
  randomTruth as truthOf,
} from "../elicit/adaptive/family-cases.ts";

/**
 * Issue 28, "Incremental answers": the server keeps a participant's run between answers and
 * resumes it with the newest answer; a replay of the log is the fallback and the source of
 * truth. For every family, under each answer model a study runs (human, learned,
 * learned-sharp) and the exact one, each state the cache serves (resumed run) equals the
 * state a fresh replay of the same log gives, bit for bit: every number compared by its 64
 * bits.
 */
const frame = displayFrame(100, pop.zeta);
const onScreen = identicalOnScreen(frame) as AutoAnswer<unknown>;
// The binary families with the web study's guard ("tie" for a pair identical on screen).
const cases = familyCases.map(
  ([name, make]) => [name, make, name.startsWith("binary") ? onScreen : undefined] as const,
);

/** Every number as its 64 bits (so -0, NaN and the last bit count), typed arrays as arrays. */
function bits(x: unknown): unknown {
  if (typeof x === "number") {
    const b = new DataView(new ArrayBuffer(8));
    b.setFloat64(0, x);
    return `${b.getUint32(0).toString(16)}:${b.getUint32(4).toString(16)}`;
  }
  if (ArrayBuffer.isView(x)) return Array.from(x as unknown as ArrayLike<number>, bits);
  if (Array.isArray(x)) return x.map(bits);
  if (x !== null && typeof x === "object") {
    return Object.fromEntries(
      Object.keys(x)
        .sort()
        .map((k) => [k, bits((x as Record<string, unknown>)[k])]),
    );
  }
  return x;
}

describe.each(cases)("replay cache: %s", (name, make, auto) => {
  for (const model of [
    "human",
    "exact",
    "learned",
    "learned-sharp",
    "learned-lean",
    "learned-blunt-lean",
    "learned-tiring",
    "learned-flipping",
    "learned-flipping-moderate",
  ] as const) {
    it(`${model} model: resumed runs give the replay's states bit for bit`, () => {
      const family = make();
      const truth = truthOf(family, name);
      const value = (p: unknown) => family.features(p).reduce((s, x, i) => s + x * truth[i]!, 0);
      const oracle = simulatedOracle(value, { kind: "flip", probability: 0.1 }, 3);
      // The grid of the server's studies (the binary families and lambda; the others keep
      // particles and ignore it).
      const options = {
        ...{ tolerance: 0.001, model, seed: 7, budget: 6, particles: 300 },
        gridPoints: STUDY_GRID_POINTS,
      } as const;
      const start = () => ({ steps: adaptiveSteps(make(), options), ...(auto ? { auto } : {}) });
      const replayed = (answers: readonly Answer[]) =>
        replay(
          withAutoAnswers(
            stepsProcedure(() => adaptiveSteps(make(), options)),
            auto ?? (() => undefined),
          ),
          answers,
        );
      const cache = replayCache<unknown, unknown>(16, 4);
      const answers: Answer[] = [];
      const served: string[] = [];
      let state: ReplayState<unknown, unknown> = cache.get("h", 1, answers, start);
      served.push(cache.lastServed!);
      while (state.status === "pending") {
        expect(bits(state)).toEqual(bits(replayed(answers)));
        answers.push(oracle.ask(state.question));
        state = cache.get("h", 1, answers, start);
        served.push(cache.lastServed!);
      }
      expect(bits(state)).toEqual(bits(replayed(answers)));
      // Several answers resumed a kept run (the budget is 6; a run may stop sooner).
      expect(answers.length).toBeGreaterThanOrEqual(3);
      expect(answers.length).toBeLessThanOrEqual(6);
      // The first state is a replay (of no answers); every later one a resumed run.
      expect(served).toEqual(["replayed", ...answers.map(() => "resumed")]);
      // Asked again (a reload), the state is remembered, not recomputed.
      expect(cache.get("h", 1, answers, start)).toBe(state);
      expect(cache.lastServed).toBe("state");
    });
  }
});

describe("replay cache: misses fall back to the log", () => {
  const family = familyCases[0]![1];
  const options = { tolerance: 0.001, model: "human", seed: 3, budget: 8 } as const;
  const start = () => ({ steps: adaptiveSteps(family(), options), auto: onScreen });
  const fresh = (answers: readonly Answer[]) =>
    replay(
      withAutoAnswers(
        stepsProcedure(() => adaptiveSteps(family(), options)),
        onScreen,
      ),
      answers,
    );

  it("an undo then another answer replays, and both branches stay right", () => {
    const cache = replayCache<unknown, unknown>(16, 4);
    const log: Answer[] = ["first", "second", "first"];
    for (let n = 0; n <= log.length; n++) cache.get("h", 1, log.slice(0, n), start);
    // Undo the last answer (the state of two answers is remembered) and answer otherwise: the
    // run that stopped at two answers was resumed already, so this one is a replay.
    expect(cache.get("h", 1, log.slice(0, 2), start)).toBeDefined();
    expect(cache.lastServed).toBe("state");
    const other: Answer[] = ["first", "second", "second"];
    const s = cache.get("h", 1, other, start);
    expect(cache.lastServed).toBe("replayed");
    expect(bits(s)).toEqual(bits(fresh(other)));
    // The replayed run is kept, so the branch's next answer resumes it.
    const next = cache.get("h", 1, [...other, "tie"], start);
    expect(cache.lastServed).toBe("resumed");
    expect(bits(next)).toEqual(bits(fresh([...other, "tie"])));
  });

  it("evicted runs and other participants' interleaved answers replay the log", () => {
    // One run kept: two participants answering in turn evict each other's runs.
    const cache = replayCache<unknown, unknown>(64, 1);
    const logs: Answer[][] = [[], []];
    const servedBy: string[] = [];
    for (let q = 0; q < 4; q++) {
      for (const who of [0, 1]) {
        logs[who]!.push(q % 2 === who ? "first" : "second");
        const s = cache.get("h", who, logs[who]!, start);
        servedBy.push(cache.lastServed!);
        expect(bits(s)).toEqual(bits(fresh(logs[who]!)));
      }
    }
    expect(servedBy.every((x) => x === "replayed")).toBe(true);
    // Another study (configuration hash) never shares a participant's run or state.
    const again = cache.get("other", 1, logs[1]!, start);
    expect(cache.lastServed).toBe("replayed");
    expect(bits(again)).toEqual(bits(fresh(logs[1]!)));
  });

  it("two servers answering in turn at random: a run a few answers behind catches up, bit for bit", () => {
    // Each server keeps its own runs; the balancer sends each answer to either at random, so
    // a server's run is often behind by the answers the other one took.
    const servers = [replayCache<unknown, unknown>(64, 8), replayCache<unknown, unknown>(64, 8)];
    const pick = [0, 1, 1, 1, 0, 0, 1, 0];
    const log: Answer[] = [];
    const served: string[] = [];
    let s = servers[0]!.get("h", 5, log, start);
    for (let q = 0; s.status === "pending" && q < pick.length; q++) {
      log.push(q % 3 === 0 ? "second" : "first");
      const server = servers[pick[q]!]!;
      s = server.get("h", 5, log, start);
      served.push(`${pick[q]}:${server.lastServed}`);
      expect(bits(s), `answer ${q + 1}`).toEqual(bits(fresh(log)));
    }
    // Server 1 first saw the participant at answer 2 (a replay); at answer 5 server 0 was
    // three answers behind and caught up rather than replaying; every other answer resumed.
    expect(served.slice(0, 5)).toEqual([
      "0:resumed",
      "1:replayed",
      "1:resumed",
      "1:resumed",
      "0:resumed",
    ]);
    expect(log.length).toBeGreaterThanOrEqual(5);
  });

  it("a log longer than the questions is refused as replay refuses it", () => {
    const cache = replayCache<unknown, unknown>(16, 4);
    const tiny = () => ({
      steps: adaptiveSteps(family(), { ...options, budget: 1 }),
      auto: onScreen,
    });
    expect(() => cache.get("t", 1, ["first", "first"], tiny)).toThrow(
      "the answer log has 2 answers but the procedure asked only 1 questions",
    );
    const done = cache.get("t", 1, ["first"], tiny);
    expect(done.status).toBe("done");
  });

  it("runs beyond the shared memory budget are dropped least recently used first, in any cache that shares it", () => {
    // Two caches (two kinds of study) on one budget that holds two runs and a half: the third
    // participant's run drops the first one's, in the other cache; the second's is resumed.
    const one = start();
    expect(runBytes(one.steps)).toBe(0);
    liveRun(one.steps, []);
    const arrays = runBytes(one.steps)!;
    expect(arrays).toBeGreaterThan(10_000);
    // A kept run counts its arrays and its other objects.
    const bytes = RUN_OBJECT_BYTES + arrays;
    const budget = new RunBudget(2.5 * bytes);
    const caches = [
      replayCache<unknown, unknown>(64, 64, budget),
      replayCache<unknown, unknown>(64, 64, budget),
    ];
    const served = (who: number, log: Answer[]) => {
      const cache = caches[who % 2]!;
      const s = cache.get("h", who, log, start);
      expect(bits(s)).toEqual(bits(fresh(log)));
      return cache.lastServed;
    };
    expect([0, 1, 2].map((who) => served(who, []))).toEqual(["replayed", "replayed", "replayed"]);
    expect(budget.usage.runs).toBe(2);
    expect(budget.usage.bytes).toBeLessThanOrEqual(2.5 * bytes);
    // Participant 0's run was dropped (the least recently used), 1's and 2's are kept.
    expect(served(1, ["first"])).toBe("resumed");
    expect(served(2, ["second"])).toBe("resumed");
    expect(served(0, ["first"])).toBe("replayed");
    // A cleared cache gives its runs' bytes back.
    caches[0]!.clear();
    caches[1]!.clear();
    expect(budget.usage).toEqual({ bytes: 0, runs: 0 });
  });
});
