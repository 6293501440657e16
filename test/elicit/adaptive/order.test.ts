import { describe, expect, it } from "vitest";
import { orderByValue } from "../../../src/elicit/adaptive/order.ts";
import { createRng } from "../../../src/math/rng.ts";

/** The order of a stable sort by value (ties by index), the definition. */
function reference(values: Float64Array, indices: Int32Array): number[] {
  return Array.from(indices).sort((a, b) => values[a]! - values[b]! || a - b);
}

describe("orderByValue", () => {
  it("equals a stable sort by value on V shapes with plateaus, and on any values", () => {
    const rng = createRng("order");
    for (let trial = 0; trial < 400; trial++) {
      const n = 1 + rng.int(60);
      const values = new Float64Array(n);
      const shape = trial % 4;
      const bottom = rng.int(n);
      for (let i = 0; i < n; i++) {
        // A V around `bottom` (rounded so that plateaus and equal values on both sides
        // occur), a falling or rising run alone, or no shape at all.
        const d = shape === 3 ? rng.next() : Math.abs(i - bottom) * (i < bottom ? 1 : 1.5);
        values[i] = shape === 2 ? Math.round(rng.next() * 4) : Math.round(d * 2) / 2;
      }
      if (shape === 1) values.sort();
      // Some indices left out, as a grid's angles without weight are.
      const indices = Int32Array.from(
        Array.from({ length: n }, (_, i) => i).filter(() => rng.next() < 0.8),
      );
      expect(Array.from(orderByValue(values, indices)), `trial ${trial}`).toEqual(
        reference(values, indices),
      );
    }
  });

  it("orders nothing and one value", () => {
    expect(Array.from(orderByValue(new Float64Array(0), new Int32Array(0)))).toEqual([]);
    expect(Array.from(orderByValue(Float64Array.of(5), Int32Array.of(0)))).toEqual([0]);
  });
});
