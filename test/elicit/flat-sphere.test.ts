import { describe, expect, it } from "vitest";
import {
  FLAT_SPHERE_ABSOLUTE,
  FLAT_SPHERE_RELATIVE,
  type MulticlassSpec,
  multiclassProcedure,
} from "../../src/elicit/multiclass/spec.ts";
import { runProcedure } from "../../src/elicit/session.ts";
import { MulticlassPool } from "../../src/geometry/multiclass/pool.ts";
import { createSpace } from "../../src/geometry/multiclass/space.ts";
import { findSphere, type Sphere } from "../../src/geometry/multiclass/sphere.ts";
import { createRng } from "../../src/math/rng.ts";
import type { Answer } from "../../src/search/question.ts";

// Issue 10: a sphere too flat to query must give a clear message, never thousands of silent
// questions.

/**
 * k = 3 softmax-like probabilities; classes 1 and 2 get identical probabilities on every row
 * except that `shift` is added to class 2 on the first `rows` rows (then renormalised).
 */
function pool(shift: number, rows = 0): MulticlassPool {
  const rng = createRng(4);
  const n = 300;
  const k = 3;
  const eta = new Float64Array(n * k);
  for (let p = 0; p < n; p++) {
    const a = rng.next() + 0.05;
    const b = rng.next() + 0.05;
    const c = b + (p < rows ? shift : 0);
    const s = a + b + c;
    eta.set([a / s, b / s, c / s], p * k);
  }
  return new MulticlassPool(eta, k);
}

/** Run a procedure with an oracle that counts the questions it is asked. */
function attempt(spec: MulticlassSpec, p: MulticlassPool, sphere: Sphere) {
  let asked = 0;
  const ask = (): Answer => {
    asked++;
    return "first";
  };
  let message = "";
  try {
    runProcedure(multiclassProcedure(spec, p, sphere), ask);
  } catch (e) {
    expect(e).toBeInstanceOf(RangeError);
    message = (e as Error).message;
  }
  return { asked, message };
}

const specs: MulticlassSpec[] = [
  { family: "linear", tolerance: 0.01, strategy: "paper" },
  { family: "linear", tolerance: 0.01, strategy: "lazy" },
  { family: "linear-fractional", tolerance: 0.05, strategy: "paper" },
];

describe("a flat sphere stops before any question", () => {
  it("two classes with identical probabilities on every row: radius 0, one clear line", () => {
    const p = pool(0);
    const sphere = findSphere(createSpace("offdiag-confusion", p));
    expect(sphere.rho).toBe(0);
    for (const spec of specs) {
      const { asked, message } = attempt(spec, p, sphere);
      expect(asked).toBe(0);
      expect(message).toMatch(/^the sphere of Algorithm 3 has radius 0\.00e\+0 /);
      expect(message).toContain("too flat in some direction for the sphere search");
      expect(message).toContain("--strategy adaptive");
      expect(message).toContain("flat along coordinate"); // the sphere's own reason
      expect(message.split("\n")).toHaveLength(1);
    }
  });

  it("a class with no probability mass on any row (never predicted): the same message", () => {
    const rng = createRng(5);
    const eta = new Float64Array(200 * 3);
    for (let p = 0; p < 200; p++) {
      const a = rng.next() + 0.05;
      eta.set([a / (a + 1), 1 / (a + 1), 0], p * 3);
    }
    const p = new MulticlassPool(eta, 3);
    const sphere = findSphere(createSpace("offdiag-confusion", p));
    const { asked, message } = attempt(specs[1]!, p, sphere);
    expect(asked).toBe(0);
    expect(message).toMatch(
      /too flat in some direction for the sphere search \(class 2 has zero prior mass/,
    );
  });

  it("a positive radius below the relative threshold is refused too", () => {
    const p = pool(1e-3, 30);
    const sphere = findSphere(createSpace("offdiag-confusion", p));
    const largest = Math.max(...sphere.axes.map((a) => Math.max(a.plus, a.minus)));
    expect(sphere.rho).toBeGreaterThan(FLAT_SPHERE_RELATIVE * largest);
    // The same sphere shrunk below 1e-6 of the largest extent (still above 1e-9).
    const rho = 0.5 * FLAT_SPHERE_RELATIVE * largest;
    expect(rho).toBeGreaterThan(FLAT_SPHERE_ABSOLUTE);
    const flat = { ...sphere, radius: rho / sphere.margin, rho };
    for (const spec of specs) {
      const { asked, message } = attempt(spec, p, flat);
      expect(asked).toBe(0);
      expect(message).toMatch(/too flat in some direction for the sphere search/);
      expect(message).toMatch(/largest axis extent \d\.\d\de-2/);
    }
    // Below the absolute floor whatever the extents.
    const tiny = { ...sphere, radius: 5e-10, rho: 4.75e-10 };
    expect(attempt(specs[0]!, p, tiny)).toMatchObject({ asked: 0 });
    expect(attempt(specs[0]!, p, tiny).message).toMatch(/radius 5\.00e-10 \(rho 4\.75e-10/);
  });

  it("a small query radius inside a healthy feasible set is allowed (Table 7)", () => {
    const p = pool(0.5, 150);
    const sphere = findSphere(createSpace("offdiag-confusion", p));
    const { asked, message } = attempt(specs[0]!, p, { ...sphere, rho: 1.25e-12 });
    expect(message).toBe("");
    expect(asked).toBe(320);
  });

  it("a thin but resolvable sphere still runs", () => {
    const p = pool(1e-3, 30);
    const sphere = findSphere(createSpace("offdiag-confusion", p));
    expect(sphere.rho).toBeLessThan(1e-4);
    const { asked, message } = attempt(specs[0]!, p, sphere);
    expect(message).toBe("");
    expect(asked).toBe(320); // 4 * 2 cycles * (q - 1) * ceil(log2((pi/2)/0.01)) for k = 3
  });
});
