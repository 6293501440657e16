/**
 * The adaptive strategy (issue 10): one engine for every family that is linear in its
 * parameters. See engine.ts for the loop, belief.ts for the particle belief, select.ts for the
 * choice of question, families/ for the family descriptions.
 * @example
 * import { adaptiveProcedure, binaryLinearFamily } from "./index.ts";
 * runProcedure(adaptiveProcedure(binaryLinearFamily(pop), { tolerance: 0.02 }), oracle.ask);
 */
export * from "./answer-model.ts";
export * from "./belief.ts";
export * from "./engine.ts";
export * from "./families/binary.ts";
export * from "./families/cubic.ts";
export * from "./families/fair.ts";
export * from "./families/multiclass.ts";
export * from "./families/quadratic.ts";
export * from "./family.ts";
export * from "./select.ts";
