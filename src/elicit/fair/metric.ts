import { randomSpd } from "../../math/random-spd.ts";
import type { Rng } from "../../math/rng.ts";
import { norm2 } from "../../math/vector.ts";

/**
 * A fair quadratic performance metric (UAI 2022 Definition 4) in the paper's *cost* form
 * (lower is better):
 * `phi(r^{1:m}) = (1 - lambda) <a, 1 - r> + lambda/2 sum_{u<v} (r^u - r^v)^T B^{uv} (r^u - r^v)`
 * with overall rates `r = sum_g tau^g ⊙ r^g`, misclassification costs `a >= 0`, PSD violation
 * weights `B^{uv}` and the separate normalisations `||a||_2 = 1`, `1/2 sum ||B^{uv}||_F = 1`.
 * `B` is keyed `"u-v"` with 0-based groups `u < v`. The simulated stakeholder's utility is
 * `-phi` (the house convention: larger is preferred); the conversion happens at the oracle.
 */
export interface FairMetric {
  readonly a: number[];
  readonly B: Record<string, number[][]>;
  readonly lambda: number;
}

/** A query point: one rate vector per group (the "rate profile" r^{1:m}). */
export interface FairPoint {
  readonly rates: readonly Float64Array[];
}

/**
 * Key of the pair (u, v), u < v, 0-based.
 * @example pairKey(0, 1) // "0-1"
 */
export function pairKey(u: number, v: number): string {
  return u < v ? `${u}-${v}` : `${v}-${u}`;
}

/**
 * All pairs u < v of m groups, in lexicographic order.
 * @example groupPairs(3) // [[0, 1], [0, 2], [1, 2]]
 */
export function groupPairs(m: number): [number, number][] {
  const out: [number, number][] = [];
  for (let u = 0; u < m; u++) for (let v = u + 1; v < m; v++) out.push([u, v]);
  return out;
}

/**
 * Overall rates `r = sum_g tau^g ⊙ r^g` (`tau[g][i] = P(G = g | Y = i)`).
 * @example overallRates([[0.5, 0.2], [0.5, 0.8]], [[0.9, 0.8], [0.7, 0.6]]) // [0.8, 0.64]
 */
export function overallRates(
  tau: readonly (readonly number[])[],
  rates: readonly ArrayLike<number>[],
): number[] {
  const k = tau[0]!.length;
  const r = new Array<number>(k).fill(0);
  for (let g = 0; g < tau.length; g++)
    for (let i = 0; i < k; i++) r[i]! += tau[g]![i]! * rates[g]![i]!;
  return r;
}

function quadForm(B: readonly (readonly number[])[], x: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < x.length; i++)
    for (let j = 0; j < x.length; j++) s += x[i]! * B[i]![j]! * x[j]!;
  return s;
}

/**
 * The cost `phi^fair` of a rate profile (Definition 4, eq. (11)).
 * @example fairCost({ a: [1, 0], B: { "0-1": [[2, 0], [0, 0]] }, lambda: 0.5 }, [[0.5, 0.5], [0.5, 0.5]], [[0.5, 0.5], [0.5, 0.5]]) // 0.25
 */
export function fairCost(
  m: FairMetric,
  tau: readonly (readonly number[])[],
  rates: readonly ArrayLike<number>[],
): number {
  const k = m.a.length;
  const r = overallRates(tau, rates);
  let lin = 0;
  for (let i = 0; i < k; i++) lin += m.a[i]! * (1 - r[i]!);
  let viol = 0;
  for (const [u, v] of groupPairs(rates.length)) {
    const B = m.B[pairKey(u, v)];
    if (!B) continue;
    const d = Array.from({ length: k }, (_, i) => rates[u]![i]! - rates[v]![i]!);
    viol += quadForm(B, d);
  }
  return (1 - m.lambda) * lin + (m.lambda / 2) * viol;
}

/**
 * Whether one of two shown rate profiles is at least as good as the other on both parts of
 * a fair metric, its error `sum_i a_i (1 - r_i)` and its violation `sum_uv (d^uv)^T B d^uv`,
 * and better on one: every lambda then prefers it.
 * @example dominatedFair(metric, tau, shownA, shownB) // false for a trade-off
 */
export function dominatedFair(
  m: FairMetric,
  tau: readonly (readonly number[])[],
  a: readonly (readonly number[])[],
  b: readonly (readonly number[])[],
): boolean {
  const parts = (rates: readonly (readonly number[])[]) => [
    fairCost({ ...m, lambda: 0 }, tau, rates),
    fairCost({ ...m, lambda: 1 }, tau, rates),
  ];
  const [ea, va] = parts(a);
  const [eb, vb] = parts(b);
  const le = (x: number, y: number) => x <= y + 1e-12;
  const lt = (x: number, y: number) => x < y - 1e-12;
  return (
    (le(ea!, eb!) && le(va!, vb!) && (lt(ea!, eb!) || lt(va!, vb!))) ||
    (le(eb!, ea!) && le(vb!, va!) && (lt(eb!, ea!) || lt(vb!, va!)))
  );
}

/**
 * The stakeholder's utility (house convention, larger preferred): `-phi^fair`.
 * @example fairUtility(metric, tau, [ratesOfGroup0, ratesOfGroup1]) // larger is preferred
 */
export function fairUtility(
  m: FairMetric,
  tau: readonly (readonly number[])[],
  rates: readonly ArrayLike<number>[],
): number {
  return -fairCost(m, tau, rates);
}

function frob(B: readonly (readonly number[])[]): number {
  return Math.sqrt(B.flat().reduce((s, x) => s + x * x, 0));
}

/**
 * Separate normalisations: `||a|| = 1`, `1/2 sum ||B^{uv}||_F = 1`; lambda unchanged.
 * @example normalizeFair({ a: [3, 4], B: { "0-1": [[2, 0], [0, 0]] }, lambda: 0.4 }).a // [0.6, 0.8]
 */
export function normalizeFair(m: FairMetric): FairMetric {
  const na = norm2(m.a);
  if (!(na > 0)) throw new RangeError("a must not be zero");
  const keys = Object.keys(m.B);
  const nb = keys.reduce((s, key) => s + frob(m.B[key]!), 0) / 2;
  if (!(nb > 0)) throw new RangeError("the B matrices must not all be zero");
  const B: Record<string, number[][]> = {};
  for (const key of keys) B[key] = m.B[key]!.map((row) => row.map((x) => x / nb));
  return { a: m.a.map((x) => x / na), B, lambda: m.lambda };
}

/** Errors: `||a - a_hat||_2`, `sum_{u<v} ||B^{uv} - B_hat^{uv}||_F`, `|lambda - lambda_hat|`. */
export interface FairError {
  readonly a: number;
  readonly B: number;
  readonly lambda: number;
}

/**
 * Errors of an estimate against the truth: L2 for `a`, Frobenius summed over the group pairs
 * for `B` (a pair missing from either counts as zero), absolute for lambda.
 * @example fairError(truth, truth) // { a: 0, B: 0, lambda: 0 }
 */
export function fairError(truth: FairMetric, est: FairMetric): FairError {
  let sa = 0;
  for (let i = 0; i < truth.a.length; i++) sa += (truth.a[i]! - est.a[i]!) ** 2;
  let eb = 0;
  const keys = new Set([...Object.keys(truth.B), ...Object.keys(est.B)]);
  const k = truth.a.length;
  const zero = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const key of keys) {
    const T = truth.B[key] ?? zero;
    const E = est.B[key] ?? zero;
    eb += frob(T.map((row, i) => row.map((x, j) => x - E[i]![j]!)));
  }
  return { a: Math.sqrt(sa), B: eb, lambda: Math.abs(truth.lambda - est.lambda) };
}

/**
 * Check shapes, symmetry, finiteness, `a >= 0`, lambda in [0, 1]; throws RangeError.
 * @example validateFair({ a: [0.6, 0.8], B: {}, lambda: 2 }, 2, 2) // throws RangeError "lambda must be in [0, 1]"
 */
export function validateFair(m: FairMetric, k: number, groups: number): void {
  if (m.a.length !== k) throw new RangeError(`a must have ${k} entries, got ${m.a.length}`);
  if (!m.a.every((x) => Number.isFinite(x) && x >= 0)) {
    throw new RangeError("a must hold non-negative finite misclassification costs");
  }
  if (!(Number.isFinite(m.lambda) && m.lambda >= 0 && m.lambda <= 1)) {
    throw new RangeError("lambda must be in [0, 1]");
  }
  const allowed = new Set(groupPairs(groups).map(([u, v]) => pairKey(u, v)));
  for (const key of Object.keys(m.B)) {
    if (!allowed.has(key)) {
      throw new RangeError(`B key "${key}" is not a pair "u-v" with 0 <= u < v < ${groups}`);
    }
    const B = m.B[key]!;
    if (B.length !== k || !B.every((row) => row.length === k)) {
      throw new RangeError(`B["${key}"] must be ${k} x ${k}`);
    }
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) {
        const x = B[i]![j]!;
        if (!Number.isFinite(x)) throw new RangeError(`B["${key}"][${i}][${j}] is not finite`);
        if (Math.abs(x - B[j]![i]!) > 1e-9 * Math.max(1, Math.abs(x))) {
          throw new RangeError(`B["${key}"] must be symmetric`);
        }
      }
    }
  }
}

/**
 * Validate `tau` (m x k, non-negative, each column summing to 1).
 * @example validateTau([[0.5, 0.5], [0.4, 0.5]], 2, 2) // throws RangeError "tau column 0 must sum to 1"
 */
export function validateTau(tau: readonly (readonly number[])[], k: number, groups: number): void {
  if (tau.length !== groups || !tau.every((row) => row.length === k)) {
    throw new RangeError(`tau must be ${groups} x ${k}`);
  }
  for (let i = 0; i < k; i++) {
    let s = 0;
    for (let g = 0; g < groups; g++) {
      const x = tau[g]![i]!;
      if (!(x > 0)) throw new RangeError("tau entries P(G = g | Y = i) must be positive");
      s += x;
    }
    if (Math.abs(s - 1) > 1e-9) throw new RangeError(`tau column ${i} must sum to 1`);
  }
}

/**
 * Random `tau` as the authors' code does: per class, a normalised `U(0,1)^m` vector
 * `P(G = . | Y = i)`.
 * @example randomTau(2, 3, createRng(1)) // 3 rows (groups) x 2 columns (classes), each column summing to 1
 */
export function randomTau(k: number, groups: number, rng: Rng): number[][] {
  const tau = Array.from({ length: groups }, () => new Array<number>(k).fill(0));
  for (let i = 0; i < k; i++) {
    const w = Array.from({ length: groups }, () => 0.05 + rng.next());
    const s = w.reduce((x, y) => x + y, 0);
    for (let g = 0; g < groups; g++) tau[g]![i] = w[g]! / s;
  }
  return tau;
}

/**
 * A random fair metric as the authors' code (koyejolab/qme, ALGORITHMS.md D) draws it:
 * `a = normalize(U(0,1)^k)` resampled until every entry is >= 1e-2; each `B^{uv}` a random
 * SPD matrix (`U diag(1 + U(0,1)) U^T`), scaled so the Frobenius norms split the total
 * `1/2 sum ||B^{uv}||_F = 1` at random; `lambda ~ U(0.25, 0.75)`.
 * @example const truth = randomFairMetric(3, 2, createRng(1)); // k = 3 classes, m = 2 groups
 */
export function randomFairMetric(k: number, groups: number, rng: Rng): FairMetric {
  let a: number[];
  do {
    a = Array.from({ length: k }, () => rng.next());
    const n = norm2(a);
    a = a.map((x) => x / n);
  } while (!a.every((x) => x >= 1e-2));
  const pairs = groupPairs(groups);
  const share = pairs.map(() => 0.1 + rng.next());
  const total = share.reduce((x, y) => x + y, 0);
  const B: Record<string, number[][]> = {};
  pairs.forEach(([u, v], l) => {
    const M = randomSpd(k, rng);
    const f = frob(M);
    const target = (2 * share[l]!) / total;
    B[pairKey(u, v)] = M.map((row) => row.map((x) => (x * target) / f));
  });
  return { a, B, lambda: rng.uniform(0.25, 0.75) };
}
