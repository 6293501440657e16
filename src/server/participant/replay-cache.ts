import type { Answer } from "../../search/question.ts";

/**
 * Replays computed recently, by (configuration, seed, answers), least recently used evicted
 * first. The engine is a pure function of these, but a replay of a long log takes a few
 * hundred milliseconds; an answer request replays the log it extends and the next request
 * replays the extended one, so remembering a few hundred states makes each answer cost about
 * one replay. Entries are never mutated.
 * @example
 * const replays = replayCache<MyState>(256);
 * replays.get(hash, seed, answers, () => replay(procedure, answers));
 */
export function replayCache<S>(size: number): {
  get(configHash: string, seed: number, answers: readonly Answer[], compute: () => S): S;
  clear(): void;
} {
  const cache = new Map<string, S>();
  return {
    get(configHash, seed, answers, compute) {
      const key = `${configHash}|${seed}|${answers.join(",")}`;
      const hit = cache.get(key);
      if (hit !== undefined) {
        // Most recently used last, so the oldest entry is the one evicted.
        cache.delete(key);
        cache.set(key, hit);
        return hit;
      }
      const state = compute();
      if (cache.size >= size) cache.delete(cache.keys().next().value!);
      cache.set(key, state);
      return state;
    },
    clear: () => cache.clear(),
  };
}
