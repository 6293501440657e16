import { describe, expect, it } from "vitest";
import { isMissing, isNonFiniteNumber, parseNumber } from "../../src/data/cells.ts";
import { sortClassNames } from "../../src/data/classes.ts";

describe("isMissing", () => {
  it("recognises the missing-value tokens, trimmed and case-insensitively", () => {
    for (const v of ["", "  ", "NA", "na", "NaN", "nan", "?", "null", " NULL "]) {
      expect(isMissing(v)).toBe(true);
    }
    for (const v of ["0", "N/A?", "none", "-"]) expect(isMissing(v)).toBe(false);
  });
});

describe("parseNumber", () => {
  it("accepts decimal notation only", () => {
    expect(parseNumber(" 3.5 ")).toBe(3.5);
    expect(parseNumber("-1e3")).toBe(-1000);
    expect(parseNumber(".5")).toBe(0.5);
    expect(parseNumber("5.")).toBe(5);
    expect(parseNumber("+2")).toBe(2);
    for (const v of ["0x10", "Infinity", "1e999", "", "1,5", "abc", "1 2"]) {
      expect(parseNumber(v)).toBeNull();
    }
  });
});

describe("isNonFiniteNumber", () => {
  it("recognises overflowing decimals and infinities, not finite numbers or words", () => {
    for (const v of ["1e999", "-1e999", " 1e400 ", "Infinity", "-Infinity", "+inf", "INF"]) {
      expect(isNonFiniteNumber(v), v).toBe(true);
    }
    for (const v of ["1e308", "0", "-2.5", "abc", "", "info", "0x10", "NaN"]) {
      expect(isNonFiniteNumber(v), v).toBe(false);
    }
  });
});

describe("sortClassNames", () => {
  it("sorts numerically when all names are numbers, else by code units", () => {
    expect(sortClassNames(["10", "9", "2", "9"])).toEqual(["2", "9", "10"]);
    expect(sortClassNames(["1.0", "1", "-1"])).toEqual(["-1", "1", "1.0"]);
    expect(sortClassNames(["b", "a", "C", "10"])).toEqual(["10", "C", "a", "b"]);
  });
});
