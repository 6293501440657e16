import type { Rng } from "./rng.ts";
import { norm2 } from "./vector.ts";

/**
 * A Haar-random orthogonal matrix: Gram-Schmidt on Gaussian vectors, returned as its k
 * orthonormal columns.
 * @example haarOrthogonal(3, createRng(1)).length // 3
 */
export function haarOrthogonal(k: number, rng: Rng): number[][] {
  const cols: number[][] = [];
  while (cols.length < k) {
    const v = Array.from({ length: k }, () => rng.normal());
    for (const c of cols) {
      let d = 0;
      for (let i = 0; i < k; i++) d += v[i]! * c[i]!;
      for (let i = 0; i < k; i++) v[i] = v[i]! - d * c[i]!;
    }
    const n = norm2(v);
    if (n > 1e-8) cols.push(v.map((x) => x / n));
  }
  return cols;
}

/**
 * A random symmetric positive definite matrix as scikit-learn's `make_spd_matrix` draws it
 * (what the authors' code uses): `U diag(1 + U(0,1)) U^T` with `U` Haar orthogonal, exactly
 * symmetric. Draws the columns of `U` first, then the k eigenvalues.
 * @example randomSpd(2, createRng(1)) // 2 x 2, eigenvalues in [1, 2)
 */
export function randomSpd(k: number, rng: Rng): number[][] {
  const u = haarOrthogonal(k, rng);
  const lambda = Array.from({ length: k }, () => 1 + rng.next());
  const B = Array.from({ length: k }, (_, i) =>
    Array.from({ length: k }, (_, j) => {
      let s = 0;
      for (let l = 0; l < k; l++) s += u[l]![i]! * lambda[l]! * u[l]![j]!;
      return s;
    }),
  );
  for (let i = 0; i < k; i++) for (let j = 0; j < i; j++) B[i]![j] = B[j]![i]!;
  return B;
}
