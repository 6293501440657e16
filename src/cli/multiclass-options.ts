import { z } from "zod";
import {
  type FractionalMetric,
  fractionalAssumptionViolations,
  impliedB0,
} from "../elicit/multiclass/fractional-grid.ts";
import {
  MULTICLASS_FAMILIES,
  type MulticlassFamily,
  type MulticlassSpec,
} from "../elicit/multiclass/spec.ts";
import type { MulticlassPool } from "../geometry/multiclass/pool.ts";
import { prepareMulticlassFromCsv, syntheticMulticlassPool } from "../population/multiclass.ts";
import { STRATEGY_NAMES, type StrategyName } from "../search/strategy.ts";
import { strategyError } from "./commands/spec-options.ts";
import { CliError } from "./errors.ts";
import { readText } from "./files.ts";
import { l2Option, syntheticError } from "./population-options.ts";

/** Flags of a multiclass command. */
export interface MulticlassFlags {
  data?: string;
  target?: string;
  drop?: string[];
  synthetic?: string;
  classes?: string;
  splitSeed?: string;
  l2?: string;
  family?: string;
  tolerance?: string;
  strategy?: string;
  pivot?: string;
  cycles?: string;
  order?: string;
}

/** Whether a family name is multiclass. */
export function isMulticlassFamily(name: string | undefined): name is MulticlassFamily {
  return MULTICLASS_FAMILIES.includes(name as MulticlassFamily);
}

/**
 * Load the multiclass pool the flags describe. `tooFewClasses`: what the error for a target of
 * fewer than 3 classes says after the class list (default: use a binary family).
 */
export function loadMulticlassPool(
  f: MulticlassFlags,
  o: { tooFewClasses?: string } = {},
): {
  pool: MulticlassPool;
  source: string;
  classNames: string[];
} {
  if (f.synthetic !== undefined) {
    if (f.synthetic !== "paper-multiclass") throw syntheticError(f.synthetic, "paper-multiclass");
    const k = Number(f.classes ?? "3");
    if (!Number.isInteger(k) || k < 3 || k > 10)
      throw new CliError("--classes must be an integer from 3 to 10");
    return {
      pool: syntheticMulticlassPool(k),
      source: `synthetic X ~ U[-1,1], eta_i ∝ exp(2 i x), k = ${k}`,
      classNames: Array.from({ length: k }, (_, i) => String(i + 1)),
    };
  }
  if (f.data === undefined || f.target === undefined) {
    throw new CliError(
      "multiclass families need --data FILE.csv --target COLUMN (or --synthetic paper-multiclass)",
    );
  }
  const p = prepareMulticlassFromCsv(readText(f.data, "data file"), {
    target: f.target,
    dropColumns: f.drop,
    splitSeed: Number(f.splitSeed ?? "1"),
    l2: l2Option(f.l2),
    ...(o.tooFewClasses !== undefined ? { tooFewClasses: o.tooFewClasses } : {}),
  });
  return { pool: p.pool, source: f.data, classNames: p.classNames };
}

/**
 * The classes in the order of the weights, named by their labels (a CSV's labels may be
 * numbers that are not the 0-based indices: glass's are 1, 2, 3, 5, 6, 7); for the families
 * over off-diagonal confusions, how those weights are ordered.
 * @example classesText(["a", "b", "c"], "linear") // "a, b, c (the weights: off-diagonal confusions (true, predicted), row by row)"
 */
export function classesText(classNames: readonly string[], family: string): string {
  const offDiagonal = family === "linear" || family === "linear-fractional";
  return `${classNames.join(", ")}${offDiagonal ? " (the weights: off-diagonal confusions (true, predicted), row by row)" : " (the order of the weights)"}`;
}

/** Validate the multiclass spec flags. */
export function multiclassSpecFromFlags(f: MulticlassFlags): MulticlassSpec {
  const family = f.family as MulticlassFamily;
  const strategy = (f.strategy ?? "paper") as StrategyName;
  if (!STRATEGY_NAMES.includes(strategy)) throw strategyError(f.strategy, family);
  const tolerance = f.tolerance === undefined ? 0.01 : Number(f.tolerance);
  if (!(tolerance > 0 && tolerance < 1))
    throw new CliError(`--tolerance must be in (0, 1), got "${f.tolerance}"`);
  const pivot = (f.pivot ?? "first") as "first" | "select";
  if (pivot !== "first" && pivot !== "select")
    throw new CliError("--pivot must be first or select");
  const order = (f.order ?? "forward") as "forward" | "reverse";
  if (order !== "forward" && order !== "reverse")
    throw new CliError("--order must be forward or reverse");
  const cycles = Number(f.cycles ?? "2");
  if (!Number.isInteger(cycles) || cycles < 1)
    throw new CliError("--cycles must be a positive integer");
  return family === "diagonal-linear" || family === "diagonal-linear-fractional"
    ? { family, tolerance, strategy, pivot }
    : { family, tolerance, strategy, cycles, order };
}

const truthSchema = z.object({ a: z.array(z.number().finite()) }).strict();

/** Parse `--truth '{"a":[...]}'` for a multiclass family on k classes. */
export function parseMulticlassTruth(
  text: string,
  family: "diagonal-linear" | "linear",
  k: number,
): number[] {
  const dim = family === "diagonal-linear" ? k : k * k - k;
  const example =
    family === "diagonal-linear"
      ? `{"a":[${Array.from({ length: k }, () => (1 / k).toFixed(2)).join(",")}]}`
      : `{"a":[${Array.from({ length: dim }, () => "-0.5").join(",")}]}`;
  const fail = (why: string): never => {
    throw new CliError(
      `malformed --truth for ${family} with k = ${k}: ${why}; e.g. --truth '${example}'`,
    );
  };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    fail("not valid JSON");
  }
  const parsed = truthSchema.safeParse(json);
  if (!parsed.success)
    fail(
      `${parsed.error.issues[0]!.path.join(".") || "value"}: ${parsed.error.issues[0]!.message}`,
    );
  const a = parsed.data!.a;
  if (a.length !== dim) {
    fail(
      `"a" needs ${dim} weights (${family === "diagonal-linear" ? "one per class" : "k^2 - k off-diagonal confusions, row-major"}), got ${a.length}`,
    );
  }
  if (family === "diagonal-linear" && a.some((x) => x < 0))
    fail("DLPM weights must be non-negative (rewards for correct predictions)");
  if (family === "linear" && a.some((x) => x > 0))
    fail("LPM weights must be <= 0 (the utility decreases in every misclassification)");
  if (a.every((x) => x === 0)) fail("at least one weight must be non-zero");
  return a;
}

const fractionalSchema = z
  .object({
    a: z.array(z.number().finite()),
    b: z.array(z.number().finite()),
    b0: z.number().finite().optional(),
  })
  .strict();

/**
 * Parse `--truth '{"a":[...],"b":[...],"b0":x}'` for a fractional family. `b0` may be omitted:
 * it is then implied by Assumption 3 (DLFPM, with the pool's priors) or 4 (LFPM, with the
 * prior of each entry's true class). The metric must satisfy that assumption.
 */
export function parseFractionalTruth(
  text: string,
  family: "diagonal-linear-fractional" | "linear-fractional",
  k: number,
  zeta: ArrayLike<number>,
): FractionalMetric {
  const dim = family === "diagonal-linear-fractional" ? k : k * k - k;
  const kind = family === "diagonal-linear-fractional" ? "dlfpm" : "lfpm";
  const fail = (why: string): never => {
    throw new CliError(
      `malformed --truth for ${family} with k = ${k}: ${why}; give {"a":[${dim} numbers],"b":[${dim} numbers]} (b0 optional)`,
    );
  };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    fail("not valid JSON");
  }
  const parsed = fractionalSchema.safeParse(json);
  if (!parsed.success)
    fail(
      `${parsed.error.issues[0]!.path.join(".") || "value"}: ${parsed.error.issues[0]!.message}`,
    );
  const { a, b, b0 } = parsed.data!;
  if (a.length !== dim || b.length !== dim)
    fail(`"a" and "b" need ${dim} entries each, got ${a.length} and ${b.length}`);
  const metric = { a, b, b0: b0 ?? impliedB0(kind, a, b, zeta) };
  const violations = fractionalAssumptionViolations(kind, metric, zeta);
  if (violations.length > 0)
    fail(`${violations.join("; ")} (Assumption ${kind === "dlfpm" ? 3 : 4})`);
  return metric;
}
