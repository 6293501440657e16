import { describe, expect, it } from "vitest";
import { fitStandardizer } from "../../src/data/standardize.ts";

describe("fitStandardizer", () => {
  it("centres and scales by the population standard deviation", () => {
    const rows = [Float64Array.of(1, 10), Float64Array.of(2, 20), Float64Array.of(3, 60)];
    const s = fitStandardizer(rows);
    expect(Array.from(s.mean)).toEqual([2, 30]);
    expect(s.scale[0]).toBeCloseTo(Math.sqrt(2 / 3), 15);
    expect(s.scale[1]).toBeCloseTo(Math.sqrt(1400 / 3), 12);
    const z = s.transform(rows);
    for (let j = 0; j < 2; j++) {
      const col = z.map((r) => r[j]!);
      const m = col.reduce((a, b) => a + b, 0) / col.length;
      const v = col.reduce((a, b) => a + (b - m) ** 2, 0) / col.length;
      expect(m).toBeCloseTo(0, 14);
      expect(v).toBeCloseTo(1, 14);
    }
    // Inputs untouched.
    expect(Array.from(rows[0]!)).toEqual([1, 10]);
  });

  it("uses scale 1 for constant features, even when the mean would not be exact", () => {
    const rows = [Float64Array.of(0.1, 1), Float64Array.of(0.1, 2), Float64Array.of(0.1, 3)];
    const s = fitStandardizer(rows);
    expect(s.scale[0]).toBe(1);
    expect(s.mean[0]).toBe(0.1);
    expect(s.transform(rows).map((r) => r[0])).toEqual([0, 0, 0]);
  });

  it("applies the training statistics to new rows", () => {
    const s = fitStandardizer([Float64Array.of(0), Float64Array.of(2)]);
    expect(Array.from(s.transform([Float64Array.of(4)])[0]!)).toEqual([3]);
    expect(() => s.transform([Float64Array.of(1, 2)])).toThrow(RangeError);
    expect(() => fitStandardizer([])).toThrow(RangeError);
  });
});
