import type { Command } from "commander";
import { fmt, table } from "../../experiments/format.ts";
import {
  PEOPLE_ADAPTIVE,
  PEOPLE_FAMILIES,
  PEOPLE_SETTINGS,
  type PeopleFamily,
  type PeopleReproduction,
  peopleSize,
  reproducePeople,
} from "../../experiments/reproduce-people.ts";
import { PERSON_TYPES } from "../../oracle/people.ts";
import { prepareStudyData } from "../../server/study/population.ts";
import { cancerDiagnosisConfig } from "../../server/study/template.ts";
import { CliError, guarded } from "../errors.ts";
import { positiveTrials } from "../figure-options.ts";
import { progressBar } from "../progress.ts";

function parseFamilies(text: string): PeopleFamily[] {
  const xs = text.split(",").map((s) => s.trim());
  for (const x of xs) {
    if (!PEOPLE_FAMILIES.includes(x as PeopleFamily)) {
      throw new CliError(
        `--families: unknown or unsupported family "${x}"; reproduce people covers ${PEOPLE_FAMILIES.join(", ")}`,
      );
    }
  }
  return xs as PeopleFamily[];
}

const pct = (x: number | undefined) => (x === undefined ? "" : `${fmt(100 * x, 0)}%`);

/**
 * The table `elicit reproduce people` prints: one row per (family, strategy, person).
 * @example console.log(formatPeopleReproduction(reproducePeople({ population: pool, trials: 3 })))
 */
export function formatPeopleReproduction(r: PeopleReproduction): string {
  const out: string[] = [
    `The panel of simulated people (src/oracle/people.ts) against paper and adaptive, ${r.trials} random truths per family, same truths and seeds for every strategy and person`,
    `Pool: ${r.pool}, shown as whole people out of ${r.frame.population} (${r.frame.positives} positives, ${r.frame.negatives} negatives); every person judges the counts shown`,
    `paper: the papers' search as the built-in study runs it; adaptive: budget ${PEOPLE_ADAPTIVE.budget}, credibility ${PEOPLE_ADAPTIVE.credibility}, answer model ${PEOPLE_ADAPTIVE.model}, display step ${r.frame.step} as shown (never told who answers)`,
    "Pairs identical on screen are answered 'tie' unasked and not counted. flagged: unidentified coordinates or stop no-informative-question; silent: error > 2x tolerance and not flagged; dominated: pairs shown where one system is at least as good on TP and TN shown and better on one (summed over runs)",
  ];
  for (const family of r.families) {
    const s = PEOPLE_SETTINGS[family];
    out.push(
      "",
      `${family}: tolerance ${s.tolerance}, error ${s.measure === "a0" ? "|a0 - a0'|" : "angle (rad)"}`,
    );
    out.push(
      table(
        [
          "strategy",
          "person",
          "q mean",
          "q max",
          "err p50",
          "err p95",
          "err max",
          "coverage",
          "flagged",
          "silent",
          "dominated",
        ],
        r.rows
          .filter((row) => row.family === family)
          .map((row) => [
            row.strategy,
            row.person,
            fmt(row.questions.mean, 1),
            String(row.questions.max),
            fmt(row.error.p50, 4),
            fmt(row.error.p95, 4),
            fmt(row.error.max, 4),
            pct(row.coverage),
            pct(row.flagged),
            String(row.silentMisses),
            String(row.dominated),
          ]),
      ),
    );
  }
  return out.join("\n");
}

/**
 * `elicit reproduce people`.
 * @example registerReproducePeople(program.command("reproduce"))
 */
export function registerReproducePeople(reproduce: Command): void {
  reproduce
    .command("people")
    .description(
      `issue 26: every person of the simulated panel (${PERSON_TYPES.join(", ")}) answers the papers' procedure (paper) and the adaptive engine (human answer model, never told who answers) on the built-in study's pool (Breast Cancer Wisconsin (Original), held-out labels unless --pool soft) shown as whole people out of 100; prints questions (mean, max), error p50 / p95 / max, coverage of the 90% credible region, share flagged, silent misses and dominated pairs shown`,
    )
    .option(
      "--families <list>",
      `comma-separated families to run (default all: ${PEOPLE_FAMILIES.join(",")}); tolerance 0.05 for binary-threshold (the built-in study's), 0.02 rad for binary-linear`,
    )
    .option("--trials <n>", "random truths per family (drawn as simulate --random-truth)", "30")
    .option(
      "--pool <kind>",
      "labelled (the built-in study's: held-out labels) or soft (held-out probabilities as soft labels, as elicit simulate's default)",
      "labelled",
    )
    .option("--json", "print JSON on stdout")
    .action((f: { trials: string; families?: string; pool: string; json?: boolean }) =>
      guarded(() => {
        const trials = positiveTrials(f.trials);
        const families = f.families === undefined ? undefined : parseFamilies(f.families);
        if (f.pool !== "labelled" && f.pool !== "soft") {
          throw new CliError(`--pool must be labelled or soft, got "${f.pool}"`);
        }
        const population = prepareStudyData({ ...cancerDiagnosisConfig(), pool: f.pool }).pool;
        const options = { trials, ...(families ? { families } : {}) };
        const bar = progressBar(peopleSize(options), "reproduce people");
        const result = reproducePeople({ ...options, population, onRun: () => bar.tick() });
        bar.stop();
        console.log(f.json ? JSON.stringify(result, null, 2) : formatPeopleReproduction(result));
      }),
    );
}
