import { describe, expect, it } from "vitest";
import type { BinaryPoint } from "../../src/elicit/binary/point.ts";
import type { Answer } from "../../src/search/question.ts";
import { halvingsNeeded } from "../../src/search/unimodal-search.ts";
import { studyData } from "../../src/server/kinds/binary/data.ts";
import { replayElicitation } from "../../src/server/participant/elicitation.ts";
import { displayFrame } from "../../src/server/participant/views.ts";
import type { StudySpec } from "../../src/server/study/config.ts";
import { GENERAL_BINARY_CONSENT } from "../../src/server/study/general-texts.ts";
import { cancerDiagnosisConfig, GENERAL_CONSENT } from "../../src/server/study/template.ts";
import { elicitationProgress } from "../../web/src/participant/progress.ts";

/**
 * Issue 11 (smaller defects): the progress line said "about 1 more" and then Part 3 started.
 * The count of questions left was an estimate that can fall short or run over (lazy and
 * skipped pairs end a halving sooner; a tie makes one ask all four comparisons and a fifth), so
 * the page now says "at most N more" from a true upper bound and its bar shows the exact share
 * of the search done. These tests fail on the old line and on a bound that is not one.
 */
const config = cancerDiagnosisConfig();
const pool = studyData("progress-test", config).pool;
const frame = displayFrame(100, pool.zeta);

/** Replay a simulated participant with metric a0 TN + (1 - a0) TP; every pending replay. */
function run(spec: StudySpec, a0: number) {
  const answers: Answer[] = [];
  const shown: ReturnType<typeof replayElicitation>[] = [];
  for (;;) {
    const r = replayElicitation(spec, pool, answers, { configHash: "x", seed: 1 }, frame);
    if (r.state.status === "done") return shown;
    shown.push(r);
    const q = r.state.question as { first: BinaryPoint; second: BinaryPoint };
    const u = (p: BinaryPoint) => a0 * p.confusion.tn + (1 - a0) * p.confusion.tp;
    const d = u(q.first) - u(q.second);
    answers.push(d > 0 ? "first" : d < 0 ? "second" : "tie");
  }
}

/** What the server sends of a search's progress (no `atMost`: that is the adaptive budget). */
const bounds = (r: ReturnType<typeof replayElicitation>) => ({
  estimatedRemaining: r.estimatedRemaining,
  searchDone: r.searchDone,
  remainingAtMost: r.remainingAtMost,
});

describe("the elicitation progress line", () => {
  it("never promises more than come: 'at most' is a true bound, the bar an exact share (60 runs)", () => {
    const problems: string[] = [];
    let estimateShort = 0;
    let estimateOver = 0;
    for (const strategy of ["paper", "lazy", "bisect"] as const) {
      for (const family of ["binary-threshold", "binary-linear"] as const) {
        const halvings = halvingsNeeded(
          family === "binary-threshold" ? 1 : Math.PI / 2,
          config.spec.tolerance,
        );
        for (let k = 0; k < 10; k++) {
          const a0 = 0.05 + 0.09 * k;
          const spec = { ...config.spec, strategy, family } as StudySpec;
          const shown = run(spec, a0);
          const where = `${strategy} ${family} a0=${a0.toFixed(2)}`;
          let before = 0;
          shown.forEach((r, i) => {
            const left = shown.length - i; // this question included
            if (r.remainingAtMost === undefined || r.searchDone === undefined) {
              problems.push(`${where}: no bound or share`);
              return;
            }
            if (left > r.remainingAtMost)
              problems.push(`${where}: q${i} at most ${r.remainingAtMost} but ${left} came`);
            if (r.searchDone < before) problems.push(`${where}: q${i} bar goes back`);
            before = r.searchDone;
            if (Math.abs(r.searchDone * halvings - Math.round(r.searchDone * halvings)) > 1e-9)
              problems.push(`${where}: q${i} share ${r.searchDone} is not k / ${halvings}`);
            const line = elicitationProgress({ answered: i, ...bounds(r) }).text;
            if (/about/.test(line)) problems.push(`${where}: "${line}"`);
            if (left < r.estimatedRemaining) estimateOver++;
            if (left > r.estimatedRemaining) estimateShort++;
          });
          // The last question's line never promises another one after it... unless the
          // bound allows it ("at most N more" is true when none come).
          const last = shown[shown.length - 1]!;
          const text = elicitationProgress({ answered: shown.length - 1, ...bounds(last) }).text;
          if (!/at most|last question/.test(text)) problems.push(`${where}: last says "${text}"`);
        }
      }
    }
    expect(problems).toEqual([]);
    // Why not the estimate: on these runs it both overshoots and falls short.
    expect(estimateOver).toBeGreaterThan(0);
    expect(estimateShort).toBeGreaterThan(0);
  });

  it("words: at most N more, the last question, the adaptive budget, the old estimate only without either", () => {
    expect(
      elicitationProgress({
        answered: 3,
        estimatedRemaining: 7,
        remainingAtMost: 13,
        searchDone: 0.4,
      }),
    ).toEqual({ text: "Question 4 · at most 12 more after this one", value: 0.4 });
    expect(
      elicitationProgress({ answered: 9, estimatedRemaining: 1, remainingAtMost: 1 }).text,
    ).toBe("Question 10 · the last question of this part");
    expect(elicitationProgress({ answered: 3, estimatedRemaining: 27, atMost: 30 })).toEqual({
      text: "Question 4 of at most 30",
      value: 0.1,
    });
    expect(elicitationProgress({ answered: 3, estimatedRemaining: 7 }).text).toBe(
      "Question 4 · about 6 more after this one",
    );
  });
});

describe("the consent texts' count of comparisons", () => {
  it("the built-in study's is its own largest: the engine's budget, Phase III's pairs and repeats", () => {
    const spec = config.spec as { budget: number };
    const most = spec.budget + config.evaluationPairs + (config.retestPairs ?? 0);
    expect(config.consentText).toContain(`then up to ${most} comparisons of two systems`);
  });

  it("multiclass and fairness studies' names none (their budgets differ by kind)", () => {
    expect(GENERAL_CONSENT).not.toMatch(/up to \d+ comparisons/);
    expect(GENERAL_CONSENT).toContain("a series of comparisons of two systems");
  });

  // Nobody has timed a study: the built-in texts said "about 15 minutes" and "15 to 25
  // minutes" all the same. The create form asks for the time a pilot measured instead.
  it("none claims a time nobody measured", () => {
    for (const text of [config.consentText, GENERAL_CONSENT, GENERAL_BINARY_CONSENT]) {
      expect(text).not.toMatch(/minute|hour|takes about/i);
      expect(text).toContain("the pages count them as you go");
    }
  });
});
