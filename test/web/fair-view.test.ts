import { readFileSync } from "node:fs";
import { h } from "preact";
import { render } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import {
  averageRight,
  FairComparisonView,
  FairSystemTable,
  fairTradeOff,
  points,
  totalGap,
} from "../../web/src/participant/FairComparisonView.tsx";
import { A0Plot, LAMBDA_AXIS, lambdaOf, wrapWords } from "../../web/src/researcher/A0Plot.tsx";
import { fairWhole, formatMetric } from "../../web/src/researcher/metric.ts";
import { words } from "./fixtures.ts";

const groups = ["Black", "White"];
const classes = ["No", "Yes"];
// A: more right on average, larger gaps; B: fewer right, groups treated alike.
const left = {
  counts: [
    [60, 80],
    [75, 90],
  ],
  overall: [69.2, 87.8],
  gaps: [15, 10],
};
const right = {
  counts: [
    [66, 79],
    [68, 81],
  ],
  overall: [67.2, 80.6],
  gaps: [2, 2],
};

describe("fairness comparison view", () => {
  it("shows each group's correct counts of 100 per true answer, everyone's share and the gaps", () => {
    const html = render(
      h(FairComparisonView, {
        words: { ...words, systemNoun: "system", question: "Which system would you rather use?" },
        question: { kind: "fair", id: 5, groups, classes, left, right },
        stage: "Part 2 of 2: your preferences",
        progressText: "Question 6 of at most 25",
        progressValue: 0.2,
        busy: false,
        onChoose: () => {},
        canUndo: true,
        onUndo: () => {},
      }),
    );
    expect(html).toContain("True “No”");
    expect(html).toContain("60 of 100 right");
    expect(html).toContain("90 of 100 right");
    expect(html).toContain("69.2% right");
    // Every share with one decimal, a whole one too (the audit read "54%" beside "41.3%").
    const whole = render(
      h(FairSystemTable, {
        name: "System A",
        view: { ...left, overall: [54, 41.3] },
        groups,
        classes,
        compact: true,
      }),
    );
    expect(whole).toContain("54.0%");
    expect(whole).toContain("41.3%");
    expect(html).toContain("15 points");
    expect(html).toContain('data-question-id="5"');
    expect(html.match(/data-group="Black"/g)).toHaveLength(2);
    expect(html).toContain(
      "System A gets more right overall (79 vs 74 of 100, on average over the true answers); System B has the smaller gap between the groups on every true answer (4 vs 25 points in all).",
    );
  });

  it("states the trade-off from the numbers shown, both ways and when equal", () => {
    expect(averageRight(left)).toBe(78.5);
    expect(totalGap(right)).toBe(4);
    expect(fairTradeOff(right, left, "System", classes)).toBe(
      "System B gets more right overall (79 vs 74 of 100, on average over the true answers); System A has the smaller gap between the groups on every true answer (4 vs 25 points in all).",
    );
    expect(fairTradeOff(left, left, "System", classes)).toBe(
      "Both get about 79 of 100 right on average; the gaps between the groups are the same for both (25 points in all).",
    );
  });

  it("defect: gaps that differ both ways are said true answer by true answer, never as one sum", () => {
    // The audit's pair: gaps 18 and 6 against 21 and 1. Their sums (24 against 22) called B
    // "more alike", with B also more right: a dominated pair to read, though a metric that
    // squares the gaps finds B the less fair (18² + 6² = 360 < 21² + 1² = 442).
    const a = { counts: [[48, 48]], overall: [47, 49], gaps: [18, 6] };
    const b = { counts: [[51, 51]], overall: [50, 52], gaps: [21, 1] };
    const line = fairTradeOff(a, b, "System", classes);
    expect(line).toBe(
      "System B gets more right overall (51 vs 48 of 100, on average over the true answers); the gap between the groups is smaller for System A on true “No” (18 vs 21 points), and for System B on true “Yes” (1 vs 6 points).",
    );
    expect(line).not.toContain("more alike");
    // Three true answers, two of them one way.
    const three = ["a", "b", "c"];
    const c = { counts: [[1, 1, 1]], overall: [1, 1, 1], gaps: [1, 2, 9] };
    const d = { counts: [[1, 1, 1]], overall: [1, 1, 1], gaps: [3, 4, 5] };
    expect(fairTradeOff(c, d, "System", three)).toContain(
      "smaller for System A on true “a” (1 vs 3 points) and “b” (2 vs 4 points), and for System B on true “c” (5 vs 9 points)",
    );
  });

  it("defect: fairness sentences count whole people (no 56.5 of 100) and say 1 point, not 1 points", () => {
    // Averages of 56.5 and 52.6 right of 100: said as whole people.
    const a = { counts: [[56, 57]], overall: [56, 57], gaps: [1, 0] };
    const b = { counts: [[52, 53]], overall: [52.4, 52.8], gaps: [0, 0] };
    expect(averageRight(a)).toBe(56.5);
    expect(averageRight(b)).toBe(52.6);
    const line = fairTradeOff(a, b, "System", classes);
    expect(line).toBe(
      "System A gets more right overall (57 vs 53 of 100, on average over the true answers); System B has no larger gap between the groups on any true answer (0 vs 1 point in all).",
    );
    expect(line).not.toMatch(/\d\.\d/);
    // Averages that round alike are said as the same, not "A gets more right (57 vs 57)".
    const c = { counts: [[57, 56]], overall: [56.8, 56.4], gaps: [1, 0] };
    expect(fairTradeOff(a, c, "System", classes)).toBe(
      "Both get about 57 of 100 right on average; the gaps between the groups are the same for both (1 point in all).",
    );
    expect([points(0), points(1), points(2)]).toEqual(["0 points", "1 point", "2 points"]);
    // The table's gap cell: "1 point", "0 points".
    const html = render(
      h(FairComparisonView, {
        words: { ...words, systemNoun: "system", question: "Which system would you rather use?" },
        question: { kind: "fair", id: 1, groups: ["Female"], classes, left: a, right: b },
        stage: "Part 2 of 2: your preferences",
        progressText: "Question 2 of at most 25",
        progressValue: 0.1,
        busy: false,
        onChoose: () => {},
        canUndo: false,
        onUndo: () => {},
      }),
    );
    expect(html).toMatch(/<strong>1 point<\/strong>/);
    expect(html).not.toContain("1 points");
    expect(html).toMatch(/<strong>0 points<\/strong>/);
  });

  it("defect: on a phone (390 px) the fairness tables never break a word or a number mid-way", () => {
    const view = {
      counts: [
        [60, 80],
        [75, 90],
      ],
      overall: [26.8, 87.8],
      gaps: [15, 1],
    };
    const html = render(
      h(FairSystemTable, {
        name: "System A",
        view,
        groups: ["Female", "Male"],
        classes: ["denied", "approved"],
        compact: true,
      }),
    );
    // Names too long for the box scroll sideways inside it, reachable by keyboard.
    expect(html).toMatch(
      /^<section class="fair-table-scroll" tabindex="0" aria-label="System A, table"/,
    );
    // Every number cell is marked so it never wraps: "26.8%" stays whole.
    const cells = [...html.matchAll(/<td([^>]*)>/g)].map((m) => m[1]);
    expect(cells).toHaveLength(8);
    for (const attrs of cells) expect(attrs).toContain('class="fair-num"');
    expect(html).toContain("26.8%");
    // The style sheet: no rule of the fairness tables breaks inside a word, the numbers of
    // the phone's table do not wrap, and the box scrolls.
    const css = readFileSync(new URL("../../web/src/styles.css", import.meta.url), "utf8");
    const rules = [...css.replace(/\/\*[\s\S]*?\*\//g, "").matchAll(/([^{}]+)\{([^}]*)\}/g)].map(
      (m) => ({ selector: m[1]!.trim(), body: m[2]! }),
    );
    const fair = rules.filter((r) => /fair-table/.test(r.selector));
    expect(fair.length).toBeGreaterThan(3);
    for (const r of fair) {
      expect(r.body, r.selector).not.toMatch(/overflow-wrap:\s*(anywhere|break-word)/);
      expect(r.body, r.selector).not.toMatch(/word-break:\s*break-(all|word)/);
      expect(r.body, r.selector).not.toMatch(/table-layout:\s*fixed/);
    }
    const body = (sel: string) => rules.find((r) => r.selector === sel)?.body ?? "";
    expect(body("table.fair-table.compact td.fair-num")).toMatch(/white-space:\s*nowrap/);
    expect(body(".fair-table-scroll")).toMatch(/overflow-x:\s*auto/);
    // On a wide screen the table is not boxed (nothing to scroll there).
    const wide = render(
      h(FairSystemTable, {
        name: "A",
        view,
        groups: ["F", "M"],
        classes: ["d", "a"],
        compact: false,
      }),
    );
    expect(wide).toMatch(/^<table class="fair-table">/);
  });

  it("the dashboard shows a fairness participant's lambda with its range", () => {
    expect(formatMetric({ lambda: 0.6234, low: 0.58, high: 0.67 })).toBe("lambda 0.62 (0.58–0.67)");
  });

  it("the dashboard plots the distribution of lambda across participants", () => {
    expect(lambdaOf({ lambda: 0.62, low: 0.58, high: 0.66 })).toBe(0.62);
    expect(lambdaOf({ tp: 0.6, tn: 0.8 })).toBeNull();
    const html = render(
      h(A0Plot, {
        points: [
          { id: "3", a0: 0.62, test: false },
          { id: "4", a0: 0.3, test: true },
        ],
        axis: LAMBDA_AXIS,
      }),
    );
    expect(html).toContain("Elicited trade-off lambda for 2 participants: 0.62, 0.30.");
    expect(html).toContain(
      "trade-off lambda: 0 only accuracy, 1 only equal treatment of the groups",
    );
    expect(html).toContain("Participant 4: lambda 0.30 (test run)");
    expect(html.match(/<circle/g)).toHaveLength(2);
    // On a phone's width the label wraps to lines that fit (it ran off both sides).
    const narrow = render(
      h(A0Plot, { points: [{ id: "3", a0: 0.62, test: false }], axis: LAMBDA_AXIS, width: 340 }),
    );
    const lines = [...narrow.matchAll(/<tspan[^>]*>([^<]*)<\/tspan>/g)].map((m) => m[1]!);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join(" ")).toBe(LAMBDA_AXIS.label);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(Math.floor((340 - 48) / 7.7));
  });

  it("wraps words to lines of at most the given length", () => {
    expect(wrapWords("a bb ccc", 4)).toEqual(["a bb", "ccc"]);
    expect(wrapWords("overlong word", 4)).toEqual(["overlong", "word"]);
    expect(wrapWords("fits on one", 20)).toEqual(["fits on one"]);
  });
});

describe("a whole fair metric on the dashboard", () => {
  const row = {
    lambda: 0.576,
    low: 0.47,
    high: 0.68,
    a: [0.46, 0.888],
    B: {
      "0-1": [
        [1.893, 0.041],
        [0.041, 0.639],
      ],
    },
  };
  it("lambda with its range, then the costs and the gap weights, open ones with their ±", () => {
    expect(formatMetric(row)).toBe(
      "lambda 0.58 (0.47–0.68); costs 0.46 / 0.89; gap weights 1.89 / 0.64",
    );
    expect(
      formatMetric(row, [
        { name: "a1", halfWidth: 0.12 },
        { name: "B12_22", halfWidth: 0.387 },
        { name: "B12_12", halfWidth: 0.193 },
      ]),
    ).toBe("lambda 0.58 (0.47–0.68); costs 0.46 ±0.12 / 0.89; gap weights 1.89 / 0.64 ±0.39");
  });
  it("three groups: each class's gap weight sums its diagonal over the pairs, and so do the ±", () => {
    const three = {
      lambda: 0.4,
      low: 0.3,
      high: 0.5,
      a: [0.6, 0.8],
      B: {
        "0-1": [
          [0.5, 0],
          [0, 0.2],
        ],
        "0-2": [
          [0.25, 0],
          [0, 0.1],
        ],
        "1-2": [
          [0.125, 0],
          [0, 0.3],
        ],
      },
    };
    expect(formatMetric(three)).toBe(
      "lambda 0.40 (0.30–0.50); costs 0.60 / 0.80; gap weights 0.88 / 0.60",
    );
    // B13_11 and B23_11 are class 1's; B12_12 is off the diagonal and counts for no gap.
    expect(
      formatMetric(three, [
        { name: "B13_11", halfWidth: 0.1 },
        { name: "B23_11", halfWidth: 0.05 },
        { name: "B12_12", halfWidth: 0.3 },
        { name: "a2", halfWidth: 0.111 },
      ]),
    ).toBe("lambda 0.40 (0.30–0.50); costs 0.60 / 0.80 ±0.11; gap weights 0.88 ±0.15 / 0.60");
  });
  it("a lambda-only row stays as it was", () => {
    expect(formatMetric({ lambda: 0.3, low: 0.25, high: 0.35 })).toBe("lambda 0.30 (0.25–0.35)");
    expect(fairWhole({ lambda: 0.3, low: 0.25, high: 0.35 })).toBeNull();
  });
});
