/**
 * The protocol between a procedure and whoever answers it.
 *
 * A procedure poses a question as a pair of points (each point carries the classifier that
 * achieves it) and receives one of three answers. "tie" is the "they seem about the same"
 * answer of a person, or an exact tie of a simulated stakeholder.
 */
export type Answer = "first" | "second" | "tie";

/** All answers, for validation at the edges. */
export const ANSWERS: readonly Answer[] = ["first", "second", "tie"];

/** A question as a procedure poses it. */
export interface QuestionDraft<P> {
  /** Which step of the procedure asks, e.g. "algorithm-1". */
  readonly stage: string;
  /** The two points to compare; `first` is the paper's first argument of `Omega`. */
  readonly first: P;
  readonly second: P;
  /** Search parameters of the two points (angle, threshold, ...), for logs and plots. */
  readonly params?: readonly [number, number];
  /**
   * The side `first` is shown on, when the procedure decides it (the adaptive engine, whose
   * answer model weighs a person's lean to one side of the screen); a driver without it
   * places the pair itself.
   */
  readonly left?: "first" | "second";
}

/** A question with its position in the answer log. */
export interface Question<P> extends QuestionDraft<P> {
  /** 0-based position in the session's answer log. */
  readonly index: number;
}

/** The single capability a procedure needs: ask a question, get an answer. */
export type Ask<P> = (question: QuestionDraft<P>) => Answer;
