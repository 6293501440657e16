import { h } from "preact";
import { render } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import type { SystemView } from "../../web/src/api/types.ts";
import { describeSystem, FlowChart } from "../../web/src/chart/FlowChart.tsx";
import { countOfTotal, formatCount, formatPercent } from "../../web/src/chart/format.ts";
import { FONT_SIZE, flowLayout, PX_PER_PATIENT, wrap } from "../../web/src/chart/layout.ts";
import { system, words } from "./fixtures.ts";

const sys = system(32, 3, 6, 59);

function renderChart(s: SystemView, width = 560, showTable = false): string {
  return render(h(FlowChart, { system: s, words, name: "System A", id: "a", width, showTable }));
}

/** stroke-width of each arrow band in the rendered SVG, by outcome. */
function arrowWidths(html: string): Record<string, number> {
  const out: Record<string, number> = {};
  const re =
    /data-outcome="(tp|fn|fp|tn)" data-count="[^"]*"><path d="[^"]*" fill="none"[^>]*?stroke-width="([\d.]+)"/g;
  for (const m of html.matchAll(re)) out[m[1]!] = Number(m[2]);
  return out;
}

describe("format", () => {
  it("formats counts, fractions and rates", () => {
    expect(formatCount(32)).toBe("32");
    expect(formatCount(3.25)).toBe("3.3");
    expect(formatPercent(32 / 35)).toBe("91%");
    expect(countOfTotal(32, 35, 32 / 35)).toBe("32 of 35 · 91%");
  });
  it("wraps words to a line length", () => {
    expect(wrap("Actually did not have cancer", 10)).toEqual([
      "Actually",
      "did not",
      "have",
      "cancer",
    ]);
  });
});

describe("FlowChart", () => {
  it("draws arrow widths proportional to the counts", () => {
    const w = arrowWidths(renderChart(sys));
    expect(Object.keys(w).sort()).toEqual(["fn", "fp", "tn", "tp"]);
    expect(w.tp).toBeCloseTo(32 * PX_PER_PATIENT, 5);
    expect(w.fn).toBeCloseTo(3 * PX_PER_PATIENT, 5);
    expect(w.fp).toBeCloseTo(6 * PX_PER_PATIENT, 5);
    expect(w.tn).toBeCloseTo(59 * PX_PER_PATIENT, 5);
    // Ratios equal count ratios.
    expect(w.tn! / w.tp!).toBeCloseTo(59 / 32, 2);
  });

  it("says how many people the counts are out of, and scales the bands to that population", () => {
    const html = renderChart(system(64, 6, 12, 118), 560, true);
    expect(html).toContain("System A: outcomes out of 200 patients");
    expect(html).toContain("System A, out of 200 patients.");
    expect(renderChart(sys)).toContain("System A, out of 100 patients.");
    // 64 of 200 is as wide as 32 of 100.
    expect(arrowWidths(html).tp).toBeCloseTo(32 * PX_PER_PATIENT, 5);
  });

  it("uses the same scale for every system, so A and B compare", () => {
    const a = arrowWidths(renderChart(system(20, 15, 2, 63)));
    const b = arrowWidths(renderChart(system(34, 1, 30, 35), 380));
    expect(a.tp! / 20).toBeCloseTo(b.tp! / 34, 5);
    expect(a.fp! / 2).toBeCloseTo(b.fp! / 30, 5);
  });

  it("draws correct outcomes straight and errors as crossing curves", () => {
    const l = flowLayout(sys, words, 560);
    const by = Object.fromEntries(l.arrows.map((a) => [a.outcome, a]));
    expect(by.tp!.path).toMatch(/^M[\d. ]+L[\d. ]+$/);
    expect(by.tn!.path).toMatch(/^M[\d. ]+L[\d. ]+$/);
    expect(by.fn!.path).toContain("C");
    expect(by.fp!.path).toContain("C");
    // FN goes down (top-left to bottom-right), FP goes up: they cross.
    const ends = (p: string) => {
      const nums = p.match(/[\d.]+/g)!.map(Number);
      return { y0: nums[1]!, y1: nums[nums.length - 1]! };
    };
    expect(ends(by.fn!.path).y1).toBeGreaterThan(ends(by.fn!.path).y0);
    expect(ends(by.fp!.path).y1).toBeLessThan(ends(by.fp!.path).y0);
  });

  it("has a title, a description and the study's words", () => {
    const html = renderChart(sys);
    expect(html).toContain('<title id="a-title">System A</title>');
    expect(html).toMatch(/<desc id="a-desc">[^<]*32 \(91%\)/);
    expect(html).toContain('aria-labelledby="a-title"');
    expect(html).toContain('aria-describedby="a-desc"');
    expect(html).toContain("Actually had");
    expect(html).toContain("(35)");
    expect(html).toContain("(65)");
    expect(html).toContain("missed cancers");
    expect(html).toContain("false alarms");
    expect(html).toContain("32 of 35 · 91%");
    expect(html).toContain("3 of 35 · 9%");
    expect(html).toContain("6 of 65 · 9%");
    expect(html).toContain("59 of 65 · 91%");
  });

  it("has a table with the same numbers, hidden visually unless asked", () => {
    const html = renderChart(sys);
    expect(html).toContain('<div class="numbers-holder visually-hidden"><table class="numbers">');
    const cell = (o: string) => new RegExp(`<td data-outcome="${o}">([^<]*)</td>`).exec(html)![1]!;
    expect(cell("tp")).toBe("32 (91% of 35)");
    expect(cell("fn")).toBe("3 (9% of 35) — missed cancers");
    expect(cell("fp")).toBe("6 (9% of 65) — false alarms");
    expect(cell("tn")).toBe("59 (91% of 65)");
    for (const [o, n] of Object.entries({ tp: 32, fn: 3, fp: 6, tn: 59 })) {
      expect(Number.parseFloat(cell(o))).toBe(n);
      expect(arrowWidths(html)[o]! / PX_PER_PATIENT).toBeCloseTo(n, 5);
    }
    expect(renderChart(sys, 560, true)).toContain('<div class="numbers-holder"><table');
  });

  it("escapes study text", () => {
    const evil = { ...words, missed: "<script>alert(1)</script>" };
    const html = render(
      h(FlowChart, { system: sys, words: evil, name: "A&B", id: "x", width: 500 }),
    );
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script>");
    expect(html).toContain("A&amp;B");
  });

  it("never uses text under 14 px and lays out with pixel units", () => {
    const html = renderChart(sys, 600);
    const sizes = [...html.matchAll(/font-size="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(sizes.length).toBeGreaterThan(0);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(14);
    expect(FONT_SIZE).toBeGreaterThanOrEqual(14);
    expect(html).toContain('viewBox="0 0 600 ');
    expect(html).toContain('width="600"');
  });

  it("keeps the four arrow labels apart and inside the chart, wide and narrow", () => {
    const cases = [
      sys,
      system(35, 0, 0, 65),
      system(0, 35, 65, 0),
      system(17.5, 17.5, 32.5, 32.5),
      system(34.4, 0, 65.6, 0),
    ];
    // Every split of the built-in study's 34 / 66 people, in steps, too.
    for (let tp = 0; tp <= 34; tp += 2) {
      for (let tn = 0; tn <= 66; tn += 6) cases.push(system(tp, 34 - tp, 66 - tn, tn));
    }
    for (const s of cases) {
      // 300 px is the narrowest layout (a 320 px phone's chart): "missed cancers" wraps there.
      for (const width of [300, 320, 358, 560, 640]) {
        const l = flowLayout(s, words, width);
        const labels = l.arrows.map((a) => a.label);
        const boxW = l.boxes[0]!.width;
        for (const lab of labels) {
          // Between the boxes, not over them.
          expect(lab.x - lab.width / 2).toBeGreaterThanOrEqual(boxW);
          expect(lab.x + lab.width / 2).toBeLessThanOrEqual(l.width - boxW);
          expect(lab.x + lab.width / 2).toBeLessThanOrEqual(l.width);
          expect(lab.y - lab.height / 2).toBeGreaterThanOrEqual(0);
          expect(lab.y + lab.height / 2).toBeLessThanOrEqual(l.height);
        }
        for (let i = 0; i < labels.length; i++) {
          for (let j = i + 1; j < labels.length; j++) {
            const a = labels[i]!;
            const b = labels[j]!;
            const apartX = Math.abs(a.x - b.x) >= (a.width + b.width) / 2;
            const apartY = Math.abs(a.y - b.y) >= (a.height + b.height) / 2;
            expect(apartX || apartY, `labels ${i},${j} at width ${width}`).toBe(true);
          }
        }
      }
    }
  });

  it("describes the system in words", () => {
    expect(describeSystem("System A", sys, words)).toContain("Of 35 who actually had cancer");
  });
});
