import type { Command } from "commander";
import { probabilityMeans, UnnamedPositiveError } from "../data/predictions.ts";
import { listValues } from "../data/table.ts";
import type { BinaryPopulation } from "../geometry/binary/population.ts";
import { syntheticPopulation } from "../geometry/binary/synthetic.ts";
import {
  type PoolKind,
  type PreparedBinary,
  prepareBinaryFromCsv,
  prepareBinaryFromPredictions,
} from "../population/binary.ts";
import { CliError } from "./errors.ts";
import { readText } from "./files.ts";

/** The dataset bundled with the package (Breast Cancer Wisconsin Diagnostic). */
export const BUNDLED_DATA = new URL(
  "../../data/breast_cancer_wisconsin_diagnostic.csv",
  import.meta.url,
);
export const BUNDLED_TARGET = "target";

/**
 * The `--synthetic` populations and the families each serves, as the help lists them; the
 * errors list the same, so the two cannot drift apart.
 */
export const SYNTHETIC_POPULATIONS: readonly {
  readonly name: string;
  readonly families: string;
}[] = [
  { name: "paper-binary", families: "binary families" },
  { name: "paper-multiclass", families: "multiclass families" },
  { name: "sphere", families: "quadratic, fair-quadratic, cubic" },
];

/** The `--synthetic` choices as the help and the errors list them. */
const SYNTHETIC_CHOICES = SYNTHETIC_POPULATIONS.map((s) => `${s.name} (${s.families})`).join(", ");

/**
 * The one-line error for a `--synthetic` that a command's families (served by `wanted`) cannot
 * use: another family's population, or no population at all.
 * @example syntheticError("nope", "paper-binary").message // 'unknown --synthetic "nope"; choose paper-binary (binary families), ...'
 */
export function syntheticError(name: string, wanted: string): CliError {
  const other = SYNTHETIC_POPULATIONS.find((s) => s.name === name);
  const mine = SYNTHETIC_POPULATIONS.find((s) => s.name === wanted)!;
  if (other !== undefined)
    return new CliError(
      `--synthetic ${name} is for ${other.families}; ${mine.families} take --synthetic ${wanted}`,
    );
  return new CliError(`unknown --synthetic "${name}"; choose ${SYNTHETIC_CHOICES}`);
}

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

/**
 * Register the population flags on a command. `dataOnly` (`elicit fit`, which trains on a CSV
 * and writes its held-out predictions): only the flags of `--data` (no `--predictions`,
 * `--synthetic` or `--pool`, which it has no use for).
 */
export function addPopulationOptions(cmd: Command, o: { dataOnly?: boolean } = {}): Command {
  cmd
    .option(
      "--data <file>",
      "CSV with features and a target column (default: bundled breast-cancer data)",
    )
    .option("--target <column>", "target column of --data (default for the bundled data: target)")
    .option("--positive <value>", "target value of the positive class (default: the rarer class)")
    .option("--drop <column...>", "feature columns to ignore (ids, leaks)");
  if (!o.dataOnly)
    cmd
      .option(
        "--predictions <file>",
        "CSV with columns label,probability made elsewhere, instead of --data",
      )
      .option("--synthetic <name>", `a synthetic population instead of data: ${SYNTHETIC_CHOICES}`)
      .option(
        "--pool <kind>",
        "soft (held-out probabilities as soft labels: exact geometry) or labelled (held-out labels, as the papers)",
        "soft",
      );
  return cmd
    .option("--split-seed <n>", "seed of the 50/50 train/test split", "1")
    .option("--l2 <lambda>", "L2 penalty of the logistic regression", "1");
}

/**
 * A numeric option's value (`fallback` when not given), or a one-line CLI error naming it.
 * @example numberOption("abc", "--l2", 1) // throws '--l2 must be a number, got "abc"'
 */
export function numberOption(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new CliError(`${name} must be a number, got "${value}"`);
  return n;
}

/**
 * `--l2 <lambda>`, the logistic regression's L2 penalty (`fallback` when not given): a number
 * >= 0, or a one-line CLI error naming the option (the model's own check names no option).
 * @example l2Option("-1") // throws '--l2 must be a number >= 0 (the L2 penalty), got "-1"'
 */
export function l2Option(value: string | undefined, fallback = 1): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!(value.trim() !== "" && Number.isFinite(n) && n >= 0))
    throw new CliError(`--l2 must be a number >= 0 (the L2 penalty), got "${value}"`);
  return n;
}

/** The loaded population and what to say about it. */
export interface LoadedPopulation {
  readonly population: BinaryPopulation;
  readonly prepared?: PreparedBinary;
  readonly source: string;
}

/**
 * A predictions file's `probability` is P(its positive class), and the file does not say
 * which class that is: `--positive` declares it. Both pools read the column as P(--positive)
 * (the soft pool uses nothing else), so a `--positive` naming the other class would silently
 * mean the other metric (soft) or read the labels against the wrong class (labelled). When the
 * probabilities are lower on the named class's rows than on the others, the column is for the
 * other class: a one-line error says which, rather than a guess that flips it.
 * @example // the fit of the bundled data, `--positive benign`:
 * // throws '--positive benign: the probability column is P(malignant), not P(benign) (mean 0.93 on malignant rows, 0.05 on benign rows); ...'
 */
function checkProbabilitiesFor(prepared: PreparedBinary, positive: string): void {
  const { labels, probabilities } = prepared.test;
  const { positive: meanPositive, others: meanOthers } = probabilityMeans(labels, probabilities);
  if (!(meanPositive < meanOthers)) return;
  const named = prepared.positiveLabel;
  const other = prepared.negativeLabel;
  // More than two labels: the other rows are every class but the named one.
  const several = other === `not ${named}`;
  throw new CliError(
    `--positive ${positive}: the probability column is P(${other}), not P(${named}) ` +
      `(mean ${meanOthers.toFixed(2)} on ${several ? "the other" : other} rows, ${meanPositive.toFixed(2)} on ${named} rows); ` +
      `give --positive ${several ? "<the class it is for>" : other}, or write the file with probability = P(${named})`,
  );
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
    if (flags.synthetic !== "paper-binary") throw syntheticError(flags.synthetic, "paper-binary");
    return { population: syntheticPopulation(5), source: "synthetic paper-binary (a = 5)" };
  }
  if (flags.predictions !== undefined) {
    let prepared: PreparedBinary;
    try {
      prepared = prepareBinaryFromPredictions(
        readText(flags.predictions, "predictions file"),
        { positive: flags.positive, pool },
        flags.predictions,
      );
    } catch (e) {
      // The data layer cannot name the CLI's option; `elicit fit` writes class names.
      if (!(e instanceof UnnamedPositiveError)) throw e;
      throw new CliError(
        `line ${e.line}: label "${e.label}" is not 0 or 1: name the positive class with --positive <class> (the labels seen: ${listValues(e.labels)})`,
      );
    }
    if (flags.positive !== undefined) checkProbabilitiesFor(prepared, flags.positive);
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
      // Not "malignant" by default: the bundled data's rarer class is malignant anyway, and
      // the report then says it was picked as the rarer, not "given" by a user who gave none.
      positive: flags.positive,
      dropColumns: flags.drop,
      splitSeed: numberOption(flags.splitSeed, "--split-seed", 1),
      l2: l2Option(flags.l2),
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
