import { describe, expect, it } from "vitest";
import {
  type ErrorSummary,
  errorPlotSvg,
  errorSummary,
  escapeXml,
  niceAxis,
} from "../../src/experiments/error-plot.ts";
import {
  type FairReproduction,
  fairErrorSvg,
  formatFairReproduction,
  reproduceFair,
} from "../../src/experiments/reproduce-fair.ts";
import {
  type QuadraticReproduction,
  type QuadraticReproductionRow,
  quadraticErrorSvg,
} from "../../src/experiments/reproduce-quadratic.ts";

/** Tags open and close in order, attributes are quoted, `&` only starts an entity. */
const TAG = /<(\/?)([a-zA-Z]+)((?:\s+[a-zA-Z][\w:-]*="[^"<>]*")*)\s*(\/?)>/g;

function expectWellFormed(svg: string): void {
  expect(svg.startsWith("<svg ")).toBe(true);
  expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
  expect(svg).not.toMatch(/&(?!(amp|lt|gt|quot|apos);)/);
  const stack: string[] = [];
  for (const [, close, name, attrs, selfClose] of svg.matchAll(TAG)) {
    if (close) expect(stack.pop()).toBe(name);
    else if (!selfClose) stack.push(name!);
    expect(attrs).not.toMatch(/NaN|Infinity|undefined/);
  }
  expect(stack).toEqual([]);
  // Every '<' starts a tag the pattern above accepted.
  expect(count(svg, TAG)).toBe(count(svg, /</g));
}

const count = (svg: string, re: RegExp) => (svg.match(re) ?? []).length;
const boxes = (svg: string) => count(svg, /<rect class="box"/g);

const stats = (base: number): ErrorSummary => ({
  mean: base * 1.2,
  q25: base * 0.5,
  median: base,
  q75: base * 1.5,
  q90: base * 2,
  max: base * 3,
});

describe("errorSummary and the axis", () => {
  it("interpolates quartiles and keeps mean and max", () => {
    const s = errorSummary([4, 1, 3, 2]);
    expect(s).toEqual({ mean: 2.5, q25: 1.75, median: 2.5, q75: 3.25, q90: 3.7, max: 4 });
    expect(errorSummary([]).max).toBeNaN();
  });

  it("picks 1-2-2.5-5 steps with at most four intervals covering the maximum", () => {
    const a = niceAxis(0.0231);
    expect(a.step).toBeCloseTo(0.01, 12);
    expect(a.top).toBeCloseTo(0.03, 12);
    expect(niceAxis(0.9).step).toBeCloseTo(0.25, 12);
    for (const max of [1e-6, 0.00123, 0.0231, 0.7, 1, 3.3, 42, 999]) {
      const { top, step } = niceAxis(max);
      expect(top).toBeGreaterThanOrEqual(max * (1 - 1e-12));
      expect(top / step).toBeLessThanOrEqual(4 + 1e-9);
      const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-12);
      expect([1, 2, 2.5, 5].some((f) => Math.abs(mantissa - f) < 1e-9)).toBe(true);
    }
  });

  it("escapes markup in labels", () => {
    expect(escapeXml(`a<b & "c" 'd'>`)).toBe("a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
  });
});

describe("errorPlotSvg", () => {
  it("draws one box per finite box, panels side by side, a legend per series", () => {
    const svg = errorPlotSvg({
      panels: ["P1 <x>", "P2 & y"].map((title) => ({
        title,
        groups: [2, 3, 4].map((m) => ({
          label: `m = ${m}`,
          boxes: [0, 1].map((series) => ({ series, stats: stats(0.01 * m + series) })),
        })),
      })),
      series: ["k = 2", "k = 3"],
      caption: ["first line", "second line"],
    });
    expectWellFormed(svg);
    expect(boxes(svg)).toBe(2 * 3 * 2);
    expect(svg).toContain('width="720"');
    expect(svg).toContain("P1 &lt;x&gt;");
    expect(svg).toContain("P2 &amp; y");
    expect(count(svg, />m = 3</g)).toBe(2);
    expect(count(svg, />k = 3</g)).toBe(1);
    expect(count(svg, /<polyline/g)).toBe(2 * 2);
    expect(svg).toContain("second line");
  });

  it("skips non-finite statistics instead of printing NaN", () => {
    const nan = { mean: Number.NaN, q25: Number.NaN, median: Number.NaN, q75: Number.NaN };
    const svg = errorPlotSvg({
      panels: [
        {
          title: "t",
          groups: [
            { label: "a", boxes: [{ series: 0, stats: nan, reference: Number.NaN }] },
            { label: "b", boxes: [{ series: 0, stats: stats(2) }] },
          ],
        },
      ],
    });
    expectWellFormed(svg);
    expect(svg).not.toContain("NaN");
    expect(boxes(svg)).toBe(1);
    expect(svg).not.toContain("#d62728");
  });
});

function quadraticRow(k: number, strategy: "lazy" | "paper"): QuadraticReproductionRow {
  return {
    k,
    strategy,
    trials: 7,
    meanQueries: 100 * k,
    minQueries: 90 * k,
    maxQueries: 110 * k,
    boundQueries: 120 * k,
    paperQueries: undefined,
    errorA: stats(0.001 * k),
    errorB: stats(0.01 * k),
    warned: 0,
    meanErrorAClean: 0.001 * k,
    meanErrorBClean: 0.01 * k,
    reference: k === 2 ? { a: 0.002, B: 0.004 } : undefined,
  };
}

describe("Figure 4 (a-b): quadraticErrorSvg", () => {
  it("draws two panels with one box per k of the first strategy and the reference crosses", () => {
    const r: QuadraticReproduction = {
      setting: "paper",
      reconstruction: "ratios",
      tolerance: 0.01,
      rho: 0.2,
      varrho: 0.001,
      cycles: 3,
      rows: [2, 3, 4].flatMap((k) => [quadraticRow(k, "lazy"), quadraticRow(k, "paper")]),
    };
    const svg = quadraticErrorSvg(r);
    expectWellFormed(svg);
    expect(boxes(svg)).toBe(2 * 3);
    for (const k of [2, 3, 4]) expect(count(svg, new RegExp(`>k = ${k}<`, "g"))).toBe(2);
    expect(count(svg, /stroke="#d62728"/g)).toBe(2);
    expect(svg).toContain("(paper setting)");
    expect(svg).toContain("over 7 metrics");
  });
});

describe("Figure 4 (c-e): fairErrorSvg", () => {
  it("keeps the mean errors and adds quartile summaries per (k, m)", () => {
    const r = reproduceFair({ trials: 3, classes: [2], groups: [2, 3] });
    expect(r.rows).toHaveLength(2);
    for (const row of r.rows) {
      for (const e of ["a", "B", "lambda"] as const) {
        const s = row.errorSummary[e];
        expect(s.mean).toBeCloseTo(row.error[e], 12);
        expect(s.q25).toBeLessThanOrEqual(s.median);
        expect(s.median).toBeLessThanOrEqual(s.q75);
        expect(s.q75).toBeLessThanOrEqual(s.max);
      }
    }
    expect(formatFairReproduction(r)).toMatch(/err a +err B +err lambda/);
    // Every column is said, the paper's transposed reading of Table 1 first.
    expect(formatFairReproduction(r)).toContain("the printed table read transposed");
    expect(formatFairReproduction(r)).toMatch(/warned: runs whose recovery warned/);
    const svg = fairErrorSvg(r);
    expectWellFormed(svg);
    expect(boxes(svg)).toBe(3 * 2);
  });

  it("groups by m on the x axis with one box and legend entry per k", () => {
    const ks = [2, 3, 5];
    const ms = [2, 3, 4, 5];
    const r: FairReproduction = {
      strategy: "lazy",
      tolerance: 0.01,
      rho: 0.2,
      varrho: 0.001,
      rows: ms.flatMap((m) =>
        ks.map((k) => ({
          k,
          m,
          trials: 4,
          meanQueries: 1000,
          paperQueries: null,
          error: { a: 0.001, B: 0.1, lambda: 0.01 },
          errorSummary: { a: stats(0.001 * k), B: stats(0.1 * m), lambda: stats(0.01) },
          warnedTrials: 0,
        })),
      ),
    };
    const svg = fairErrorSvg(r);
    expectWellFormed(svg);
    expect(boxes(svg)).toBe(3 * ks.length * ms.length);
    for (const m of ms) expect(count(svg, new RegExp(`>m = ${m}<`, "g"))).toBe(3);
    for (const k of ks) expect(count(svg, new RegExp(`>k = ${k}<`, "g"))).toBe(1);
    expect(count(svg, /<polyline/g)).toBe(3 * ks.length);
    expect(svg).toContain("|λ - λ̂|");
    expect(svg).not.toContain("NaN");
  });
});
