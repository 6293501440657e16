// Which side of the screen a question shows its first point on: a pure function of the
// participant's seed, the phase and the question's index, shared by the studies that show the
// pair and the adaptive engine whose answer model weighs a person's lean to one side.

import { createRng } from "../math/rng.ts";

/**
 * Whether question `index` (0-based) of `phase` shows its first point on the left, for a run
 * seeded `seed`: left or right with equal chance, the same every time.
 * @example firstOnLeft(7, "elicitation", 0) // true or false, the same on every call
 */
export function firstOnLeft(
  seed: number | string,
  phase: "elicitation" | "evaluation",
  index: number,
): boolean {
  return createRng(`${seed}:${phase}:${index}`).next() < 0.5;
}
