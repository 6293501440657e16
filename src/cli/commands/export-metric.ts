import { basename } from "node:path";
import type { Command } from "commander";
import {
  METRIC_CODE_LANGUAGES,
  type MetricCodeLanguage,
  metricCode,
} from "../../metrics/portable/metric-code.ts";
import { VERSION } from "../../version.ts";
import { CliError, guarded } from "../errors.ts";
import { writeText } from "../files.ts";
import { loadMetricSource } from "./score.ts";

/** The flags of `elicit export-metric`. */
interface ExportFlags {
  to: string;
  participant?: string;
  out?: string;
}

/** `elicit export-metric`. */
export function registerExportMetric(program: Command): void {
  program
    .command("export-metric")
    .description(
      "write an elicited metric as a small dependency-free function of a confusion matrix (Python, R or JavaScript)",
    )
    .argument(
      "<file>",
      'a study.json export, a metric JSON ({"family": ...}) or a participant\'s state with its debrief',
    )
    .requiredOption("--to <language>", `the language: ${METRIC_CODE_LANGUAGES.join(", ")}`)
    .option(
      "--participant <id>",
      "study.json: this participant's metric (default: the consensus of the participants)",
    )
    .option("--out <file>", "where to write the code (default: stdout)")
    .addHelpText(
      "after",
      `
The function takes a confusion matrix C[i][j]: cases of true class i predicted as class j
(rows true, columns predicted, as scikit-learn's confusion_matrix), counts or joint
probabilities (divided by their total; not rates); the fair metric takes one matrix per group
and returns its cost (lower is better). The file's header states the convention and the class
order. Python also gets make_sklearn_scorer() (scikit-learn imported only there).

Examples:
  elicit export-metric study.json --participant 3 --to python --out metric.py
  elicit export-metric metric.json --to r`,
    )
    .action((file: string, f: ExportFlags) =>
      guarded(() => {
        if (!METRIC_CODE_LANGUAGES.includes(f.to as MetricCodeLanguage))
          throw new CliError(`unknown --to "${f.to}"; choose ${METRIC_CODE_LANGUAGES.join(", ")}`);
        const source = loadMetricSource(file, f);
        const subject = source.subjects[0]!;
        let code: string;
        try {
          code = metricCode(subject.metric, f.to as MetricCodeLanguage, {
            // A metric file's label is its own name: say it once.
            source:
              subject.label === basename(file)
                ? subject.label
                : `${basename(file)}, ${subject.label}`,
            version: VERSION,
          });
        } catch (e) {
          if (e instanceof RangeError) throw new CliError(e.message);
          throw e;
        }
        if (f.out) {
          writeText(f.out, code);
          process.stderr.write(`wrote the metric of ${subject.label} as ${f.to} to ${f.out}\n`);
        } else process.stdout.write(code);
      }),
    );
}
