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

/**
 * Every `--family` of `elicit simulate`, in the order its help lists them; the error for an
 * unknown one lists the same, so the two cannot drift apart.
 */
export const FAMILY_NAMES: readonly string[] = [
  ...BINARY_FAMILIES,
  ...MULTICLASS_FAMILIES,
  "quadratic",
  "fair-quadratic",
  "cubic",
];

/** Families whose answers are bilinear in their parameters: no adaptive strategy for them. */
export const FRACTIONAL_FAMILIES: readonly string[] = [
  "binary-linear-fractional",
  "diagonal-linear-fractional",
  "linear-fractional",
];

/**
 * The `--strategy` names a family takes: the ShrinkInterval strategies, adaptive (not for the
 * fractional families) and pairs (quadratic only).
 * @example strategiesFor("binary-linear") // ["paper", "lazy", "bisect", "adaptive"]
 */
export function strategiesFor(family: string): string[] {
  return [
    ...STRATEGY_NAMES,
    ...(FRACTIONAL_FAMILIES.includes(family) ? [] : ["adaptive"]),
    ...(family === "quadratic" ? ["pairs"] : []),
  ];
}

/**
 * The one-line error for a `--strategy` the family does not take, listing the ones it does.
 * @example strategyError("pairs", "binary-linear").message // "--strategy pairs is for --family quadratic only; ..."
 */
export function strategyError(name: string | undefined, family: string): CliError {
  const choose = `choose ${strategiesFor(family).join(", ")}`;
  if (name === "pairs")
    return new CliError(`--strategy pairs is for --family quadratic only; for ${family} ${choose}`);
  return new CliError(`unknown --strategy "${name}" for ${family}; ${choose}`);
}

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
    .option("--family <name>", `metric family: ${FAMILY_NAMES.join(", ")}`, "binary-linear")
    .option(
      "--tolerance <eps>",
      "search tolerance (default: 0.02 rad binary-linear, 0.05 rad binary-linear-fractional, 0.05 binary-threshold, 0.01 multiclass, quadratic and fair-quadratic, 0.001 cubic; cubic with --strategy adaptive 0.01, as quadratic)",
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

/**
 * Refuse a `--family` that is none of the families, listing them all (before any other
 * complaint, so a misspelt family is named first).
 * @example checkFamilyName("binary-linear") // returns; checkFamilyName("nope") throws
 */
export function checkFamilyName(family: string | undefined): void {
  if (family !== undefined && !FAMILY_NAMES.includes(family))
    throw new CliError(`unknown --family "${family}"; families: ${FAMILY_NAMES.join(", ")}`);
}

/** Validate the spec flags. */
export function specFromFlags(
  f: SpecFlags,
  monotoneDefault?: "increasing" | "decreasing",
): BinarySpec {
  const family = (f.family ?? "binary-linear") as BinaryFamily;
  checkFamilyName(family);
  // Only `ask` gets here with another family (simulate sends those elsewhere first).
  if (!BINARY_FAMILIES.includes(family)) {
    throw new CliError(
      `--family ${family} is not a binary family; this command takes ${BINARY_FAMILIES.join(", ")}`,
    );
  }
  const strategy = (f.strategy ?? "paper") as StrategyName;
  if (!STRATEGY_NAMES.includes(strategy)) throw strategyError(f.strategy, family);
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
