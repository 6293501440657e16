// What the best questions could tell of a metric for the people panel's noisy people (issue
// 26): the Cramer-Rao bound of the best design of questions, knowing the truth and the person.
// The families' bounds (fair-design-bound.ts, lpm-design-bound.ts) give it each truth's pairs.
import { cholesky, choleskySolve } from "../math/cholesky.ts";
import { createRng } from "../math/rng.ts";
import { quantile } from "../math/stats.ts";
import { dot } from "../math/vector.ts";
import { normalCdf, PERSON_DEFAULTS, type PersonType } from "../oracle/people.ts";

/**
 * The panel's people a design bound knows: those whose answers follow the counts shown
 * through probit noise (the careful person's have no noise, the flippers' and the coin's no
 * probit part; `idealFairSearch` and `idealSearch` bound the flippers).
 */
export type BoundPerson = Extract<
  PersonType,
  "probit" | "lapse" | "tie-band" | "fatigue" | "side-bias"
>;

/** Questions per block of equal noise for a tiring person (`DesignBoundOptions.person`). */
export const FATIGUE_BLOCK = 9;

/** Options of a design bound (`designBound`, and the families' bounds). */
export interface DesignBoundOptions {
  /** Question counts to bound at (e.g. the study's budget). */
  readonly questions: readonly number[];
  /**
   * The panel's person whose answers the questions get (`src/oracle/people.ts`, its default
   * parameters; default `probit`). `lapse`: a coin on a tenth of the answers; `fatigue`: the
   * noise grows per question (each block of `FATIGUE_BLOCK` questions at its first
   * question's noise, the least of the block); `tie-band` and `side-bias`: the answers on
   * pairs nearer than the person's band (the tie band's narrowest, 0.05 of the range; the
   * side bias's near band, 0.1) counted as saying nothing, the band's edge unused.
   */
  readonly person?: BoundPerson;
  /** The person's sigma at their first question, as a share of their metric's range (default the person's: 0.05). */
  readonly sigma?: number;
  /** Frank-Wolfe steps of the design. */
  readonly steps?: number;
  /** Error draws per truth and question count. */
  readonly draws?: number;
}

/** One question count's bound: the error over the truths' draws. */
export interface DesignBoundRow {
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

/** One truth as a design bound sees it: its query points along the truth and across it. */
export interface TruthGeometry {
  /** Each query point's <w, f>: the person's value up to an affine map. */
  readonly u: readonly number[];
  /** Each point's coordinates across the truth (in `tangentBasis(w)`), d per point. */
  readonly coords: readonly number[][];
  /** The person's value per unit of u, as a share of their range (the noise's unit). */
  readonly unit: number;
  /** d rows: the error's components per unit of each coordinate. */
  readonly jacobian: number[][];
}

/**
 * The error that the best design of n questions leaves on each truth, knowing it and the
 * person: for every pair of the truth's query points, the Fisher information of the person's
 * answer across the truth; the pairs' weights chosen to minimise the error's expected square
 * (A-optimal, Frank-Wolfe, per block of the person's noise); then the error drawn from the
 * Gaussian the Cramer-Rao bound gives for n such questions, measured as `norm` of the error's
 * components (l2, or their largest absolute value). `seed` names the draws (per truth t and
 * question count n: `seed:t:n`; the cells: `seed:cells:n`). A yardstick, not a proof: a local
 * bound for unbiased estimates, which a prior that favours a truth can beat on that truth.
 * @example designBound([geometry], { questions: [45], person: "lapse" }, { limit: 0.2, norm: "l2", seed: "s" }).rows[0].p95
 */
export function designBound(
  truths: readonly TruthGeometry[],
  o: DesignBoundOptions,
  measure: { readonly limit: number; readonly norm: "l2" | "max"; readonly seed: string },
): { rows: DesignBoundRow[]; rms: number[][] } {
  const { limit } = measure;
  const params = PERSON_DEFAULTS[o.person ?? "probit"];
  const person = {
    sigma: o.sigma ?? params.sigma,
    lapse: params.lapse,
    fatigue: params.fatigue,
    band: Math.max(params.nearBand, params.tieBand[0]),
  };
  // errors[q][t]: truth t's error draws at the q-th question count.
  const errors = o.questions.map(() => [] as number[][]);
  const rmsOf: number[][] = [];
  truths.forEach((truth, t) => {
    const { u, coords, unit, jacobian } = truth;
    const d = coords[0]!.length;
    const largest = Math.max(...o.questions.map((n) => blocksOf(person, n).at(-1)!.sigma));
    const pairs = pairsOf(u, coords, unit, person.band, largest);
    const designs = new Map<string, Float64Array>();
    const rms: number[] = [];
    o.questions.forEach((n, q) => {
      // A person whose noise is the same at every question has one design for every n.
      const blocks = blocksOf(person, n);
      const key = blocks.map((b) => `${b.sigma}:${b.share}`).join(",");
      if (!designs.has(key)) {
        designs.set(key, aOptimal(pairs, blocks, unit, person.lapse, jacobian, d, o.steps ?? 300));
      }
      const covariance = invert(designs.get(key)!, d);
      const l = cholesky(covariance, d);
      if (!l) throw new RangeError("the design's information is singular");
      const draw = createRng(`${measure.seed}:${t}:${n}`);
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
        let largestPart = 0;
        for (let e = 0; e < jacobian[0]!.length; e++) {
          let v = 0;
          for (let c = 0; c < d; c++) v += delta[c]! * jacobian[c]![e]!;
          e2 += v * v;
          largestPart = Math.max(largestPart, Math.abs(v));
        }
        own.push(measure.norm === "l2" ? Math.sqrt(e2) : largestPart);
      }
      rms.push(Math.sqrt(traceProduct(covariance, gram(jacobian), d) / n));
    });
    rmsOf.push(rms);
  });
  const rows = o.questions.map((n, q) => {
    const byTruth = errors[q]!;
    const xs = byTruth.flat();
    const cells = createRng(`${measure.seed}:cells:${n}`);
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
  return { rows, rms: rmsOf };
}

/** Cells of the panel drawn for `DesignBoundRow.cellWithin`. */
const CELLS = 2000;

/** The person a design bound designs for: noise, lapse, growth per question, band. */
interface BoundAnswerer {
  readonly sigma: number;
  readonly lapse: number;
  readonly fatigue: number;
  readonly band: number;
}

/**
 * The person's noise over n questions: blocks of equal sigma and their shares of the
 * questions (one block unless the person tires; a tiring person's block at its first
 * question's sigma).
 */
function blocksOf(person: BoundAnswerer, n: number): { sigma: number; share: number }[] {
  if (person.fatigue === 0) return [{ sigma: person.sigma, share: 1 }];
  const blocks: { sigma: number; share: number }[] = [];
  for (let t = 0; t < n; t += FATIGUE_BLOCK) {
    const size = Math.min(FATIGUE_BLOCK, n - t);
    blocks.push({ sigma: person.sigma * (1 + person.fatigue * t), share: size / n });
  }
  return blocks;
}

/**
 * An orthonormal basis of the directions across w (w's length is the metric's scale).
 * @example tangentBasis(Float64Array.of(1, 0, 0)) // [[0, 1, 0], [0, 0, 1]]
 */
export function tangentBasis(w: Float64Array): number[][] {
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

/** The pairs a design may use: each one's difference of <w, f> and of the coordinates. */
interface Pairs {
  readonly count: number;
  /** <w, f_i> - <w, f_j> (times `unit`: the difference as a share of the person's range). */
  readonly du: Float64Array;
  /** The coordinates' difference across the truth, d per pair. */
  readonly gradient: Float64Array;
}

/**
 * The pairs whose answer says anything: outside the person's band (|d| >= band of their
 * range: within it their answers say nothing) and |z| <= 6 at the largest sigma of the session.
 */
function pairsOf(
  u: readonly number[],
  coords: readonly number[][],
  unit: number,
  band: number,
  largest: number,
): Pairs {
  const d = coords[0]!.length;
  const du: number[] = [];
  const gradient: number[] = [];
  for (let i = 0; i < u.length; i++) {
    for (let j = i + 1; j < u.length; j++) {
      const shown = Math.abs(unit * (u[i]! - u[j]!));
      if (shown < band || shown > 6 * largest) continue;
      du.push(u[i]! - u[j]!);
      for (let c = 0; c < d; c++) gradient.push(coords[i]![c]! - coords[j]![c]!);
    }
  }
  return { count: du.length, du: Float64Array.from(du), gradient: Float64Array.from(gradient) };
}

/**
 * The Fisher weight of one answer at z = d / (sigma range), the gradient of z aside: a probit
 * choice, a coin on a share `lapse` of the answers, phi'^2 / (p (1 - p)).
 * @example fisherWeight(0, 0) // 2 / pi
 */
export function fisherWeight(z: number, lapse: number): number {
  if (Math.abs(z) > 37) return 0;
  // The less likely answer's probability from Phi's tail, accurate where 1 - Phi(|z|) is not.
  const small = 0.5 * lapse + (1 - lapse) * normalCdf(-Math.abs(z));
  const slope = ((1 - lapse) * Math.exp(-0.5 * z * z)) / Math.sqrt(2 * Math.PI);
  return (slope * slope) / (small * (1 - small));
}

/**
 * The information matrix (per question) of the design over `pairs` minimising the error's
 * expected square trace(J M^-1 J^T), each block of the person's questions with its own pairs'
 * weights (its sigma) and share: Frank-Wolfe from the uniform design on the blocks'
 * simplices, each step moving every block toward its pair whose information most lowers it.
 */
function aOptimal(
  pairs: Pairs,
  blocks: readonly { readonly sigma: number; readonly share: number }[],
  unit: number,
  lapse: number,
  jacobian: number[][],
  d: number,
  steps: number,
) {
  const { count, du, gradient } = pairs;
  // weights[b][p]: pair p's information at block b's sigma, the gradient of z's scale folded in.
  const weights = blocks.map(({ sigma }) => {
    const scale = unit / sigma;
    return Float64Array.from(du, (x) => scale * scale * fisherWeight(scale * x, lapse));
  });
  const m = new Float64Array(d * d);
  const add = (p: number, a: number) => {
    for (let x = 0; x < d; x++)
      for (let y = 0; y < d; y++) m[x * d + y]! += a * gradient[p * d + x]! * gradient[p * d + y]!;
  };
  blocks.forEach(({ share }, b) => {
    for (let p = 0; p < count; p++) add(p, (share * weights[b]![p]!) / count);
  });
  const jj = gram(jacobian);
  const quad = new Float64Array(count);
  for (let step = 0; step < steps; step++) {
    const mi = invert(m, d);
    const a = multiply(multiply(mi, jj, d), mi, d);
    for (let p = 0; p < count; p++) {
      // g^T A g of the symmetric A: its diagonal and twice its upper triangle.
      const o = p * d;
      let q = 0;
      for (let x = 0; x < d; x++) {
        const gx = gradient[o + x]!;
        let r = 0.5 * a[x * d + x]! * gx;
        for (let y = x + 1; y < d; y++) r += a[x * d + y]! * gradient[o + y]!;
        q += gx * r;
      }
      quad[p] = 2 * q;
    }
    const gamma = 2 / (step + 3);
    for (let x = 0; x < d * d; x++) m[x]! *= 1 - gamma;
    blocks.forEach(({ share }, b) => {
      const weight = weights[b]!;
      let best = 0;
      let bestValue = -1;
      for (let p = 0; p < count; p++) {
        const v = weight[p]! * quad[p]!;
        if (v > bestValue) {
          bestValue = v;
          best = p;
        }
      }
      add(best, gamma * share * weight[best]!);
    });
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
