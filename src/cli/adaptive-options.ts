import type { Command } from "commander";
import {
  ANSWER_MODEL_CHOICES,
  type AnswerModelName,
  parseAnswerModel,
} from "../elicit/adaptive/answer-model.ts";
import { fmt } from "../experiments/format.ts";
import {
  ADAPTIVE_DEFAULTS,
  type AdaptiveSettings,
  logisticNoiseFor,
  type QuestionSet,
} from "../experiments/simulate-adaptive.ts";
import { describeNoise, type NoiseModel } from "../oracle/noise.ts";
import { FRACTIONAL_FAMILIES } from "./commands/spec-options.ts";
import { CliError } from "./errors.ts";

/** The flags of `--strategy adaptive`. */
export interface AdaptiveFlags {
  strategy?: string;
  budget?: string;
  credibility?: string;
  answerModel?: string;
  displayStep?: string;
  asShown?: boolean;
  everyShown?: boolean;
  gridPoints?: string;
}

/** Whether the flags ask for the adaptive strategy. */
export function isAdaptive(f: { strategy?: string }): boolean {
  return f.strategy === "adaptive";
}

/**
 * Reject `--strategy adaptive` for a fractional family (one line).
 * @example rejectFractionalAdaptive("linear-fractional") // throws CliError
 */
export function rejectFractionalAdaptive(family: string | undefined): void {
  if (family !== undefined && FRACTIONAL_FAMILIES.includes(family)) {
    throw new CliError(
      `--strategy adaptive needs metrics linear in their parameters, and the answers about ${family} are bilinear (numerator times denominator): use --strategy bisect`,
    );
  }
}

/**
 * Register `--budget`, `--credibility`, `--answer-model`, `--display-step`, `--grid-points`
 * `--as-shown` and `--every-shown`.
 */
export function addAdaptiveOptions(cmd: Command): Command {
  return cmd
    .option(
      "--budget <n>",
      `adaptive: largest number of questions, an integer >= 1 (default ${ADAPTIVE_DEFAULTS.budget})`,
    )
    .option(
      "--credibility <p>",
      `adaptive: credibility of the reported region, in (0, 1) (default ${ADAPTIVE_DEFAULTS.credibility})`,
    )
    .option(
      "--answer-model <model>",
      "adaptive: how answers are believed to arise: exact (noise free), human (10% wrong on pairs a tenth of the range apart, and 10% of answers a coin flip), learned (the human model with the person's slip rate learned from their answers), learned-sharp (learned, and the person may be a careful reader who tells near pairs apart; use with a check such as Phase III that flags a coin), learned-lean (learned-sharp, and the person may lean to one side of the screen; a linear multiclass study's default with Phase III), learned-blunt-lean (learned-lean, whose leaning people tell near pairs apart less sharply; a lambda study's default with Phase III), learned-tiring (learned-lean, and the person may tire; a DLPM study's default with Phase III), learned-flipping (learned-lean, and the person may read every count right yet answer at random now and then; a binary-threshold study's default with Phase III), learned-flipping-moderate (learned-flipping, whose flipper reads near pairs less sharply; a binary-linear study's default with Phase III), learned-sharp-checked (learned-sharp, its region and unidentified coordinates answering for learned's reading of the same answers too; a whole-fair-metric study's default before learned-flips-checked), learned-flips-checked (learned-sharp-checked, and the person may read every count right yet flip 5%, 10% or 20% of their answers; each question the one whose answer leaves the least spread of the metric's parts; a whole-fair-metric study's default with Phase III) or flips:P (each answer flipped with probability P) (default: exact when --noise is 0, human otherwise)",
    )
    .option(
      "--display-step <x>",
      `adaptive: precision at which a person sees a point; pairs that look the same at it are never asked (default ${ADAPTIVE_DEFAULTS.displayStep})`,
    )
    .option(
      "--grid-points <n>",
      "adaptive, binary families: the belief's grid points per prior component, an integer from 64 to 65536 (default 16384; a web study's binary runs use 4096, so this reproduces one)",
    )
    .option(
      "--as-shown",
      "adaptive: the values a web study's participant sees (binary families, TP and TN rounded to --display-step; diagonal-linear and linear, each class's counts of 100): the engine believes the answers are about them, and the simulated person judges them (default: exact values for both)",
    )
    .option(
      "--every-shown",
      "adaptive, binary families: also weigh every threshold classifier as shown at --display-step for the questions, as binary web studies do since issue 26 (default: only the optimal points of belief and prior draws)",
    );
}

/**
 * Validate the adaptive flags. `noisy` picks the answer model's default (human when the
 * simulated answers are noisy, and for a person).
 * @example adaptiveSettingsFromFlags({ budget: "20" }, 0.02, false).budget // 20
 */
export function adaptiveSettingsFromFlags(
  f: AdaptiveFlags,
  tolerance: number,
  noisy: boolean,
): AdaptiveSettings {
  const budget = f.budget === undefined ? ADAPTIVE_DEFAULTS.budget : Number(f.budget);
  if (!Number.isInteger(budget) || budget < 1)
    throw new CliError(`--budget must be an integer >= 1, got "${f.budget}"`);
  const credibility =
    f.credibility === undefined ? ADAPTIVE_DEFAULTS.credibility : Number(f.credibility);
  if (!(credibility > 0 && credibility < 1))
    throw new CliError(`--credibility must be a number in (0, 1), got "${f.credibility}"`);
  const model = f.answerModel ?? (noisy ? "human" : "exact");
  try {
    parseAnswerModel(model);
  } catch {
    throw new CliError(
      `--answer-model must be ${ANSWER_MODEL_CHOICES} (0 <= P < 0.5), got "${f.answerModel}"`,
    );
  }
  const displayStep =
    f.displayStep === undefined ? ADAPTIVE_DEFAULTS.displayStep : Number(f.displayStep);
  if (!(displayStep > 0 && displayStep < 1))
    throw new CliError(`--display-step must be a number in (0, 1), got "${f.displayStep}"`);
  const gridPoints = f.gridPoints === undefined ? undefined : Number(f.gridPoints);
  if (
    gridPoints !== undefined &&
    !(Number.isInteger(gridPoints) && gridPoints >= 64 && gridPoints <= 65536)
  )
    throw new CliError(`--grid-points must be an integer from 64 to 65536, got "${f.gridPoints}"`);
  return {
    tolerance,
    budget,
    credibility,
    model: model as AnswerModelName,
    displayStep,
    ...(f.asShown ? { asShown: true } : {}),
    ...(f.everyShown ? { everyShown: true } : {}),
    ...(gridPoints !== undefined ? { gridPoints } : {}),
  };
}

/**
 * The noise the command line asks for: a fixed model, or logistic noise whose temperature
 * follows each truth's value range (`--noise-kind logistic`, `--noise` = the error rate on
 * pairs a tenth of the range apart).
 */
export type NoiseRequest =
  | { readonly kind: "fixed"; readonly noise: NoiseModel }
  | { readonly kind: "logistic"; readonly errorRate: number };

/** Whether answers will be noisy. */
export function isNoisy(r: NoiseRequest): boolean {
  return r.kind === "logistic" || r.noise.kind !== "none";
}

/**
 * The noise model for one truth: logistic noise scales to the truth's range on the family's
 * questions (`truthRange`).
 */
export function resolveNoise<P>(
  r: NoiseRequest,
  family: () => QuestionSet<P>,
  value: (p: P) => number,
): NoiseModel {
  if (r.kind === "fixed") return r.noise;
  try {
    return logisticNoiseFor(family(), value, r.errorRate);
  } catch (e) {
    if (e instanceof RangeError) throw new CliError(e.message);
    throw e;
  }
}

/**
 * The noise as one line: logistic noise names its error rate (each truth has its own
 * temperature); otherwise `describeNoise` of the model.
 */
export function describeRequest(r: NoiseRequest, resolved?: NoiseModel): string {
  if (r.kind === "logistic")
    return `logistic choice noise, ${r.errorRate} wrong answers on pairs a tenth of the truth's range apart`;
  return describeNoise(resolved ?? r.noise);
}

/** One line for the settings of an adaptive run. */
export function describeSettings(s: AdaptiveSettings): string {
  return `strategy adaptive, tolerance ${s.tolerance}, budget ${s.budget}, credibility ${s.credibility}, answer model ${s.model}, display step ${s.displayStep}`;
}

/** The unidentified coordinates as text. */
export function describeUnidentified(
  u: readonly { readonly name: string; readonly halfWidth: number }[],
): string {
  return u.length === 0
    ? "none (every coordinate within the tolerance)"
    : u.map((x) => `${x.name} ± ${fmt(x.halfWidth, 4)}`).join(", ");
}
