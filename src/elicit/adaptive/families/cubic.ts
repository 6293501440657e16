import { type CubicMetric, cubicError, normalizeCubic } from "../../quadratic/cubic.ts";
import type { RatePoint } from "../../quadratic/lpme.ts";
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

/** Options of the cubic family. */
export interface CubicFamilyOptions {
  /** Centre o of the query ball (default 1/k each). */
  readonly centre?: readonly number[];
  /** Radius of the query ball (default PAPER_RHO = 0.2). */
  readonly rho?: number;
  /** Precision at which a person sees the rates (default 1e-4). */
  readonly displayStep?: number;
  /** Random level-set starts per question (default 24; two levels). */
  readonly levelPoints?: number;
}

/** The monomials of degree 1..3 as sorted index tuples, with their multiplicities. */
function monomials(k: number): { idx: number[]; mult: number }[] {
  const out: { idx: number[]; mult: number }[] = [];
  for (let i = 0; i < k; i++) out.push({ idx: [i], mult: 1 });
  for (let i = 0; i < k; i++)
    for (let j = i; j < k; j++) out.push({ idx: [i, j], mult: i === j ? 1 : 2 });
  for (let i = 0; i < k; i++)
    for (let j = i; j < k; j++)
      for (let l = j; l < k; l++) {
        const mult = i === j && j === l ? 1 : i === j || j === l ? 3 : 6;
        out.push({ idx: [i, j, l], mult });
      }
  return out;
}

/** 1 / (degree!) : the Taylor factors of a, B, C. */
const FACTOR = [0, 1, 1 / 2, 1 / 6];

/**
 * `w` of a cubic metric: per monomial (degree 1, 2, 3; indices sorted) `sqrt(mult) * coefficient`,
 * where mult counts the entries of the symmetric tensor sharing it, so
 * `|w|^2 = ||a||^2 + ||B||_F^2 + ||C||_F^2` (cubic.ts's normalisation).
 */
export function cubicToW(m: CubicMetric): Float64Array {
  const n = normalizeCubic(m);
  const k = n.a.length;
  return Float64Array.from(monomials(k), ({ idx, mult }) => {
    const c =
      idx.length === 1
        ? n.a[idx[0]!]!
        : idx.length === 2
          ? n.B[idx[0]!]![idx[1]!]!
          : n.C[idx[0]!]![idx[1]!]![idx[2]!]!;
    return Math.sqrt(mult) * c;
  });
}

/** Inverse of `cubicToW` (normalised). */
export function wToCubic(w: ArrayLike<number>, k: number): CubicMetric {
  let s = 0;
  for (let i = 0; i < w.length; i++) s += w[i]! * w[i]!;
  s = Math.sqrt(s) || 1;
  const a = new Array<number>(k).fill(0);
  const B = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const C = Array.from({ length: k }, () =>
    Array.from({ length: k }, () => new Array<number>(k).fill(0)),
  );
  monomials(k).forEach(({ idx, mult }, p) => {
    const c = w[p]! / (Math.sqrt(mult) * s);
    if (idx.length === 1) a[idx[0]!] = c;
    else if (idx.length === 2) {
      B[idx[0]!]![idx[1]!] = c;
      B[idx[1]!]![idx[0]!] = c;
    } else {
      const [i, j, l] = idx as [number, number, number];
      for (const [x, y, z] of [
        [i, j, l],
        [i, l, j],
        [j, i, l],
        [j, l, i],
        [l, i, j],
        [l, j, i],
      ] as const)
        C[x]![y]![z] = c;
    }
  });
  return { a, B, C };
}

function cubicFunction(m: CubicMetric): SmoothFunction {
  const k = m.a.length;
  return {
    value: (r) => {
      let v = 0;
      for (let i = 0; i < k; i++) {
        v += m.a[i]! * r[i]!;
        for (let j = 0; j < k; j++) {
          v += 0.5 * m.B[i]![j]! * r[i]! * r[j]!;
          for (let l = 0; l < k; l++) v += (m.C[i]![j]![l]! * r[i]! * r[j]! * r[l]!) / 6;
        }
      }
      return v;
    },
    gradient: (r) => {
      const g = new Float64Array(k);
      for (let i = 0; i < k; i++) {
        let s = m.a[i]!;
        for (let j = 0; j < k; j++) {
          s += m.B[i]![j]! * r[j]!;
          for (let l = 0; l < k; l++) s += 0.5 * m.C[i]![j]![l]! * r[j]! * r[l]!;
        }
        g[i] = s;
      }
      return g;
    },
  };
}

/**
 * The adaptive family of the cubic metric of quadratic/cubic.ts (UAI 2022 Section 8),
 * `phi(r) = <a, r> + 1/2 r^T B r + 1/6 C[r, r, r]`, on the ball of radius rho (default 0.2)
 * around o (every point feasible). Features: the monomials up to degree 3 scaled so the unit
 * sphere in `w` is `||a||^2 + ||B||_F^2 + ||C||_F^2 = 1` (`cubicToW`). Signs: `a >= 0` (as
 * `randomCubicMetric`), the rest free. Error (stopping): the largest part of `cubicError`,
 * `max(||a - a'||, ||B - B'||_F, ||C - C'||_F)`. Candidates as the quadratic family's:
 * maximisers over the ball, level-set points of the belief's centre, random sphere points.
 * @example adaptiveProcedure(cubicFamily(2), { tolerance: 0.05, model: "exact", budget: 300 })
 */
export function cubicFamily(
  k: number,
  o: CubicFamilyOptions = {},
): AdaptiveFamily<RatePoint, CubicMetric> {
  if (!(Number.isInteger(k) && k >= 2)) throw new RangeError("cubic: need k >= 2 classes");
  const centre = o.centre ? [...o.centre] : new Array<number>(k).fill(1 / k);
  if (centre.length !== k) throw new RangeError(`cubic: the centre must have ${k} entries`);
  const rho = o.rho ?? PAPER_RHO;
  if (!(rho > 0)) throw new RangeError("cubic: rho must be positive");
  const step = o.displayStep ?? 1e-4;
  const levelCount = o.levelPoints ?? 24;
  const domain: BallDomain = { k, groups: 1, centre, rho };
  const mons = monomials(k);
  const dim = mons.length;
  const toMetric = (w: Float64Array) => wToCubic(w, k);
  const point = (x: Float64Array): RatePoint => ({ point: x, classifier: null });
  const fn = (w: Float64Array) => cubicFunction(toMetric(w));
  return {
    name: "cubic",
    dim,
    signs: mons.map(({ idx }) => (idx.length === 1 ? 1 : 0)),
    errorName: "max(||a - a'||_2, ||B - B'||_F, ||C - C'||_F)",
    coordinateNames: mons.map(
      ({ idx }) => `${["", "a", "B", "C"][idx.length]}${idx.map((i) => i + 1).join("")}`,
    ),
    features: (p) =>
      Float64Array.from(mons, ({ idx, mult }) => {
        let v = FACTOR[idx.length]! * Math.sqrt(mult);
        for (const i of idx) v *= p.point[i]!;
        return v;
      }),
    candidates: (ws, rng) => {
      const out: RatePoint[] = ws.map((w) => point(maximiseOnDomain(domain, fn(w))));
      const c = fn(robustCentre(ws));
      for (const x of levelSetPoints(domain, c, rng, levelCount, [0.3, 0.7])) out.push(point(x));
      for (let s = 0; s < 4; s++) out.push(point(randomDomainPoint(domain, rng, true)));
      return out;
    },
    displayKey: (p) => ratesKey(p.point, step),
    optimal: (w) => point(maximiseOnDomain(domain, fn(w))),
    toMetric,
    error: (x, y) => {
      const e = cubicError(x, y);
      return Math.max(e.a, e.B, e.C);
    },
    coordinates: (m) => {
      const n = normalizeCubic(m);
      return mons.map(({ idx }) =>
        idx.length === 1
          ? n.a[idx[0]!]!
          : idx.length === 2
            ? n.B[idx[0]!]![idx[1]!]!
            : n.C[idx[0]!]![idx[1]!]![idx[2]!]!,
      );
    },
  };
}
