/**
 * Multiclass geometry: pools, statistic spaces, plug-in classifiers, exact feasibility,
 * the sphere of Algorithm 3 and its realisation. See ALGORITHMS.md parts A and B.
 *
 * @example
 * import { MulticlassPool, createSpace, findSphere } from "./index.ts";
 * const sphere = findSphere(createSpace("offdiag-confusion", new MulticlassPool(eta, 3)));
 */
export * from "./brands.ts";
export * from "./centre.ts";
export * from "./classifier.ts";
export * from "./convert.ts";
export * from "./expected-confusion.ts";
export * from "./extent.ts";
export * from "./feasibility.ts";
export * from "./indexing.ts";
export * from "./linsolve.ts";
export * from "./plugin.ts";
export * from "./pool.ts";
export * from "./rbo.ts";
export * from "./realise.ts";
export * from "./relabel.ts";
export * from "./space.ts";
export * from "./space-kind.ts";
export * from "./sphere.ts";
