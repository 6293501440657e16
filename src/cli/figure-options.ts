import type { Command } from "commander";
import { CliError } from "./errors.ts";

/** `--svg FILE` / `--png FILE` of the reproduce commands that draw a figure. */
export interface FigureFlags {
  svg?: string;
  png?: string;
}

/**
 * Register `--svg` and `--png` for a figure (`what` names it in the help text).
 * @example addFigureOptions(cmd, "Figure 4 (a-b) (error box plots)")
 */
export function addFigureOptions(cmd: Command, what: string): Command {
  return cmd
    .option("--svg <file>", `write ${what} as SVG`)
    .option("--png <file>", `write ${what} as PNG`);
}

/**
 * Parse `--trials N`: a positive integer, else a one-line CLI error.
 * @example positiveTrials("100") // 100
 */
export function positiveTrials(text: string): number {
  const trials = Number(text);
  if (!Number.isInteger(trials) || trials < 1 || trials > MAX_TRIALS)
    throw new CliError(`--trials must be an integer from 1 to ${MAX_TRIALS}, got "${text}"`);
  return trials;
}

/** Largest --trials any command accepts (each trial is a whole elicitation). */
export const MAX_TRIALS = 100_000;
