import type { Command } from "commander";
import { formatPredictions } from "../../data/predictions.ts";
import { formatDatasetReport } from "../../data/report.ts";
import { guarded } from "../errors.ts";
import { writeText } from "../files.ts";
import {
  addPopulationOptions,
  loadBinaryPopulation,
  type PopulationFlags,
} from "../population-options.ts";

/** `elicit fit`. */
export function registerFit(program: Command): void {
  const cmd = program
    .command("fit")
    .description(
      "train a logistic regression on a CSV and write held-out predictions (label,probability)",
    );
  // Only --data's flags: fit trains on a CSV (no --predictions, --synthetic or --pool).
  addPopulationOptions(cmd, { dataOnly: true });
  cmd
    .option("--out <file>", "where to write the predictions CSV (default: stdout)")
    .action((f: PopulationFlags & { out?: string }) =>
      guarded(() => {
        const loaded = loadBinaryPopulation(f);
        const p = loaded.prepared!;
        const csv = formatPredictions({
          labels: p.test.labels,
          probabilities: p.test.probabilities,
          positiveLabel: p.positiveLabel,
          negativeLabel: p.negativeLabel,
        });
        for (const line of p.report ? formatDatasetReport(p.report) : [])
          process.stderr.write(`${line}\n`);
        if (p.model) {
          process.stderr.write(
            `model: logistic regression on ${p.model.features} feature${p.model.features === 1 ? "" : "s"}, trained on ${p.model.trainSize} rows; ` +
              `held-out accuracy ${(100 * p.model.testAccuracy).toFixed(1)}% on ${p.model.testSize} rows\n`,
          );
        }
        if (f.out) {
          writeText(f.out, csv);
          process.stderr.write(`wrote ${p.test.labels.length} predictions to ${f.out}\n`);
        } else process.stdout.write(csv);
      }),
    );
}
