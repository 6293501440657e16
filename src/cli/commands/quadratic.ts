import type { Command } from "commander";
import { z } from "zod";
import {
  type CubicMetric,
  cubicError,
  elicitCubic,
  evaluateCubic,
  normalizeCubic,
  randomCubicMetric,
} from "../../elicit/quadratic/cubic.ts";
import type { RatePoint } from "../../elicit/quadratic/lpme.ts";
import { randomQuadraticMetric } from "../../elicit/quadratic/metric.ts";
import { defaultVarrho, PAPER_RHO } from "../../elicit/quadratic/qpme.ts";
import {
  parseQuadraticTruth,
  type QuadraticRunReport,
  randomSphereTruth,
  simulateQuadratic,
} from "../../elicit/quadratic/simulate.ts";
import { runProcedure } from "../../elicit/session.ts";
import { fmt } from "../../experiments/format.ts";
import {
  formatQuadraticReproduction,
  type QpmeStrategyName,
  type QuadraticRates,
  type QuadraticSetting,
  quadraticErrorSvg,
  reproduceQuadratic,
} from "../../experiments/reproduce-quadratic.ts";
import { createRng } from "../../math/rng.ts";
import type { NoiseModel } from "../../oracle/noise.ts";
import { simulatedOracle } from "../../oracle/simulated-oracle.ts";
import { CliError, guarded } from "../errors.ts";
import { addFigureOptions, type FigureFlags, positiveTrials } from "../figure-options.ts";
import { writeFigure } from "../png.ts";
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

/** Flags of `elicit simulate --family quadratic`. */
export interface QuadraticFlags {
  synthetic?: string;
  space?: string;
  classes?: string;
  truth?: string;
  randomTruth?: boolean;
  tolerance?: string;
  strategy?: string;
  /** `--cycles`: sweeps over the angles of every LPME run (default 3). */
  cycles?: string;
  /** `--order`: forward (default) or reverse. */
  order?: string;
  /** `--least-squares`: the pivot-free least-squares reconstruction. */
  leastSquares?: boolean;
  json?: boolean;
  log?: string;
}

/** The quadratic branch of `elicit simulate` (the paper's synthetic sphere). */
export function simulateQuadraticCommand(
  f: QuadraticFlags,
  noise: NoiseModel,
  seed: number,
  trials: number,
): void {
  if (f.synthetic !== "sphere") {
    throw new CliError(
      "--family quadratic runs on the paper's synthetic query space: add --synthetic sphere",
    );
  }
  const space = f.space ?? "diagonal-rates";
  if (space !== "diagonal-rates" && space !== "off-diagonal-rates") {
    throw new CliError(
      `--space must be diagonal-rates or off-diagonal-rates (or diag-rates, offdiag-rates), got "${f.space}"`,
    );
  }
  const classes = Number(f.classes ?? "3");
  if (!Number.isInteger(classes) || classes < 2 || classes > 10)
    throw new CliError("--classes must be an integer from 2 to 10");
  // Diagonal rates: k coordinates; general rates (Appendix E): the q = k^2 - k off-diagonal
  // rates. Either way the centre o is the uniform classifier's rates, 1/k in every entry.
  const k = space === "diagonal-rates" ? classes : classes * classes - classes;
  const centre = new Array<number>(k).fill(1 / classes);
  const search = qpmeSearchFlags(f);
  let fixed: ReturnType<typeof parseQuadraticTruth> | undefined;
  if (f.truth !== undefined) {
    try {
      fixed = parseQuadraticTruth(f.truth, k);
    } catch (e) {
      throw new CliError(`malformed --truth for quadratic with k = ${k}: ${(e as Error).message}`);
    }
  }
  const rng = createRng(seed);
  const runs: QuadraticRunReport[] = [];
  for (let t = 0; t < trials; t++) {
    const truth =
      fixed ??
      (space === "diagonal-rates"
        ? randomSphereTruth(k, rng)
        : randomQuadraticMetric(k, rng, {
            centre,
            rho: PAPER_RHO,
            varrho: defaultVarrho(PAPER_RHO),
            sampling: "paper",
          }));
    runs.push(simulateQuadratic(truth, { ...qpmeOptions(search), centre }, noise, seed + t));
  }
  printQuadraticRuns(runs, f, { k, space, search });
  writeSessionLog(f.log, runs, qpmeRecord(search));
}

function printQuadraticRuns(
  runs: readonly QuadraticRunReport[],
  f: QuadraticFlags,
  o: { k: number; space: string; search: QpmeSearchFlags },
): void {
  const { k, space, search } = o;
  const trials = runs.length;
  const strip = (r: QuadraticRunReport) => ({
    ...withoutSession(r),
    space,
    ...qpmeRecord(search),
  });
  if (trials === 1) {
    const r = runs[0]!;
    if (f.json) console.log(JSON.stringify(strip(r), null, 2));
    else {
      console.log(
        `quadratic (QPME), ${k} rates (${space}), synthetic sphere rho = ${r.rho}, strategy ${strategyText(search)}, tolerance ${search.tolerance}, ${describeQpme(search)}`,
      );
      console.log(
        `questions ${r.queries}; error ||a - a_hat|| ${fmt(r.error.a, 4)}, ||B - B_hat||_F ${fmt(r.error.B, 4)}`,
      );
      if (r.region !== undefined) console.log(regionLine(r.region));
      for (const w of r.warnings) console.log(`warning: ${w}`);
    }
    return;
  }
  const stats = errorStats(
    runs.map((r) => r.error),
    ["a", "B"],
  );
  const meanQ = runs.reduce((s, r) => s + r.queries, 0) / trials;
  if (f.json)
    console.log(
      JSON.stringify(
        {
          summary: { trials, queries: meanQ, error: stats },
          runs: runs.map(strip),
        },
        null,
        2,
      ),
    );
  else {
    console.log(
      `${trials} QPME trials, ${k} rates (${space}), ${describeQpme(search)}, mean questions ${fmt(meanQ, 1)}`,
    );
    console.log(errorTable(stats));
    const regions = runs.flatMap((r) => (r.region === undefined ? [] : [r.region]));
    if (regions.length > 0) {
      const held = regions.filter((x) => x.holdsTruth).length;
      const radii = regions.map((x) => x.radius).sort((x, y) => x - y);
      console.log(
        `credible region (${Math.round(100 * regions[0]!.credibility)}%): radius median ${fmt(radii[Math.floor(radii.length / 2)]!, 4)}, max ${fmt(radii[radii.length - 1]!, 4)}; holds the truth in ${held} of ${regions.length} runs (${Math.round((100 * held) / regions.length)}%)`,
      );
    }
  }
}

/** `credible    90% region: max(||a - a'||, ||B - B'||_F) <= 0.0261 (contains the truth)`. */
function regionLine(r: NonNullable<QuadraticRunReport["region"]>): string {
  return `credible    ${Math.round(100 * r.credibility)}% region: max(||a - a'||_2, ||B - B'||_F) <= ${fmt(r.radius, 4)} (a ${fmt(r.a, 4)}, B ${fmt(r.B, 4)}; ${r.holdsTruth ? "contains" : "does not contain"} the truth; exact answers assumed)`;
}

/** `elicit reproduce quadratic`. */
export function registerReproduceQuadratic(reproduce: Command): void {
  const cmd = reproduce
    .command("quadratic")
    .description("UAI 2022 Table 1 (QPME query counts) and Figure 4 (errors) for k = 2..5")
    .option("--trials <n>", "random metrics per k", "100")
    .option(
      "--setting <name>",
      "paper (rho 0.2 around 1/k) or code (the authors' code: rho 1 around 0)",
      "paper",
    )
    .option(
      "--rates <rates>",
      "rates our runs use: diagonal (q = k, the paper's Table 1 and Figure 4) or general (q = k^2 - k, the q of the authors' code's errors) (default: diagonal with --setting paper, general with --setting code)",
    )
    .option(
      "--least-squares",
      "use the least-squares reconstruction instead of the corrected ratio formula",
    )
    .option("--classes <list>", "numbers of classes k, comma separated, each 2..10", "2,3,4,5")
    .option(
      "--strategies <list>",
      "strategies side by side, comma separated: lazy (Table 1's counting), paper (4 per halving), bisect, pairs (ours: gradients from symmetric pairs, with a 90% credible region)",
      "lazy,paper",
    );
  addFigureOptions(cmd, "Figure 4 (a-b) (error box plots)");
  cmd.option("--json", "print JSON on stdout").action(
    (
      f: {
        trials: string;
        setting: string;
        rates?: string;
        leastSquares?: boolean;
        classes: string;
        strategies: string;
        json?: boolean;
      } & FigureFlags,
    ) =>
      guarded(() => {
        const trials = positiveTrials(f.trials);
        if (f.setting !== "paper" && f.setting !== "code")
          throw new CliError("--setting must be paper or code");
        // The code's errors are at q = k^2 - k: compare ours at the same q (issue 10).
        const rates = f.rates ?? (f.setting === "code" ? "general" : "diagonal");
        if (rates !== "diagonal" && rates !== "general")
          throw new CliError(`--rates must be diagonal or general, got "${f.rates}"`);
        const classes = f.classes.split(",").map((x) => Number(x.trim()));
        if (!classes.every((k) => Number.isInteger(k) && k >= 2 && k <= 10))
          throw new CliError(`--classes must list integers from 2 to 10, got "${f.classes}"`);
        const known: readonly QpmeStrategyName[] = ["lazy", "paper", "bisect", "pairs"];
        const strategies = f.strategies.split(",").map((x) => x.trim()) as QpmeStrategyName[];
        for (const name of strategies)
          if (!known.includes(name))
            throw new CliError(
              `unknown strategy "${name}" in --strategies: use ${known.join(", ")}`,
            );
        const result = reproduceQuadratic({
          trials,
          classes,
          strategies,
          setting: f.setting as QuadraticSetting,
          rates: rates as QuadraticRates,
          reconstruction: f.leastSquares ? "least-squares" : "ratios",
        });
        // Print first: a bad figure path must not lose a long run's results.
        console.log(f.json ? JSON.stringify(result, null, 2) : formatQuadraticReproduction(result));
        writeFigure(() => quadraticErrorSvg(result), f);
      }),
  );
}

/** The cubic branch of `elicit simulate` (UAI 2022 Section 8, on the synthetic sphere). */
export function simulateCubicCommand(
  f: QuadraticFlags,
  noise: NoiseModel,
  seed: number,
  trials: number,
): void {
  if (f.synthetic !== "sphere") {
    throw new CliError(
      "--family cubic runs on the paper's synthetic query space: add --synthetic sphere",
    );
  }
  const k = Number(f.classes ?? "2");
  if (!Number.isInteger(k) || k < 2 || k > 5)
    throw new CliError("--classes must be an integer from 2 to 5");
  const search = qpmeSearchFlags(f, 0.001, "cubic");
  onlyLpmeSearch(search, "cubic");
  const { tolerance } = search;
  let fixed: CubicMetric | undefined;
  if (f.truth !== undefined) {
    const schema = z
      .object({
        a: z.array(z.number()).length(k),
        B: z.array(z.array(z.number()).length(k)).length(k),
        C: z.array(z.array(z.array(z.number()).length(k)).length(k)).length(k),
      })
      .strict();
    let parsed: ReturnType<typeof schema.safeParse>;
    try {
      parsed = schema.safeParse(JSON.parse(f.truth));
    } catch {
      throw new CliError(`malformed --truth for cubic with k = ${k}: not valid JSON`);
    }
    if (!parsed.success) {
      throw new CliError(
        `malformed --truth for cubic with k = ${k}: give {"a":[k],"B":[k x k],"C":[k x k x k]}`,
      );
    }
    fixed = normalizeCubic(parsed.data);
  }
  const rng = createRng(seed);
  const reports = [];
  for (let t = 0; t < trials; t++) {
    const truth = fixed ?? randomCubicMetric(k, rng);
    const oracle = simulatedOracle(
      (p: RatePoint) => evaluateCubic(truth, p.point),
      noise,
      seed + t,
    );
    const run = runProcedure((ask) => elicitCubic(ask, k, qpmeOptions(search)), oracle.ask);
    reports.push({
      family: "cubic",
      synthetic: "sphere",
      k,
      strategy: search.name,
      tolerance,
      ...qpmeRecord(search),
      truth,
      elicited: run.result.metric,
      queries: oracle.count(),
      error: cubicError(truth, run.result.metric),
      warnings: [...new Set(run.result.warnings)],
    });
  }
  if (trials === 1) {
    const r = reports[0]!;
    if (f.json) console.log(JSON.stringify(r, null, 2));
    else {
      console.log(
        `cubic (k + 1 local QPME runs), k = ${k}, synthetic sphere, strategy ${strategyText(search)}, tolerance ${tolerance}, ${describeQpme(search)}`,
      );
      console.log(
        `questions ${r.queries}; error a ${fmt(r.error.a, 4)}, B ${fmt(r.error.B, 4)}, C ${fmt(r.error.C, 4)}`,
      );
      console.log(CUBIC_LOCAL_NOTE);
    }
    return;
  }
  const stats = errorStats(
    reports.map((r) => r.error),
    ["a", "B", "C"],
  );
  if (f.json)
    console.log(JSON.stringify({ summary: { trials, error: stats }, runs: reports }, null, 2));
  else {
    console.log(`${trials} cubic trials, k = ${k}, ${describeQpme(search)}`);
    console.log(errorTable(stats));
    console.log(CUBIC_LOCAL_NOTE);
  }
}

/**
 * Said under every text result of the local QPME runs: they cannot tell the cubic terms from
 * the quadratic ones within their small balls, so errors far above the tolerance are the
 * method's, not a fault of the run, and nothing in the answers shows it (the audit found
 * `--classes 2` at C error 0.19 for a tolerance of 0.001 with no word).
 */
const CUBIC_LOCAL_NOTE =
  "note: each local QPME fit reads the cubic terms within its small ball as part of its quadratic ones, so B and C can be far from the truth whatever the tolerance (at k = 2 they cannot be separated at all); --strategy adaptive says which coefficients its answers leave open";
