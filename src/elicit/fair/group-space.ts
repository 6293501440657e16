import type { Classifier } from "../../geometry/multiclass/classifier.ts";
import { uniformClassifier } from "../../geometry/multiclass/classifier.ts";
import type { MulticlassPool } from "../../geometry/multiclass/pool.ts";
import { realiseOnSphere } from "../../geometry/multiclass/realise.ts";
import { createSpace, type Space } from "../../geometry/multiclass/space.ts";
import { findSphere, type Sphere, type SphereOptions } from "../../geometry/multiclass/sphere.ts";
import type { FairPoint } from "./metric.ts";

/** A realised rate profile: one classifier per group and the rates it achieves. */
export interface RealisedProfile {
  /** Group g's classifier (a mixture of the sphere's axis plug-ins and the uniform one). */
  readonly classifiers: Classifier[];
  /** The diagonal rates each classifier achieves on its group's pool, computed exactly. */
  readonly rates: Float64Array[];
  /** Largest deviation from the queried rates over groups and classes. */
  readonly error: number;
}

/**
 * The fair query space on data (UAI 2022 Section 4): the diagonal-rate spaces of m groups'
 * pools, a ball around `o = (1/k, ..., 1/k)` inside every group's feasible set (Algorithm 3
 * with one space per group: each extent is the minimum over groups), and the realisation of
 * any profile inside it by group-wise classifiers. Every profile fair QPME queries lies in
 * the ball of radius `rho` (its LPME and QPME balls are nested in it), so every one is
 * feasible for every group; `realise` proves it by building the classifiers.
 */
export interface GroupQuerySpace {
  readonly sphere: Sphere<"diag-rates">;
  readonly spaces: Space<"diag-rates">[];
  /** Realise a profile (throws outside the sphere's cross-polytope). */
  realise(p: FairPoint): RealisedProfile;
}

/**
 * Build the group query space from one pool per group.
 * @example
 * const gs = groupQuerySpace([poolA, poolB]);
 * gs.realise(profile).error < 1e-9; // feasible for both groups
 */
export function groupQuerySpace(
  pools: readonly MulticlassPool[],
  options: SphereOptions = {},
): GroupQuerySpace {
  if (pools.length < 2) throw new RangeError("fairness needs at least two groups");
  const spaces = pools.map((pool) => createSpace("diag-rates", pool));
  const sphere = findSphere(spaces, options);
  if (!(sphere.rho > 0)) {
    throw new RangeError(
      `no ball fits inside every group's feasible rates: ${sphere.reason ?? "radius 0"}`,
    );
  }
  const uniform = uniformClassifier(sphere.k);
  const realise = (p: FairPoint): RealisedProfile => {
    if (p.rates.length !== spaces.length) {
      throw new RangeError(`profile has ${p.rates.length} groups, the data ${spaces.length}`);
    }
    const classifiers: Classifier[] = [];
    const rates: Float64Array[] = [];
    let error = 0;
    p.rates.forEach((target, g) => {
      const atCentre = target.every((x, i) => x === sphere.centre[i]);
      const h = atCentre ? uniform : realiseOnSphere(sphere, target, g);
      const r = spaces[g]!.realise(h);
      for (let i = 0; i < r.length; i++) error = Math.max(error, Math.abs(r[i]! - target[i]!));
      classifiers.push(h);
      rates.push(r);
    });
    return { classifiers, rates, error };
  };
  return { sphere, spaces, realise };
}
