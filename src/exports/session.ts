/**
 * `metric-elicitation/session`: running a procedure against a live answerer
 * (`runProcedure`), replaying it from a stored answer log (`replay`) and, for a procedure
 * written as a generator (`stepsProcedure`, e.g. `adaptiveSteps`), keeping a run suspended
 * between answers (`liveRun`), plus the question and answer types every procedure speaks.
 * Pure: no file or network I/O, safe in a browser.
 *
 * @module metric-elicitation/session
 */
export * from "../elicit/session.ts";
export type * from "../search/question.ts";
export * from "../search/strategy.ts";
