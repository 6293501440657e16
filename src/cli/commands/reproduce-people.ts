import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { fmt, table } from "../../experiments/format.ts";
import {
  PEOPLE_ADAPTIVE,
  PEOPLE_FAMILIES,
  PEOPLE_PHASE_THREE,
  PEOPLE_SETTINGS,
  type PeopleAnswerModel,
  type PeopleFamily,
  type PeopleMiss,
  type PeopleReproduction,
  type PeopleTruth,
  peopleModel,
  peopleSize,
  reproducePeople,
} from "../../experiments/reproduce-people.ts";
import type { MulticlassPool } from "../../geometry/multiclass/pool.ts";
import { PERSON_TYPES, type PersonType } from "../../oracle/people.ts";
import { prepareMulticlassFromCsv } from "../../population/multiclass.ts";
import { prepareStudyData } from "../../server/kinds/binary/data.ts";
import {
  type FairStudyData,
  fairStudyConfig,
  prepareFairStudyData,
} from "../../server/kinds/fair/study.ts";
import { COIN_LEVEL, NEAR_COIN_LEVEL } from "../../server/participant/consistency.ts";
import {
  FAIR_DATASETS,
  isStudyAnswerModel,
  MULTICLASS_DATASETS,
  STUDY_ANSWER_MODELS,
} from "../../server/study/config.ts";
import { bundledDataPath, cancerDiagnosisConfig } from "../../server/study/template.ts";
import { inWords } from "../../words.ts";
import { CliError, guarded } from "../errors.ts";
import { positiveTrials } from "../figure-options.ts";
import { progressBar } from "../progress.ts";

/**
 * A family as `--families` and `--budget` take it: `lambda` (the name `simulate`'s
 * `--lambda-only` and `reproduce adaptive` use) is another name of `fair-lambda`.
 * @example peopleFamilyName("lambda") // "fair-lambda"
 */
function peopleFamilyName(name: string): string {
  return name === "lambda" ? "fair-lambda" : name;
}

function parseFamilies(text: string): PeopleFamily[] {
  const xs = text.split(",").map((s) => peopleFamilyName(s.trim()));
  for (const x of xs) {
    if (!PEOPLE_FAMILIES.includes(x as PeopleFamily)) {
      throw new CliError(
        `--families: unknown or unsupported family "${x}"; reproduce people covers ${PEOPLE_FAMILIES.join(", ")}`,
      );
    }
  }
  return xs as PeopleFamily[];
}

/**
 * `--people`'s list: person types of the panel, comma-separated, each once.
 * @example parsePeople("careful,side-bias") // ["careful", "side-bias"]
 */
export function parsePeople(text: string): PersonType[] {
  const xs = text.split(",").map((s) => s.trim());
  for (const [i, x] of xs.entries()) {
    if (!PERSON_TYPES.includes(x as PersonType)) {
      throw new CliError(
        `--people: unknown person "${x}"; the panel has ${PERSON_TYPES.join(", ")}`,
      );
    }
    if (xs.indexOf(x) !== i) throw new CliError(`--people: ${x} is given twice`);
  }
  return xs as PersonType[];
}

/**
 * `--answer-model`'s name: a study's model, or `flips:P` with P in [0, 0.5) (a diagnosis: the
 * engine told a flipping person's noise); undefined keeps each family's study model.
 * @example parsePeopleModel("flips:0.2") // "flips:0.2"
 */
export function parsePeopleModel(text: string | undefined): PeopleAnswerModel | undefined {
  if (text === undefined || isStudyAnswerModel(text)) return text;
  const m = /^flips:(\d*\.?\d+)$/.exec(text);
  if (m && Number(m[1]) < 0.5) return text as PeopleAnswerModel;
  throw new CliError(
    `--answer-model must be ${inWords([...STUDY_ANSWER_MODELS, "flips:P (P from 0 to below 0.5)"], "or")}, got "${text}"`,
  );
}

/**
 * `--budget`'s list: `family=n` pairs, comma-separated, each family once.
 * @example parseBudgets("linear=40,fair-quadratic=60") // { linear: 40, "fair-quadratic": 60 }
 */
export function parseBudgets(text: string): Partial<Record<PeopleFamily, number>> {
  const out: Partial<Record<PeopleFamily, number>> = {};
  for (const item of text.split(",").map((x) => x.trim())) {
    const [given, value, ...rest] = item.split("=").map((x) => x.trim());
    const name = given === undefined ? undefined : peopleFamilyName(given);
    if (name === undefined || value === undefined || rest.length > 0 || name === "") {
      throw new CliError(`--budget: "${item}" is not family=questions (e.g. linear=40)`);
    }
    if (!PEOPLE_FAMILIES.includes(name as PeopleFamily)) {
      throw new CliError(
        `--budget: unknown family "${name}"; reproduce people covers ${PEOPLE_FAMILIES.join(", ")}`,
      );
    }
    if (out[name as PeopleFamily] !== undefined) {
      throw new CliError(`--budget: ${name} is given twice`);
    }
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < 5 || n > 100) {
      throw new CliError(
        `--budget: the budget of ${name} must be a whole number from 5 to 100 (as a study's), got "${value}"`,
      );
    }
    out[name as PeopleFamily] = n;
  }
  return out;
}

const MEASURES = {
  a0: "|a0 - a0'|",
  angle: "angle (rad)",
  weights: "max |a_i - a_i'|",
  lambda: "|lambda - lambda'|",
  fair: "max(||a - a'||_2, sum ||B - B'||_F, |lambda - lambda'|)",
} as const;

const pct = (x: number | undefined) => (x === undefined ? "" : `${fmt(100 * x, 0)}%`);

/**
 * The table `elicit reproduce people` prints: one row per (family, strategy, person).
 * @example console.log(formatPeopleReproduction(reproducePeople({ population: pool, trials: 3 })))
 */
export function formatPeopleReproduction(r: PeopleReproduction): string {
  const out: string[] = [
    `The panel of simulated people (src/oracle/people.ts) against paper and adaptive, ${r.trials} random truths per family, same truths and seeds for every strategy and person`,
    `Pool: ${r.pool}, shown as whole people out of ${r.frame.population} (${r.frame.positives} positives, ${r.frame.negatives} negatives); every person judges the counts shown`,
    ...(r.multiclassPool === undefined
      ? []
      : [
          `Multiclass pool (DLPM, LPM): ${r.multiclassPool}, each class shown as 100 people (DLPM: correct counts per class; LPM: every count), as a multiclass study shows it; adaptive only, as the web runs it`,
        ]),
    ...(r.fairData === undefined
      ? []
      : [
          `Fairness data (lambda with the study's known costs and gap weights, and the whole fair metric): ${r.fairData}, as a fairness study shows it; adaptive only, as the web runs it`,
        ]),
    `paper: the papers' search as the built-in study runs it; adaptive: credibility ${PEOPLE_ADAPTIVE.credibility}, answer model per family as its study runs it (${Object.entries(
      r.models,
    )
      .map(([f, m]) => `${f} ${m}`)
      .join(
        ", ",
      )}), the engine computing on the counts shown (binary: display step ${r.frame.step}; multiclass and fairness: each class's and group's counts of 100) ${
      Object.values(r.models).some((m) => m?.startsWith("flips:"))
        ? "(a diagnosis, not a comparison: the engine told the share of answers a person flips, flips:P)"
        : "(never told who answers)"
    }`,
    `Pairs identical on screen are answered 'tie' unasked and not counted. flagged: unidentified coordinates, stop no-informative-question, or answers the dashboard flags as a coin's or marks hard to tell from one (adaptive: the study's Phase III, ${PEOPLE_PHASE_THREE.pairs} random pairs and ${PEOPLE_PHASE_THREE.retests} repeats, answered as Phase II by the same person; a coin's above ${COIN_LEVEL}, hard to tell above ${NEAR_COIN_LEVEL}); coin-like: the dashboard's coin flag alone; leaning: marked on the dashboard as leaning to one side of the screen (informative, not a flag); slips: the consistency figure the debrief, dashboard and exports state, the share of Phase III answers against the person's own result (binary: against the metric of the Phase II range that fits them best), mean over runs; true: the share of the same pairs answered against the person's own truth, mean; gap: the gap between the two in a run, mean; silent: error > 2x tolerance and not flagged; dominated: pairs shown where one system is at least as good on everything that decides and better on one (binary: TP and TN; DLPM: each class's correct count; LPM: each kind of mistake; lambda: the error and the gap parts of the cost; the whole fair metric weighs both ways, so none), summed over runs`,
  ];
  for (const family of r.families) {
    const s = PEOPLE_SETTINGS[family];
    out.push(
      "",
      `${family}: tolerance ${s.tolerance}, error ${MEASURES[s.measure]}, budget ${r.budgets[family] ?? s.budget}`,
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
          "coin-like",
          "leaning",
          "slips",
          "true",
          "gap",
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
            pct(row.coinLike),
            pct(row.leaning),
            pct(row.slips?.estimate),
            pct(row.slips?.truth),
            pct(row.slips?.gap),
            String(row.silentMisses),
            String(row.dominated),
          ]),
      ),
    );
  }
  return out.join("\n");
}

/** A truth in a few figures (4 decimals): what `--misses` prints of it. */
function truthText(t: PeopleTruth): string {
  const xs = (v: readonly number[]) => v.map((x) => fmt(x, 4)).join(" ");
  switch (t.family) {
    case "binary-threshold":
      return `a0 ${fmt(t.a0, 4)}`;
    case "binary-linear":
      return `tp ${fmt(t.metric.tp, 4)} tn ${fmt(t.metric.tn, 4)}`;
    case "diagonal-linear":
      return `weights ${xs(t.weights)}`;
    case "linear":
      return `costs ${xs(t.costs)}`;
    case "fair-lambda":
      return `lambda ${fmt(t.metric.lambda, 4)}`;
    case "fair-quadratic":
      return `lambda ${fmt(t.metric.lambda, 4)} a ${xs(t.metric.a)}`;
    default:
      return JSON.stringify(t);
  }
}

/**
 * What `--misses` prints: every adaptive run whose error is above twice the tolerance, family
 * by family and the worst first, with its truth, questions, error, credible radius, why the
 * engine stopped, the side the person leans to and their probability of answering as a coin
 * ("-" when none), Phase III's coin test (the chance a coin does as well; coin-like above
 * 0.05; "-" when nothing was counted), and why it is flagged ("silent" when nothing flags it), under `title`.
 * @example console.log(formatPeopleMisses(reproducePeople({ population: pool, trials: 3 }).misses))
 */
export function formatPeopleMisses(
  misses: readonly PeopleMiss[],
  truthSeed: string,
  title = "Adaptive runs with error above twice the tolerance",
): string {
  const head = `${title} (${misses.length}; family by family, the worst first; silent: nothing flags it). Trial t is rerun by --families F --people P --truth-seed ${truthSeed} --trials t+1 (its last run)`;
  if (misses.length === 0) return `${head}\n(none)`;
  const rows = misses.map((m) => [
    m.family,
    m.person,
    String(m.trial),
    truthText(m.truth),
    String(m.questions),
    fmt(m.error, 4),
    fmt(m.radius, 4),
    m.stop,
    m.leansTo ?? "-",
    m.coin === undefined ? "-" : fmt(m.coin, 3),
    m.phaseThreeP === null ? "-" : fmt(m.phaseThreeP, 3),
    m.flags.length === 0 ? "silent" : m.flags.join(", "),
  ]);
  const header = [
    "family",
    "person",
    "trial",
    "truth",
    "q",
    "error",
    "radius",
    "stop",
    "leans",
    "coin p",
    "III p",
    "flags",
  ];
  return `${head}\n${table(header, rows)}`;
}

/**
 * The fairness data of `reproduce people`: a fairness study of the bundled arrests data by
 * colour as the web creates it (`fairStudyConfig`'s defaults: held-out probabilities, split
 * seed 1, the query ball inside every group's rates).
 * @example peopleFairData().data.groupNames.length // 2
 */
export function peopleFairData(): { data: FairStudyData; description: string } {
  const { config } = fairStudyConfig({
    name: "reproduce people",
    kind: "fair",
    dataset: "arrests",
  });
  const data = prepareFairStudyData(config);
  const source = config.source;
  const by = source.kind === "fair-dataset" ? source.groups : "group";
  return {
    data,
    description: `${FAIR_DATASETS.arrests.file} by ${by} (groups ${data.groupNames.join(", ")}; classes ${data.classNames.join(", ")}), held-out probabilities, each group and class shown as 100 people`,
  };
}

/**
 * The DLPM pool of `reproduce people`: a multiclass study of the bundled iris data as the web
 * creates it (held-out softmax probabilities, split seed 1; k = 3).
 * @example peopleMulticlassPool().pool.k // 3
 */
export function peopleMulticlassPool(): { pool: MulticlassPool; description: string } {
  const text = readFileSync(bundledDataPath(MULTICLASS_DATASETS.iris.file), "utf8");
  const { pool } = prepareMulticlassFromCsv(text, {
    target: MULTICLASS_DATASETS.iris.target,
    splitSeed: 1,
  });
  return {
    pool,
    description: `${MULTICLASS_DATASETS.iris.file}, held-out probabilities (${pool.n} points, k = ${pool.k})`,
  };
}

/**
 * `elicit reproduce people`.
 * @example registerReproducePeople(program.command("reproduce"))
 */
export function registerReproducePeople(reproduce: Command): void {
  reproduce
    .command("people")
    .description(
      `the panel of simulated people: every person (${PERSON_TYPES.join(", ")}) answers the papers' procedure (paper) and the adaptive engine (never told who answers; each family under its study's answer model: ${PEOPLE_FAMILIES.map((f) => `${f} ${peopleModel(f)}`).join(", ")}; then the study's Phase III, whose coin-like answers the dashboard flags) on the built-in study's pool (Breast Cancer Wisconsin (Original), held-out labels unless --pool soft) shown as whole people out of 100, the adaptive engine of a multiclass study of iris (DLPM and LPM, k = 3) on its charts of 100 people per class, and of a fairness study of the arrests data by colour (lambda and the whole fair metric); prints questions (mean, max), error p50 / p95 / max, coverage of the 90% credible region, share flagged, share flagged as a coin on the dashboard, share marked as leaning to one side, the consistency figure the study states beside the share of Phase III answers truly against the person's own truth (slips, true, gap), silent misses and dominated pairs shown`,
    )
    .option(
      "--families <list>",
      `comma-separated families to run (default all: ${PEOPLE_FAMILIES.join(",")}; lambda is another name of fair-lambda); tolerance 0.05 for binary-threshold (the built-in study's), 0.02 rad for binary-linear, 0.05 for diagonal-linear and 0.1 for linear (multiclass studies of iris, k = 3, their defaults), 0.05 for fair-lambda and 0.1 for fair-quadratic (fairness studies of arrests by colour, their defaults)`,
    )
    .option(
      "--people <list>",
      `comma-separated person types to run (default all: ${PERSON_TYPES.join(",")})`,
    )
    .option("--trials <n>", "random truths per family (drawn as simulate --random-truth)", "30")
    .option(
      "--pool <kind>",
      "labelled (the built-in study's: held-out labels) or soft (held-out probabilities as soft labels, as elicit simulate's default)",
      "labelled",
    )
    .option(
      "--truth-seed <prefix>",
      "prefix of the truths' seeds: the default draws the truths the people sweep asserts on; tune on another (e.g. tune-1), whose people have seeds of their own too",
      "reproduce-people",
    )
    .option(
      "--answer-model <name>",
      "run every adaptive family under this answer model instead of its study's default: human (fixed lapse), learned (the person's lapse learned from their answers), learned-sharp (learned, with a careful reader among the kinds of person), learned-lean (learned-sharp, with people who lean to one side of the screen: the default of linear multiclass studies with Phase III), learned-blunt-lean (learned-lean, whose leaning people tell near pairs apart less sharply: the default of lambda studies with Phase III), learned-tiring (learned-lean, with a person who tires: the default of DLPM studies with Phase III), learned-flipping (learned-lean, with a person who reads every count right yet answers at random now and then: the default of binary-threshold studies with Phase III), learned-flipping-moderate (learned-flipping, whose flipper reads near pairs less sharply: the default of binary-linear studies with Phase III), learned-sharp-checked (learned-sharp, its region and unidentified coordinates answering for learned's reading of the same answers too: the default of whole-fair-metric studies before learned-flips-checked) or learned-flips-checked (learned-sharp-checked, with people who read every count right yet flip 5%, 10% or 20% of their answers, each question the one whose answer leaves the least spread of the metric's parts: the default of whole-fair-metric studies with Phase III); or flips:P, a diagnosis and never a comparison: the engine told that the person flips a share P of their answers (run it with --people flips-5, flips-10 or flips-20 and the matching P to see what knowing the person would buy)",
    )
    .option(
      "--budget <list>",
      `the adaptive engine's budget for some families, as family=questions pairs, comma-separated (e.g. linear=40,fair-quadratic=60; each 5 to 100, as a study's); default each family's study default (${PEOPLE_FAMILIES.map((f) => `${f} ${PEOPLE_SETTINGS[f].budget}`).join(", ")})`,
    )
    .option(
      "--misses",
      `after the table, list every adaptive run whose error is above twice the tolerance (flagged or silent): its trial, truth, questions, error, credible radius, stop, the side the dashboard marks the person as leaning to (leans), the learned model's probability that they answer as a coin (coin p), Phase III's coin test, the chance that a coin agrees as often (III p; the dashboard flags a coin above ${COIN_LEVEL} and marks one hard to tell from a coin above ${NEAR_COIN_LEVEL}) and flags (the JSON always carries them as misses)`,
    )
    .option("--json", "print JSON on stdout")
    .action(
      (f: {
        trials: string;
        families?: string;
        people?: string;
        misses?: boolean;
        pool: string;
        truthSeed: string;
        answerModel?: string;
        budget?: string;
        json?: boolean;
      }) =>
        guarded(() => {
          const trials = positiveTrials(f.trials);
          const families = f.families === undefined ? undefined : parseFamilies(f.families);
          const budgets = f.budget === undefined ? undefined : parseBudgets(f.budget);
          const people = f.people === undefined ? undefined : parsePeople(f.people);
          if (f.pool !== "labelled" && f.pool !== "soft") {
            throw new CliError(`--pool must be labelled or soft, got "${f.pool}"`);
          }
          const model = parsePeopleModel(f.answerModel);
          const population = prepareStudyData({ ...cancerDiagnosisConfig(), pool: f.pool }).pool;
          const options = {
            trials,
            truthSeed: f.truthSeed,
            multiclass: peopleMulticlassPool(),
            fair: peopleFairData(),
            ...(families ? { families } : {}),
            ...(people ? { people } : {}),
            ...(model ? { model } : {}),
            ...(budgets ? { budgets } : {}),
          };
          const bar = progressBar(peopleSize(options), "reproduce people");
          const result = reproducePeople({ ...options, population, onRun: () => bar.tick() });
          bar.stop();
          if (f.json) {
            console.log(JSON.stringify(result, null, 2));
            return;
          }
          console.log(formatPeopleReproduction(result));
          if (f.misses) console.log(`\n${formatPeopleMisses(result.misses, f.truthSeed)}`);
        }),
    );
}
