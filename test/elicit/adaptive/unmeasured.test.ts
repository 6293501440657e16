import { describe, expect, it } from "vitest";
import { adaptiveProcedure, priorDirection } from "../../../src/elicit/adaptive/engine.ts";
import { binaryThresholdFamily } from "../../../src/elicit/adaptive/families/binary.ts";
import { multiclassLinearFamily } from "../../../src/elicit/adaptive/families/multiclass.ts";
import type { AdaptiveFamily } from "../../../src/elicit/adaptive/family.ts";
import { unmeasuredReading } from "../../../src/elicit/adaptive/phase-three.ts";
import { runProcedure } from "../../../src/elicit/session.ts";
import { syntheticPopulation } from "../../../src/geometry/binary/synthetic.ts";
import { createRng } from "../../../src/math/rng.ts";
import { syntheticMulticlassPool } from "../../../src/population/multiclass.ts";

/**
 * Issue 26, a coin measures nothing: the result a study states for a participant Phase III
 * cannot tell from a coin is the whole space around the same estimate, so its region holds
 * whatever metric the person has (the people panel's random responder was covered in 33-83% of
 * runs by the belief the coin's Phase II answers left).
 */

/** A coin's run of the engine (seeded): the result whose reading is opened. */
function coinRun<P, M>(family: AdaptiveFamily<P, M>, seed: number) {
  const rng = createRng(`coin:${seed}`);
  return runProcedure(
    adaptiveProcedure(family, { tolerance: 0.05, budget: 25, seed, model: "human" }),
    () => (rng.next() < 0.5 ? "first" : "second"),
  ).result;
}

describe("unmeasuredReading", () => {
  const cases = [
    ["binary-threshold", binaryThresholdFamily(syntheticPopulation(5), { displayStep: 0.01 })],
    ["DLPM k = 3", multiclassLinearFamily("diagonal-linear", syntheticMulticlassPool(3, 4000))],
    ["LPM k = 3", multiclassLinearFamily("linear", syntheticMulticlassPool(3, 4000))],
  ] as const;

  it.each(cases)(
    "%s: the whole space around the same estimate, the same for the same seed",
    (_, f) => {
      const family = f as AdaptiveFamily<unknown, unknown>;
      const engine = coinRun(family, 3);
      const open = unmeasuredReading(engine, family, 3);
      // The estimate and the recommendation stay; the region is level 1 and wider than the belief's.
      expect(open.metric).toEqual(engine.metric);
      expect(open.recommended).toEqual(engine.recommended);
      expect(open.credible.level).toBe(1);
      expect(open.credible.radius).toBeGreaterThan(engine.credible.radius);
      expect(open.firstReading).toBeUndefined();
      // Every coordinate is left open.
      expect(open.unidentified.map((u) => u.name)).toEqual(
        family.coordinates(engine.metric).map((_, i) => family.coordinateNames[i]),
      );
      // Its region holds every metric of the family: 2000 prior draws of another seed and the
      // cone's corners are all within its radius, each coordinate within its half-width.
      const rng = createRng("other draws");
      const centre = family.coordinates(engine.metric);
      const corners = Array.from({ length: family.dim }, (_, i) => {
        const w = new Float64Array(family.dim);
        w[i] = family.signs[i] === -1 ? -1 : 1;
        return w;
      });
      for (const w of [
        ...corners,
        ...Array.from({ length: 2000 }, () => priorDirection(family, rng)),
      ]) {
        const m = family.toMetric(w);
        expect(family.error(engine.metric, m)).toBeLessThanOrEqual(open.credible.radius + 1e-12);
        family.coordinates(m).forEach((c, i) => {
          expect(Math.abs(c - centre[i]!)).toBeLessThanOrEqual(
            open.unidentified[i]!.halfWidth + 1e-12,
          );
        });
      }
      // The belief's draws are the prior's, its share for the recommendation with them.
      expect(open.posterior!.draws.length).toBeGreaterThan(200);
      expect(open.pOptimal).toBeLessThan(engine.pOptimal);
      expect(unmeasuredReading(engine, family, 3)).toEqual(open);
    },
  );
});
