/**
 * `metric-elicitation/fair`: group-fair metrics (performance plus fairness violation over
 * groups), Fair-QPME and its simulations.
 * Pure: no file or network I/O, safe in a browser.
 *
 * @module metric-elicitation/fair
 */
export * from "../elicit/fair/group-space.ts";
export * from "../elicit/fair/metric.ts";
export * from "../elicit/fair/qpme.ts";
export * from "../elicit/fair/simulate.ts";
export * from "../elicit/fair/simulate-data.ts";
