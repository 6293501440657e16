// What the best questions could tell of the whole fair metric's gap weights B for the people
// panel's noisy people (issue 26): a bound on any searcher, which the engine is measured against.
import { fairToW, wToFair } from "../elicit/adaptive/families/fair.ts";
import { randomDomainPoint } from "../elicit/adaptive/families/quadratic.ts";
import { type FairPoint, fairUtility } from "../elicit/fair/metric.ts";
import { cholesky, choleskySolve } from "../math/cholesky.ts";
import { createRng } from "../math/rng.ts";
import { quantile } from "../math/stats.ts";
import { dot } from "../math/vector.ts";
import { normalCdf, PERSON_DEFAULTS, type PersonType } from "../oracle/people.ts";
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

/**
 * The panel's people `fairDesignBound` knows: those whose answers follow the counts shown
 * through probit noise (the careful person's have no noise, the flippers' and the coin's no
 * probit part; `idealFairSearch` bounds the flippers).
 */
export type BoundPerson = Extract<
  PersonType,
  "probit" | "lapse" | "tie-band" | "fatigue" | "side-bias"
>;

/** Questions per block of equal noise for a tiring person (`FairDesignBoundOptions.person`). */
export const FATIGUE_BLOCK = 9;

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
 * The error of the gap weights B (`sum ||B - B'||_F`) that the best design of n questions
 * leaves for one of the panel's people, knowing the truth and the person. For each truth of
 * the people panel's draw: the Fisher information of the person's answer (by default the
 * panel's probit person: sigma of their metric's range, on the counts shown; `person` for the
 * others) for every pair of points of the study's query ball (random points and
 * the family's candidates), in the metric's directions across the truth (a, B and lambda
 * together, B's error through the map from direction to metric); the pairs' weights chosen to
 * minimise B's expected squared error (A-optimal, Frank-Wolfe); then B's error drawn from the
 * Gaussian the Cramer-Rao bound gives for n such questions. No searcher knows the truth, nor
 * asks every question at the best pairs for it, so this is a yardstick for the engine rather
 * than a proof: a local bound for unbiased estimates, which a prior that favours a truth can
 * beat on that truth.
 * @example fairDesignBound({ data: peopleFairData().data, trials: 2, questions: [45] }).rows[0].p95
 * @example fairDesignBound({ data, trials: 30, questions: [45], person: "side-bias", steps: 100 }).rows[0].p95 // about 0.37
 */
export function fairDesignBound(o: FairDesignBoundOptions): FairDesignBound {
  const limit = 0.2;
  const params = PERSON_DEFAULTS[o.person ?? "probit"];
  const person = {
    sigma: o.sigma ?? params.sigma,
    lapse: params.lapse,
    fatigue: params.fatigue,
    band: Math.max(params.nearBand, params.tieBand[0]),
  };
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
    // The person's units per unit of <w, f>, as shares of their range.
    const unit = (values[far]! - values[0]!) / (u[far]! - u[0]!) / truthRange(family, value);
    const basis = tangentBasis(w);
    const d = basis.length;
    const jacobian = bJacobian(w, basis, o.data.tau[0]!.length, o.data.tau.length);
    const coords = features.map((f) => basis.map((b) => dot(b, f)));
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

/** The person `fairDesignBound` designs for: noise, lapse, growth per question, band. */
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

/** The pairs a design may use: each one's difference of <w, f> and of the coordinates. */
interface Pairs {
  readonly count: number;
  /** <w, f_i> - <w, f_j>, in the person's range once times `unit`. */
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
 * The information matrix (per question) of the design over `pairs` minimising B's expected
 * squared error trace(J M^-1 J^T), each block of the person's questions with its own pairs'
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
