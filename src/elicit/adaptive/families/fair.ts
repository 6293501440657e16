import {
  type FairMetric,
  type FairPoint,
  fairError,
  groupPairs,
  normalizeFair,
  pairKey,
  validateTau,
} from "../../fair/metric.ts";
import { PAPER_RHO } from "../../quadratic/qpme.ts";
import type { AdaptiveFamily } from "../family.ts";
import {
  type BallDomain,
  levelSetPoints,
  maximiseOnDomain,
  randomDomainPoint,
  ratesKey,
  robustCentre,
  type SmoothFunction,
} from "./quadratic.ts";

/** Options of the fair families. */
export interface FairFamilyOptions {
  /** Radius of every group's query ball around 1/k (default PAPER_RHO = 0.2). */
  readonly rho?: number;
  /** Precision at which a person sees each group's rates (default 1e-4). */
  readonly displayStep?: number;
  /** Random level-set starts per question (default 24; two levels). */
  readonly levelPoints?: number;
  /**
   * What a person sees of a profile's rates (default: the queried rates). A study passes its
   * screen's rates (whole people out of 100): the features, hence every question's
   * dominance check, every belief update and the result, are then about the values shown.
   */
  readonly shown?: (p: FairPoint) => readonly (readonly number[])[];
}

/** The rates the features are computed on: as shown when the options say how. */
function ratesSeen(o: FairFamilyOptions): (p: FairPoint) => readonly ArrayLike<number>[] {
  return o.shown ?? ((p) => p.rates);
}

/** Upper-triangle index pairs i <= j of a k x k matrix: the diagonal first, then i < j. */
function entries(k: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < k; i++) out.push([i, i]);
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) out.push([i, j]);
  return out;
}

/**
 * The parameter vector of a fair metric (utility form, ALGORITHMS.md F):
 * `w = ((1 - lambda) a, lambda B^{uv}_ii, lambda sqrt(2) B^{uv}_ij (i < j) per pair u < v)`,
 * scaled to unit norm. The metric is normalised first (`normalizeFair`).
 * @example fairToW({ a: [1, 0], B: { "0-1": [[2, 0], [0, 0]] }, lambda: 0.5 }, 2)
 */
export function fairToW(m: FairMetric, groups: number): Float64Array {
  const n = normalizeFair(m);
  const k = n.a.length;
  const ents = entries(k);
  const pairs = groupPairs(groups);
  const w = new Float64Array(k + pairs.length * ents.length);
  for (let i = 0; i < k; i++) w[i] = (1 - n.lambda) * n.a[i]!;
  pairs.forEach(([u, v], l) => {
    const B = n.B[pairKey(u, v)];
    ents.forEach(([i, j], e) => {
      const x = B ? (i === j ? B[i]![i]! : Math.SQRT2 * 0.5 * (B[i]![j]! + B[j]![i]!)) : 0;
      w[k + l * ents.length + e] = n.lambda * x;
    });
  });
  let s = 0;
  for (const x of w) s += x * x;
  s = Math.sqrt(s) || 1;
  for (let i = 0; i < w.length; i++) w[i]! /= s;
  return w;
}

/**
 * Inverse of `fairToW`: with `s_a = ||w_a||_2` (= c (1 - lambda)) and
 * `s_B = 1/2 sum ||B-block||_F` (= c lambda, the blocks' Frobenius norms equal their parts'
 * L2 norms thanks to the sqrt(2)), `lambda = s_B / (s_a + s_B)`, `a = w_a / s_a`,
 * `B^{uv} = block / s_B` (normalizeFair's normalisations). A zero part gives the uniform `a`
 * (resp. zero `B` and lambda 0).
 */
export function wToFair(w: ArrayLike<number>, k: number, groups: number): FairMetric {
  const pairs = groupPairs(groups);
  const blocks = pairs.map(() => Array.from({ length: k }, () => new Float64Array(k)));
  const { sa, sb } = unpackW(w, k, entries(k), blocks);
  const a = Array.from({ length: k }, (_, i) => (sa > 0 ? w[i]! / sa : 1 / Math.sqrt(k)));
  const B: Record<string, number[][]> = {};
  pairs.forEach(([u, v], l) => {
    B[pairKey(u, v)] = Array.from(blocks[l]!, (row) =>
      Array.from(row, (x) => (sb > 0 ? x / sb : 0)),
    );
  });
  const lambda = sa + sb > 0 ? sb / (sa + sb) : 0;
  return { a, B, lambda };
}

/**
 * The parts of `w` before normalising, shared by `wToFair` and `fairErrorFrom` (one sequence
 * of operations, so both give the same numbers to the bit): `s_a = ||w_a||_2`, each pair's
 * block into `blocks` (off-diagonal entries times sqrt(1/2)) and `s_B`.
 */
function unpackW(
  w: ArrayLike<number>,
  k: number,
  ents: readonly (readonly [number, number])[],
  blocks: readonly Float64Array[][],
): { sa: number; sb: number } {
  let sa = 0;
  for (let i = 0; i < k; i++) sa += w[i]! * w[i]!;
  sa = Math.sqrt(sa);
  let sb = 0;
  for (let l = 0; l < blocks.length; l++) {
    const M = blocks[l]!;
    let f = 0;
    for (let e = 0; e < ents.length; e++) {
      const [i, j] = ents[e]!;
      const x = w[k + l * ents.length + e]!;
      f += x * x;
      if (i === j) M[i]![i] = x;
      else {
        M[i]![j] = x * Math.SQRT1_2;
        M[j]![i] = x * Math.SQRT1_2;
      }
    }
    sb += Math.sqrt(f) / 2;
  }
  return { sa, sb };
}

/**
 * `w => max(parts of fairError(wToFair(w, k, groups), metric))`, the fair-quadratic family's
 * error of a parameter vector against `metric`, without building the metric of `w`: the same
 * operations in the same order as `wToFair` and `fairError`, so the same number to the bit
 * (the credible region takes it for every particle after every answer).
 * @example fairErrorFrom(wToFair(w, 2, 2), 2, 2)(w) // 0
 */
export function fairErrorFrom(
  metric: FairMetric,
  k: number,
  groups: number,
): (w: ArrayLike<number>) => number {
  const ents = entries(k);
  const pairs = groupPairs(groups);
  const own = pairs.map(([u, v]) => pairKey(u, v));
  // fairError's keys: the particle's (every pair, in order), then any other of `metric`'s.
  const keys = [...new Set([...own, ...Object.keys(metric.B)])];
  const zero = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const theirs = keys.map((key) => metric.B[key] ?? zero);
  const ownIndex = keys.map((key) => own.indexOf(key));
  const blocks = pairs.map(() => Array.from({ length: k }, () => new Float64Array(k)));
  const a = new Float64Array(k);
  return (w) => {
    const { sa, sb } = unpackW(w, k, ents, blocks);
    for (let i = 0; i < k; i++) a[i] = sa > 0 ? w[i]! / sa : 1 / Math.sqrt(k);
    const lambda = sa + sb > 0 ? sb / (sa + sb) : 0;
    let ea = 0;
    for (let i = 0; i < k; i++) ea += (a[i]! - metric.a[i]!) ** 2;
    let eb = 0;
    for (let c = 0; c < keys.length; c++) {
      const M = ownIndex[c]! >= 0 ? blocks[ownIndex[c]!]! : undefined;
      const E = theirs[c]!;
      let f = 0;
      for (let i = 0; i < k; i++) {
        for (let j = 0; j < k; j++) {
          const t = M ? (sb > 0 ? M[i]![j]! / sb : 0) : 0;
          const x = t - E[i]![j]!;
          f = f + x * x;
        }
      }
      eb += Math.sqrt(f);
    }
    return Math.max(Math.sqrt(ea), eb, Math.abs(lambda - metric.lambda));
  };
}

/** Unpack a point of the product domain into group rates. */
function toRates(x: Float64Array, k: number, groups: number): Float64Array[] {
  return Array.from({ length: groups }, (_, g) => x.slice(g * k, (g + 1) * k));
}

function fromRates(p: FairPoint): Float64Array {
  const k = p.rates[0]!.length;
  const x = new Float64Array(k * p.rates.length);
  p.rates.forEach((r, g) => {
    x.set(r, g * k);
  });
  return x;
}

/**
 * The utility `<w_a, r> - 1/2 sum_{u<v} d^T W^{uv} d` (r overall rates, d = r^u - r^v) of a
 * parameter vector as a function of the concatenated group rates: the fair utility up to a
 * positive factor and a constant.
 */
function fairFunction(
  wa: ArrayLike<number>,
  W: readonly (readonly (readonly number[])[])[],
  tau: readonly (readonly number[])[],
  k: number,
): SmoothFunction {
  const m = tau.length;
  const pairs = groupPairs(m);
  return {
    value: (x) => {
      let v = 0;
      for (let g = 0; g < m; g++)
        for (let i = 0; i < k; i++) v += wa[i]! * tau[g]![i]! * x[g * k + i]!;
      pairs.forEach(([u, vv], l) => {
        const M = W[l]!;
        for (let i = 0; i < k; i++) {
          const di = x[u * k + i]! - x[vv * k + i]!;
          for (let j = 0; j < k; j++) v -= 0.5 * di * M[i]![j]! * (x[u * k + j]! - x[vv * k + j]!);
        }
      });
      return v;
    },
    gradient: (x) => {
      const g = new Float64Array(m * k);
      for (let h = 0; h < m; h++) for (let i = 0; i < k; i++) g[h * k + i] = wa[i]! * tau[h]![i]!;
      pairs.forEach(([u, vv], l) => {
        const M = W[l]!;
        for (let i = 0; i < k; i++) {
          let md = 0;
          for (let j = 0; j < k; j++) md += M[i]![j]! * (x[u * k + j]! - x[vv * k + j]!);
          g[u * k + i]! -= md;
          g[vv * k + i]! += md;
        }
      });
      return g;
    },
  };
}

function fairMetricFunction(
  m: FairMetric,
  tau: readonly (readonly number[])[],
  k: number,
): SmoothFunction {
  const zero = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const W = groupPairs(tau.length).map(([u, v]) =>
    (m.B[pairKey(u, v)] ?? zero).map((row) => row.map((x) => m.lambda * x)),
  );
  return fairFunction(
    m.a.map((x) => (1 - m.lambda) * x),
    W,
    tau,
    k,
  );
}

function checkSetting(k: number, tau: readonly (readonly number[])[]): void {
  if (!(Number.isInteger(k) && k >= 2)) throw new RangeError("fair: need k >= 2 classes");
  if (tau.length < 2) throw new RangeError("fair: need at least two groups");
  validateTau(tau, k, tau.length);
}

/**
 * The adaptive family of the UAI 2022 fair quadratic metric (fair/metric.ts, cost form; the
 * stakeholder's utility is `-fairCost`), on the synthetic sphere: every group's rates in the
 * ball of radius rho around 1/k, all assumed feasible. The utility is linear in
 * `w = ((1 - lambda) a, lambda B^{uv} entries)` (`fairToW`) with features the overall rates
 * `r` and, per pair, `-d_i^2 / 2` and `-d_i d_j / sqrt(2)` (`d = r^u - r^v`); the constant
 * `-(1 - lambda) <a, 1>` cancels in every comparison. Signs: `a >= 0` and `B_ii >= 0` (PSD).
 * Error (for stopping): `max(a, B, lambda)` of `fairError` (`||a - a'||`,
 * `sum ||B^{uv} - B'^{uv}||_F`, `|lambda - lambda'|`).
 * @example adaptiveProcedure(fairQuadraticFamily(3, tau), { tolerance: 0.01, model: "exact", budget: 600 })
 */
export function fairQuadraticFamily(
  k: number,
  tau: readonly (readonly number[])[],
  o: FairFamilyOptions = {},
): AdaptiveFamily<FairPoint, FairMetric> {
  checkSetting(k, tau);
  const m = tau.length;
  const rho = o.rho ?? PAPER_RHO;
  const step = o.displayStep ?? 1e-4;
  const levelCount = o.levelPoints ?? 24;
  const domain: BallDomain = { k, groups: m, centre: new Array<number>(k).fill(1 / k), rho };
  const ents = entries(k);
  const pairs = groupPairs(m);
  const dim = k + pairs.length * ents.length;
  const signs = Array.from({ length: dim }, (_, i) =>
    i < k ? 1 : (i - k) % ents.length < k ? 1 : 0,
  );
  const names = [
    ...Array.from({ length: k }, (_, i) => `a${i + 1}`),
    ...pairs.flatMap(([u, v]) => ents.map(([i, j]) => `B${u + 1}${v + 1}_${i + 1}${j + 1}`)),
    "lambda",
  ];
  const seen = ratesSeen(o);
  const features = (p: FairPoint): Float64Array => {
    const rates = seen(p);
    const f = new Float64Array(dim);
    for (let g = 0; g < m; g++) for (let i = 0; i < k; i++) f[i]! += tau[g]![i]! * rates[g]![i]!;
    pairs.forEach(([u, v], l) => {
      const d = Array.from({ length: k }, (_, i) => rates[u]![i]! - rates[v]![i]!);
      ents.forEach(([i, j], e) => {
        f[k + l * ents.length + e] = i === j ? -(d[i]! * d[i]!) / 2 : -d[i]! * d[j]! * Math.SQRT1_2;
      });
    });
    return f;
  };
  const toMetric = (w: Float64Array) => wToFair(w, k, m);
  const fn = (w: Float64Array) => fairMetricFunction(toMetric(w), tau, k);
  const point = (x: Float64Array): FairPoint => ({ rates: toRates(x, k, m) });
  return {
    name: "fair-quadratic",
    dim,
    signs,
    errorName: "max(||a - a'||_2, sum ||B - B'||_F, |lambda - lambda'|)",
    coordinateNames: names,
    features,
    candidates: (ws, rng) => {
      const out: FairPoint[] = ws.map((w) => point(maximiseOnDomain(domain, fn(w))));
      const c = fn(robustCentre(ws));
      for (const x of levelSetPoints(domain, c, rng, levelCount, [0.3, 0.7])) out.push(point(x));
      for (let s = 0; s < 4; s++) out.push(point(randomDomainPoint(domain, rng, true)));
      return out;
    },
    displayKey: (p) => ratesKey(fromRates(p), step),
    optimal: (w) => point(maximiseOnDomain(domain, fn(w))),
    toMetric,
    error: (x, y) => {
      const e = fairError(x, y);
      return Math.max(e.a, e.B, e.lambda);
    },
    errorFrom: (metric) => fairErrorFrom(metric, k, m),
    coordinates: (x) => [
      ...x.a,
      ...pairs.flatMap(([u, v]) => {
        const B = x.B[pairKey(u, v)]!;
        return ents.map(([i, j]) => B[i]![j]!);
      }),
      x.lambda,
    ],
    // lambda is a coordinate too; a and B are norms over several.
    parts: {
      names: ["a", "B"],
      distances: (x, y) => {
        const e = fairError(x, y);
        return [e.a, e.B];
      },
    },
  };
}

/**
 * Algorithm 5's setting as an adaptive family: the costs `a` and the violation weights
 * `B^{uv}` are known (normalised with `normalizeFair`), only the trade-off lambda is elicited.
 * `w = (1 - lambda, lambda)` up to scale (signs +1) with features `<a, r>` and
 * `-1/2 sum_{u<v} d^T B^{uv} d`; error `|lambda - lambda'|` (tolerance about 0.01-0.02).
 * Candidates: the profiles optimal for the drawn lambdas (the frontier of the two features)
 * and level-set points of the centre.
 * @example adaptiveProcedure(lambdaFamily(3, tau, { a, B }), { tolerance: 0.02, model: "exact" })
 */
export function lambdaFamily(
  k: number,
  tau: readonly (readonly number[])[],
  known: { readonly a: readonly number[]; readonly B: Readonly<Record<string, number[][]>> },
  o: FairFamilyOptions = {},
): AdaptiveFamily<FairPoint, FairMetric> {
  checkSetting(k, tau);
  const m = tau.length;
  const base = normalizeFair({ a: [...known.a], B: { ...known.B }, lambda: 0.5 });
  const rho = o.rho ?? PAPER_RHO;
  const step = o.displayStep ?? 1e-4;
  const levelCount = o.levelPoints ?? 12;
  const domain: BallDomain = { k, groups: m, centre: new Array<number>(k).fill(1 / k), rho };
  const zero = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const pairs = groupPairs(m);
  const Bs = pairs.map(([u, v]) => base.B[pairKey(u, v)] ?? zero);
  const seen = ratesSeen(o);
  const toMetric = (w: Float64Array): FairMetric => {
    const x = Math.max(0, w[0]!);
    const y = Math.max(0, w[1]!);
    return { a: base.a, B: base.B, lambda: x + y > 0 ? y / (x + y) : 0.5 };
  };
  const fn = (w: Float64Array) => fairMetricFunction(toMetric(w), tau, k);
  const point = (x: Float64Array): FairPoint => ({ rates: toRates(x, k, m) });
  return {
    name: "fair-lambda",
    dim: 2,
    signs: [1, 1],
    errorName: "|lambda - lambda'|",
    coordinateNames: ["lambda"],
    features: (p) => {
      const rates = seen(p);
      let lin = 0;
      for (let g = 0; g < m; g++)
        for (let i = 0; i < k; i++) lin += base.a[i]! * tau[g]![i]! * rates[g]![i]!;
      let viol = 0;
      pairs.forEach(([u, v], l) => {
        const M = Bs[l]!;
        for (let i = 0; i < k; i++) {
          const di = rates[u]![i]! - rates[v]![i]!;
          for (let j = 0; j < k; j++) viol += di * M[i]![j]! * (rates[u]![j]! - rates[v]![j]!);
        }
      });
      return Float64Array.of(lin, -viol / 2);
    },
    candidates: (ws, rng) => {
      const out: FairPoint[] = ws.map((w) => point(maximiseOnDomain(domain, fn(w))));
      const c = fn(robustCentre(ws));
      for (const x of levelSetPoints(domain, c, rng, levelCount, [0.5])) out.push(point(x));
      return out;
    },
    displayKey: (p) => ratesKey(fromRates(p), step),
    optimal: (w) => point(maximiseOnDomain(domain, fn(w))),
    toMetric,
    error: (x, y) => Math.abs(x.lambda - y.lambda),
    coordinates: (x) => [x.lambda],
  };
}
