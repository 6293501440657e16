// Tests src/math/cholesky.ts (written for the data layer's Newton solver).
import { describe, expect, it } from "vitest";
import { cholesky, choleskySolve, solveSpd } from "../../src/math/cholesky.ts";
import { createRng } from "../../src/math/rng.ts";

function randomSpd(n: number, seed: number): Float64Array {
  const rng = createRng(seed);
  const b = Float64Array.from({ length: n * n }, () => rng.normal());
  const a = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let s = i === j ? n : 0;
      for (let k = 0; k < n; k++) s += b[i * n + k]! * b[j * n + k]!;
      a[i * n + j] = s;
    }
  }
  return a;
}

function multiply(a: Float64Array, n: number, x: Float64Array): Float64Array {
  return Float64Array.from({ length: n }, (_, i) => {
    let s = 0;
    for (let k = 0; k < n; k++) s += a[i * n + k]! * x[k]!;
    return s;
  });
}

describe("cholesky", () => {
  it("factors a small matrix", () => {
    const l = cholesky(Float64Array.of(4, 2, 2, 3), 2)!;
    expect(Array.from(l)).toEqual([2, 0, 1, Math.SQRT2]);
  });

  it("solves random SPD systems to rounding accuracy", () => {
    const n = 12;
    const a = randomSpd(n, 7);
    const x = Float64Array.from({ length: n }, (_, i) => i - 5);
    const b = multiply(a, n, x);
    const solved = choleskySolve(cholesky(a, n)!, n, b);
    for (let i = 0; i < n; i++) expect(solved[i]).toBeCloseTo(x[i]!, 10);
  });

  it("returns null for an indefinite matrix; solveSpd jitters singular ones", () => {
    expect(cholesky(Float64Array.of(1, 2, 2, 1), 2)).toBeNull();
    const x = solveSpd(Float64Array.of(1, 1, 1, 1), 2, [1, 1]);
    expect(x[0]).toBeCloseTo(0.5, 8);
    expect(x[1]).toBeCloseTo(0.5, 8);
    expect(() => solveSpd(Float64Array.of(-1, 0, 0, -1), 2, [1, 1])).toThrow(RangeError);
  });
});
