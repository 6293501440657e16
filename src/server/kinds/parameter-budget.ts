import { ApiError } from "../errors.ts";

/**
 * Refuses (400 `invalid_study`) a study whose model has more numbers to find than it may ask
 * questions: each answer says at most one bit about them, so a budget below the parameter
 * count cannot pin the metric down (issue 28 item 8). `remedies` say what to change.
 * @example checkParameterBudget(30, 20, ["keep fewer classes"]) // throws
 */
export function checkParameterBudget(
  parameters: number,
  budget: number,
  remedies: readonly string[],
): void {
  if (parameters <= budget) return;
  throw new ApiError(
    400,
    "invalid_study",
    `this metric has ${parameters} numbers to find and the study asks at most ${budget} questions (each answer tells at most one thing about them); ${[...remedies, `allow at least ${parameters} questions (budget)`].join(", or ")}`,
  );
}
