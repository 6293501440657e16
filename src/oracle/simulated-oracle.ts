import { createRng } from "../math/rng.ts";
import type { Answer, Ask, Question, QuestionDraft } from "../search/question.ts";
import { type NoiseModel, noisyAnswer } from "./noise.ts";

/** One logged query of a simulated stakeholder. */
export interface OracleLogEntry<P> {
  readonly question: Question<P>;
  readonly values: readonly [number, number];
  readonly answer: Answer;
}

/** A simulated stakeholder: a true metric plus a noise model, counting and logging queries. */
export interface SimulatedOracle<P> {
  readonly ask: Ask<P>;
  readonly log: readonly OracleLogEntry<P>[];
  /** Number of questions answered so far. */
  readonly count: () => number;
}

/**
 * Create a simulated stakeholder from the value of its true metric at a point.
 * @example
 * const oracle = simulatedOracle((p: { confusion: BinaryConfusion }) =>
 *   evaluateLinear({ tp: 0.6, tn: 0.8 }, p.confusion), { kind: "none" }, 1);
 * runProcedure(procedure, oracle.ask); oracle.count();
 */
export function simulatedOracle<P>(
  value: (point: P) => number,
  noise: NoiseModel = { kind: "none" },
  seed: number | string = 0,
): SimulatedOracle<P> {
  const rng = createRng(seed);
  const log: OracleLogEntry<P>[] = [];
  const ask = (draft: QuestionDraft<P>): Answer => {
    const values = [value(draft.first), value(draft.second)] as const;
    const answer = noisyAnswer(noise, values[0], values[1], rng);
    log.push({ question: { ...draft, index: log.length }, values, answer });
    return answer;
  };
  return { ask, log, count: () => log.length };
}
