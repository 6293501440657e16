/**
 * `metric-elicitation/adaptive`: the adaptive (Bayesian, noise-tolerant) elicitation engine
 * and its families (binary, multiclass, quadratic, cubic, fair).
 * Pure: no file or network I/O, safe in a browser.
 *
 * @module metric-elicitation/adaptive
 */
export * from "../elicit/adaptive/index.ts";
