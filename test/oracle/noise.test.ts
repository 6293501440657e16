import { describe, expect, it } from "vitest";
import { createRng } from "../../src/math/rng.ts";
import { noisyAnswer, truthfulAnswer } from "../../src/oracle/noise.ts";

describe("noise models", () => {
  it("truthful answers and exact ties", () => {
    expect(truthfulAnswer(0.7, 0.6)).toBe("first");
    expect(truthfulAnswer(0.6, 0.7)).toBe("second");
    expect(truthfulAnswer(0.3, 0.3 + 1e-16)).toBe("tie");
  });
  it("feedback noise only errs below eps_Omega; adversarial always errs there", () => {
    const rng = createRng(1);
    const noise = { kind: "feedback", epsilon: 0.01, wrong: "adversarial" } as const;
    expect(noisyAnswer(noise, 0.5, 0.45, rng)).toBe("first");
    expect(noisyAnswer(noise, 0.5, 0.495, rng)).toBe("second");
  });
  it("random feedback noise is a seeded fair coin below eps_Omega", () => {
    const noise = { kind: "feedback", epsilon: 0.01, wrong: "random" } as const;
    const a = createRng(9);
    const b = createRng(9);
    const xs = Array.from({ length: 2000 }, () => noisyAnswer(noise, 0.5, 0.499, a));
    const ys = Array.from({ length: 2000 }, () => noisyAnswer(noise, 0.5, 0.499, b));
    expect(xs).toEqual(ys);
    const firsts = xs.filter((x) => x === "first").length;
    expect(firsts).toBeGreaterThan(900);
    expect(firsts).toBeLessThan(1100);
  });
  it("flips with probability p", () => {
    const rng = createRng(4);
    const n = 10000;
    const wrong = Array.from({ length: n }, () =>
      noisyAnswer({ kind: "flip", probability: 0.2 }, 1, 0, rng),
    ).filter((x) => x === "second").length;
    expect(wrong / n).toBeGreaterThan(0.18);
    expect(wrong / n).toBeLessThan(0.22);
  });
});
