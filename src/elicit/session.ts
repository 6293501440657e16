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

/**
 * A procedure written as a generator: it yields each question and is resumed with its
 * answer. Unlike a `Procedure`, a run can be suspended between questions and resumed later,
 * so a server answers one more question with one more step instead of a replay of the log.
 */
export type Steps<P, R> = Generator<QuestionDraft<P>, R, Answer>;

/**
 * The `Procedure` of a generator: `ask` answers each yielded question. Both forms run the
 * same code, so a resumed run and a replay give the same questions and result.
 * @example runProcedure(stepsProcedure(() => mySteps()), oracle.ask)
 */
export function stepsProcedure<P, R>(steps: () => Steps<P, R>): Procedure<P, R> {
  return (ask) => {
    const run = steps();
    let r = run.next(undefined as unknown as Answer);
    while (!r.done) r = run.next(ask(r.value));
    return r.value;
  };
}

/**
 * Questions a driver answers itself without showing them (e.g. "tie" for a pair that looks
 * the same on screen): they are not in the answer log. `undefined` shows the question.
 */
export type AutoAnswer<P> = (question: QuestionDraft<P>) => Answer | undefined;

/**
 * The procedure with the questions `auto` answers never reaching `ask` (nor the answer log).
 * @example withAutoAnswers(procedure, (q) => (same(q.first, q.second) ? "tie" : undefined))
 */
export function withAutoAnswers<P, R>(
  procedure: Procedure<P, R>,
  auto: AutoAnswer<P>,
): Procedure<P, R> {
  return (ask) => procedure((q) => auto(q) ?? ask(q));
}

/**
 * A suspended run of a generator procedure: `state` is where it stands after the answers fed
 * so far (as `replay` of that log gives it); `answer` resumes it with one more. The run is
 * mutable and single-use: each `answer` consumes it, so keep the returned state, not the run.
 * @example
 * const run = liveRun(mySteps(), answers);
 * if (run.state.status === "pending") run.answer("first");
 */
export interface LiveRun<P, R> {
  readonly state: ReplayState<P, R>;
  /** Feed the next answer of the log; returns the new state (throws once done). */
  answer(answer: Answer): ReplayState<P, R>;
}

/**
 * Start a generator and feed it `answers`, the same contract as `replay` (the same states,
 * the same RangeError for a log longer than the questions), but the run stays live for the
 * next answer. `auto` answers the questions a driver never shows (they take no log entry).
 * @example liveRun(steps, ["first"]).answer("second")
 */
export function liveRun<P, R>(
  steps: Steps<P, R>,
  answers: readonly Answer[],
  auto: AutoAnswer<P> = () => undefined,
): LiveRun<P, R> {
  const questions: Question<P>[] = [];
  let state: ReplayState<P, R>;
  // Resume with `answer` until a question is shown or the run ends.
  const advance = (first: Answer | undefined): ReplayState<P, R> => {
    let r = steps.next(first as Answer);
    for (;;) {
      if (r.done) return { status: "done", result: r.value, questions: [...questions] };
      const own = auto(r.value);
      if (own === undefined) break;
      r = steps.next(own);
    }
    return {
      status: "pending",
      question: { ...r.value, index: questions.length },
      questions: [...questions],
    };
  };
  const feed = (answer: Answer): ReplayState<P, R> => {
    if (state.status === "done") {
      throw new RangeError(
        `the answer log has ${questions.length + 1} answers but the procedure asked only ${questions.length} questions`,
      );
    }
    questions.push(state.question);
    state = advance(answer);
    return state;
  };
  state = advance(undefined);
  for (const a of answers) {
    if (state.status === "done") {
      throw new RangeError(
        `the answer log has ${answers.length} answers but the procedure asked only ${questions.length} questions`,
      );
    }
    feed(a);
  }
  return {
    get state() {
      return state;
    },
    answer: feed,
  };
}
