import type { BinaryPopulation } from "../../geometry/binary/population.ts";
import { STRATEGIES, type StrategyName } from "../../search/strategy.ts";
import type { ShrinkStep } from "../../search/unimodal-search.ts";
import type { Procedure } from "../session.ts";
import { elicitFractional, type FractionalElicitation, type RatioMethod } from "./fractional.ts";
import { elicitLinear, type LinearElicitation } from "./linear.ts";
import type { BinaryPoint } from "./point.ts";
import { elicitThreshold, type ThresholdElicitation } from "./threshold.ts";

/** The binary metric families. */
export type BinaryFamily = "binary-linear" | "binary-linear-fractional" | "binary-threshold";

export const BINARY_FAMILIES: readonly BinaryFamily[] = [
  "binary-linear",
  "binary-linear-fractional",
  "binary-threshold",
];

/** Everything that determines a binary elicitation, apart from the population and answers. */
export interface BinarySpec {
  readonly family: BinaryFamily;
  /** Search tolerance (radians for the angle searches, threshold units for binary-threshold). */
  readonly tolerance: number;
  readonly strategy: StrategyName;
  /** binary-linear only: whether the utility increases (default) or decreases in TP and TN. */
  readonly monotone?: "increasing" | "decreasing";
  /** binary-threshold only: snap thresholds to this grid (the user study used 1e-4). */
  readonly grid?: number;
  /**
   * binary-linear-fractional only: how p11 is found from the two lines, `grid` (the paper's
   * Algorithm 3; the default, so older session logs replay unchanged) or `pole`.
   */
  readonly ratio?: RatioMethod;
  /** binary-linear-fractional only: Algorithm 3's k and Delta (paper: 2000 and 0.01). */
  readonly gridPoints?: number;
  readonly gridStep?: number;
}

/** Defaults from the papers: 0.02 rad (Table 1), 0.05 rad (Table 2), 0.05 (user study). */
export const DEFAULT_TOLERANCE: Record<BinaryFamily, number> = {
  "binary-linear": 0.02,
  "binary-linear-fractional": 0.05,
  "binary-threshold": 0.05,
};

export type BinaryResult =
  | ({ readonly family: "binary-linear" } & LinearElicitation)
  | ({ readonly family: "binary-linear-fractional" } & FractionalElicitation)
  | ({ readonly family: "binary-threshold" } & ThresholdElicitation);

/**
 * The procedure a spec describes, ready for a driver (`runProcedure`, `replay`).
 * @example
 * const procedure = binaryProcedure({ family: "binary-linear", tolerance: 0.02, strategy: "paper" }, pop);
 * runProcedure(procedure, oracle.ask).result.metric;
 */
export function binaryProcedure(
  spec: BinarySpec,
  population: BinaryPopulation,
  onShrink?: (step: ShrinkStep) => void,
): Procedure<BinaryPoint, BinaryResult> {
  const strategy = STRATEGIES[spec.strategy];
  const base = { tolerance: spec.tolerance, strategy, onShrink };
  switch (spec.family) {
    case "binary-linear":
      return (ask) => ({
        family: "binary-linear",
        ...elicitLinear(ask, population, { ...base, monotone: spec.monotone ?? "increasing" }),
      });
    case "binary-linear-fractional":
      return (ask) => ({
        family: "binary-linear-fractional",
        ...elicitFractional(ask, population, {
          ...base,
          ratio: spec.ratio ?? "grid",
          gridPoints: spec.gridPoints ?? 2000,
          gridStep: spec.gridStep ?? 0.01,
        }),
      });
    case "binary-threshold":
      return (ask) => ({
        family: "binary-threshold",
        ...elicitThreshold(ask, population, { ...base, grid: spec.grid ?? 0 }),
      });
  }
}

/**
 * Questions the `paper` strategy asks for a spec: `4 ceil(log2(range / tolerance))` per search
 * (two searches for the fractional family).
 * @example paperQuestionCount({ family: "binary-linear", tolerance: 0.02, strategy: "paper" }) // 28
 */
export function paperQuestionCount(spec: BinarySpec): number {
  const range = spec.family === "binary-threshold" ? 1 : Math.PI / 2;
  const halvings = Math.max(0, Math.ceil(Math.log2(range / spec.tolerance)));
  return 4 * halvings * (spec.family === "binary-linear-fractional" ? 2 : 1);
}
