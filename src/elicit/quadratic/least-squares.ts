import { norm2 } from "../../math/vector.ts";
import type { QpmeGeometry, QuadraticMetric } from "./metric.ts";

/**
 * Eigen-decomposition of a small symmetric matrix by cyclic Jacobi rotations.
 * Returns the eigenvalues (unsorted) and the eigenvectors as columns of `vectors`.
 * @example symmetricEigen([[2, 1], [1, 2]]).values // [1, 3] in some order
 */
export function symmetricEigen(matrix: readonly (readonly number[])[]): {
  values: number[];
  vectors: number[][];
} {
  const n = matrix.length;
  const a = matrix.map((row) => row.slice());
  const v = Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j): number => (i === j ? 1 : 0)),
  );
  let scale = 0;
  for (const row of a) for (const x of row) scale = Math.max(scale, Math.abs(x));
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) off += a[i]![j]! ** 2;
    if (off <= (1e-17 * scale) ** 2) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p]![q]!;
        if (apq === 0) continue;
        const theta = (a[q]![q]! - a[p]![p]!) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k]![p]!;
          const akq = a[k]![q]!;
          a[k]![p] = c * akp - s * akq;
          a[k]![q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p]![k]!;
          const aqk = a[q]![k]!;
          a[p]![k] = c * apk - s * aqk;
          a[q]![k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k]![p]!;
          const vkq = v[k]![q]!;
          v[k]![p] = c * vkp - s * vkq;
          v[k]![q] = s * vkp + c * vkq;
        }
      }
    }
  }
  return { values: a.map((row, i) => row[i]!), vectors: v };
}

/**
 * Pivot-free reconstruction of `(a, B)` from the same k + 2 gradient directions as
 * `reconstructQuadratic` (an option of ours, not the paper's): every measured unit gradient
 * `f_l` at `o + Delta_l` must be parallel to `d + B Delta_l`, i.e.
 * `(I - f_l f_l^T)(d + B Delta_l) = 0`, which is linear and homogeneous in the unknowns
 * `(d, (rho - varrho) B)` (B symmetric). We take the total-least-squares solution (the
 * eigenvector of the smallest eigenvalue of `M^T M`), fix its sign by `<d, f_0> > 0`, then
 * `a = d - B o` and the joint normalisation. Exact on exact gradients; with k >= 3 the
 * system is overdetermined and noise is averaged over all equations instead of being routed
 * through one pivot. `identifiability` is `sqrt(lambda_2 / lambda_max)` of `M^T M` (0: the
 * directions do not determine the metric).
 * @example const { metric, identifiability } = reconstructQuadraticLeastSquares(gradients, pivot, geometry);
 */
export function reconstructQuadraticLeastSquares(
  g: {
    readonly o: readonly number[];
    readonly z: readonly (readonly number[])[];
    readonly minus: readonly number[];
  },
  pivot: number,
  geometry: QpmeGeometry,
): { metric: QuadraticMetric; identifiability: number } {
  const k = g.o.length;
  const delta = geometry.rho - geometry.varrho;
  const pairs: [number, number][] = [];
  for (let i = 0; i < k; i++) for (let j = i; j < k; j++) pairs.push([i, j]);
  const n = k + pairs.length;
  const ata = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const addGradient = (f: readonly number[], offset: readonly number[]): void => {
    const nf = norm2(f);
    const u = f.map((x) => x / nf);
    for (let i = 0; i < k; i++) {
      const row = new Array<number>(n).fill(0);
      for (let m = 0; m < k; m++) {
        const P = (i === m ? 1 : 0) - u[i]! * u[m]!;
        row[m] = row[m]! + P;
        pairs.forEach(([p, q], idx) => {
          if (p === m) row[k + idx] = row[k + idx]! + P * offset[q]!;
          if (q === m && p !== q) row[k + idx] = row[k + idx]! + P * offset[p]!;
        });
      }
      for (let r = 0; r < n; r++) {
        if (row[r] === 0) continue;
        for (let c = 0; c < n; c++) ata[r]![c] = ata[r]![c]! + row[r]! * row[c]!;
      }
    }
  };
  const unitOffset = (j: number, s: number): number[] => {
    const o = new Array<number>(k).fill(0);
    o[j] = s;
    return o;
  };
  addGradient(g.o, new Array<number>(k).fill(0));
  for (const [j, f] of g.z.entries()) addGradient(f, unitOffset(j, 1));
  addGradient(g.minus, unitOffset(pivot, -1));
  const { values, vectors } = symmetricEigen(ata);
  const order = values.map((_, i) => i).sort((i, j) => values[i]! - values[j]!);
  const smallest = order[0]!;
  let x = vectors.map((row) => row[smallest]!);
  let dot = 0;
  const fo = g.o;
  for (let i = 0; i < k; i++) dot += x[i]! * fo[i]!;
  if (dot < 0) x = x.map((v) => -v);
  const B = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  pairs.forEach(([p, q], idx) => {
    B[p]![q] = x[k + idx]! / delta;
    B[q]![p] = x[k + idx]! / delta;
  });
  const a = x.slice(0, k).map((d, i) => {
    let s = d;
    for (let j = 0; j < k; j++) s -= B[i]![j]! * geometry.centre[j]!;
    return s;
  });
  let ss = 0;
  for (const v of a) ss += v * v;
  for (const row of B) for (const v of row) ss += v * v;
  const nn = Math.sqrt(ss);
  const lmax = values[order[n - 1]!]!;
  const l2 = values[order[1]!]!;
  return {
    metric: { a: a.map((v) => v / nn), B: B.map((row) => row.map((v) => v / nn)) },
    identifiability: lmax > 0 ? Math.sqrt(Math.max(l2, 0) / lmax) : 0,
  };
}
