import { describe, expect, it } from "vitest";
import type { BinaryPoint } from "../../src/elicit/binary/point.ts";
import { studyData } from "../../src/server/kinds/binary/data.ts";
import {
  agreementReport,
  evaluationPairs,
  isRetest,
  withRetests,
} from "../../src/server/participant/evaluation-pairs.ts";
import { displayFrame, shownCounts } from "../../src/server/participant/views.ts";
import { cancerDiagnosisConfig } from "../../src/server/study/template.ts";

/**
 * Issue 11 item 5: Phase III pairs as in the paper (random, seeded, never dominated nor
 * identical on screen) and the agreement M both ways with "about the same" kept. The old pairs
 * were drawn outside the participant's own tolerance band on alternate sides of the result,
 * so a participant agreed with every pair by construction; these tests fail on that.
 */
const config = cancerDiagnosisConfig();
const pool = studyData("evaluation-pairs-test", config).pool;
const frame = displayFrame(100, pool.zeta);
const SEEDS = Array.from({ length: 50 }, (_, i) => 1000 + i * 7919);

describe("evaluationPairs", () => {
  it("is seeded: the same seed gives the same pairs, another seed others", () => {
    const a = evaluationPairs(pool, 15, 42, frame);
    const b = evaluationPairs(pool, 15, 42, frame);
    const c = evaluationPairs(pool, 15, 43, frame);
    expect(a).toHaveLength(15);
    expect(b).toEqual(a);
    expect(c.map((p) => p.flip)).not.toEqual(a.map((p) => p.flip));
  });

  it("over 50 seeds: 15 trade-offs each as shown, none dominated, identical, trivial or repeated", () => {
    const problems: string[] = [];
    for (const seed of SEEDS) {
      const pairs = evaluationPairs(pool, 15, seed, frame);
      if (pairs.length !== 15) problems.push(`seed ${seed}: ${pairs.length} pairs`);
      const keys = new Set<string>();
      for (const [i, p] of pairs.entries()) {
        const f = shownCounts(p.first.confusion, frame);
        const s = shownCounts(p.second.confusion, frame);
        const where = `seed ${seed} pair ${i}`;
        // A trade-off as shown: one system shows more true positives, the other more true
        // negatives (so neither dominates and the two never look identical).
        if (!((f.tp - s.tp) * (f.tn - s.tn) < 0)) problems.push(`${where}: not a trade-off`);
        const exact =
          (p.first.confusion.tp - p.second.confusion.tp) *
          (p.first.confusion.tn - p.second.confusion.tn);
        if (!(exact < 0)) problems.push(`${where}: dominated behind the screen`);
        // "Everyone high risk" (no true negative shown) or "nobody high risk" (no true positive).
        for (const c of [f, s]) if (c.tp === 0 || c.tn === 0) problems.push(`${where}: trivial`);
        const key = [`${f.tp},${f.tn}`, `${s.tp},${s.tn}`].sort().join("|");
        if (keys.has(key)) problems.push(`${where}: repeated`);
        keys.add(key);
      }
    }
    expect(problems).toEqual([]);
  });

  it("does not avoid the participant's result: flip points fall on both sides and inside a tolerance band", () => {
    // The pairs do not depend on the participant's answers, so for a participant whose result
    // is a = 0.2 (tolerance 0.05) some pairs are close calls (flip within the band) and the
    // sides are not forced to alternate; the old construction left none inside the band.
    let inside = 0;
    let below = 0;
    let above = 0;
    let total = 0;
    for (const seed of SEEDS) {
      for (const p of evaluationPairs(pool, 15, seed, frame)) {
        total++;
        if (Math.abs(p.flip - 0.2) <= 0.05) inside++;
        else if (p.flip < 0.2) below++;
        else above++;
      }
    }
    expect(total).toBe(750);
    expect(inside).toBeGreaterThan(0);
    expect(below).toBeGreaterThan(0);
    expect(above).toBeGreaterThan(0);
    // The flip points spread over (0, 1), as random pairs should (not all near one value).
    const flips = SEEDS.flatMap((s) => evaluationPairs(pool, 15, s, frame).map((p) => p.flip));
    expect(Math.min(...flips)).toBeLessThan(0.1);
    expect(Math.max(...flips)).toBeGreaterThan(0.6);
  });
});

/** A stored Phase III row for a pair with the given counts (first - second differences). */
function row(
  first: { tp: number; tn: number },
  second: { tp: number; tn: number },
  answer: "first" | "second" | "tie",
) {
  const point = (c: { tp: number; tn: number }) =>
    JSON.stringify({ confusion: c, classifier: { threshold: 0.5 } } as unknown as BinaryPoint);
  return { answer, first_point: point(first), second_point: point(second) };
}

describe("agreementReport", () => {
  // The elicited metric a = 0.2: 0.8 TP + 0.2 TN; the result range a in [0.15, 0.25].
  const u = (c: { tp: number; tn: number }) => 0.8 * c.tp + 0.2 * c.tn;
  const range = { lo: 0.15, hi: 0.25 };
  // Pairs first = (0.3, 0.3), second = (0.3 - x, 0.3 + y): flip point x / (x + y).
  // Flip 0.05: every a in the range prefers the second (decided); the answer agrees.
  const decidedA = row({ tp: 0.3, tn: 0.3 }, { tp: 0.29, tn: 0.49 }, "second");
  // Flip 0.5: every a in the range prefers the first (decided); the answer agrees.
  const decidedB = row({ tp: 0.3, tn: 0.3 }, { tp: 0.2, tn: 0.4 }, "first");
  // Flip 0.22, inside the range (undecided); the elicited a = 0.2 prefers the first
  // (0.8 * 0.022 > 0.2 * 0.078).
  const undecided = row({ tp: 0.3, tn: 0.3 }, { tp: 0.278, tn: 0.378 }, "first");

  it("counts agreement over all pairs and over the pairs the range does not decide", () => {
    // Agrees on the two decided pairs, answers the close call against the elicited metric.
    const against = row({ tp: 0.3, tn: 0.3 }, { tp: 0.278, tn: 0.378 }, "second");
    const r = agreementReport(u, range, [decidedA, decidedB, against]);
    expect(r).toMatchObject({ pairs: 3, ties: 0, undecidedPairs: 1, undecidedTies: 0 });
    expect(r.all).toBeCloseTo(2 / 3, 12);
    expect(r.undecided).toBe(0);
  });

  it("keeps and reports 'about the same' answers instead of dropping them silently", () => {
    const tie = row({ tp: 0.3, tn: 0.3 }, { tp: 0.278, tn: 0.378 }, "tie");
    const r = agreementReport(u, range, [decidedA, tie, tie]);
    expect(r).toMatchObject({ pairs: 3, ties: 2, undecidedPairs: 2, undecidedTies: 2 });
    expect(r.all).toBe(1);
    expect(r.undecided).toBeNull();
    const allTies = agreementReport(u, range, [tie, tie]);
    expect(allTies).toMatchObject({ all: null, undecided: null, pairs: 2, ties: 2 });
  });

  it("a pair whose flip point is an end of the range is undecided (some metric of the range is indifferent)", () => {
    const atEnd = row({ tp: 0.3, tn: 0.3 }, { tp: 0.285, tn: 0.385 }, "first"); // flip 0.15
    // The elicited metric itself indifferent (flip exactly 0.2): counted apart, in neither M.
    const even = row({ tp: 0.3, tn: 0.3 }, { tp: 0.28, tn: 0.38 }, "first");
    expect(agreementReport(u, range, [even])).toMatchObject({ all: null, metricTies: 1 });
    expect(agreementReport(u, range, [atEnd]).undecidedPairs).toBe(1);
    expect(agreementReport(u, range, [undecided])).toMatchObject({ undecidedPairs: 1, all: 1 });
    expect(agreementReport(u, range, [decidedA, decidedB]).undecidedPairs).toBe(0);
  });

  it("a metric tie is an undecided pair even when the stated range lies beside the estimate", () => {
    // The range is rounded for display, so the reported a can sit just outside it: a = 0.2,
    // range [0.21, 0.25]. The pair with flip point 0.2 is a metric tie, yet every a of the
    // range prefers the second; it must still count among the undecided pairs, or the debrief
    // (undecided pairs - ties - metric ties) says "settled" while the CSV states a share (CI).
    const beside = { lo: 0.21, hi: 0.25 };
    const even = row({ tp: 0.3, tn: 0.3 }, { tp: 0.28, tn: 0.38 }, "first");
    const open = row({ tp: 0.3, tn: 0.3 }, { tp: 0.277, tn: 0.377 }, "first"); // flip 0.23
    const r = agreementReport(u, beside, [even, open]);
    expect(r).toMatchObject({ metricTies: 1, undecidedPairs: 2, undecided: 1 });
    expect(r.undecidedPairs - r.undecidedTies - r.metricTies).toBe(1);
  });
});

describe("withRetests", () => {
  const pairs = evaluationPairs(pool, 15, 42, frame);
  // Phase II rows: ids 101.., the third a tie.
  const phase2 = (["first", "second", "tie", "first", "second", "first"] as const).map(
    (answer, i) => ({
      id: 101 + i,
      answer,
    }),
  );
  it("repeats answered Phase II pairs, never the last one, spread through Phase III, never first", () => {
    for (const seed of SEEDS) {
      const all = withRetests(pairs, phase2, 2, seed);
      expect(all).toHaveLength(17);
      expect(all.filter((p) => !isRetest(p))).toEqual(pairs);
      const at = all.flatMap((p, i) => (isRetest(p) ? [{ i, p }] : []));
      expect(at).toHaveLength(2);
      for (const { i, p } of at) {
        expect(i).toBeGreaterThan(0);
        expect(p.retestOf).not.toBe(5); // the last Phase II question
        expect(p.retestOf).not.toBe(2); // answered "about the same"
        expect(p.rowId).toBe(101 + p.retestOf);
      }
      expect(at[0]!.p.retestOf).toBeLessThan(at[1]!.p.retestOf);
      expect(at[1]!.i - at[0]!.i).toBeGreaterThan(1);
      expect(withRetests(pairs, phase2, 2, seed)).toEqual(all);
    }
    // Not every seed repeats the same pairs.
    const chosen = new Set(
      SEEDS.map((s) => JSON.stringify(withRetests(pairs, phase2, 2, s).filter(isRetest))),
    );
    expect(chosen.size).toBeGreaterThan(3);
    // Fewer candidates than asked: as many as there are; none asked: the pairs unchanged.
    expect(withRetests(pairs, phase2.slice(0, 2), 3, 1).filter(isRetest)).toHaveLength(1);
    expect(withRetests(pairs, phase2, 0, 1)).toEqual(pairs);
  });
});
