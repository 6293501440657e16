import { describe, expect, it } from "vitest";
import {
  kendallTau,
  minMaxRelevance,
  ndcg,
  rankByScore,
} from "../../src/experiments/ranking/measures.ts";

describe("ndcg (exponential gain)", () => {
  it("is 1 for the ideal order", () => {
    expect(ndcg([2, 1, 0], [0.9, 0.5, 0.1])).toBe(1);
    expect(ndcg([0, 0.5, 1], [1, 2, 3])).toBe(1);
  });
  it("matches hand-computed values", () => {
    // order [1, 0]: DCG = 0 + (2^1 - 1) / log2(3); ideal 1
    expect(ndcg([1, 0], [0, 1])).toBeCloseTo(1 / Math.log2(3), 12);
    // reversed [2, 1, 0]: DCG = 0 + 1 / log2 3 + 3 / 2; ideal 3 + 1 / log2 3
    const inv = 1 / Math.log2(3);
    expect(ndcg([2, 1, 0], [0, 1, 2])).toBeCloseTo((inv + 1.5) / (3 + inv), 12);
    // cutoff 1: only the top item counts
    expect(ndcg([2, 1, 0], [1, 2, 0], 1)).toBeCloseTo(1 / 3, 12);
  });
  it("is 1 when every relevance is 0 and rejects length mismatches", () => {
    expect(ndcg([0, 0], [1, 2])).toBe(1);
    expect(() => ndcg([1], [1, 2])).toThrow(RangeError);
  });
});

describe("kendallTau (tau-b)", () => {
  it("is +1 / -1 for equal / reversed orders", () => {
    expect(kendallTau([1, 2, 3], [10, 20, 30])).toBe(1);
    expect(kendallTau([1, 2, 3], [3, 2, 1])).toBe(-1);
  });
  it("matches hand-computed values, with ties", () => {
    // one discordant pair of six
    expect(kendallTau([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(4 / 6, 12);
    // x ties the last pair: C = 2, D = 0, n0 - n1 = 2, n0 - n2 = 3 (scipy: 0.8165)
    expect(kendallTau([1, 2, 2], [1, 2, 3])).toBeCloseTo(2 / Math.sqrt(6), 12);
  });
});

describe("helpers", () => {
  it("ranks by decreasing score, ties by index", () => {
    expect(rankByScore([0.1, 0.3, 0.3, 0.2])).toEqual([1, 2, 3, 0]);
  });
  it("min-max scales relevances", () => {
    expect(minMaxRelevance([1, 2, 3])).toEqual([0, 0.5, 1]);
    expect(minMaxRelevance([2, 2])).toEqual([0, 0]);
  });
});
