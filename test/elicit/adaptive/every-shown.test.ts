import { describe, expect, it } from "vitest";
import {
  binaryStudyFamily,
  binaryStudyProcedure,
  STUDY_GRID_POINTS,
} from "../../../src/elicit/adaptive/binary-study.ts";
import {
  binaryLinearFamily,
  binaryThresholdFamily,
  everyShownPoint,
} from "../../../src/elicit/adaptive/families/binary.ts";
import { displayFrame, shownCounts } from "../../../src/elicit/binary/display.ts";
import type { BinaryPoint } from "../../../src/elicit/binary/point.ts";
import { runProcedure } from "../../../src/elicit/session.ts";
import { prepareStudyData } from "../../../src/server/kinds/binary/data.ts";
import { cancerDiagnosisConfig } from "../../../src/server/study/template.ts";

// Issue 26: whole people of 100 pin a person's trade-off only on pairs whose counts differ
// in the right ratio; a binary study offers its questions every threshold classifier as shown.

const pool = prepareStudyData(cancerDiagnosisConfig()).pool;
const frame = displayFrame(100, pool.zeta);

describe("every point as shown (binary studies)", () => {
  it("lists each threshold classifier once as shown, from all positive to all negative", () => {
    const points = everyShownPoint(pool, 1e-4, frame.step);
    const shown = points.map((p) => shownCounts(p.confusion, frame));
    const keys = new Set(shown.map((s) => `${s.tp},${s.tn}`));
    expect(keys.size).toBe(points.length);
    // Thresholds rise: fewer positives called, so TP falls and TN rises, one step at a time.
    for (let i = 1; i < shown.length; i++) {
      expect(shown[i]!.tp).toBeLessThanOrEqual(shown[i - 1]!.tp);
      expect(shown[i]!.tn).toBeGreaterThanOrEqual(shown[i - 1]!.tn);
    }
    expect(shown[0]).toMatchObject({ tp: frame.positives, tn: 0 });
    expect(shown.at(-1)).toMatchObject({ tp: 0, tn: frame.negatives });
    // More than the handful a belief's draws reach near a truth, fewer than the people shown
    // plus one (each step moves at least one person).
    expect(points.length).toBeGreaterThan(20);
    expect(points.length).toBeLessThanOrEqual(frame.population + 1);
  });

  it("is offered only when asked for", () => {
    const opts = { displayStep: frame.step, asShown: true };
    expect(binaryThresholdFamily(pool, opts).everyPoint).toBeUndefined();
    expect(binaryLinearFamily(pool, opts).everyPoint).toBeUndefined();
    const t = binaryThresholdFamily(pool, { ...opts, grid: 1e-4, everyShown: true });
    expect(t.everyPoint?.().length).toBe(everyShownPoint(pool, 1e-4, frame.step).length);
    expect(binaryLinearFamily(pool, { ...opts, everyShown: true }).everyPoint).toBeDefined();
    // A study stored before it (its spec without everyShown) replays as it ran.
    const older = { family: "binary-threshold" as const, displayStep: frame.step, grid: 1e-4 };
    expect(binaryStudyFamily(older, pool).everyPoint).toBeUndefined();
    expect(binaryStudyFamily({ ...older, everyShown: true }, pool).everyPoint).toBeDefined();
  });

  it("a careful person on the counts shown is pinned down, where the belief's own candidates gave up", () => {
    // A truth (the people panel's tuning truths, tune-1 trial 17) whose neighbours on screen
    // split at 1/2 and 3/5 only among the optimal points of belief draws.
    const a0 = 0.5530575633563046;
    const settings = {
      family: "binary-threshold" as const,
      tolerance: 0.05,
      budget: 30,
      credibility: 0.9,
      model: "learned-lean" as const,
      displayStep: frame.step,
      grid: 1e-4,
      gridPoints: STUDY_GRID_POINTS,
    };
    const value = (p: BinaryPoint) => {
      const s = shownCounts(p.confusion, frame);
      return a0 * s.tn + (1 - a0) * s.tp;
    };
    const run = (everyShown: boolean) =>
      runProcedure(
        binaryStudyProcedure({ ...settings, everyShown }, pool, 18),
        ({ first, second }) => {
          const d = value(first) - value(second);
          return d > 0 ? "first" : d < 0 ? "second" : "tie";
        },
      ).result;
    const before = run(false);
    expect(before.stop).toBe("no-informative-question");
    const now = run(true);
    expect(now.stop).toBe("tolerance");
    expect(now.credible.radius).toBeLessThanOrEqual(0.025);
    expect(Math.abs((now.metric as { a0: number }).a0 - a0)).toBeLessThanOrEqual(
      now.credible.radius,
    );
    expect(now.questions).toBeLessThanOrEqual(12);
  });
});
