import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DataError } from "../../src/data/errors.ts";
import {
  formatMulticlassPredictions,
  formatPredictions,
  parseMulticlassPredictions,
  parsePredictions,
} from "../../src/data/predictions.ts";
import { errorOf } from "./data-error.ts";

describe("parsePredictions", () => {
  it("reads 0/1 labels and reports ignored columns", () => {
    const parsed = parsePredictions("id,label,probability,model\na,1,0.8,x\nb,0,0.25,x\n");
    expect(Array.from(parsed.labels)).toEqual([1, 0]);
    expect(Array.from(parsed.probabilities)).toEqual([0.8, 0.25]);
    expect(parsed.positiveLabel).toBe("1");
    expect(parsed.negativeLabel).toBe("0");
    expect(parsed.ignoredColumns).toEqual(["id", "model"]);
  });

  it("reads class names with a given positive class", () => {
    const text = "label,probability\nmalignant,0.9\nbenign,0.1\nbenign,0.3\n";
    const parsed = parsePredictions(text, { positive: "malignant" });
    expect(Array.from(parsed.labels)).toEqual([1, 0, 0]);
    expect(parsed.positiveLabel).toBe("malignant");
    expect(parsed.negativeLabel).toBe("benign");
    expect(parsed.ignoredColumns).toEqual([]);
  });

  it("rejects missing columns", () => {
    expect(() => parsePredictions("label,score\n1,0.5\n0,0.5\n")).toThrow(
      /needs the columns label, probability; found: label, score/,
    );
  });

  it("rejects a probability that is not a number or outside [0, 1], naming the line", () => {
    const nan = errorOf(() => parsePredictions("label,probability\n1,0.5\n0,high\n"));
    expect(nan.message).toBe('line 3: probability "high" is not a number');
    expect(nan.line).toBe(3);
    expect(() => parsePredictions("label,probability\n1,1.5\n0,0.5\n")).toThrow(
      /line 2: probability 1.5 is outside \[0, 1\]/,
    );
    expect(() => parsePredictions("label,probability\n1,-0.1\n0,0.5\n")).toThrow(/line 2/);
    expect(() => parsePredictions("label,probability\n1,\n0,0.5\n")).toThrow(/line 2/);
  });

  it("rejects labels other than 0/1 without a positive class, and missing labels", () => {
    expect(() => parsePredictions("label,probability\nyes,0.5\nno,0.5\n")).toThrow(
      /line 2: label "yes" is not 0 or 1/,
    );
    expect(() => parsePredictions("label,probability\n1,0.5\nNA,0.5\n")).toThrow(
      /line 3: label is missing/,
    );
  });

  it("rejects fewer than two rows and a single class", () => {
    expect(() => parsePredictions("label,probability\n1,0.5\n")).toThrow(/at least 2 rows/);
    expect(() => parsePredictions("label,probability\n")).toThrow(DataError);
    expect(() => parsePredictions("label,probability\n1,0.5\n1,0.7\n")).toThrow(/both classes/);
    expect(() => parsePredictions("label,probability\na,0.5\nb,0.7\n", { positive: "c" })).toThrow(
      /positive class "c" does not occur in the labels; they are: a, b/,
    );
  });
});

describe("formatPredictions", () => {
  it("writes class names and exact probabilities", () => {
    const text = formatPredictions({
      labels: Uint8Array.of(1, 0, 0),
      probabilities: Float64Array.of(0.1, 0.5, 1 / 3),
      positiveLabel: "yes, really",
      negativeLabel: "no",
    });
    expect(text).toBe(
      'label,probability\n"yes, really",0.10000000000000001\nno,0.5\nno,0.33333333333333331\n',
    );
  });

  it("round-trips any probabilities exactly", () => {
    const probability = fc.oneof(
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.constantFrom(0, 1, Number.MIN_VALUE, 1e-300, 1 - Number.EPSILON / 2),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), probability), { minLength: 2 }), (pairs) => {
        pairs[0]![0] = true;
        pairs[1]![0] = false;
        const labels = Uint8Array.from(pairs, ([l]) => (l ? 1 : 0));
        const probabilities = Float64Array.from(pairs, ([, p]) => p);
        const text = formatPredictions({
          labels,
          probabilities,
          positiveLabel: "pos",
          negativeLabel: "neg",
        });
        const parsed = parsePredictions(text, { positive: "pos" });
        expect(parsed.labels).toEqual(labels);
        expect(Array.from(parsed.probabilities)).toEqual(Array.from(probabilities));
      }),
    );
  });

  it("rejects a probability outside [0, 1]", () => {
    expect(() =>
      formatPredictions({
        labels: [1],
        probabilities: [Number.NaN],
        positiveLabel: "1",
        negativeLabel: "0",
      }),
    ).toThrow(RangeError);
  });
});

describe("multiclass predictions", () => {
  const text =
    "label,p_setosa,p_versicolor,p_virginica,note\nsetosa,0.8,0.15,0.05,a\nvirginica,0.1,0.2,0.7,b\n";

  it("parses labels against the p_<class> columns, in header order", () => {
    const parsed = parseMulticlassPredictions(text);
    expect(parsed.classNames).toEqual(["setosa", "versicolor", "virginica"]);
    expect(Array.from(parsed.labels)).toEqual([0, 2]);
    expect(parsed.probabilities.map((p) => Array.from(p))).toEqual([
      [0.8, 0.15, 0.05],
      [0.1, 0.2, 0.7],
    ]);
    expect(parsed.ignoredColumns).toEqual(["note"]);
  });

  it("round-trips exactly", () => {
    const probabilities = [Float64Array.of(0.1, 0.2, 0.7), Float64Array.of(1 / 3, 1 / 3, 1 / 3)];
    const classNames = ["a", "b,c", "d"];
    const out = formatMulticlassPredictions({ labels: [2, 1], probabilities, classNames });
    expect(out.split("\n")[0]).toBe('label,p_a,"p_b,c",p_d');
    const parsed = parseMulticlassPredictions(out);
    expect(parsed.classNames).toEqual(classNames);
    expect(Array.from(parsed.labels)).toEqual([2, 1]);
    expect(parsed.probabilities).toEqual(probabilities);
  });

  it("rejects rows that do not sum to one, naming the line", () => {
    const bad = "label,p_a,p_b\na,0.5,0.4\nb,0.5,0.5\n";
    expect(errorOf(() => parseMulticlassPredictions(bad)).message).toMatch(
      /^line 2: probabilities sum to 0.9/,
    );
    // Within 1e-6 is fine, and taken as it is.
    const close = parseMulticlassPredictions("label,p_a,p_b\na,0.5,0.5000001\nb,0,1\n");
    expect(Array.from(close.probabilities[0]!)).toEqual([0.5, 0.5000001]);
    expect(close.renormalised).toBe(0);
  });

  it("renormalises rows rounded to a few decimals (within 1e-3 of 1) and counts them", () => {
    // Written with 4 decimals: 0.0667 + 0.8667 + 0.0667 = 1.0001; 0.3333 * 3 = 0.9999.
    const text =
      "label,p_a,p_b,p_c\na,0.0667,0.8667,0.0667\nb,0.3333,0.3333,0.3333\nc,0.2,0.3,0.5\n";
    const p = parseMulticlassPredictions(text);
    expect(p.renormalised).toBe(2);
    for (const row of p.probabilities) {
      expect(Math.abs(row.reduce((s, x) => s + x, 0) - 1)).toBeLessThan(1e-12);
    }
    expect(p.probabilities[0]![1]).toBeCloseTo(0.8667 / 1.0001, 15);
    expect(Array.from(p.probabilities[2]!)).toEqual([0.2, 0.3, 0.5]);
    // Farther off is refused, saying the tolerance and what to do.
    const off = errorOf(() =>
      parseMulticlassPredictions("label,p_a,p_b,p_c\na,0.067,0.867,0.068\nc,0.2,0.3,0.5\n"),
    );
    expect(off.line).toBe(2);
    expect(off.message).toMatch(
      /^line 2: probabilities sum to 1\.00\d*, not 1: each row must sum to 1 within 0\.001 \(rows within it are renormalised\); if the probabilities were rounded, write them with more digits$/,
    );
  });

  it("rejects unknown labels, bad probabilities, too few classes, rows or labels", () => {
    expect(() => parseMulticlassPredictions("label,p_a,p_b\na,1,0\nc,0,1\n")).toThrow(
      /line 3: label "c" has no probability column \(classes: a, b\)/,
    );
    expect(() => parseMulticlassPredictions("label,p_a,p_b\na,x,0\nb,0,1\n")).toThrow(
      /line 2: p_a "x" is not a number/,
    );
    expect(() => parseMulticlassPredictions("label,p_a,p_b\na,1.5,-0.5\nb,0,1\n")).toThrow(
      /line 2: p_a 1.5 is outside/,
    );
    expect(() => parseMulticlassPredictions("label,p_a\na,1\na,1\n")).toThrow(/at least two/);
    expect(() => parseMulticlassPredictions("label,p_a,p_a\na,1,0\na,0,1\n")).toThrow(/twice/);
    expect(() => parseMulticlassPredictions("label,p_a,p_b\na,1,0\n")).toThrow(/at least 2 rows/);
    expect(() => parseMulticlassPredictions("label,p_a,p_b\na,1,0\na,0.5,0.5\n")).toThrow(
      /two classes/,
    );
    expect(() => parseMulticlassPredictions("p_a,p_b\n1,0\n0,1\n")).toThrow(/columns label/);
  });
});
