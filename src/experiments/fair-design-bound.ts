// What the best questions could tell of the whole fair metric's gap weights B for the people
// panel's probit person (issue 26): a bound on any searcher, which the engine is measured against.
import { fairToW, wToFair } from "../elicit/adaptive/families/fair.ts";
import { randomDomainPoint } from "../elicit/adaptive/families/quadratic.ts";
import { type FairPoint, fairUtility } from "../elicit/fair/metric.ts";
import { cholesky, choleskySolve } from "../math/cholesky.ts";
import { createRng } from "../math/rng.ts";
import { quantile } from "../math/stats.ts";
import { dot } from "../math/vector.ts";
import { normalCdf } from "../oracle/people.ts";
import { fairStudyFamily, shownRatesOf } from "../server/kinds/fair/participant.ts";
import type { FairStudyData } from "../server/kinds/fair/study.ts";
import { fairPeopleSpec, peopleTruths } from "./reproduce-people.ts";
import { truthRange } from "./simulate-adaptive.ts";

/** Options of `fairDesignBound`. */
export interface FairDesignBoundOptions {
  /** The fairness study's data, as the people panel shows it (`peopleFairData`). */
  readonly data: FairStudyData;
  /** The panel's draw of truths (`reproduce people --truth-seed`); default the asserted one. */
  readonly truthSeed?: string;
  /** Truths of the draw, the first `trials` as the panel draws them. */
  readonly trials: number;
  /** Question counts to bound at (e.g. the study's 45). */
  readonly questions: readonly number[];
  /** Random points of the query ball (half on its surface), besides the family's candidates. */
  readonly points?: number;
  /** The probit person's sigma, as a share of their metric's range (the panel's 0.05). */
  readonly sigma?: number;
  /** Frank-Wolfe steps of the design. */
  readonly steps?: number;
  /** Error draws per truth and question count. */
  readonly draws?: number;
}

/** One question count's bound: B's error over the truths' draws. */
export interface FairDesignBoundRow {
  readonly questions: number;
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
  /** Share of the draws beyond `limit`. */
  readonly beyond: number;
  /**
   * The chance that a cell of the panel (one run per truth of the draw) has its error p95
   * within `limit`, each run's error drawn from its truth's bound.
   */
  readonly cellWithin: number;
}

/** `fairDesignBound`'s result: a row per question count, each truth's lambda and rms error. */
export interface FairDesignBound {
  readonly limit: number;
  readonly rows: readonly FairDesignBoundRow[];
  readonly truths: readonly { readonly lambda: number; readonly rms: readonly number[] }[];
}

/**
 * The error of the gap weights B (`sum ||B - B'||_F`) that the best design of n probit
 * questions leaves, knowing the truth. For each truth of the people panel's draw: the Fisher
 * information of a probit answer (the panel's probit person: sigma of their metric's range,
 * on the counts shown) for every pair of points of the study's query ball (random points and
 * the family's candidates), in the metric's directions across the truth (a, B and lambda
 * together, B's error through the map from direction to metric); the pairs' weights chosen to
 * minimise B's expected squared error (A-optimal, Frank-Wolfe); then B's error drawn from the
 * Gaussian the Cramer-Rao bound gives for n such questions. No searcher knows the truth, nor
 * asks every question at the best pairs for it, so this is a yardstick for the engine rather
 * than a proof: a local bound for unbiased estimates, which a prior that favours a truth can
 * beat on that truth.
 * @example fairDesignBound({ data: peopleFairData().data, trials: 2, questions: [45] }).rows[0].p95
 */
export function fairDesignBound(o: FairDesignBoundOptions): FairDesignBound {
  const limit = 0.2;
  const sigma = o.sigma ?? 0.05;
  const truths = peopleTruths("fair-quadratic", {
    trials: o.trials,
    ...(o.truthSeed !== undefined ? { truthSeed: o.truthSeed } : {}),
    fair: { data: o.data, description: "" },
    // The fair families' truths need no binary population.
  } as Parameters<typeof peopleTruths>[1]);
  // errors[q][t]: truth t's error draws at the q-th question count.
  const errors = o.questions.map(() => [] as number[][]);
  const out: { lambda: number; rms: number[] }[] = [];
  truths.forEach((truth, t) => {
    if (truth.family !== "fair-quadratic") throw new RangeError("expected a whole fair metric");
    const family = fairStudyFamily(fairPeopleSpec(truth, {}), o.data);
    const value = (p: FairPoint) => fairUtility(truth.metric, o.data.tau, shownRatesOf(o.data, p));
    const rng = createRng(`fair-design-bound:${t}`);
    const w = fairToW(truth.metric, o.data.tau.length);
    const points = queryPoints(o, family, w.length, rng);
    const features = points.map((p) => family.features(p));
    // The value is an affine map of <w, f> over the ball: its slope s turns w's units into
    // the person's, whose noise is sigma of their range.
    const u = features.map((f) => dot(w, f));
    const values = points.map(value);
    let far = 1;
    for (let i = 1; i < u.length; i++)
      if (Math.abs(u[i]! - u[0]!) > Math.abs(u[far]! - u[0]!)) far = i;
    const slope = (values[far]! - values[0]!) / (u[far]! - u[0]!);
    const scale = slope / (sigma * truthRange(family, value));
    const basis = tangentBasis(w);
    const d = basis.length;
    const jacobian = bJacobian(w, basis, o.data.tau[0]!.length, o.data.tau.length);
    const coords = features.map((f) => basis.map((b) => dot(b, f)));
    const pairs = pairInformation(u, coords, scale);
    const m = aOptimal(pairs, jacobian, d, o.steps ?? 300);
    const covariance = invert(m, d);
    const l = cholesky(covariance, d);
    if (!l) throw new RangeError("the design's information is singular");
    const rms: number[] = [];
    o.questions.forEach((n, q) => {
      const draw = createRng(`fair-design-bound:${t}:${n}`);
      const own: number[] = [];
      errors[q]!.push(own);
      for (let r = 0; r < (o.draws ?? 400); r++) {
        const z = Array.from({ length: d }, () => draw.normal());
        const delta = Array.from({ length: d }, (_, i) => {
          let s = 0;
          for (let k = 0; k <= i; k++) s += l[i * d + k]! * z[k]!;
          return s / Math.sqrt(n);
        });
        let e2 = 0;
        for (let e = 0; e < jacobian[0]!.length; e++) {
          let v = 0;
          for (let c = 0; c < d; c++) v += delta[c]! * jacobian[c]![e]!;
          e2 += v * v;
        }
        own.push(Math.sqrt(e2));
      }
      rms.push(Math.sqrt(traceProduct(covariance, gram(jacobian), d) / n));
    });
    out.push({ lambda: truth.metric.lambda, rms });
  });
  const rows = o.questions.map((n, q) => {
    const byTruth = errors[q]!;
    const xs = byTruth.flat();
    const cells = createRng(`fair-design-bound:cells:${n}`);
    let within = 0;
    for (let c = 0; c < CELLS; c++) {
      const cell = byTruth.map((own) => own[cells.int(own.length)]!);
      if (quantile(cell, 0.95) <= limit) within++;
    }
    return {
      questions: n,
      p50: quantile(xs, 0.5),
      p95: quantile(xs, 0.95),
      max: Math.max(...xs),
      beyond: xs.filter((x) => x > limit).length / xs.length,
      cellWithin: within / CELLS,
    };
  });
  return { limit, rows, truths: out };
}

/** Cells of the panel drawn for `FairDesignBoundRow.cellWithin`. */
const CELLS = 2000;

/** Random points of the query ball (half on its surface) and the family's candidates. */
function queryPoints(
  o: FairDesignBoundOptions,
  family: ReturnType<typeof fairStudyFamily>,
  dim: number,
  rng: ReturnType<typeof createRng>,
): FairPoint[] {
  const k = o.data.tau[0]!.length;
  const groups = o.data.tau.length;
  const domain = {
    k,
    groups,
    centre: new Array<number>(k).fill(1 / k),
    rho: o.data.space.sphere.rho,
  };
  const points: FairPoint[] = [];
  for (let i = 0; i < (o.points ?? 400); i++) {
    const x = randomDomainPoint(domain, rng, i % 2 === 0);
    points.push({ rates: Array.from({ length: groups }, (_, g) => x.slice(g * k, (g + 1) * k)) });
  }
  for (let r = 0; r < 10; r++) {
    const ws = Array.from({ length: 8 }, () => {
      const g = Array.from({ length: dim }, () => Math.abs(rng.normal()));
      const s = Math.hypot(...g);
      return Float64Array.from(g, (x) => x / s);
    });
    points.push(...family.candidates(ws, rng));
  }
  return points;
}

/** An orthonormal basis of the directions across w (w's length is the metric's scale). */
function tangentBasis(w: Float64Array): number[][] {
  const n = Math.hypot(...w);
  const unit = Array.from(w, (x) => x / n);
  const basis: number[][] = [];
  for (let c = 0; c < w.length && basis.length < w.length - 1; c++) {
    let v = unit.map((x, i) => (i === c ? 1 : 0) - unit[c]! * x);
    for (const b of basis) {
      const s = dot(v, b);
      v = v.map((x, i) => x - s * b[i]!);
    }
    const nv = Math.hypot(...v);
    if (nv > 1e-6) basis.push(v.map((x) => x / nv));
  }
  return basis;
}

/** d B / d (coordinate along each basis direction), B's matrices' entries flattened. */
function bJacobian(w: Float64Array, basis: readonly number[][], k: number, groups: number) {
  const h = 1e-5 * Math.hypot(...w);
  const entries = (x: ArrayLike<number>) =>
    Object.values(wToFair(x, k, groups).B).flatMap((B) => B.flat());
  return basis.map((b) => {
    const up = entries(Array.from(w, (x, i) => x + h * b[i]!));
    const down = entries(Array.from(w, (x, i) => x - h * b[i]!));
    return up.map((x, i) => (x - down[i]!) / (2 * h));
  });
}

/** Every pair's information weight (probit) and gradient across the truth, d per pair. */
interface PairInformation {
  readonly count: number;
  readonly weight: Float64Array;
  readonly gradient: Float64Array;
}

/**
 * The pairs of points whose answer says anything (|z| <= 6): each one's Fisher weight
 * phi(z)^2 / (Phi(z) (1 - Phi(z))) and the gradient of z across the truth.
 */
function pairInformation(
  u: readonly number[],
  coords: readonly number[][],
  scale: number,
): PairInformation {
  const d = coords[0]!.length;
  const weight: number[] = [];
  const gradient: number[] = [];
  for (let i = 0; i < u.length; i++) {
    for (let j = i + 1; j < u.length; j++) {
      const z = scale * (u[i]! - u[j]!);
      if (Math.abs(z) > 6) continue;
      const p = normalCdf(z);
      const density = Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
      weight.push((density * density) / Math.max(1e-300, p * (1 - p)));
      for (let c = 0; c < d; c++) gradient.push(scale * (coords[i]![c]! - coords[j]![c]!));
    }
  }
  return {
    count: weight.length,
    weight: Float64Array.from(weight),
    gradient: Float64Array.from(gradient),
  };
}

/**
 * The information matrix (per question) of the design over `pairs` minimising B's expected
 * squared error trace(J M^-1 J^T): Frank-Wolfe from the uniform design, each step toward the
 * pair whose information most lowers it.
 */
function aOptimal(pairs: PairInformation, jacobian: number[][], d: number, steps: number) {
  const { count, weight, gradient } = pairs;
  const m = new Float64Array(d * d);
  const add = (p: number, a: number) => {
    for (let x = 0; x < d; x++)
      for (let y = 0; y < d; y++)
        m[x * d + y]! += a * weight[p]! * gradient[p * d + x]! * gradient[p * d + y]!;
  };
  for (let p = 0; p < count; p++) add(p, 1 / count);
  const jj = gram(jacobian);
  for (let step = 0; step < steps; step++) {
    const mi = invert(m, d);
    const a = multiply(multiply(mi, jj, d), mi, d);
    let best = 0;
    let bestValue = -1;
    for (let p = 0; p < count; p++) {
      let q = 0;
      for (let x = 0; x < d; x++) {
        let r = 0;
        for (let y = 0; y < d; y++) r += a[x * d + y]! * gradient[p * d + y]!;
        q += gradient[p * d + x]! * r;
      }
      q *= weight[p]!;
      if (q > bestValue) {
        bestValue = q;
        best = p;
      }
    }
    const gamma = 2 / (step + 3);
    for (let x = 0; x < d * d; x++) m[x]! *= 1 - gamma;
    add(best, gamma);
  }
  return m;
}

/** J^T J of the Jacobian's rows (d x d). */
function gram(jacobian: number[][]): Float64Array {
  const d = jacobian.length;
  const out = new Float64Array(d * d);
  for (let x = 0; x < d; x++)
    for (let y = 0; y < d; y++) out[x * d + y] = dot(jacobian[x]!, jacobian[y]!);
  return out;
}

function multiply(a: Float64Array, b: Float64Array, d: number): Float64Array {
  const out = new Float64Array(d * d);
  for (let x = 0; x < d; x++)
    for (let y = 0; y < d; y++) {
      let s = 0;
      for (let z = 0; z < d; z++) s += a[x * d + z]! * b[z * d + y]!;
      out[x * d + y] = s;
    }
  return out;
}

/** trace(A B) of two d x d matrices. */
function traceProduct(a: Float64Array, b: Float64Array, d: number): number {
  let s = 0;
  for (let x = 0; x < d; x++) for (let y = 0; y < d; y++) s += a[x * d + y]! * b[y * d + x]!;
  return s;
}

/** The inverse of a symmetric positive-definite d x d matrix. */
function invert(m: Float64Array, d: number): Float64Array {
  const l = cholesky(m, d);
  if (!l) throw new RangeError("the design's information is singular");
  const out = new Float64Array(d * d);
  for (let c = 0; c < d; c++) {
    const col = choleskySolve(
      l,
      d,
      Array.from({ length: d }, (_, i) => (i === c ? 1 : 0)),
    );
    for (let r = 0; r < d; r++) out[r * d + c] = col[r]!;
  }
  return out;
}
