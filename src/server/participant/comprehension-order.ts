// The order a participant sees a Part 1 question's options in. The stored questions often
// list the right answer first (the built-in study's all do, and a kind's "System A" or its
// smallest count), so shown as stored, always picking the first option would pass Part 1. Each participant
// sees them shuffled, the same on every reload (seeded by the participant's seed and the
// question); answers are options' texts, so grading and the stored log do not depend on it.

import { createRng, shuffled } from "../../math/rng.ts";
import type { ComprehensionQuestion } from "../study/config.ts";

/**
 * A question's options in the order participant `seed` sees them: a shuffle of the stored
 * order, the same for the same seed and question every time.
 * @example shownOptions(7, { id: "q", options: ["3", "13", "31", "53"] }) // e.g. ["31", "3", "53", "13"], the same on every call
 */
export function shownOptions(
  seed: number,
  question: Pick<ComprehensionQuestion, "id" | "options">,
): string[] {
  return shuffled(question.options, createRng(`${seed}:comprehension:${question.id}`));
}
