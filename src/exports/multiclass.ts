/**
 * `metric-elicitation/multiclass`: multiclass metrics (diagonal and general linear and
 * linear-fractional), their elicitation procedures and the confusion-space geometry.
 * Pure: no file or network I/O, safe in a browser.
 *
 * @module metric-elicitation/multiclass
 */
export * from "../elicit/multiclass/angles.ts";
export * from "../elicit/multiclass/dlfpm.ts";
export * from "../elicit/multiclass/dlpm.ts";
export * from "../elicit/multiclass/fractional-grid.ts";
export * from "../elicit/multiclass/lfpm.ts";
export * from "../elicit/multiclass/monotone.ts";
export * from "../elicit/multiclass/point.ts";
export * from "../elicit/multiclass/spec.ts";
export * from "../elicit/multiclass/sphere-lpm.ts";
export * from "../geometry/multiclass/index.ts";
