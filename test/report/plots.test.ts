import { describe, expect, it } from "vitest";
import { barsSvg } from "../../src/report/plots/bars.ts";
import { type DotWhisker, dotWhiskerSvg } from "../../src/report/plots/dot-whisker.ts";
import { responsivePlot } from "../../src/report/plots/responsive.ts";
import { clip, wrapWords } from "../../src/report/plots/wrap.ts";

const plot: DotWhisker = {
  title: "Weight on <TP>",
  rows: [
    { label: "#1", value: 0.8, low: 0.7, high: 0.9, hollow: false, text: "participant 1: 0.80" },
    { label: "#2 test", value: 0.4, low: 0.4, high: 0.4, hollow: true, text: "participant 2" },
  ],
  axis: { min: 0, max: 1, label: "weight on true positives", format: (x) => x.toFixed(2) },
  consensus: { mean: 0.6, sd: 0.1 },
  references: [{ value: 0.5, label: "a coin" }],
  summary: "Weights.",
};

describe("the report's plots", () => {
  it("a dot-and-whisker plot: named and described, a row per participant, the consensus band", () => {
    const svg = dotWhiskerSvg(plot, 680, "p-w").value;
    expect(svg).toContain('role="img" aria-labelledby="p-w-title" aria-describedby="p-w-desc"');
    expect(svg).toContain('<title id="p-w-title">Weight on &lt;TP&gt;</title>');
    expect(svg).toContain("Weights. participant 1: 0.80; participant 2.");
    expect(svg.match(/<circle /g)?.length).toBe(2);
    // One whisker (three lines) for the row with a range, none for the other.
    expect(svg.match(/<line [^>]*stroke="#0067a3"/g)?.length).toBe(3);
    // The band from mean - sd to mean + sd: x from 110 + 0.5 * 548 to 110 + 0.7 * 548.
    expect(svg).toContain('<rect x="384" y="12" width="109.6"');
    expect(svg).toContain(">a coin</text>");
    expect(svg).toContain('fill="#ffffff"');
    // Every text is 14 px: the drawing's own size, nothing scaled.
    expect(svg).toContain('width="680"');
    expect(svg).toContain('font-size="14"');
  });

  it("bars with their labels above and their values, grouped", () => {
    const svg = barsSvg(
      [
        { label: "No", value: 0.63, group: "Everyone" },
        { label: "Yes", value: 0.62, group: "Everyone" },
        { label: "No", value: 0.64, group: "Black" },
      ],
      350,
      "b-n",
      "Shares right",
      "desc",
    ).value;
    expect(svg.match(/font-weight="700"/g)?.length).toBe(2);
    expect(svg).toContain(">63%</text>");
    expect(svg).toContain("<title>Black, No: 64% right</title>");
  });

  it("each plot twice, for a wide and a narrow screen, with ids kept apart", () => {
    const both = responsivePlot((w, s) => dotWhiskerSvg(plot, w, `p-${s}`)).value;
    expect(both).toContain('<div class="plot plot-wide"><svg');
    expect(both).toContain('id="p-w-title"');
    expect(both).toContain('<div class="plot plot-narrow"><svg');
    expect(both).toContain('id="p-n-title"');
    expect(both).toContain('width="350"');
  });

  it("wraps and clips text to a width", () => {
    expect(wrapWords("a bb ccc", 4)).toEqual(["a bb", "ccc"]);
    expect(clip("versicolor", 6)).toBe("versi…");
    expect(clip("iris", 6)).toBe("iris");
  });
});
