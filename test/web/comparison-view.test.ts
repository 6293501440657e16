import { h } from "preact";
import { render } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
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
