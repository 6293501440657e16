import { describe, expect, it } from "vitest";
import {
  binaryMetricText,
  classWeightText,
  consistencyText,
  counted,
  fairWholeText,
  formatRange,
  formatSeconds,
  inWords,
  lambdaText,
  percent,
  undecidedText,
} from "../../src/report/text.ts";

describe("the report's numbers in words (the dashboard's wording)", () => {
  it("shares, lists and counts", () => {
    expect(percent(0.8666)).toBe("87%");
    expect(percent(null)).toBe("—");
    expect(inWords(["a", "b", "c"])).toBe("a, b and c");
    expect(inWords(["a"])).toBe("a");
    expect(counted(1, "test run")).toBe("1 test run");
    expect(counted(0, "test run")).toBe("0 test runs");
  });

  it("agreement on the pairs not decided in advance: none when the result decided them all", () => {
    expect(undecidedText({ undecided: 0.5, undecidedPairs: 4 })).toBe("50% of 4");
    // Every undecided pair answered "about the same": no M, but pairs there were.
    expect(undecidedText({ undecided: null, undecidedPairs: 3 })).toBe("— of 3");
    expect(undecidedText({ undecided: null, undecidedPairs: 0 })).toBe("none");
  });

  it("cost ratio ranges as the dashboard prints them", () => {
    expect(formatRange({ low: 3, high: 4.5 })).toBe("3–4.5");
    expect(formatRange({ low: 4, high: 4 })).toBe("about 4");
    expect(formatRange({ low: 12.4, high: null })).toBe("≥ 12");
    expect(formatRange(null)).toBe("—");
  });

  it("metrics: binary, per class, lambda and the whole fair metric", () => {
    expect(binaryMetricText({ a0: 0.2 })).toBe("0.800 TP + 0.200 TN");
    expect(binaryMetricText({ tp: 3, tn: 1 })).toBe("0.750 TP + 0.250 TN");
    expect(binaryMetricText(null)).toBe("—");
    expect(classWeightText(0.31, { low: 0.25, high: 0.38 })).toBe("31% (25–38%)");
    expect(classWeightText(0.31)).toBe("31%");
    expect(lambdaText({ lambda: 0.3, low: 0.2, high: 0.4 })).toBe("lambda 0.30 (0.20–0.40)");
    expect(
      fairWholeText({
        a: [0.46, 0.89],
        B: {
          "0-1": [
            [1.89, 0],
            [0, 0.64],
          ],
        },
      }),
    ).toBe("costs 0.46 / 0.89; gap weights 1.89 / 0.64");
    // The parts of the whole metric's error the engine left open, as a whole.
    const open = [
      { name: "a1", halfWidth: 0.12 },
      { name: "a", halfWidth: 0.15 },
      { name: "B", halfWidth: 0.5 },
    ];
    expect(
      fairWholeText(
        {
          a: [0.46, 0.89],
          B: {
            "0-1": [
              [1.89, 0],
              [0, 0.64],
            ],
          },
        },
        open,
      ),
    ).toBe("costs 0.46 ±0.12 / 0.89 (±0.15 in all); gap weights 1.89 / 0.64 (±0.50 in all)");
  });

  it("consistency and time", () => {
    const c = {
      errorRate: 0.067,
      errorLow: 0.015,
      errorHigh: 0.251,
      retestPairs: 2,
      retestSame: 2,
      coinLike: false,
    };
    expect(consistencyText(c)).toBe("7% (2%–25%); 2 of 2");
    expect(consistencyText({ ...c, retestPairs: 0, coinLike: true })).toBe(
      "7% (2%–25%); like a coin",
    );
    expect(consistencyText(null)).toBe("—");
    expect(consistencyText({ ...c, errorRate: null, coinP: 1, coinLike: true })).toBe(
      "—; 2 of 2; no choice made (every answer “about the same”), like a coin",
    );
    expect(consistencyText({ ...c, coinP: 0.125 })).toBe(
      "7% (2%–25%); 2 of 2; too few answers to tell from a coin",
    );
    expect(formatSeconds(75)).toBe("1 min 15 s");
    expect(formatSeconds(null)).toBe("—");
  });
});
