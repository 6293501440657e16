/**
 * Classifiers for points of the sphere (ALGORITHMS.md B.6) and the check that a classifier
 * realises a target. For `s = o + x` inside the cross-polytope of Algorithm 3, put weight
 * `w_j = |x_j| / l_j^{sign(x_j)}` on the axis classifier `P_j^{sign(x_j)}` and the rest on the
 * uniform classifier; by linearity the mixture's point is exactly `s`. Inside the ball of
 * radius r, Cauchy–Schwarz gives `sum_j w_j <= 1`. O(q) work, no feasibility solve.
 *
 * @example
 * const h = realiseOnSphere(sphere, target);       // a mixture
 * checkRealisation(space, h, target).error;         // ~1e-16
 */
import type { Classifier, MixtureClassifier, MixtureComponent } from "./classifier.ts";
import { mixtureClassifier, uniformClassifier } from "./classifier.ts";
import type { Space } from "./space.ts";
import type { Sphere } from "./sphere.ts";

/**
 * A mixture whose point, on group `group`'s pool, is `target`. Throws when `target` lies
 * outside the cross-polytope `conv{o + l_j^+ e_j, o - l_j^- e_j}` (which contains the ball).
 *
 * @example
 * realiseOnSphere(sphere, sphere.centre); // the uniform classifier
 */
export function realiseOnSphere(
  sphere: Sphere,
  target: ArrayLike<number>,
  group = 0,
): MixtureClassifier {
  if (target.length !== sphere.dim) {
    throw new RangeError(`target has ${target.length} entries, the space ${sphere.dim}`);
  }
  if (!Number.isInteger(group) || group < 0 || group >= sphere.groups) {
    throw new RangeError(`group ${group} not in 0..${sphere.groups - 1}`);
  }
  const parts: MixtureComponent[] = [];
  let total = 0;
  for (const a of sphere.axes) {
    const x = target[a.axis] - sphere.centre[a.axis];
    if (x === 0) continue;
    const length = x > 0 ? a.plus : a.minus;
    const w = length > 0 ? Math.abs(x) / length : Infinity;
    if (!(w <= 1 + 1e-12)) throw outside(a.axis);
    const classifier = x > 0 ? a.plusClassifiers[group] : a.minusClassifiers[group];
    parts.push({ classifier, weight: w });
    total += w;
  }
  if (total > 1 + 1e-12) throw outside(-1);
  if (total < 1) parts.push({ classifier: uniformClassifier(sphere.k), weight: 1 - total });
  else for (const p of parts) (p as { weight: number }).weight /= total;
  return mixtureClassifier(parts);
}

function outside(axis: number): RangeError {
  const at = axis >= 0 ? ` (coordinate ${axis} alone exceeds its extent)` : "";
  return new RangeError(
    `target lies outside the cross-polytope of the sphere's axis points${at}; only points within the radius are guaranteed`,
  );
}

/**
 * The point a classifier realises on a space's pool and its largest coordinate deviation
 * from `target`.
 *
 * @example
 * checkRealisation(space, realiseOnSphere(sphere, t), t).error < 1e-9; // true
 */
export function checkRealisation(
  space: Space,
  classifier: Classifier,
  target: ArrayLike<number>,
): { point: Float64Array; error: number } {
  const point = space.realise(classifier);
  if (target.length !== point.length) {
    throw new RangeError(`target has ${target.length} entries, the space ${point.length}`);
  }
  let error = 0;
  for (let i = 0; i < point.length; i++) error = Math.max(error, Math.abs(point[i] - target[i]));
  return { point, error };
}
