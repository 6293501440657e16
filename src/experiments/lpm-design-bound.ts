// What the best questions could tell of a multiclass LPM's costs for the people panel's noisy
// people (issue 26): the design bound of the panel's `linear` cells.
import { multiclassLinearFamily } from "../elicit/adaptive/families/multiclass.ts";
import type { MulticlassPoint } from "../elicit/multiclass/point.ts";
import type { MulticlassPool } from "../geometry/multiclass/pool.ts";
import { createRng } from "../math/rng.ts";
import { dot } from "../math/vector.ts";
import { MULTICLASS_DEFAULTS } from "../server/kinds/multiclass/create.ts";
import { MULTICLASS_ROW_TOTAL, multiclassView } from "../server/kinds/multiclass/participant.ts";
import {
  type DesignBoundOptions,
  type DesignBoundRow,
  designBound,
  type TruthGeometry,
  tangentBasis,
} from "./design-bound.ts";
import { peopleTruths } from "./reproduce-people.ts";
import { truthRange } from "./simulate-adaptive.ts";

/** Options of `lpmDesignBound`: the person, question counts and design's of `DesignBoundOptions`. */
export interface LpmDesignBoundOptions extends DesignBoundOptions {
  /** The multiclass pool, as the people panel shows it (`peopleMulticlassPool`: iris, k = 3). */
  readonly pool: MulticlassPool;
  /** The panel's draw of truths (`reproduce people --truth-seed`); default the asserted one. */
  readonly truthSeed?: string;
  /** Truths of the draw, the first `trials` as the panel draws them. */
  readonly trials: number;
  /**
   * Random directions whose query points the design may pair (default 200): for each, the
   * family's candidates (the classifier best for it and its point of the feasible sphere) and
   * the sphere's point on the opposite side.
   */
  readonly directions?: number;
}

/** `lpmDesignBound`'s result: a row per question count, each truth's costs and rms error. */
export interface LpmDesignBound {
  readonly limit: number;
  readonly rows: readonly DesignBoundRow[];
  readonly truths: readonly {
    readonly costs: readonly number[];
    readonly rms: readonly number[];
  }[];
}

/**
 * The error of an LPM's costs (`max |a_i - a_i'|`, the people panel's `linear` cells: iris,
 * k = 3, tolerance 0.1) that the best design of n questions leaves for one of the panel's
 * people, knowing the truth and the person (`designBound`). For each truth of the panel's
 * draw, the pairs of the study's kind of query points (classifiers best for random directions
 * and points of the feasible sphere), each valued by the person on the counts shown (each row
 * of a chart 100 people of a class, as the study shows them: `sum a_ij p_i counts_ij / 100`),
 * in the costs' directions across the truth. A yardstick for the engine, not a proof.
 * @example lpmDesignBound({ pool: peopleMulticlassPool().pool, trials: 30, questions: [45], person: "fatigue" }).rows[0].p95
 */
export function lpmDesignBound(o: LpmDesignBoundOptions): LpmDesignBound {
  const limit = 0.2;
  const { pool } = o;
  const truths = peopleTruths("linear", {
    trials: o.trials,
    ...(o.truthSeed !== undefined ? { truthSeed: o.truthSeed } : {}),
    multiclass: { pool, description: "" },
    // The multiclass families' truths need no binary population.
  } as Parameters<typeof peopleTruths>[1]);
  const family = multiclassLinearFamily("linear", pool, {
    displayStep: MULTICLASS_DEFAULTS.displayStep,
  });
  // The mistakes shown per unit of each cost: row i's counts times the class's share.
  const features = (p: MulticlassPoint) =>
    multiclassView(pool, p.classifier).counts.flatMap((row, i) =>
      row.filter((_, j) => j !== i).map((c) => (pool.priors[i]! * c) / MULTICLASS_ROW_TOTAL),
    );
  const costsOf = truths.map((truth) => {
    if (truth.family !== "linear") throw new RangeError("expected an LPM");
    const n = Math.hypot(...truth.costs);
    return Float64Array.from(truth.costs, (x) => x / n);
  });
  const geometries: TruthGeometry[] = costsOf.map((w, t) => {
    const rng = createRng(`lpm-design-bound:${t}`);
    const points: MulticlassPoint[] = [];
    for (let r = 0; r < (o.directions ?? 200); r++) {
      const g = Float64Array.from(w, () => rng.normal());
      points.push(...family.candidates([g], rng), ...(family.cutPoints?.([g]) ?? []));
    }
    const f = points.map(features);
    // The person's value is <w, f> itself (the costs normalised): the noise's unit is its range.
    const value = (p: MulticlassPoint) => dot(w, features(p));
    const basis = tangentBasis(w);
    return {
      u: f.map((x) => dot(w, x)),
      coords: f.map((x) => basis.map((b) => dot(b, x))),
      unit: 1 / truthRange(family, value),
      // The costs move along each direction across them as the direction itself.
      jacobian: basis,
    };
  });
  const { rows, rms } = designBound(geometries, o, {
    limit,
    norm: "max",
    seed: "lpm-design-bound",
  });
  return { limit, rows, truths: costsOf.map((w, t) => ({ costs: [...w], rms: rms[t]! })) };
}
