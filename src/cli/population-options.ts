import { readFileSync } from "node:fs";
import type { Command } from "commander";
import type { BinaryPopulation } from "../geometry/binary/population.ts";
import { syntheticPopulation } from "../geometry/binary/synthetic.ts";
import {
  type PoolKind,
  type PreparedBinary,
  prepareBinaryFromCsv,
  prepareBinaryFromPredictions,
} from "../population/binary.ts";
import { CliError } from "./errors.ts";

/** The dataset bundled with the package (Breast Cancer Wisconsin Diagnostic). */
export const BUNDLED_DATA = new URL(
  "../../data/breast_cancer_wisconsin_diagnostic.csv",
  import.meta.url,
);
export const BUNDLED_TARGET = "target";
export const BUNDLED_POSITIVE = "malignant";

/** Options every command that needs a population accepts. */
export interface PopulationFlags {
  data?: string;
  predictions?: string;
  synthetic?: string;
  target?: string;
  positive?: string;
  drop?: string[];
  pool?: string;
  splitSeed?: string;
  l2?: string;
}

/** Register the population flags on a command. */
export function addPopulationOptions(cmd: Command): Command {
  return cmd
    .option(
      "--data <file>",
      "CSV with features and a target column (default: bundled breast-cancer data)",
    )
    .option("--target <column>", "target column of --data (default for the bundled data: target)")
    .option("--positive <value>", "target value of the positive class (default: the rarer class)")
    .option("--drop <column...>", "feature columns to ignore (ids, leaks)")
    .option(
      "--predictions <file>",
      "CSV with columns label,probability made elsewhere, instead of --data",
    )
    .option(
      "--synthetic <name>",
      "a synthetic population instead of data: paper-binary, paper-multiclass, sphere (quadratic)",
    )
    .option(
      "--pool <kind>",
      "soft (held-out probabilities as soft labels: exact geometry) or labelled (held-out labels, as the papers)",
      "soft",
    )
    .option("--split-seed <n>", "seed of the 50/50 train/test split", "1")
    .option("--l2 <lambda>", "L2 penalty of the logistic regression", "1");
}

/** Read a text file, turning a failure into a one-line CLI error. */
export function readText(path: string | URL, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(
      `cannot read ${what} ${String(path)}: ${code === "ENOENT" ? "no such file" : String(code ?? e)}`,
    );
  }
}

function number(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new CliError(`${name} must be a number, got "${value}"`);
  return n;
}

/** The loaded population and what to say about it. */
export interface LoadedPopulation {
  readonly population: BinaryPopulation;
  readonly prepared?: PreparedBinary;
  readonly source: string;
}

/** Build the population the flags describe. */
export function loadBinaryPopulation(flags: PopulationFlags): LoadedPopulation {
  const sources = [flags.data, flags.predictions, flags.synthetic].filter((x) => x !== undefined);
  if (sources.length > 1)
    throw new CliError("give only one of --data, --predictions and --synthetic");
  const pool = (flags.pool ?? "soft") as PoolKind;
  if (pool !== "labelled" && pool !== "soft") {
    throw new CliError(`--pool must be labelled or soft, got "${flags.pool}"`);
  }
  if (flags.synthetic !== undefined) {
    if (flags.synthetic !== "paper-binary") {
      throw new CliError(`unknown --synthetic "${flags.synthetic}"; available: paper-binary`);
    }
    return { population: syntheticPopulation(5), source: "synthetic paper-binary (a = 5)" };
  }
  if (flags.predictions !== undefined) {
    const prepared = prepareBinaryFromPredictions(
      readText(flags.predictions, "predictions file"),
      { positive: flags.positive, pool },
      flags.predictions,
    );
    return { population: prepared.pool, prepared, source: flags.predictions };
  }
  const bundled = flags.data === undefined;
  if (!bundled && flags.target === undefined) {
    throw new CliError("--data needs --target COLUMN naming the label column");
  }
  const text = bundled
    ? readText(BUNDLED_DATA, "bundled data")
    : readText(flags.data!, "data file");
  const prepared = prepareBinaryFromCsv(
    text,
    {
      target: flags.target ?? BUNDLED_TARGET,
      positive: flags.positive ?? (bundled ? BUNDLED_POSITIVE : undefined),
      dropColumns: flags.drop,
      splitSeed: number(flags.splitSeed, "--split-seed", 1),
      l2: number(flags.l2, "--l2", 1),
      pool,
    },
    bundled ? "breast cancer (diagnostic)" : flags.data!,
  );
  return {
    population: prepared.pool,
    prepared,
    source: bundled ? "bundled breast_cancer_wisconsin_diagnostic.csv" : flags.data!,
  };
}
