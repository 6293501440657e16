import { describe, expect, it } from "vitest";
import {
  makePerson,
  normalCdf,
  PERSON_DEFAULTS,
  PERSON_TYPES,
  type Person,
  type PersonType,
} from "../../src/oracle/people.ts";
import type { Answer } from "../../src/search/question.ts";

// Statistical bounds: a rate p estimated from n independent answers has standard error
// sqrt(p (1 - p) / n); every bound below is at least 4 of those wide (fixed seeds).
function se(p: number, n: number): number {
  return Math.sqrt((p * (1 - p)) / n);
}

/** A person on plain numbers: the point is its own (displayed) utility. */
function numeric(type: PersonType, seed: number, extra: object = {}): Person<number> {
  return makePerson(type, { value: (x: number) => x, range: 1, seed, ...extra });
}

/**
 * Ask `n` questions `d` apart (the better point first on even questions, second on odd ones)
 * and return the share of answers that picked the worse point.
 */
function worseRate(person: Person<number>, d: number, n: number): number {
  let worse = 0;
  for (let i = 0; i < n; i++) {
    const betterFirst = i % 2 === 0;
    const [first, second] = betterFirst ? [0.5 + d, 0.5] : [0.5, 0.5 + d];
    const answer = person.ask({ stage: "test", first, second });
    if (answer === (betterFirst ? "second" : "first")) worse++;
  }
  return worse / n;
}

describe("normalCdf", () => {
  it("matches known values to 1e-6", () => {
    expect(Math.abs(normalCdf(0) - 0.5)).toBeLessThan(1e-6);
    expect(Math.abs(normalCdf(1) - 0.841344746)).toBeLessThan(1e-6);
    expect(Math.abs(normalCdf(-2) - 0.022750132)).toBeLessThan(1e-6);
    expect(Math.abs(normalCdf(1.959963985) - 0.975)).toBeLessThan(1e-6);
    expect(Math.abs(normalCdf(-3) - 0.001349898)).toBeLessThan(1e-6);
    // Beyond the rational range (|x| > 7.07): the continued fraction, still a tail probability.
    expect(normalCdf(-8)).toBeGreaterThan(6.2e-16);
    expect(normalCdf(-8)).toBeLessThan(6.3e-16);
  });
  it("is symmetric and monotone", () => {
    for (let x = -6; x <= 6; x += 0.25) {
      expect(Math.abs(normalCdf(x) + normalCdf(-x) - 1)).toBeLessThan(1e-12);
      expect(normalCdf(x + 0.01)).toBeGreaterThan(normalCdf(x));
    }
  });
});

describe("panel of people", () => {
  it("lists every type with its documented defaults", () => {
    expect(PERSON_TYPES).toHaveLength(10);
    for (const type of PERSON_TYPES) expect(PERSON_DEFAULTS[type]).toBeDefined();
    expect(PERSON_DEFAULTS.probit.sigma).toBe(0.05);
    expect(PERSON_DEFAULTS["side-bias"].sideBias).toBe(0.8);
    expect(() => makePerson("nobody" as PersonType, { value: Number, range: 1, seed: 1 })).toThrow(
      RangeError,
    );
    expect(() => makePerson("probit", { value: Number, range: 0, seed: 1 })).toThrow(RangeError);
    expect(() => makePerson("lapse", { value: Number, range: 1, seed: 1, lapse: 2 })).toThrow(
      RangeError,
    );
  });

  it("careful: answers on the displayed (rounded) values, not the unrounded ones", () => {
    // Rates in a population of 10; cost = missed + false alarms, as counts shown on screen.
    type Rates = { missed: number; falseAlarms: number };
    const shown = (p: Rates) => -(Math.round(10 * p.missed) + Math.round(10 * p.falseAlarms));
    const exact = (p: Rates) => -(10 * p.missed + 10 * p.falseAlarms);
    const a = { missed: 0.151, falseAlarms: 0.151 }; // shown 2 + 2 = 4; exact 3.02
    const b = { missed: 0.249, falseAlarms: 0.059 }; // shown 2 + 1 = 3; exact 3.08
    const c = { missed: 0.249, falseAlarms: 0.24 }; // shown 2 + 2 = 4; exact 4.89
    const onShown = makePerson("careful", { value: shown, range: 10, seed: 1 });
    const onExact = makePerson("careful", { value: exact, range: 10, seed: 1 });
    // Unrounded, a is better; as displayed, b is: the person follows the display.
    expect(onExact.ask({ stage: "t", first: a, second: b })).toBe("first");
    expect(onShown.ask({ stage: "t", first: a, second: b })).toBe("second");
    expect(onShown.ask({ stage: "t", first: b, second: a })).toBe("first");
    // Equal displayed cost (4 and 4) is a tie although the unrounded costs differ.
    expect(onShown.ask({ stage: "t", first: a, second: c })).toBe("tie");
    expect(onExact.ask({ stage: "t", first: a, second: c })).toBe("first");
    expect(onShown.count()).toBe(3);
    expect(onShown.log[2]).toMatchObject({ index: 2, values: [-4, -4], answer: "tie" });
  });

  it("careful: never errs, even on near pairs", () => {
    const person = numeric("careful", 2);
    expect(worseRate(person, 1e-6, 1000)).toBe(0);
    expect(person.log.every((e) => e.answer !== "tie")).toBe(true);
    expect(person.ask({ stage: "t", first: 0.3, second: 0.3 })).toBe("tie");
  });

  it("places the first point on the left about half the time", () => {
    // n = 4000, p = 0.5: se = 0.0079, bound 0.035 (4.4 se).
    const person = numeric("probit", 3);
    worseRate(person, 0.05, 4000);
    const leftFirst = person.log.filter((e) => e.left === "first").length / 4000;
    expect(Math.abs(leftFirst - 0.5)).toBeLessThan(0.035);
  });

  it("probit: picks the worse item at rate Phi(-d / (sigma * range))", () => {
    // range 2, sigma 0.05, d = 0.1 (one sigma * range): p = Phi(-1) = 0.1587.
    // n = 4000: se = 0.0058, bound 0.024 (4.1 se). At d = 0.2: p = Phi(-2) = 0.0228,
    // se = 0.0024, bound 0.01 (4.2 se). At d = 0.3, the tail that tells a probit from a
    // logistic of matched slope (1 / (1 + e^(1.7 * 3)) = 0.0061): p = Phi(-3) = 0.00135,
    // n = 8000: se = 0.00041, bound 0.0017 (4.1 se).
    const n = 4000;
    const person = makePerson("probit", { value: (x: number) => x, range: 2, seed: 4 });
    const p1 = normalCdf(-1);
    expect(Math.abs(worseRate(person, 0.1, n) - p1)).toBeLessThan(0.024);
    expect(4 * se(p1, n)).toBeLessThan(0.024);
    const p2 = normalCdf(-2);
    expect(Math.abs(worseRate(person, 0.2, n) - p2)).toBeLessThan(0.01);
    expect(4 * se(p2, n)).toBeLessThan(0.01);
    const p3 = normalCdf(-3);
    expect(Math.abs(worseRate(person, 0.3, 8000) - p3)).toBeLessThan(0.0017);
    expect(4 * se(p3, 8000)).toBeLessThan(0.0017);
    expect(person.log.some((e) => e.answer === "tie")).toBe(false);
  });

  it("lapse: random answers at the lapse rate on pairs the probit never gets wrong", () => {
    // d = 0.5 range: probit errs with Phi(-10) ~ 1e-23, so errors are lapses that landed on
    // the worse side: p = 0.1 / 2 = 0.05. n = 4000: se = 0.0034, bound 0.014 (4.1 se).
    const person = numeric("lapse", 5);
    expect(Math.abs(worseRate(person, 0.5, 4000) - 0.05)).toBeLessThan(0.014);
    // A lapse rate of 0.4 errs on 0.2: se = 0.0063, bound 0.026 (4.1 se).
    const sloppy = numeric("lapse", 5, { lapse: 0.4 });
    expect(Math.abs(worseRate(sloppy, 0.5, 4000) - 0.2)).toBeLessThan(0.026);
  });

  it("flips-5, flips-10, flips-20: the correct answer flipped at that rate", () => {
    // n = 4000 each: se = 0.0034 / 0.0047 / 0.0063; bounds 0.014 / 0.019 / 0.026 (4.1 se).
    const cases: [PersonType, number, number][] = [
      ["flips-5", 0.05, 0.014],
      ["flips-10", 0.1, 0.019],
      ["flips-20", 0.2, 0.026],
    ];
    for (const [type, p, bound] of cases) {
      expect(4 * se(p, 4000)).toBeLessThan(bound);
      // d = 1e-6: noise-free apart from the flips, so even a tiny difference is seen.
      const rate = worseRate(numeric(type, 6), 1e-6, 4000);
      expect(Math.abs(rate - p)).toBeLessThan(bound);
    }
  });

  it("tie-band: a personal band in the stated interval; ties inside it, none well outside", () => {
    const bands = [10, 11, 12, 13, 14].map((seed) => numeric("tie-band", seed).band);
    for (const band of bands) {
      expect(band).toBeGreaterThanOrEqual(0.05);
      expect(band).toBeLessThan(0.1);
    }
    expect(new Set(bands).size).toBe(5);
    const person = numeric("tie-band", 10);
    const band = person.band;
    for (let i = 0; i < 500; i++) {
      expect(person.ask({ stage: "t", first: 0.5, second: 0.5 + 0.99 * band })).toBe("tie");
      expect(person.ask({ stage: "t", first: 0.5 + 0.04, second: 0.5 })).toBe("tie");
      expect(person.ask({ stage: "t", first: 0.5, second: 0.5 + 1.01 * band })).not.toBe("tie");
      expect(person.ask({ stage: "t", first: 0.9, second: 0.5 })).not.toBe("tie");
    }
    // Outside the band the person is probit: at d = 0.4 errors are Phi(-8) ~ 6e-16.
    const far = person.log.filter((e) => e.values[0] === 0.9);
    expect(far.every((e) => e.answer === "first")).toBe(true);
  });

  it("fatigue: more errors late in the session than early, at the same difference", () => {
    // 400 people x 100 questions at d = 0.05 (range 1). sigma_t = 0.05 (1 + t / 10):
    // expected error over t = 0..9 is mean Phi(-1 / (1 + t/10)) = 0.230, over t = 90..99
    // it is 0.458. n = 4000 per window: se <= 0.5 / sqrt(4000) = 0.0079, bound 0.032 (4 se).
    const early = Array.from({ length: 10 }, (_, t) => normalCdf(-1 / (1 + t / 10)));
    const late = Array.from({ length: 10 }, (_, t) => normalCdf(-1 / (1 + (90 + t) / 10)));
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    let earlyWrong = 0;
    let lateWrong = 0;
    for (let seed = 0; seed < 400; seed++) {
      const person = numeric("fatigue", 1000 + seed);
      for (let t = 0; t < 100; t++) {
        const wrong = person.ask({ stage: "t", first: 0.55, second: 0.5 }) === "second";
        if (wrong && t < 10) earlyWrong++;
        if (wrong && t >= 90) lateWrong++;
      }
    }
    expect(Math.abs(earlyWrong / 4000 - mean(early))).toBeLessThan(0.032);
    expect(Math.abs(lateWrong / 4000 - mean(late))).toBeLessThan(0.032);
    expect(lateWrong / 4000 - earlyWrong / 4000).toBeGreaterThan(0.15);
    // Without fatigue, the same person type errs at Phi(-1) throughout.
    const rested = numeric("fatigue", 7, { fatigue: 0 });
    expect(Math.abs(worseRate(rested, 0.05, 4000) - normalCdf(-1))).toBeLessThan(0.024);
  });

  it("side-bias: the left item on near pairs about 80% whatever is first; far pairs on value", () => {
    // Near pairs (d = 0.02 < 0.1 range), n = 4000: P(left) = 0.8, se = 0.0063,
    // bound 0.026 (4.1 se). Split by placement (about 2000 each): se <= 0.0095, bound
    // 0.04 (4.2 se).
    const person = numeric("side-bias", 8);
    for (let i = 0; i < 4000; i++) person.ask({ stage: "t", first: 0.52, second: 0.5 });
    const chosenLeft = (e: { left: string; answer: Answer }) => e.answer === e.left;
    expect(Math.abs(person.log.filter(chosenLeft).length / 4000 - 0.8)).toBeLessThan(0.026);
    for (const side of ["first", "second"] as const) {
      const placed = person.log.filter((e) => e.left === side);
      expect(placed.length).toBeGreaterThan(1800);
      const rate = placed.filter(chosenLeft).length / placed.length;
      expect(Math.abs(rate - 0.8)).toBeLessThan(0.04);
    }
    // Far pairs (d = 0.5): probit errs with Phi(-10) ~ 1e-23, whatever the placement.
    const far = numeric("side-bias", 9);
    expect(worseRate(far, 0.5, 1000)).toBe(0);
    expect(new Set(far.log.map((e) => e.left)).size).toBe(2);
  });

  it("random: a 50/50 coin, independent of the values, never a tie", () => {
    // n = 4000 per condition: se = 0.0079, bound 0.032 (4 se).
    for (const d of [0.5, 0, -0.5]) {
      const person = numeric("random", 11);
      let firsts = 0;
      for (let i = 0; i < 4000; i++) {
        const answer = person.ask({ stage: "t", first: 0.5 + d / 2, second: 0.5 - d / 2 });
        expect(answer).not.toBe("tie");
        if (answer === "first") firsts++;
      }
      expect(Math.abs(firsts / 4000 - 0.5)).toBeLessThan(0.032);
    }
  });

  it("the same seed gives the same answers; different seeds differ", () => {
    for (const type of PERSON_TYPES) {
      const run = (seed: number | string) => {
        const person = numeric(type, 0, { seed });
        for (let i = 0; i < 300; i++) {
          person.ask({ stage: "t", first: 0.5 + ((i % 7) - 3) * 0.01, second: 0.5 });
        }
        return person.log;
      };
      expect(run(21)).toEqual(run(21));
      expect(run("s")).toEqual(run("s"));
      // Placement alone (300 fair draws) makes equal logs impossible in practice.
      expect(run(21)).not.toEqual(run(22));
    }
  });
});
