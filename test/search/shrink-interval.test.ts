import { describe, expect, it } from "vitest";
import type { Answer, QuestionDraft } from "../../src/search/question.ts";
import {
  isConsistent,
  type Sign,
  shrink,
  shrinkOutcome,
} from "../../src/search/shrink-interval.ts";
import { determinedOutcome, STRATEGIES } from "../../src/search/strategy.ts";
import { halvingsNeeded, searchUnimodal } from "../../src/search/unimodal-search.ts";

const allPatterns = (): Sign[][] => {
  const out: Sign[][] = [];
  for (let code = 0; code < 81; code++) {
    let c = code;
    const s: Sign[] = [];
    for (let i = 0; i < 4; i++) {
      s.push(([-1, 0, 1] as const)[c % 3]!);
      c = Math.floor(c / 3);
    }
    out.push(s);
  }
  return out;
};

describe("ShrinkInterval branches (paper's if/elseif chain)", () => {
  it("a > c: keep [a, d]", () => expect(shrinkOutcome([-1, -1, -1, -1])).toBe("left"));
  it("a < c > d: keep [a, d]", () => expect(shrinkOutcome([1, -1, -1, -1])).toBe("left"));
  it("c < d > e: keep [c, e]", () => expect(shrinkOutcome([1, 1, -1, -1])).toBe("middle"));
  it("d < e > b: keep [d, b]", () => expect(shrinkOutcome([1, 1, 1, -1])).toBe("right"));
  it("else (increasing): keep [d, b]", () => expect(shrinkOutcome([1, 1, 1, 1])).toBe("right"));
  it("intervals", () => {
    expect(shrink(0, 1, "left")).toEqual([0, 0.5]);
    expect(shrink(0, 1, "middle")).toEqual([0.25, 0.75]);
    expect(shrink(0, 1, "right")).toEqual([0.5, 1]);
  });
});

describe("out-of-order answers (default increasing order)", () => {
  it("a valley a > c < d is read as a < c < d", () => {
    expect(shrinkOutcome([-1, 1, -1, -1])).toBe("middle");
  });
  it("a valley late in the sequence pulls the peak right", () => {
    expect(shrinkOutcome([1, -1, 1, -1])).toBe("right");
    expect(shrinkOutcome([-1, -1, -1, 1])).toBe("right");
  });
  it("detects inconsistency", () => {
    expect(isConsistent([1, -1, 1, -1])).toBe(false);
    expect(isConsistent([1, 1, -1, -1])).toBe(true);
  });
});

describe("ties", () => {
  it("a tie on a rising plateau follows the rise (does not discard the optimum on the right)", () => {
    expect(shrinkOutcome([0, 1, 1, 1])).toBe("right");
  });
  it("a tie at the peak keeps both tied points and the side after them", () => {
    // c = d is the top: [c, e] contains both, and the gap up to e.
    expect(shrinkOutcome([1, 0, -1, -1])).toBe("middle");
  });
  it("a tie after a strict decrease follows the decrease", () => {
    expect(shrinkOutcome([-1, 0, -1, -1])).toBe("left");
    expect(shrinkOutcome([-1, 0, 0, 0])).toBe("left");
  });
  it("a trailing tie after a rise keeps the rise", () => {
    expect(shrinkOutcome([1, 1, 0, 0])).toBe("right");
  });
  it("all ties keep the middle half", () => {
    expect(shrinkOutcome([0, 0, 0, 0])).toBe("middle");
  });
});

describe("strategies", () => {
  const consistent = allPatterns().filter(isConsistent);

  function askedAndOutcome(strategy: keyof typeof STRATEGIES, signs: Sign[]) {
    const known: (Sign | undefined)[] = [undefined, undefined, undefined, undefined];
    let asked = 0;
    for (const i of STRATEGIES[strategy].order) {
      if (STRATEGIES[strategy].lazy && determinedOutcome(known) !== null) break;
      known[i] = signs[i];
      asked++;
    }
    return { asked, outcome: determinedOutcome(known) ?? shrinkOutcome(signs) };
  }

  it("lazy and bisect give the paper's interval on every consistent answer pattern", () => {
    for (const s of consistent) {
      expect(askedAndOutcome("lazy", s).outcome).toBe(shrinkOutcome(s));
      expect(askedAndOutcome("bisect", s).outcome).toBe(shrinkOutcome(s));
    }
  });
  it("lazy asks at most 3 questions and bisect at most 2 on strict consistent answers", () => {
    const strict = consistent.filter((s) => !s.includes(0));
    for (const s of strict) {
      expect(askedAndOutcome("lazy", s).asked).toBeLessThanOrEqual(3);
      expect(askedAndOutcome("bisect", s).asked).toBeLessThanOrEqual(2);
    }
  });
  it("keeps asking once the known answers contradict unimodality", () => {
    expect(determinedOutcome([-1, 1, undefined, undefined])).toBeNull();
    expect(determinedOutcome([-1, 1, -1, -1])).toBe("middle");
  });
});

describe("searchUnimodal", () => {
  it("counts halvings as ceil(log2(range/eps))", () => {
    expect(halvingsNeeded(Math.PI / 2, 0.02)).toBe(7);
    expect(halvingsNeeded(Math.PI / 2, 0.01)).toBe(8);
    expect(halvingsNeeded(1, 0.05)).toBe(5);
    expect(halvingsNeeded(1, 0.25)).toBe(2);
  });
  it("finds the peak of a unimodal function with every strategy", () => {
    for (const name of ["paper", "lazy", "bisect"] as const) {
      for (const peak of [0, 0.013, 0.3, 0.77, 1]) {
        const f = (t: number) => -Math.abs(t - peak);
        const ask = (q: QuestionDraft<number>): Answer =>
          f(q.first) > f(q.second) ? "first" : "second";
        const r = searchUnimodal(ask, {
          lo: 0,
          hi: 1,
          tolerance: 1e-3,
          strategy: STRATEGIES[name],
          sense: "max",
          stage: "t",
          pointAt: (t) => t,
        });
        expect(Math.abs(r.estimate - peak)).toBeLessThanOrEqual(1e-3 / 2 + 1e-12);
      }
    }
  });
  it("minimises with sense min", () => {
    const ask = (q: QuestionDraft<number>): Answer =>
      (q.first - 0.4) ** 2 > (q.second - 0.4) ** 2 ? "first" : "second";
    const r = searchUnimodal(ask, {
      lo: 0,
      hi: 1,
      tolerance: 1e-4,
      strategy: STRATEGIES.paper,
      sense: "min",
      stage: "t",
      pointAt: (t) => t,
    });
    expect(r.estimate).toBeCloseTo(0.4, 3);
  });
});
