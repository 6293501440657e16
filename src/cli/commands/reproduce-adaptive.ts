import type { Command } from "commander";
import { fmt, table } from "../../experiments/format.ts";
import {
  type AdaptiveReproduction,
  adaptiveComparisonSvg,
  answerModelFor,
  COMPARED_FAMILIES,
  COMPARISON_CREDIBILITY,
  comparisonSize,
  NOISE_CONDITIONS,
  type NoiseCondition,
  reproduceAdaptive,
  SLOW_FAMILIES,
} from "../../experiments/reproduce-adaptive.ts";
import { CliError, guarded } from "../errors.ts";
import { addFigureOptions, type FigureFlags, positiveTrials } from "../figure-options.ts";
import { writeFigure } from "../png.ts";
import { progressBar } from "../progress.ts";

const NOISE_TEXT: Record<NoiseCondition, string> = {
  none: `no noise (adaptive: ${answerModelFor("none")} answer model)`,
  flip5: `5% independent flips (adaptive: ${answerModelFor("flip5")} answer model)`,
  flip10: `10% independent flips (adaptive: ${answerModelFor("flip10")} answer model)`,
  logistic: `logistic choices, 10% wrong on pairs a tenth of the truth's range apart (adaptive: ${answerModelFor("logistic")} answer model)`,
};

function parseNoises(text: string): NoiseCondition[] {
  if (text === "all") return [...NOISE_CONDITIONS];
  const xs = text.split(",").map((s) => s.trim());
  for (const x of xs) {
    if (!NOISE_CONDITIONS.includes(x as NoiseCondition))
      throw new CliError(
        `--noise must be ${NOISE_CONDITIONS.join(", ")} or all (or a comma list), got "${x}"`,
      );
  }
  return xs as NoiseCondition[];
}

function parseFamilies(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  // fair-lambda (the name `reproduce people` and `simulate --lambda-only` print) is lambda.
  const xs = text.split(",").map((s) => (s.trim() === "fair-lambda" ? "lambda" : s.trim()));
  for (const x of xs) {
    if (!COMPARED_FAMILIES.includes(x)) {
      throw new CliError(
        `--families: unknown or unsupported family "${x}"; the adaptive comparison covers ${COMPARED_FAMILIES.join(", ")}`,
      );
    }
  }
  return xs;
}

/** Text rendering of the comparison. */
export function formatAdaptiveReproduction(r: AdaptiveReproduction): string {
  const out: string[] = [];
  out.push(
    `Adaptive vs paper vs bisect on the same truths and seeds, ${r.trials} trials per setting and noise condition`,
  );
  out.push("Settings run:");
  for (const s of r.settings) {
    out.push(
      `  ${s.setting}: tolerance ${s.tolerance}, error ${s.measures.join(", ")}, adaptive budget ${s.budget}`,
      `    ${s.classic}`,
    );
  }
  out.push(
    `adaptive: credibility ${COMPARISON_CREDIBILITY}, display step 1e-4, stops at credible radius <= tolerance / 2 or at the budget`,
  );
  if (r.rows.some((row) => row.strategy === "matched")) {
    out.push(
      "matched: the same adaptive runs asked for paper's precision: they stop at credible radius <= paper's 95th-percentile error and posterior expected error <= paper's mean error on these truths (budget raised to paper's mean questions if larger)",
    );
  }
  for (const noise of r.noises) {
    out.push("", `Noise: ${NOISE_TEXT[noise]}`);
    const rows = r.rows.filter((row) => row.noise === noise);
    out.push(
      table(
        [
          "setting",
          "strategy",
          "questions",
          "error",
          "mean",
          "p95",
          "max",
          "coverage",
          "ms/question",
        ],
        rows.flatMap((row) =>
          row.errors.map((e, i) => [
            i === 0 ? row.setting : "",
            i === 0 ? row.strategy : "",
            i === 0 ? fmt(row.questions, 1) : "",
            e.measure,
            fmt(e.mean, 4),
            fmt(e.p95, 4),
            fmt(e.max, 4),
            i === 0 && row.coverage !== undefined ? `${fmt(100 * row.coverage, 0)}%` : "",
            i === 0 ? fmt(row.msPerQuestion, 2) : "",
          ]),
        ),
      ),
    );
  }
  return out.join("\n");
}

/** `elicit reproduce adaptive`. */
export function registerReproduceAdaptive(reproduce: Command): void {
  const cmd = reproduce
    .command("adaptive")
    .description(
      "paper, bisect and adaptive strategies side by side on the same truths and seeds, for every family the adaptive engine supports (questions, error mean / p95 / max, coverage of the 90% credible region, ms per question); `matched` is adaptive stopped at paper's precision, to compare questions at equal accuracy",
    )
    .option("--trials <n>", "random truths per setting and noise condition", "50")
    .option(
      "--families <list>",
      `comma-separated families to run (default all: ${COMPARED_FAMILIES.join(", ")}); diagonal-linear and linear run k = 3 and 4, quadratic k = 2..5 (synthetic ball), fair-quadratic and lambda (also called fair-lambda) k = 3, m = 3, cubic k = 2 and 3; ${SLOW_FAMILIES.join(", ")} take tens of seconds per trial`,
    )
    .option(
      "--noise <which>",
      `noise condition: ${NOISE_CONDITIONS.join(", ")} (flipN: N% flipped answers; logistic: 10% errors at a tenth of the truth's range), a comma list, or all`,
      "none",
    )
    .option(
      "--budget <n>",
      "adaptive question budget for every setting (default: 30 binary, 40 DLPM, 300 LPM (noise-free runs stop near 40 and 80), QPME 40 / 90 / 160 / 250 for k = 2..5, 300 fair, 25 lambda, cubic 90 / 300 for k = 2, 3)",
    );
  cmd.option(
    "--no-matched",
    "skip the matched rows (adaptive run a second time per truth, stopped at paper's 95th-percentile error)",
  );
  addFigureOptions(cmd, "error against questions (one marker per strategy per setting)");
  cmd.option("--json", "print JSON on stdout").action(
    (
      f: {
        trials: string;
        families?: string;
        noise: string;
        budget?: string;
        matched: boolean;
        json?: boolean;
      } & FigureFlags,
    ) =>
      guarded(() => {
        const trials = positiveTrials(f.trials);
        const noises = parseNoises(f.noise);
        const families = parseFamilies(f.families);
        let budget: number | undefined;
        if (f.budget !== undefined) {
          budget = Number(f.budget);
          if (!Number.isInteger(budget) || budget < 1)
            throw new CliError(`--budget must be an integer >= 1, got "${f.budget}"`);
        }
        const options = {
          trials,
          noises,
          ...(families ? { families } : {}),
          ...(budget ? { budget } : {}),
          matched: f.matched,
        };
        const bar = progressBar(comparisonSize(options), "reproduce adaptive");
        const result = reproduceAdaptive({ ...options, onTrial: () => bar.tick() });
        bar.stop();
        // Print first: a bad figure path must not lose a long run's results.
        console.log(f.json ? JSON.stringify(result, null, 2) : formatAdaptiveReproduction(result));
        writeFigure(() => adaptiveComparisonSvg(result), f);
      }),
  );
}
