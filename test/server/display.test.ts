import { describe, expect, it } from "vitest";
import { binaryThresholdFamily } from "../../src/elicit/adaptive/families/binary.ts";
import { type BinaryPoint, thresholdPoint } from "../../src/elicit/binary/point.ts";
import { replay } from "../../src/elicit/session.ts";
import { createRng } from "../../src/math/rng.ts";
import type { Answer } from "../../src/search/question.ts";
import { studyData } from "../../src/server/kinds/binary/data.ts";
import {
  displayFrame,
  largestRemainder,
  shownCounts,
  shownKey,
  systemView,
  unlessIdenticalOnScreen,
} from "../../src/server/participant/views.ts";
import { sha256 } from "../../src/server/security/tokens.ts";
import { canonicalJson } from "../../src/server/study/config.ts";
import { cancerDiagnosisConfig } from "../../src/server/study/template.ts";

const config = cancerDiagnosisConfig();
const pool = studyData(sha256(canonicalJson(config)), config).pool;

describe("largest-remainder rounding", () => {
  it("rounds to whole numbers that sum exactly to the total", () => {
    expect(largestRemainder([34.38, 65.62], 100)).toEqual([34, 66]);
    expect(largestRemainder([0.3438, 0.6562], 100)).toEqual([34, 66]);
    expect(largestRemainder([1, 1, 1], 100)).toEqual([34, 33, 33]); // ties to the earlier
    expect(largestRemainder([0.5, 0.5], 3)).toEqual([2, 1]);
    expect(largestRemainder([0, 1], 100)).toEqual([0, 100]);
    expect(largestRemainder([2, 3], 0)).toEqual([0, 0]);
    const rng = createRng("largest-remainder");
    for (let i = 0; i < 500; i++) {
      const quotas = Array.from({ length: 1 + Math.floor(rng.next() * 6) }, () => rng.next());
      const total = Math.floor(rng.next() * 1000);
      const out = largestRemainder(quotas, total);
      const sum = quotas.reduce((s, q) => s + q, 0);
      expect(out.reduce((s, x) => s + x, 0)).toBe(total);
      out.forEach((x, j) => {
        expect(Number.isInteger(x)).toBe(true);
        // Hamilton: each within one of its exact share.
        expect(Math.abs(x - (quotas[j]! * total) / sum)).toBeLessThan(1);
      });
    }
  });

  it("refuses what it cannot round", () => {
    expect(() => largestRemainder([1, 2], 10.5)).toThrow(RangeError);
    expect(() => largestRemainder([0, 0], 10)).toThrow(RangeError);
    expect(() => largestRemainder([-1, 2], 10)).toThrow(RangeError);
    expect(() => largestRemainder([Number.NaN], 10)).toThrow(RangeError);
  });
});

describe("display frame", () => {
  it("fixes the class totals of a study from the pool's prevalence", () => {
    expect(displayFrame(100, pool.zeta)).toEqual({
      population: 100,
      positives: 34,
      negatives: 66,
      step: 0.01,
    });
    expect(displayFrame(1000, pool.zeta)).toMatchObject({ positives: 344, negatives: 656 });
    for (const zeta of [0, 0.005, 0.345, 0.5, 0.655, 0.999, 1]) {
      const f = displayFrame(100, zeta);
      expect(f.positives + f.negatives).toBe(100);
      expect(Math.abs(f.positives - 100 * zeta)).toBeLessThanOrEqual(0.5);
    }
    expect(() => displayFrame(0, 0.3)).toThrow(RangeError);
    expect(() => displayFrame(99.5, 0.3)).toThrow(RangeError);
  });

  it("has the built-in study's Phase I systems in the same totals as its comparisons", () => {
    const frame = displayFrame(100, pool.zeta);
    for (const sys of config.comprehension.systems) {
      expect(sys.tp + sys.fn).toBe(frame.positives);
      expect(sys.fp + sys.tn).toBe(frame.negatives);
    }
    expect(config.story.paragraphs[0]).toContain(`${frame.positives} of them actually have cancer`);
  });

  it("shows every point as whole patients that sum to the fixed totals", () => {
    const frame = displayFrame(100, pool.zeta);
    for (let t = 0; t <= 1; t += 0.001) {
      const p = thresholdPoint(pool, t, 1e-4);
      const s = shownCounts(p.confusion, frame);
      for (const k of ["tp", "fn", "fp", "tn"] as const) {
        expect(Number.isInteger(s[k])).toBe(true);
        expect(s[k]).toBeGreaterThanOrEqual(0);
      }
      expect(s.tp + s.fn).toBe(34);
      expect(s.tn + s.fp).toBe(66);
      // Within one patient of the class-conditional rate applied to the shown total.
      expect(Math.abs(s.tp - (p.confusion.tp / pool.zeta) * 34)).toBeLessThanOrEqual(1);
      expect(Math.abs(s.tn - (p.confusion.tn / (1 - pool.zeta)) * 66)).toBeLessThanOrEqual(1);
      const v = systemView(p, pool.zeta, frame);
      expect(v).toMatchObject(s);
      expect(v.tpr).toBeCloseTo(s.tp / 34, 4);
      expect(v.tnr).toBeCloseTo(s.tn / 66, 4);
    }
  });

  it("keeps a point that catches every positive at the class total (a share on a half)", () => {
    // 0.345 of 100 is 34.5: the totals are 35 / 65 and no count exceeds them.
    const frame = displayFrame(100, 0.345);
    expect(frame).toMatchObject({ positives: 35, negatives: 65 });
    expect(shownCounts({ tp: 0, tn: 0.655 }, frame)).toEqual({ tp: 0, fn: 35, fp: 0, tn: 65 });
    expect(shownCounts({ tp: 0.345, tn: 0 }, frame)).toEqual({ tp: 35, fn: 0, fp: 65, tn: 0 });
  });

  it("agrees with the adaptive engine's display key at the frame's step", () => {
    const frame = displayFrame(100, pool.zeta);
    const family = binaryThresholdFamily(pool, { displayStep: frame.step, grid: 1e-4 });
    const points: BinaryPoint[] = [];
    for (let t = 0; t <= 1; t += 0.0025) points.push(thresholdPoint(pool, t, 1e-4));
    let identical = 0;
    for (let i = 0; i < points.length; i++) {
      for (let j = i + 1; j < points.length; j += 7) {
        const screen = shownKey(points[i]!, frame) === shownKey(points[j]!, frame);
        const engine = family.displayKey(points[i]!) === family.displayKey(points[j]!);
        expect(screen).toBe(engine);
        if (screen) identical++;
      }
    }
    expect(identical).toBeGreaterThan(100);
  });

  it("keeps the one-decimal view of studies from before frames", () => {
    const p = thresholdPoint(pool, 0.3, 1e-4);
    const v = systemView(p, pool.zeta);
    expect(v.tp + v.fn).toBeCloseTo(34.4, 10);
    expect(v.tpr).toBeCloseTo(p.confusion.tp / pool.zeta, 4);
  });
});

describe("pairs identical on screen are never asked", () => {
  it("answers them 'tie' unseen and shows the rest", () => {
    const frame = displayFrame(100, pool.zeta);
    const a = thresholdPoint(pool, 0.2, 1e-4);
    const b = thresholdPoint(pool, 0.25, 1e-4); // differs from a by less than a patient
    const c = thresholdPoint(pool, 0.9, 1e-4);
    expect(a.confusion).not.toEqual(b.confusion);
    expect(shownKey(a, frame)).toBe(shownKey(b, frame));
    expect(shownKey(a, frame)).not.toBe(shownKey(c, frame));
    const heard: Answer[] = [];
    const procedure = unlessIdenticalOnScreen((ask) => {
      heard.push(ask({ stage: "s", first: a, second: b }));
      heard.push(ask({ stage: "s", first: a, second: c }));
      return heard.slice();
    }, frame);
    const pending = replay(procedure, []);
    expect(pending.status).toBe("pending");
    if (pending.status === "pending") {
      expect(pending.question).toMatchObject({ index: 0, first: a, second: c });
    }
    heard.length = 0;
    const done = replay(procedure, ["second"]);
    expect(done).toMatchObject({ status: "done", result: ["tie", "second"] });
    // A study without a frame asks both, as before.
    heard.length = 0;
    const legacy = unlessIdenticalOnScreen(
      (ask) => [ask({ stage: "s", first: a, second: b })],
      null,
    );
    expect(replay(legacy, [])).toMatchObject({ status: "pending", question: { index: 0 } });
  });
});
