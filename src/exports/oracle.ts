/**
 * `metric-elicitation/oracle`: simulated stakeholders (a true metric plus a noise model),
 * the panel of simulated people (`makePerson`) and the seeded random numbers simulations use.
 * Pure: no file or network I/O, safe in a browser.
 *
 * @module metric-elicitation/oracle
 */
export * from "../math/rng.ts";
export * from "../oracle/noise.ts";
export * from "../oracle/people.ts";
export * from "../oracle/simulated-oracle.ts";
