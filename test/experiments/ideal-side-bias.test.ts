import { describe, expect, it } from "vitest";
import { peopleFairData } from "../../src/cli/commands/reproduce-people.ts";
import { idealSideBiasSearch } from "../../src/experiments/ideal-side-bias.ts";

describe("the searcher on lambda facing a side bias (src/experiments/ideal-side-bias.ts)", () => {
  const { data } = peopleFairData();
  const o = { data, questions: 25, trials: 6, target: 0.1, seed: "t" };

  it("told the person, pins lambda; what it believes changes its runs; a seed repeats itself", () => {
    const told = idealSideBiasSearch(o);
    expect(told.trials).toBe(6);
    expect(told.error.max).toBeLessThan(0.1);
    expect(idealSideBiasSearch({ ...o, kinds: [{}] })).toEqual(told);
    const probit = idealSideBiasSearch({ ...o, kinds: [{ sideBias: 0.5, nearBand: 0 }] });
    expect(probit.error).not.toEqual(told.error);
  });

  it("refuses no runs and no kind of person", () => {
    expect(() => idealSideBiasSearch({ ...o, trials: 0 })).toThrow(RangeError);
    expect(() => idealSideBiasSearch({ ...o, kinds: [] })).toThrow(/kind of person/);
    expect(() => idealSideBiasSearch({ ...o, kinds: [{ weight: 0 }] })).toThrow(/weight > 0/);
  });
});
