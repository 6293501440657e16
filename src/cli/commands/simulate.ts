import type { Command } from "commander";
import { formatDatasetReport } from "../../data/report.ts";
import {
  binaryLinearFamily,
  binaryThresholdFamily,
} from "../../elicit/adaptive/families/binary.ts";
import { type BinaryTruth, truthValue } from "../../elicit/binary/truth.ts";
import { fmt } from "../../experiments/format.ts";
import {
  type BinaryRunReport,
  randomBinaryTruth,
  simulateBinary,
} from "../../experiments/simulate-binary.ts";
import { describeThreshold } from "../../geometry/binary/threshold-classifier.ts";
import { createRng } from "../../math/rng.ts";
import { mean } from "../../math/stats.ts";
import { describeNoise, type NoiseModel } from "../../oracle/noise.ts";
import {
  type AdaptiveFlags,
  addAdaptiveOptions,
  describeRequest,
  isAdaptive,
  type NoiseRequest,
  rejectFractionalAdaptive,
  resolveNoise,
} from "../adaptive-options.ts";
import { CliError, guarded } from "../errors.ts";
import { positiveTrials } from "../figure-options.ts";
import { writeText } from "../files.ts";
import { isMulticlassFamily, type MulticlassFlags } from "../multiclass-options.ts";
import { parseBinaryTruth } from "../parse-truth.ts";
import {
  addPopulationOptions,
  type LoadedPopulation,
  loadBinaryPopulation,
  type PopulationFlags,
} from "../population-options.ts";
import { progressBar } from "../progress.ts";
import { errorStats, errorTable } from "../trial-summary.ts";
import { checkApplicable } from "./simulate-applicability.ts";
import { addSpecOptions, checkFamilyName, type SpecFlags, specFromFlags } from "./spec-options.ts";

interface SimulateFlags extends PopulationFlags, SpecFlags, AdaptiveFlags {
  truth?: string;
  randomTruth?: boolean;
  noise: string;
  noiseKind: string;
  noiseWrong: string;
  seed: string;
  trials: string;
  json?: boolean;
  log?: string;
}

function noiseFrom(f: SimulateFlags): NoiseRequest {
  const level = Number(f.noise);
  if (!(level >= 0)) throw new CliError(`--noise must be a non-negative number, got "${f.noise}"`);
  if (level === 0) return { kind: "fixed", noise: { kind: "none" } };
  if (f.noiseKind === "flip") {
    if (level > 1) throw new CliError("--noise is a probability for --noise-kind flip");
    return { kind: "fixed", noise: { kind: "flip", probability: level } };
  }
  if (f.noiseKind === "logistic") {
    if (!(level < 0.5)) {
      throw new CliError(
        "--noise is an error rate in (0, 0.5) for --noise-kind logistic (wrong answers on pairs a tenth of the metric's range apart)",
      );
    }
    return { kind: "logistic", errorRate: level };
  }
  if (f.noiseKind !== "feedback")
    throw new CliError("--noise-kind must be feedback, flip or logistic");
  if (f.noiseWrong !== "adversarial" && f.noiseWrong !== "random") {
    throw new CliError("--noise-wrong must be adversarial or random");
  }
  return { kind: "fixed", noise: { kind: "feedback", epsilon: level, wrong: f.noiseWrong } };
}

/** A noise model that does not depend on the truth (logistic noise does, per family). */
function fixedNoise(r: NoiseRequest, family: string): NoiseModel {
  if (r.kind === "fixed") return r.noise;
  throw new CliError(`--noise-kind logistic is not available for ${family} yet`);
}

function integer(value: string, name: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new CliError(`${name} must be an integer >= ${min}, got "${value}"`);
  return n;
}

function errorSummary(r: BinaryRunReport): string {
  const e = r.error as Record<string, number>;
  return Object.entries(e)
    .filter(([k]) => k !== "points")
    .map(([k, v]) => `${k} ${fmt(v, 4)}`)
    .join(", ");
}

function printRun(r: BinaryRunReport, noise: NoiseModel): void {
  const rec = (x: Record<string, number>) =>
    Object.entries(x)
      .map(([k, v]) => `${k}=${fmt(v, 4)}`)
      .join(" ");
  const ratio = r.ratio ? `, p11 by ${r.ratio}` : "";
  console.log(`family      ${r.family} (strategy ${r.strategy}, tolerance ${r.tolerance}${ratio})`);
  console.log(`population  ${r.population}`);
  console.log(`stakeholder ${rec(r.truth)} with ${describeNoise(noise)}`);
  console.log(`elicited    ${rec(r.elicited)}`);
  console.log(`questions   ${r.queries}`);
  console.log(`error       ${errorSummary(r)}`);
  console.log(`classifier  ${describeThreshold(r.classifier)} is optimal for the elicited metric`);
}

/** Every flag of `elicit simulate` (each family reads its own). */
type AllSimulateFlags = SimulateFlags &
  MulticlassFlags & { groups?: string; tau?: string; space?: string };

/**
 * The binary population of the flags; a user's `--data` CSV also gets its preparation notes on
 * stderr (columns encoded, rows dropped, cells imputed), as `elicit fit` prints them.
 */
function loadReported(f: PopulationFlags): LoadedPopulation {
  const loaded = loadBinaryPopulation(f);
  if (f.data !== undefined && loaded.prepared?.report) {
    for (const line of formatDatasetReport(loaded.prepared.report))
      process.stderr.write(`${line}\n`);
  }
  return loaded;
}

/** `elicit simulate`. */
export function registerSimulate(program: Command): void {
  const cmd = program
    .command("simulate")
    .description("elicit the metric of a simulated stakeholder (a true metric plus a noise model)");
  addPopulationOptions(cmd);
  addSpecOptions(cmd);
  addAdaptiveOptions(cmd);
  cmd
    .option("--truth <json>", 'the stakeholder\'s true metric, e.g. \'{"tp":0.6,"tn":0.8}\'')
    .option("--random-truth", "draw a random true metric per trial (seeded) instead of --truth")
    .option(
      "--noise <level>",
      "noise level: eps_Omega for feedback noise, p for flips, the error rate at a tenth of the range for logistic (0 = none)",
      "0",
    )
    .option(
      "--noise-kind <kind>",
      "feedback (Definition 7), flip, or logistic (Bradley-Terry: --noise is the error rate on pairs a tenth of the truth's range apart, the range being max - min of the truth over the classifiers optimal for 32 seeded prior draws of the family)",
      "feedback",
    )
    .option("--noise-wrong <how>", "feedback noise: adversarial or random wrong answers", "random")
    .option("--seed <n>", "seed of the noise and of random truths", "1")
    .option("--trials <n>", "number of runs (with a progress bar and a summary)", "1")
    .option("--log <file>", "write the replayable session(s) (spec, seed, answers) as JSON")
    .option("--json", "print JSON on stdout")
    .option(
      "--classes <k>",
      "number of classes of a synthetic population (paper-multiclass, sphere)",
      "3",
    )
    .option(
      "--space <space>",
      "quadratic: diagonal-rates (default) or off-diagonal-rates (also spelt diag-rates, offdiag-rates, as sphere's --space)",
    )
    .option(
      "--groups <m|column>",
      "fair-quadratic: number of groups with --synthetic sphere (default 2), or the group column with --data",
    )
    .option(
      "--lambda-only",
      "fair-quadratic: Algorithm 5, the costs a and weights B known (the truth's), elicit lambda only",
    )
    .option(
      "--tau <json>",
      "fair-quadratic: m x k matrix P(G = g | Y = i) (default: drawn, or equal groups)",
    )
    .option(
      "--pivot <how>",
      "diagonal-linear: pivot class first (paper) or select (pivot pass)",
      "first",
    )
    .option(
      "--cycles <n>",
      "sweeps over the angles of every angle search (default: 2 for linear multiclass, the paper's; 3 for quadratic, cubic and fair-quadratic, UAI 2022's T = 3(k - 1))",
    )
    .option(
      "--order <order>",
      "angle order of linear multiclass and of the QPME families' LPME runs: forward (default, the papers') or reverse (last angle first)",
    )
    .option(
      "--least-squares",
      "quadratic, cubic, fair-quadratic: the pivot-free least-squares reconstruction instead of the corrected ratio formula (default: ratios)",
    )
    .action((f: AllSimulateFlags, command: Command) =>
      // The other families' and the adaptive engine's modules load only when asked for, so a
      // binary run starts without them (`npm run bench:cli`).
      guarded(async () => {
        checkApplicable(f, (key) => command.getOptionValueSource(key) === "cli");
        // `elicit sphere --space` spells the same spaces diag-rates and offdiag-rates.
        if (f.space === "diag-rates") f.space = "diagonal-rates";
        else if (f.space === "offdiag-rates") f.space = "off-diagonal-rates";
        checkFamilyName(f.family);
        if (f.truth === undefined && !f.randomTruth) {
          throw new CliError("give --truth JSON (the stakeholder's metric) or --random-truth");
        }
        if (f.truth !== undefined && f.randomTruth)
          throw new CliError("give either --truth or --random-truth");
        if (
          isAdaptive(f) &&
          (f.family === "quadratic" || f.family === "fair-quadratic" || f.family === "cubic")
        ) {
          const { simulateQpmeAdaptiveCommand } = await import("./simulate-adaptive.ts");
          simulateQpmeAdaptiveCommand(
            f.family,
            f,
            noiseFrom(f),
            integer(f.seed, "--seed", 0),
            positiveTrials(f.trials),
          );
          return;
        }
        if (f.family === "fair-quadratic") {
          const { simulateFairCommand } = await import("./fair.ts");
          simulateFairCommand(
            f,
            fixedNoise(noiseFrom(f), "fair-quadratic"),
            integer(f.seed, "--seed", 0),
            positiveTrials(f.trials),
          );
          return;
        }
        if (f.family === "cubic") {
          const { simulateCubicCommand } = await import("./quadratic.ts");
          simulateCubicCommand(
            f,
            fixedNoise(noiseFrom(f), "cubic"),
            integer(f.seed, "--seed", 0),
            positiveTrials(f.trials),
          );
          return;
        }
        if (f.family === "quadratic") {
          const { simulateQuadraticCommand } = await import("./quadratic.ts");
          simulateQuadraticCommand(
            f,
            fixedNoise(noiseFrom(f), "quadratic"),
            integer(f.seed, "--seed", 0),
            positiveTrials(f.trials),
          );
          return;
        }
        if (isAdaptive(f)) rejectFractionalAdaptive(f.family);
        if (isMulticlassFamily(f.family)) {
          const noise = noiseFrom(f);
          if (isAdaptive(f)) {
            const { simulateMulticlassAdaptiveCommand } = await import("./simulate-adaptive.ts");
            simulateMulticlassAdaptiveCommand(
              f,
              noise,
              integer(f.seed, "--seed", 0),
              positiveTrials(f.trials),
            );
            return;
          }
          const { simulateMulticlassCommand } = await import("./simulate-multiclass.ts");
          simulateMulticlassCommand(
            f,
            noise,
            integer(f.seed, "--seed", 0),
            positiveTrials(f.trials),
          );
          return;
        }
        if (isAdaptive(f)) {
          const { simulateBinaryAdaptiveCommand } = await import("./simulate-adaptive.ts");
          simulateBinaryAdaptiveCommand(
            f,
            loadReported(f),
            noiseFrom(f),
            integer(f.seed, "--seed", 0),
            positiveTrials(f.trials),
          );
          return;
        }
        const { population } = loadReported(f);
        const family = (f.family ?? "binary-linear") as Parameters<typeof parseBinaryTruth>[1];
        let fixed: BinaryTruth | undefined;
        let monotoneDefault: "increasing" | "decreasing" | undefined;
        const spec0 = specFromFlags(f);
        if (f.truth !== undefined) {
          fixed = parseBinaryTruth(f.truth, spec0.family, population.zeta);
          if (fixed.family === "binary-linear" && fixed.metric.tp + fixed.metric.tn < 0) {
            monotoneDefault = "decreasing";
          }
        }
        const spec = specFromFlags(f, monotoneDefault);
        if (fixed?.family === "binary-linear") {
          const decreasing = fixed.metric.tp + fixed.metric.tn < 0;
          if (decreasing !== (spec.monotone === "decreasing")) {
            throw new CliError(`--monotone ${spec.monotone} contradicts the signs of --truth`);
          }
        }
        const request = noiseFrom(f);
        const seed = integer(f.seed, "--seed", 0);
        const trials = positiveTrials(f.trials);
        const rng = createRng(seed);
        const bar = progressBar(trials, "simulating");
        const runs: BinaryRunReport[] = [];
        let noise: NoiseModel = { kind: "none" };
        for (let t = 0; t < trials; t++) {
          const truth = fixed ?? randomBinaryTruth(family, rng, population.zeta, spec.monotone);
          // Logistic noise scales to the truth's range over the boundary's classifiers.
          noise = resolveNoise(
            request,
            () =>
              truth.family === "binary-threshold"
                ? binaryThresholdFamily(population)
                : binaryLinearFamily(population, { monotone: spec.monotone ?? "increasing" }),
            truthValue(truth),
          );
          runs.push(simulateBinary(spec, truth, population, noise, seed + t));
          bar.tick();
        }
        bar.stop();
        if (f.log) {
          const sessions = runs.map((r) => r.session);
          writeText(
            f.log,
            `${JSON.stringify(trials === 1 ? sessions[0] : sessions, null, 2)}\n`,
            "--log ",
          );
        }
        const strip = (r: BinaryRunReport) => {
          const { session: _session, ...rest } = r;
          return rest;
        };
        if (trials === 1) {
          if (f.json) console.log(JSON.stringify(strip(runs[0]!), null, 2));
          else printRun(runs[0]!, noise);
          return;
        }
        const keys = Object.keys(runs[0]!.error).filter((k) => k !== "points");
        const summary = {
          family: spec.family,
          strategy: spec.strategy,
          ...(spec.ratio ? { ratio: spec.ratio } : {}),
          tolerance: spec.tolerance,
          trials,
          noise: describeRequest(request, noise),
          queries: {
            mean: mean(runs.map((r) => r.queries)),
            max: Math.max(...runs.map((r) => r.queries)),
          },
          error: errorStats(
            runs.map((r) => r.error as Record<string, number>),
            keys,
          ),
        };
        if (f.json) {
          console.log(JSON.stringify({ summary, runs: runs.map(strip) }, null, 2));
          return;
        }
        const ratio = spec.ratio ? `, p11 by ${spec.ratio}` : "";
        console.log(
          `${trials} trials of ${spec.family} (strategy ${spec.strategy}, tolerance ${spec.tolerance}${ratio}), ${summary.noise}`,
        );
        console.log(`questions: mean ${fmt(summary.queries.mean, 1)}, max ${summary.queries.max}`);
        console.log(errorTable(summary.error));
      }),
    );
}
