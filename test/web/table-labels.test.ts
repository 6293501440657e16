import { h } from "preact";
import { render } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import { DEFAULT_PAGE_LABELS } from "../../src/server/study/page-label-defaults.ts";
import { CompactCounts } from "../../web/src/chart/CompactCounts.tsx";
import { FlowChart } from "../../web/src/chart/FlowChart.tsx";
import { tradeOffLine } from "../../web/src/chart/format.ts";
import { system, words } from "./fixtures.ts";

/**
 * Issue 11 item 3: the tables of counts spoke fixed English ("True class", "Actually ...",
 * "outcomes out of") on every study. They now read the study's page labels.
 */
describe("the tables of counts in the study's words", () => {
  const sys = system(31, 3, 7, 59);
  const own = {
    ...DEFAULT_PAGE_LABELS,
    tableCaption: "{name}: uitkomsten van {people}",
    tableTrueClass: "Werkelijke klasse",
    tableTotal: "Totaal",
    tableActually: "Werkelijk {class}",
    tableCell: "{n} ({percent} van {of})",
    compactClass: "{n} werkelijk {class}",
  };

  it("the chart's table: caption, headings, rows and cells from the labels", () => {
    const html = render(
      h(FlowChart, { system: sys, words, name: "Systeem A", id: "a", width: 560, labels: own }),
    );
    expect(html).toContain("Systeem A: uitkomsten van 100 patients");
    expect(html).toContain("Werkelijke klasse");
    expect(html).toContain("Totaal");
    expect(html).toContain(`Werkelijk ${words.positive}`);
    expect(html).toContain("31 (91% van 34)");
    // (The chart's own boxes and its description are checked elsewhere; this is the table.)
    const table = html.slice(html.indexOf("<table"));
    expect(table).not.toMatch(/True class|Actually |outcomes out of| of 34\)/);
  });

  it("the phone's compact table too; without labels both keep the built-in wording", () => {
    const html = render(h(CompactCounts, { system: sys, words, name: "Systeem A", labels: own }));
    expect(html).toContain(`34 werkelijk ${words.positive}`);
    expect(html).toContain(`66 werkelijk ${words.negative}`);
    expect(html).not.toMatch(/actually|outcomes out of/);
    const plain = render(h(CompactCounts, { system: sys, words, name: "System A" }));
    expect(plain).toContain(`34 actually ${words.positive}`);
    const chart = render(h(FlowChart, { system: sys, words, name: "System A", id: "a" }));
    expect(chart).toContain("True class");
    expect(chart).toContain("31 (91% of 34)");
  });

  it("the chart's boxes, badges and screen-reader text, and the trade-off line", () => {
    const labels = {
      ...own,
      chartBadge: "{n} van {of} ({percent})",
      chartDescription: "{name} van {people}: {fn} {missed}, {fp} {falseAlarm}.",
      tradeOff: "{b} tegen {a}: {missed}, {falseAlarms} (per {people}).",
      tradeOffMore: "{n} meer {outcome}",
      tradeOffFewer: "{n} minder {outcome}",
      tradeOffSame: "evenveel {outcome}",
    };
    const html = render(
      h(FlowChart, { system: sys, words, name: "Systeem A", id: "a", width: 560, labels }),
    );
    const svg = html.slice(0, html.indexOf("<table"));
    expect(svg).toContain("31 van 34 (91%)");
    expect(svg).toContain(`Werkelijk`);
    expect(svg).toContain(`Systeem A van 100 patients: 3 ${words.missed}, 7 ${words.falseAlarm}.`);
    expect(svg).not.toMatch(/Actually| of 34 ·|out of/);
    const b = system(25, 9, 7, 59);
    expect(tradeOffLine(sys, b, words, ["A", "B"], labels)).toBe(
      `B tegen A: 6 meer ${words.missed}, evenveel ${words.falseAlarm} (per 100 patients).`,
    );
    expect(tradeOffLine(b, sys, words, ["A", "B"], labels)).toContain(`6 minder ${words.missed}`);
    // Without labels: the built-in wording, as before.
    expect(tradeOffLine(sys, b, words)).toBe(
      `B: 6 more ${words.missed} and the same number of ${words.falseAlarm} than A, per 100 patients.`,
    );
  });
});
