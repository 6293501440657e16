import type { Command } from "commander";
import { RATIO_METHODS, type RatioMethod } from "../../elicit/binary/fractional.ts";
import {
  BINARY_FAMILIES,
  type BinaryFamily,
  type BinarySpec,
  DEFAULT_TOLERANCE,
} from "../../elicit/binary/spec.ts";
import { MULTICLASS_FAMILIES } from "../../elicit/multiclass/spec.ts";
import { STRATEGY_NAMES, type StrategyName } from "../../search/strategy.ts";
import { CliError } from "../errors.ts";

export interface SpecFlags {
  family?: string;
  tolerance?: string;
  strategy?: string;
  monotone?: string;
  grid?: string;
  ratio?: string;
}

/** Register the elicitation-spec flags. */
export function addSpecOptions(cmd: Command): Command {
  return cmd
    .option(
      "--family <name>",
      `metric family: ${[...BINARY_FAMILIES, ...MULTICLASS_FAMILIES, "quadratic", "fair-quadratic", "cubic"].join(", ")}`,
      "binary-linear",
    )
    .option(
      "--tolerance <eps>",
      "search tolerance (default: 0.02 rad linear, 0.05 rad fractional, 0.05 threshold)",
    )
    .option(
      "--strategy <name>",
      `question strategy: ${STRATEGY_NAMES.join(", ")}, or adaptive (belief over the metric, the most informative realisable pair, stops when the credible region is within the tolerance; linear families only; see --budget, --credibility, --answer-model, --display-step), or pairs (quadratic: each gradient from pairs symmetric about its point, one bisection per rate, exact answers assumed; prints a 90% credible region)`,
      "paper",
    )
    .option("--monotone <dir>", "binary-linear: increasing or decreasing in TP and TN")
    .option("--grid <step>", "binary-threshold: snap thresholds to this grid (user study: 0.0001)")
    .option(
      "--ratio <method>",
      "binary-linear-fractional: how p11 is found from the two supporting lines: grid (the paper's Algorithm 3) or pole (closed form where the lines meet; more accurate) (default: grid with --strategy paper, pole otherwise)",
    );
}

/** Validate the spec flags. */
export function specFromFlags(
  f: SpecFlags,
  monotoneDefault?: "increasing" | "decreasing",
): BinarySpec {
  const family = (f.family ?? "binary-linear") as BinaryFamily;
  if (!BINARY_FAMILIES.includes(family)) {
    throw new CliError(
      `unknown --family "${f.family}"; families: ${[...BINARY_FAMILIES, ...MULTICLASS_FAMILIES].join(", ")}`,
    );
  }
  const strategy = (f.strategy ?? "paper") as StrategyName;
  if (!STRATEGY_NAMES.includes(strategy)) {
    throw new CliError(`unknown --strategy "${f.strategy}"; choose ${STRATEGY_NAMES.join(", ")}`);
  }
  const tolerance = f.tolerance === undefined ? DEFAULT_TOLERANCE[family] : Number(f.tolerance);
  if (!(tolerance > 0 && tolerance < 1.6)) {
    throw new CliError(`--tolerance must be a number in (0, 1.6), got "${f.tolerance}"`);
  }
  const monotone = (f.monotone ?? monotoneDefault ?? "increasing") as "increasing" | "decreasing";
  if (monotone !== "increasing" && monotone !== "decreasing") {
    throw new CliError(`--monotone must be increasing or decreasing, got "${f.monotone}"`);
  }
  const grid = f.grid === undefined ? undefined : Number(f.grid);
  if (grid !== undefined && !(grid >= 0 && grid < 1))
    throw new CliError("--grid must be in [0, 1)");
  const ratio = (f.ratio ?? (strategy === "paper" ? "grid" : "pole")) as RatioMethod;
  if (!RATIO_METHODS.includes(ratio)) {
    throw new CliError(`unknown --ratio "${f.ratio}"; choose ${RATIO_METHODS.join(", ")}`);
  }
  return {
    family,
    tolerance,
    strategy,
    ...(family === "binary-linear" ? { monotone } : {}),
    ...(family === "binary-linear-fractional" ? { ratio } : {}),
    ...(family === "binary-threshold" && grid !== undefined ? { grid } : {}),
  };
}
