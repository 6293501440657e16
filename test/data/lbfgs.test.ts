// Tests src/math/lbfgs.ts (written for the data layer's softmax regression).
import { describe, expect, it } from "vitest";
import { minimizeLbfgs } from "../../src/math/lbfgs.ts";

describe("minimizeLbfgs", () => {
  it("minimises an ill-conditioned quadratic", () => {
    const scales = [1, 10, 100, 1000];
    const result = minimizeLbfgs(
      (x, g) => {
        let f = 0;
        scales.forEach((s, i) => {
          f += 0.5 * s * (x[i]! - i) ** 2;
          g[i] = s * (x[i]! - i);
        });
        return f;
      },
      [5, 5, 5, 5],
    );
    expect(result.converged).toBe(true);
    scales.forEach((_, i) => {
      expect(result.x[i]).toBeCloseTo(i, 7);
    });
  });

  it("minimises the Rosenbrock function", () => {
    const result = minimizeLbfgs(
      (x, g) => {
        const [a, b] = [x[0]!, x[1]!];
        g[0] = -2 * (1 - a) - 400 * a * (b - a * a);
        g[1] = 200 * (b - a * a);
        return (1 - a) ** 2 + 100 * (b - a * a) ** 2;
      },
      [-1.2, 1],
      { tol: 1e-10 },
    );
    expect(result.converged).toBe(true);
    expect(result.x[0]).toBeCloseTo(1, 6);
    expect(result.x[1]).toBeCloseTo(1, 6);
  });

  it("reports non-convergence when out of iterations", () => {
    const result = minimizeLbfgs(
      (x, g) => {
        g[0] = Math.exp(x[0]!) - 1;
        return Math.exp(x[0]!) - x[0]!;
      },
      [10],
      { maxIter: 1 },
    );
    expect(result.iterations).toBe(1);
    expect(result.converged).toBe(false);
  });
});
