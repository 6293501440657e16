import { groupQuerySpace } from "../../elicit/fair/group-space.ts";
import type { FairMetric } from "../../elicit/fair/metric.ts";
import {
  type FairRunReport,
  parseFairTruth,
  randomFairTruth,
  simulateFair,
} from "../../elicit/fair/simulate.ts";
import { type FairDataRunReport, simulateFairOnData } from "../../elicit/fair/simulate-data.ts";
import { defaultVarrho } from "../../elicit/quadratic/qpme.ts";
import { fmt } from "../../experiments/format.ts";
import { createRng } from "../../math/rng.ts";
import type { NoiseModel } from "../../oracle/noise.ts";
import { prepareFairFromCsv } from "../../population/fair.ts";
import { CliError } from "../errors.ts";
import { readText } from "../files.ts";
import { l2Option } from "../population-options.ts";
import { progressBar } from "../progress.ts";
import {
  describeQpme,
  onlyLpmeSearch,
  type QpmeSearchFlags,
  qpmeOptions,
  qpmeRecord,
  qpmeSearchFlags,
  strategyText,
  withoutSession,
  writeSessionLog,
} from "../qpme-flags.ts";
import { errorStats, errorTable } from "../trial-summary.ts";

/** Flags of `elicit simulate --family fair-quadratic`. */
export interface FairFlags {
  synthetic?: string;
  data?: string;
  target?: string;
  drop?: string[];
  splitSeed?: string;
  l2?: string;
  classes?: string;
  groups?: string;
  truth?: string;
  /** JSON m x k matrix `tau[g][i] = P(G = g | Y = i)` (default: drawn with the truth, or equal groups). */
  tau?: string;
  randomTruth?: boolean;
  tolerance?: string;
  strategy?: string;
  /** `--cycles`: sweeps over the angles of every LPME run (default 3). */
  cycles?: string;
  /** `--order`: forward (default) or reverse. */
  order?: string;
  /** `--least-squares`: the pivot-free least-squares reconstruction of every QPME run. */
  leastSquares?: boolean;
  /** Algorithm 5: a and B known (the truth's), elicit lambda only. */
  lambdaOnly?: boolean;
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

/** Flags shared by both query spaces, validated. */
function commonFlags(f: FairFlags): QpmeSearchFlags {
  if (f.truth !== undefined && f.randomTruth) {
    throw new CliError("give either --truth or --random-truth, not both");
  }
  if (f.lambdaOnly && (f.cycles !== undefined || f.order !== undefined || f.leastSquares)) {
    throw new CliError(
      "--cycles, --order and --least-squares set the QPME runs; --lambda-only runs none (a one-dimensional search on lambda)",
    );
  }
  const search = qpmeSearchFlags(f, 0.01, "fair-quadratic");
  onlyLpmeSearch(search, "fair-quadratic");
  return search;
}

function fixedTruth(f: FairFlags, k: number, m: number): FairMetric | undefined {
  if (f.truth === undefined) return undefined;
  try {
    return parseFairTruth(f.truth, k, m);
  } catch (e) {
    throw new CliError(
      `malformed --truth for fair-quadratic with k = ${k}, m = ${m}: ${(e as Error).message}`,
    );
  }
}

/**
 * The fair-quadratic branch of `elicit simulate` (UAI 2022 Section 4 / Algorithm 4): on the
 * paper's synthetic sphere (`--synthetic sphere --groups m`), or on data
 * (`--data FILE --target COLUMN --groups COLUMN`), where every queried profile is realised by
 * group-wise classifiers (`elicit/fair/group-space.ts`).
 */
export function simulateFairCommand(
  f: FairFlags,
  noise: NoiseModel,
  seed: number,
  trials: number,
): void {
  if (f.data !== undefined) {
    simulateFairDataCommand(f, noise, seed, trials);
    return;
  }
  if (f.synthetic !== "sphere") {
    throw new CliError(
      "--family fair-quadratic needs a query space: --synthetic sphere (the paper's) or --data FILE.csv --target COLUMN --groups COLUMN",
    );
  }
  const k = Number(f.classes ?? "2");
  if (!Number.isInteger(k) || k < 2 || k > 10)
    throw new CliError("--classes must be an integer from 2 to 10");
  const m = Number(f.groups ?? "2");
  if (!Number.isInteger(m) || m < 2 || m > 8)
    throw new CliError("--groups must be an integer from 2 to 8 (the number of groups)");
  const search = commonFlags(f);
  const fixed = fixedTruth(f, k, m);
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
        simulateFair(
          truth,
          {
            ...qpmeOptions(search),
            tau,
            groups: m,
            procedure: f.lambdaOnly ? "lambda" : "fair-qpme",
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
  printFairRuns(runs, f, search, {
    title: `fair-quadratic (${procedureName(f)}), k = ${k}, m = ${m}, synthetic sphere rho = ${runs[0]!.rho}, strategy ${strategyText(search)}, tolerance ${search.tolerance}${qpmeText(f, search)}`,
    summary: `${trialsText(f, trials)}, k = ${k}, m = ${m}${qpmeText(f, search)}`,
  });
}

function procedureName(f: FairFlags): string {
  return f.lambdaOnly ? "lambda search, a and B known" : "fair QPME";
}

/**
 * The head of a summary's first line.
 * @example trialsText({ lambdaOnly: true }, 20) // "20 trials of the lambda search (a and B known)"
 */
function trialsText(f: FairFlags, trials: number): string {
  return f.lambdaOnly
    ? `${trials} trials of the lambda search (a and B known)`
    : `${trials} fair QPME trials`;
}

/** The QPME settings for the text output (none with --lambda-only, which runs no QPME). */
function qpmeText(f: FairFlags, search: QpmeSearchFlags): string {
  return f.lambdaOnly ? "" : `, ${describeQpme(search)}`;
}

/** The QPME settings a report and its logged session record (none with --lambda-only). */
function fairRecord(f: FairFlags, search: QpmeSearchFlags): Record<string, unknown> {
  return f.lambdaOnly ? {} : qpmeRecord(search);
}

/** Print one run or a summary of several (text or `--json`), then write `--log`. */
function printFairRuns<R extends Omit<FairRunReport, "synthetic">>(
  runs: readonly R[],
  f: FairFlags,
  search: QpmeSearchFlags,
  text: { title: string; summary: string; lines?: (runs: readonly R[]) => string[] },
): void {
  printRuns(runs, f, fairRecord(f, search), text);
  writeSessionLog(f.log, runs, fairRecord(f, search));
}

function printRuns<R extends Omit<FairRunReport, "synthetic">>(
  runs: readonly R[],
  f: FairFlags,
  record: Record<string, unknown>,
  text: { title: string; summary: string; lines?: (runs: readonly R[]) => string[] },
): void {
  const trials = runs.length;
  const strip = (r: R) => ({ ...withoutSession(r), ...record });
  if (trials === 1) {
    const r = runs[0]!;
    if (f.json) console.log(JSON.stringify(strip(r), null, 2));
    else {
      console.log(text.title);
      for (const line of text.lines?.(runs) ?? []) console.log(line);
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
    console.log(`${text.summary}, mean questions ${fmt(meanQ, 1)}`);
    for (const line of text.lines?.(runs) ?? []) console.log(line);
    console.log(errorTable(stats));
  }
}

/** `--family fair-quadratic --data FILE --target COLUMN --groups COLUMN`. */
function simulateFairDataCommand(
  f: FairFlags,
  noise: NoiseModel,
  seed: number,
  trials: number,
): void {
  if (f.synthetic !== undefined) throw new CliError("give either --data or --synthetic, not both");
  if (f.target === undefined) throw new CliError("--data needs --target COLUMN");
  if (f.groups === undefined || /^\d+$/.test(f.groups)) {
    throw new CliError(
      "with --data, --groups names the group column (e.g. --groups sex); a number of groups is for --synthetic sphere",
    );
  }
  if (f.tau !== undefined) throw new CliError("--tau is read from the data; drop it with --data");
  const search = commonFlags(f);
  const prepared = prepareFairFromCsv(readText(f.data!, "data file"), {
    target: f.target,
    groups: f.groups,
    dropColumns: f.drop,
    splitSeed: Number(f.splitSeed ?? "1"),
    l2: l2Option(f.l2),
  });
  const k = prepared.classNames.length;
  const m = prepared.groupNames.length;
  if (m > 8) throw new CliError(`group column "${f.groups}" has ${m} values; at most 8 groups`);
  const fixed = fixedTruth(f, k, m);
  let space: ReturnType<typeof groupQuerySpace>;
  try {
    space = groupQuerySpace(prepared.pools);
  } catch (e) {
    if (e instanceof RangeError) throw new CliError(e.message);
    throw e;
  }
  const rho = space.sphere.rho;
  const rng = createRng(seed);
  const bar = progressBar(trials, procedureName(f));
  const runs: FairDataRunReport[] = [];
  for (let t = 0; t < trials; t++) {
    const truth = fixed ?? randomFairTruth(k, m, rng, rho, defaultVarrho(rho), prepared.tau).truth;
    runs.push(
      simulateFairOnData(
        { pools: prepared.pools, tau: prepared.tau, space },
        truth,
        {
          ...qpmeOptions(search),
          procedure: f.lambdaOnly ? "lambda" : "fair-qpme",
        },
        noise,
        seed + t,
      ),
    );
    bar.tick();
  }
  bar.stop();
  const bad = runs.find((r) => !(r.feasibility.maxError <= 1e-9));
  if (bad) {
    throw new CliError(
      `a queried profile was not realised (deviation ${bad.feasibility.maxError}); please report this`,
    );
  }
  const groups = prepared.groupNames
    .map((g, j) => `${g} (${prepared.groupRows[j]} rows)`)
    .join(", ");
  printFairRuns(runs, f, search, {
    title: `fair-quadratic (${procedureName(f)}) on ${f.data}: target ${f.target} (${prepared.classNames.join(", ")}), groups ${f.groups}: ${groups}; strategy ${strategyText(search)}, tolerance ${search.tolerance}${qpmeText(f, search)}`,
    summary: `${trialsText(f, trials)} on ${f.data} (k = ${k}, m = ${m}, groups by ${f.groups})`,
    lines: (rs) => [
      `query ball radius rho = ${fmt(rho, 4)} inside every group's feasible rates (in-radius ${fmt(space.sphere.radius, 4)}); tau = P(G = g | Y = i) ${JSON.stringify(prepared.tau.map((row) => row.map((x) => +x.toFixed(4))))}`,
      `feasibility: ${rs.reduce((s, r) => s + r.feasibility.profiles, 0)} queried profiles realised by group-wise classifiers, max deviation ${Math.max(...rs.map((r) => r.feasibility.maxError)).toExponential(1)}`,
    ],
  });
}
