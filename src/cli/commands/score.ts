import { basename } from "node:path";
import type { Command } from "commander";
import { formatScoreReport, scoreReportJson } from "../../experiments/score/format.ts";
import {
  MetricFileError,
  type MetricSource,
  readMetricSource,
} from "../../experiments/score/metric-source.ts";
import { readModelPredictions } from "../../experiments/score/model-predictions.ts";
import { scoreModels } from "../../experiments/score/score.ts";
import { notJsonMessage } from "../../words.ts";
import { CliError, guarded } from "../errors.ts";
import { readText } from "../files.ts";

/** The flags of `elicit score`. */
interface ScoreFlags {
  metric: string;
  predictions: string[];
  participant?: string;
  all?: boolean;
  positive?: string;
  groups?: string;
  json?: boolean;
}

/**
 * A metric file (study.json, a metric JSON or a participant's state with its debrief) read and
 * parsed, its problems as one-line CLI errors.
 */
export function loadMetricSource(
  path: string,
  sel: { participant?: string; all?: boolean },
): MetricSource {
  const text = readText(path, "metric file");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new CliError(notJsonMessage(path, e));
  }
  let participant: number | undefined;
  if (sel.participant !== undefined) {
    participant = Number(sel.participant);
    if (!Number.isInteger(participant))
      throw new CliError(
        `--participant must be a participant's id (a whole number), got "${sel.participant}"`,
      );
  }
  if (participant !== undefined && sel.all)
    throw new CliError("give either --participant or --all, not both");
  try {
    return readMetricSource(
      json,
      { ...(participant !== undefined ? { participant } : {}), ...(sel.all ? { all: true } : {}) },
      basename(path),
    );
  } catch (e) {
    if (e instanceof MetricFileError) throw new CliError(e.message);
    throw e;
  }
}

/** `elicit score`. */
export function registerScore(program: Command): void {
  program
    .command("score")
    .description(
      "score models' predictions under an elicited metric: scores, ranking, the probability each is best, the optimal decision rule",
    )
    .requiredOption(
      "--metric <file>",
      "a study.json export, a metric JSON ({\"family\": ..., the family's numbers as --truth takes them}) or a participant's state with its debrief",
    )
    .requiredOption(
      "--predictions <file...>",
      "one predictions CSV per model: label,probability (binary) or label,p_<class>... (multiclass; fair: with a group column)",
    )
    .option(
      "--participant <id>",
      "study.json: this participant's metric and belief (default: the consensus, whose belief is the participants' own metrics)",
    )
    .option("--all", "study.json: every participant with a metric, one report each")
    .option(
      "--positive <label>",
      "binary: the positive class's label in the predictions (default: the metric's second class; labels 0/1 need none)",
    )
    .option(
      "--groups <column>",
      "fair metrics: the predictions' group column (default: the study's group column)",
    )
    .option("--json", "print JSON on stdout")
    .addHelpText(
      "after",
      `
Each model's probabilities become decisions by the rule optimal under the metric (binary: a
threshold; multiclass: the cost-sensitive rule), scored against the file's labels. With the
elicited belief (study.json: the engine's 200 draws per participant, the range of a paper-search
participant's answers, or the participants' metrics for the consensus), P(best) is the share of
the belief's samples under which a model scores best, each sample with its own optimal rule; a
sample under which n models tie for best counts 1/n for each (the output then also gives each
model's share best alone and best or tied; --json: pBestAlone, pBestOrTied).

Examples:
  elicit score --metric study.json --predictions a.csv b.csv
  elicit score --metric study.json --participant 3 --predictions a.csv b.csv --json
  elicit score --metric metric.json --predictions a.csv b.csv   # {"family":"binary-threshold","a0":0.3}`,
    )
    .action((f: ScoreFlags) =>
      guarded(() => {
        const source = loadMetricSource(f.metric, f);
        const notes: string[] = [];
        const scored = source.subjects.map((given) => {
          const groups = f.groups ?? source.groupColumn;
          let subject = given;
          const models = f.predictions.map((path) => {
            const read = readModelPredictions(
              basename(path),
              readText(path, "predictions file"),
              subject.metric,
              {
                ...(f.positive !== undefined ? { positive: f.positive } : {}),
                ...(groups !== undefined ? { groups } : {}),
              },
            );
            for (const n of read.notes) if (!notes.includes(n)) notes.push(n);
            // A metric without class names takes the first file's (the next files must match).
            if (!subject.metric.classes && read.classes)
              subject = { ...subject, metric: { ...subject.metric, classes: read.classes } };
            return read.model;
          });
          const names = models.map((m) => m.name);
          const twice = names.find((n, i) => names.indexOf(n) !== i);
          if (twice !== undefined)
            throw new CliError(
              `two predictions files are named ${twice}: give files of distinct names`,
            );
          return {
            subject,
            report: scoreModels(subject.metric, models, subject.belief ?? undefined),
          };
        });
        if (f.json) {
          console.log(JSON.stringify(scoreReportJson(scored, notes), null, 2));
          return;
        }
        for (const n of notes) process.stderr.write(`note: ${n}\n`);
        process.stdout.write(formatScoreReport(scored));
      }),
    );
}
