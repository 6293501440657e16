import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { REAL_POOL_CASES, sweepRealPool } from "../../src/experiments/real-pool-sweep.ts";
import { recordings } from "./recorded.ts";

const recorded = recordings(import.meta.url);

/**
 * Issue 10, "Real pools": on every bundled dataset, 50 random noise-free truths per family the
 * data supports; every run's error is within twice the tolerance or the result names the
 * parameters the pool cannot identify (no silent miss), and no run asks more than its budget.
 * The off-diagonal LPM on digits (k = 10, 90 weights) is left out: one run there takes minutes.
 * On glass (k = 6, 30 weights, sphere radius 0.002) every LPM run ends at its budget of 120 and
 * must say which weights it could not pin down; it runs the first 20 of its truths (a case's
 * truths do not depend on how many are drawn): each of its runs takes about ten seconds, and
 * 50 of them were more than half of this file's time, for a check that every run ends alike.
 */
const TRUTHS = 50;
const GLASS_LPM_TRUTHS = 20;

describe.each(REAL_POOL_CASES.map((c) => [`${c.dataset} ${c.family} ${c.pool ?? ""}`, c] as const))(
  "real pool: %s",
  (_, c) => {
    const truths = c.dataset === "glass" && c.family === "linear" ? GLASS_LPM_TRUTHS : TRUTHS;
    it(`${truths} truths: no silent miss, none over budget`, () => {
      const csv = readFileSync(
        fileURLToPath(new URL(`../../data/${c.dataset}.csv`, import.meta.url)),
        "utf8",
      );
      const s = recorded("sweepRealPool", { case: c, truths }, () => sweepRealPool(csv, c, truths));
      console.log(
        `${c.dataset} ${c.family} ${c.pool ?? ""}: max error ${s.maxError.toFixed(4)} (tolerance ${s.tolerance}), questions mean ${s.meanQuestions.toFixed(1)} max ${s.maxQuestions} (budget ${s.budget}); ok ${s.ok}, flagged ${s.flagged}, silent misses ${s.silentMisses}`,
      );
      expect(s.runs).toHaveLength(truths);
      expect(s.silentMisses).toBe(0);
      expect(s.overBudget).toBe(0);
    });
  },
);
