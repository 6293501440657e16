/**
 * `metric-elicitation/quadratic`: quadratic (and cubic) metrics of the rates, QPME and the
 * local linear elicitation it is built on, and their simulations.
 * Pure: no file or network I/O, safe in a browser.
 *
 * @module metric-elicitation/quadratic
 */
export * from "../elicit/quadratic/cubic.ts";
export * from "../elicit/quadratic/least-squares.ts";
export * from "../elicit/quadratic/lpme.ts";
export * from "../elicit/quadratic/metric.ts";
export * from "../elicit/quadratic/pair-gradient.ts";
export * from "../elicit/quadratic/pair-region.ts";
export * from "../elicit/quadratic/qpme.ts";
export * from "../elicit/quadratic/simulate.ts";
