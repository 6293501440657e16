import type { Answer, Ask, Question, QuestionDraft } from "../search/question.ts";

/**
 * Drivers for procedures. A procedure is plain synchronous code that calls `ask`; it is a
 * deterministic function of (spec, seed, answers so far), so one implementation serves the
 * simulator (ask = simulated oracle), a terminal user and the web server (ask = the stored
 * answer log, replayed).
 */
export type Procedure<P, R> = (ask: Ask<P>) => R;

/** Thrown inside a replay when the answer log is exhausted; never escapes `replay`. */
class PendingQuestion<P> {
  constructor(readonly question: Question<P>) {}
}

/** Where a replayed session stands. */
export type ReplayState<P, R> =
  | {
      readonly status: "pending";
      readonly question: Question<P>;
      readonly questions: Question<P>[];
    }
  | { readonly status: "done"; readonly result: R; readonly questions: Question<P>[] };

/**
 * Replay a procedure against a stored answer log: either the next unanswered question or
 * the final result. Throws if the log holds more answers than the procedure asks.
 * @example
 * const state = replay(procedure, ["first", "second"]);
 * if (state.status === "pending") show(state.question); else save(state.result);
 */
export function replay<P, R>(
  procedure: Procedure<P, R>,
  answers: readonly Answer[],
): ReplayState<P, R> {
  const questions: Question<P>[] = [];
  const ask = (draft: QuestionDraft<P>): Answer => {
    const question: Question<P> = { ...draft, index: questions.length };
    if (questions.length >= answers.length) throw new PendingQuestion(question);
    questions.push(question);
    return answers[question.index]!;
  };
  try {
    const result = procedure(ask);
    if (questions.length < answers.length) {
      throw new RangeError(
        `the answer log has ${answers.length} answers but the procedure asked only ${questions.length} questions`,
      );
    }
    return { status: "done", result, questions };
  } catch (signal) {
    if (signal instanceof PendingQuestion) {
      return { status: "pending", question: signal.question as Question<P>, questions };
    }
    throw signal;
  }
}

/** A finished run with its transcript. */
export interface Transcript<P, R> {
  readonly result: R;
  readonly questions: readonly Question<P>[];
  readonly answers: readonly Answer[];
}

/**
 * Run a procedure to the end with a live answerer (e.g. a simulated oracle) and record
 * every question and answer: the answers are the session's log.
 * @example const { result, answers } = runProcedure(procedure, oracle.ask);
 */
export function runProcedure<P, R>(procedure: Procedure<P, R>, answer: Ask<P>): Transcript<P, R> {
  const questions: Question<P>[] = [];
  const answers: Answer[] = [];
  const ask = (draft: QuestionDraft<P>): Answer => {
    const question: Question<P> = { ...draft, index: questions.length };
    const a = answer(draft);
    questions.push(question);
    answers.push(a);
    return a;
  };
  const result = procedure(ask);
  return { result, questions, answers };
}
