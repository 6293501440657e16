import { writeFileSync } from "node:fs";
import type { FairMetric } from "../../elicit/fair/metric.ts";
import {
  type FairRunReport,
  parseFairTruth,
  randomFairTruth,
  simulateFair,
} from "../../elicit/fair/simulate.ts";
import { createRng } from "../../math/rng.ts";
import type { NoiseModel } from "../../oracle/noise.ts";
import { STRATEGIES, STRATEGY_NAMES, type StrategyName } from "../../search/strategy.ts";
import { CliError } from "../errors.ts";
import { fmt } from "../format.ts";
import { errorStats, errorTable } from "../trial-summary.ts";

/** Flags of `elicit simulate --family fair-quadratic`. */
export interface FairFlags {
  synthetic?: string;
  classes?: string;
  groups?: string;
  truth?: string;
  /** JSON m x k matrix `tau[g][i] = P(G = g | Y = i)` (default: drawn with the truth, or equal groups). */
  tau?: string;
  randomTruth?: boolean;
  tolerance?: string;
  strategy?: string;
  json?: boolean;
  log?: string;
}

function parseTau(text: string, k: number, m: number): number[][] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new CliError(`malformed --tau: give a ${m} x ${k} JSON array`);
  }
  if (
    !Array.isArray(raw) ||
    raw.length !== m ||
    !raw.every((row) => Array.isArray(row) && row.length === k && row.every(Number.isFinite))
  ) {
    throw new CliError(`malformed --tau: give a ${m} x ${k} JSON array of numbers`);
  }
  return raw as number[][];
}

/**
 * The fair-quadratic branch of `elicit simulate` (UAI 2022 Section 4 / Algorithm 4 on the
 * paper's synthetic sphere; real datasets with group columns come later).
 */
export function simulateFairCommand(
  f: FairFlags,
  noise: NoiseModel,
  seed: number,
  trials: number,
): void {
  if (f.synthetic !== "sphere") {
    throw new CliError(
      "--family fair-quadratic runs on the paper's synthetic query space for now: add --synthetic sphere",
    );
  }
  const k = Number(f.classes ?? "2");
  if (!Number.isInteger(k) || k < 2 || k > 10)
    throw new CliError("--classes must be an integer from 2 to 10");
  const m = Number(f.groups ?? "2");
  if (!Number.isInteger(m) || m < 2 || m > 8)
    throw new CliError("--groups must be an integer from 2 to 8 (the number of groups)");
  const strategy = (f.strategy ?? "lazy") as StrategyName;
  if (!STRATEGY_NAMES.includes(strategy)) throw new CliError(`unknown --strategy "${f.strategy}"`);
  const tolerance = f.tolerance === undefined ? 0.01 : Number(f.tolerance);
  if (!(tolerance > 0 && tolerance < 1)) throw new CliError("--tolerance must be in (0, 1)");
  if (f.truth !== undefined && f.randomTruth) {
    throw new CliError("give either --truth or --random-truth, not both");
  }
  let fixed: FairMetric | undefined;
  if (f.truth !== undefined) {
    try {
      fixed = parseFairTruth(f.truth, k, m);
    } catch (e) {
      throw new CliError(
        `malformed --truth for fair-quadratic with k = ${k}, m = ${m}: ${(e as Error).message}`,
      );
    }
  }
  const fixedTau = f.tau === undefined ? undefined : parseTau(f.tau, k, m);
  const rng = createRng(seed);
  const runs: FairRunReport[] = [];
  for (let t = 0; t < trials; t++) {
    const drawn = fixed ? undefined : randomFairTruth(k, m, rng);
    const truth = fixed ?? drawn!.truth;
    const tau =
      fixedTau ?? drawn?.tau ?? Array.from({ length: m }, () => new Array<number>(k).fill(1 / m));
    try {
      runs.push(
        // As for QPME, the paper's counting (Table 1) is our lazy ShrinkInterval.
        simulateFair(
          truth,
          {
            tolerance,
            strategy: strategy === "paper" ? STRATEGIES.lazy : STRATEGIES[strategy],
            tau,
            groups: m,
          },
          noise,
          seed + t,
        ),
      );
    } catch (e) {
      if (e instanceof RangeError) throw new CliError(e.message);
      throw e;
    }
  }
  if (f.log)
    writeFileSync(
      f.log,
      `${JSON.stringify(
        runs.map((r) => r.session),
        null,
        2,
      )}\n`,
    );
  const strip = ({ session: _s, ...r }: FairRunReport) => r;
  if (trials === 1) {
    const r = runs[0]!;
    if (f.json) console.log(JSON.stringify(strip(r), null, 2));
    else {
      console.log(
        `fair-quadratic (fair QPME), k = ${k}, m = ${m}, synthetic sphere rho = ${r.rho}, strategy ${strategy}, tolerance ${tolerance}`,
      );
      console.log(
        `questions ${r.queries}; error ||a - a_hat|| ${fmt(r.error.a, 4)}, sum ||B - B_hat||_F ${fmt(r.error.B, 4)}, |lambda - lambda_hat| ${fmt(r.error.lambda, 4)}`,
      );
      console.log(`lambda ${fmt(r.truth.lambda, 4)}, elicited ${fmt(r.elicited.lambda, 4)}`);
      for (const w of r.warnings) console.log(`warning: ${w}`);
    }
    return;
  }
  const stats = errorStats(
    runs.map((r) => ({ ...r.error })),
    ["a", "B", "lambda"],
  );
  const meanQ = runs.reduce((s, r) => s + r.queries, 0) / trials;
  if (f.json)
    console.log(
      JSON.stringify(
        { summary: { trials, queries: meanQ, error: stats }, runs: runs.map(strip) },
        null,
        2,
      ),
    );
  else {
    console.log(`${trials} fair QPME trials, k = ${k}, m = ${m}, mean questions ${fmt(meanQ, 1)}`);
    console.log(errorTable(stats));
  }
}
