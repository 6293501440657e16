import { h } from "preact";
import { render } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import { outcomeWord, tradeOffLine } from "../../web/src/chart/format.ts";
import { ComparisonView } from "../../web/src/participant/ComparisonView.tsx";
import { FieldsForm } from "../../web/src/participant/FieldsForm.tsx";
import { A0Plot } from "../../web/src/researcher/A0Plot.tsx";
import { formatMetric, formatSeconds, tpWeight } from "../../web/src/researcher/metric.ts";
import { system, words } from "./fixtures.ts";

function page(busy = false, canUndo = true): string {
  return render(
    h(ComparisonView, {
      words,
      question: { id: 7, left: system(32, 3, 6, 59), right: system(20, 15, 2, 63) },
      stage: "Part 2 of 3: your preferences",
      progressText: "Question 4 · about 6 more after this one",
      progressValue: 0.4,
      busy,
      onChoose: () => undefined,
      canUndo,
      onUndo: () => undefined,
      fixedWidth: 520,
    }),
  );
}

describe("ComparisonView", () => {
  it("states the question, shows A left and B right, and offers three answers", () => {
    const html = page();
    expect(html).toContain("Which system would you rather your doctor used?");
    expect(html.indexOf("System A")).toBeLessThan(html.indexOf("System B"));
    expect(html).toContain(">I prefer A</button>");
    expect(html).toContain(">I prefer B</button>");
    expect(html).toContain(">They seem about the same</button>");
    expect(html).toContain('data-question-id="7"');
    expect(html.match(/<svg /g)).toHaveLength(2);
    // The left system's numbers are in the first chart, the right's in the second.
    expect(html.indexOf("32 of 35")).toBeLessThan(html.indexOf("20 of 35"));
  });

  it("announces a new pair and shows honest progress", () => {
    const html = page();
    expect(html).toMatch(/aria-live="polite"[^>]*>New pair shown: Question 4/);
    expect(html).toContain("about 6 more after this one");
    expect(html).toContain("<progress");
  });

  it("disables the answer buttons while a submission is in flight", () => {
    const busy = page(true);
    for (const label of ["I prefer A", "I prefer B", "They seem about the same"]) {
      expect(busy).toMatch(new RegExp(`<button[^>]*disabled[^>]*>${label}</button>`));
    }
    const idle = page(false);
    expect(idle).not.toMatch(/<button[^>]*disabled[^>]*>I prefer A<\/button>/);
  });

  it("offers undo only when there is something to undo", () => {
    expect(page(false, false)).toMatch(/<button[^>]*disabled[^>]*>Undo last answer<\/button>/);
    expect(page(false, true)).not.toMatch(/<button[^>]*disabled[^>]*>Undo last answer<\/button>/);
  });
});

describe("FieldsForm", () => {
  it("renders single-choice fields as required radio groups", () => {
    const html = render(
      h(FieldsForm, {
        fields: [
          {
            id: "age",
            label: "Your age",
            kind: "single",
            options: ["18-24", "25-34"],
            required: true,
          },
          { id: "how", label: "How did you decide?", kind: "text", required: false },
        ],
        submitLabel: "Continue",
        busy: false,
        onSubmit: () => undefined,
        longText: true,
      }),
    );
    expect(html).toContain("<fieldset><legend>Your age");
    expect(html.match(/type="radio" name="age"/g)).toHaveLength(2);
    expect(html).toMatch(/type="radio" name="age" value="18-24" required/);
    expect(html).toContain("<textarea");
  });
});

describe("researcher dashboard pieces", () => {
  it("reads metrics in either form", () => {
    // The threshold family's a0 weighs true NEGATIVES: a0 TN + (1 - a0) TP.
    expect(tpWeight({ a0: 0.125 })).toBe(0.875);
    expect(tpWeight({ tp: 7, tn: 1 })).toBe(0.875);
    expect(tpWeight(null)).toBeNull();
    expect(formatMetric({ a0: 0.203 })).toBe("0.797 TP + 0.203 TN");
    expect(formatMetric({ tp: 0.6, tn: 0.8 })).toBe("0.429 TP + 0.571 TN");
    expect(formatSeconds(125)).toBe("2 min 5 s");
  });

  it("plots one dot per participant with a text alternative", () => {
    const html = render(
      h(A0Plot, {
        points: [
          { id: "1", a0: 0.8, test: false },
          { id: "2", a0: 0.8, test: true },
          { id: "3", a0: 0.3, test: false },
        ],
      }),
    );
    expect(html.match(/<circle/g)).toHaveLength(3);
    expect(html).toContain('<title id="a0-title">');
    expect(html).toContain("0.80, 0.80, 0.30");
    // Equal values are stacked, not drawn on top of each other.
    const cys = [...html.matchAll(/cy="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(new Set(cys).size).toBe(2);
  });
});

describe("the trade-off line (issue 11)", () => {
  it("states the pair's trade-off in one plain line under the charts, in the study's words", () => {
    const html = page();
    expect(html).toContain(
      '<p class="trade-off" data-testid="trade-off">B: 12 more missed cancers and 4 fewer false alarms than A, per 100 patients.</p>',
    );
    // after both charts, before the "about the same" answer
    expect(html.indexOf('class="trade-off"')).toBeGreaterThan(html.lastIndexOf("</svg>"));
    expect(html.indexOf('class="trade-off"')).toBeLessThan(
      html.indexOf("They seem about the same"),
    );
    // and announced with the new pair
    expect(html).toMatch(/aria-live="polite"[^>]*>New pair shown:[^<]*B: 12 more missed cancers/);
  });

  it("says 'the same number', makes one person singular, and uses the study's population", () => {
    const loans = { ...words, missed: "missed defaults", falseAlarm: "refused good loans" };
    expect(tradeOffLine(system(32, 3, 6, 59), system(32, 3, 5, 60), loans)).toBe(
      "B: the same number of missed defaults and 1 fewer refused good loan than A, per 100 patients.",
    );
    expect(tradeOffLine(system(30, 5, 6, 59), system(31, 4, 9, 56), words)).toBe(
      "B: 1 fewer missed cancer and 3 more false alarms than A, per 100 patients.",
    );
    expect(tradeOffLine(system(60, 10, 10, 120), system(50, 20, 4, 126), words)).toBe(
      "B: 10 more missed cancers and 6 fewer false alarms than A, per 200 patients.",
    );
    expect(outcomeWord("missed diagnoses", 1)).toBe("missed diagnoses");
    expect(outcomeWord("false alarms", 1)).toBe("false alarm");
    expect(outcomeWord("false alarms", 2)).toBe("false alarms");
    expect(outcomeWord("errors of class", 1)).toBe("errors of class");
  });
});
