import { h } from "preact";
import { render } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import {
  MulticlassComparisonView,
  multiclassDifferences,
} from "../../web/src/participant/MulticlassComparisonView.tsx";
import { formatMetric } from "../../web/src/researcher/metric.ts";
import { words } from "./fixtures.ts";

const classes = ["setosa", "versicolor", "virginica"];
const left = {
  counts: [
    [94, 6, 0],
    [4, 94, 2],
    [0, 52, 48],
  ],
  rates: [0.94, 0.94, 0.48],
};
const right = {
  counts: [
    [97, 0, 3],
    [14, 0, 86],
    [0, 0, 100],
  ],
  rates: [0.97, 0, 1],
};

describe("multiclass comparison view", () => {
  it("shows every true class as whole counts of 100 with the share right and the mistakes", () => {
    const html = render(
      h(MulticlassComparisonView, {
        words: { ...words, systemNoun: "system", question: "Which system would you rather use?" },
        question: { kind: "multiclass", id: 3, classes, left, right },
        stage: "Part 2 of 2: your preferences",
        progressText: "Question 4 of at most 25",
        progressValue: 0.12,
        busy: false,
        onChoose: () => {},
        canUndo: true,
        onUndo: () => {},
      }),
    );
    expect(html).toContain("94 of 100 right (94%)");
    expect(html).toContain("0 of 100 right (0%)");
    expect(html).toContain("Taken for “setosa”: 4, “virginica”: 2.");
    expect(html).toContain("None taken for another class.");
    expect(html).toContain('data-question-id="3"');
    expect(html.match(/class="mc-row"/g)).toHaveLength(6);
  });

  it("names the classes each system gets more right", () => {
    expect(multiclassDifferences(left, right, classes, "System")).toBe(
      "System A gets more right of “versicolor” (94 vs 0 of 100); System B gets more right of “setosa” (97 vs 94 of 100), “virginica” (100 vs 48 of 100).",
    );
    expect(multiclassDifferences(left, left, classes, "System")).toMatch(/same number right/);
  });

  it("the dashboard shows a multiclass participant's class weights", () => {
    expect(formatMetric({ weights: [0.4, 0.37, 0.23] })).toBe("class weights 0.400, 0.370, 0.230");
    expect(formatMetric({ a0: 0.203 })).toBe("0.797 TP + 0.203 TN");
  });
});
