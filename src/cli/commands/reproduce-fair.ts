import type { Command } from "commander";
import {
  fairErrorSvg,
  formatFairReproduction,
  reproduceFair,
} from "../../experiments/reproduce-fair.ts";
import { CliError, guarded } from "../errors.ts";
import { addFigureOptions, type FigureFlags, positiveTrials } from "../figure-options.ts";
import { writeFigure } from "../png.ts";

function parseList(text: string, name: string): number[] {
  const xs = text.split(",").map((s) => Number(s.trim()));
  if (!xs.every((x) => Number.isInteger(x) && x >= 2 && x <= 8)) {
    throw new CliError(`--${name} must be a comma-separated list of integers from 2 to 8`);
  }
  return xs;
}

/** `elicit reproduce fair`: Table 1's Fair-QPME query counts and Figure 4(c-e) errors. */
export function registerReproduceFair(reproduce: Command): void {
  const cmd = reproduce
    .command("fair")
    .description("UAI 2022 Table 1 (Fair-QPME query counts) and Figure 4(c-e) errors")
    .option("--trials <n>", "random metrics per (k, m)", "100")
    .option("--classes <list>", "numbers of classes k", "2,3,4,5")
    .option("--groups <list>", "numbers of groups m", "2,3,4,5");
  addFigureOptions(cmd, "Figure 4 (c-e) (error box plots)");
  cmd.option("--json", "print JSON on stdout").action(
    (
      f: {
        trials: string;
        classes: string;
        groups: string;
        json?: boolean;
      } & FigureFlags,
    ) =>
      guarded(() => {
        const trials = positiveTrials(f.trials);
        const result = reproduceFair({
          trials,
          classes: parseList(f.classes, "classes"),
          groups: parseList(f.groups, "groups"),
        });
        // Print first: a bad figure path must not lose a long run's results.
        console.log(f.json ? JSON.stringify(result, null, 2) : formatFairReproduction(result));
        writeFigure(() => fairErrorSvg(result), f);
      }),
  );
}
