import { describe, expect, it } from "vitest";
import {
  formatPeopleReproduction,
  peopleMulticlassPool,
} from "../../src/cli/commands/reproduce-people.ts";
import {
  PEOPLE_SETTINGS,
  type PeopleFamily,
  reproducePeople,
} from "../../src/experiments/reproduce-people.ts";
import type { PersonType } from "../../src/oracle/people.ts";
import { prepareStudyData } from "../../src/server/study/population.ts";
import { cancerDiagnosisConfig } from "../../src/server/study/template.ts";
import { recordFigures } from "./figures.ts";

/**
 * Issue 26's targets for the panel of simulated people, measured as `elicit reproduce people`
 * measures them (30 truths per family, the built-in study's pool shown as whole people out of
 * 100, and DLPM k = 3 on a multiclass study of iris, 100 people per class; the engine never
 * told who answers). For every person but the random responder, every
 * adaptive cell must have coverage of the 90% region >= 85%, error p95 <= 2x tolerance and at
 * most 30 questions; the random responder must be flagged in >= 95% of runs; no cell may have
 * a silent miss (error above 2x tolerance, nothing flagged), and no adaptive run shows a
 * dominated pair.
 *
 * The targets are the issue's, not tuned here. Not every cell meets them yet: the cells that
 * do not are listed in KNOWN_GAPS, and the test fails both when another cell misses a target
 * (a regression) and when a listed cell meets it (then the list, the README and the issue's
 * note must say so). The README quotes the table (docs/figures/reproduce-people.txt).
 */
const KNOWN_GAPS = [
  // binary-threshold (tolerance 0.05): flips beyond 5% and a lapse of 10% widen the tail.
  "binary-threshold lapse: error p95 0.1002 > 0.1",
  "binary-threshold flips-10: error p95 0.1197 > 0.1",
  "binary-threshold flips-20: coverage 60% < 85%",
  "binary-threshold flips-20: error p95 0.1887 > 0.1",
  // binary-linear (tolerance 0.02 rad): whole people out of 100 cannot show a difference of
  // 0.04 rad, so every person's p95 is above 2x tolerance; those runs are flagged (97%).
  "binary-linear careful: error p95 0.1872 > 0.04",
  "binary-linear probit: error p95 0.1872 > 0.04",
  "binary-linear lapse: error p95 0.1294 > 0.04",
  "binary-linear tie-band: error p95 0.1805 > 0.04",
  "binary-linear fatigue: error p95 0.1872 > 0.04",
  "binary-linear side-bias: error p95 0.1844 > 0.04",
  "binary-linear flips-5: coverage 80% < 85%",
  "binary-linear flips-5: error p95 0.1819 > 0.04",
  "binary-linear flips-10: coverage 80% < 85%",
  "binary-linear flips-10: error p95 0.2154 > 0.04",
  "binary-linear flips-20: coverage 80% < 85%",
  "binary-linear flips-20: error p95 0.5262 > 0.04",
  // DLPM k = 3 (a multiclass study of iris, tolerance 0.05, budget 25, the learned answer
  // model): a side bias on near pairs pulls the region off the truth, and 20% flips widen
  // the tail (those runs are flagged: no silent miss).
  "diagonal-linear side-bias: coverage 83% < 85%",
  "diagonal-linear flips-20: error p95 0.1769 > 0.1",
];

describe("issue 26: the panel of people (reproduce people)", () => {
  it("adaptive cells against the issue's targets, the gaps listed", () => {
    const population = prepareStudyData(cancerDiagnosisConfig()).pool;
    const r = reproducePeople({ population, multiclass: peopleMulticlassPool(), trials: 30 });
    const text = formatPeopleReproduction(r);
    console.log(text);
    recordFigures("reproduce-people", import.meta.url, "panel of people", text);
    const pct = (x: number) => `${Math.round(100 * x)}%`;
    const gaps: string[] = [];
    for (const row of r.rows.filter((x) => x.strategy === "adaptive")) {
      const cell = `${row.family} ${row.person}`;
      const tol = PEOPLE_SETTINGS[row.family].tolerance;
      expect(row.trials, cell).toBe(30);
      expect(row.dominated, `${cell}: dominated pairs shown`).toBe(0);
      expect(row.questions.max, `${cell}: questions`).toBeLessThanOrEqual(30);
      if (row.silentMisses > 0) gaps.push(`${cell}: ${row.silentMisses} silent misses`);
      if (row.person === "random") {
        if (row.flagged! < 0.95) gaps.push(`${cell}: flagged ${pct(row.flagged!)} < 95%`);
        continue;
      }
      if (row.coverage! < 0.85) gaps.push(`${cell}: coverage ${pct(row.coverage!)} < 85%`);
      if (row.error.p95 > 2 * tol) {
        gaps.push(`${cell}: error p95 ${row.error.p95.toFixed(4)} > ${2 * tol}`);
      }
    }
    expect(gaps).toEqual(KNOWN_GAPS);
  });

  // Which answer model each kind of study runs (README, "Answer models"): decided on the truths
  // drawn with `--truth-seed held-out-1`, asserted here on a third draw that neither the
  // decision nor the table above uses.
  it("learned against human: more questions for a careful binary person, a coin flagged on DLPM", () => {
    const population = prepareStudyData(cancerDiagnosisConfig()).pool;
    const run = (model: "human" | "learned", families: PeopleFamily[], people: PersonType[]) =>
      reproducePeople({
        population,
        multiclass: peopleMulticlassPool(),
        trials: 20,
        truthSeed: "models-1",
        families,
        people,
        model,
      }).rows.filter((x) => x.strategy === "adaptive");
    const binary = {
      human: run("human", ["binary-threshold"], ["careful"])[0]!,
      learned: run("learned", ["binary-threshold"], ["careful"])[0]!,
    };
    const coin = {
      human: run("human", ["diagonal-linear"], ["random"])[0]!,
      learned: run("learned", ["diagonal-linear"], ["random"])[0]!,
    };
    console.log(
      `binary-threshold careful, mean questions: human ${binary.human.questions.mean}, learned ${binary.learned.questions.mean}; ` +
        `DLPM random, flagged / silent: human ${coin.human.flagged} / ${coin.human.silentMisses}, learned ${coin.learned.flagged} / ${coin.learned.silentMisses}`,
    );
    expect(binary.learned.questions.mean).toBeGreaterThan(binary.human.questions.mean + 1);
    expect(binary.learned.coverage!).toBeLessThanOrEqual(binary.human.coverage! + 0.05);
    expect(coin.learned.flagged!).toBeGreaterThanOrEqual(0.95);
    expect(coin.learned.silentMisses).toBe(0);
    expect(coin.human.flagged!).toBeLessThan(coin.learned.flagged!);
  });
});
