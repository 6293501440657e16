import { norm2 } from "../../math/vector.ts";
import type { Ask } from "../../search/question.ts";
import type { Procedure } from "../session.ts";
import { reconstructQuadraticLeastSquares } from "./least-squares.ts";
import { elicitLpme, type LpmeOptions, type RatePoint } from "./lpme.ts";
import { type QpmeGeometry, type QuadraticMetric, shifted } from "./metric.ts";
import { elicitPairGradient, type PairGradient } from "./pair-gradient.ts";

/** The paper's synthetic query ball radius (UAI 2022 Section 6). */
export const PAPER_RHO = 0.2;

/**
 * Default small-ball radius: `rho / 200` (the koyejolab code's ratio, 5e-3 for rho = 1; the
 * paper does not state its varrho). Noise free, smaller is better (Taylor error ~ varrho);
 * with feedback noise eps_Omega, varrho must stay well above it (error ~ eps_Omega / varrho).
 * @example defaultVarrho(1) // 0.005
 */
export function defaultVarrho(rho: number): number {
  return rho / 200;
}

/** Default warning threshold on the pivot coordinates and on `max |D_i|` (ALGORITHMS.md E.1). */
export const REGULARITY_WARNING = 0.1;

/** Options of QPME. */
export interface QpmeOptions extends Omit<LpmeOptions, "label"> {
  /** Centre `o` of the query ball (default: the uniform random classifier's rates, 1/k each). */
  readonly centre?: readonly number[];
  /** Radius `rho` of the query ball (default 0.2, the paper's synthetic sphere). */
  readonly rho?: number;
  /** Radius `varrho` of the small balls (default `rho / 200`). */
  readonly varrho?: number;
  /**
   * Pivot coordinate: `robust` (default, see `choosePivot`) picks it from the gradients at
   * `o` and every `z_j` before the minus ball is placed; a number fixes it (0 = the paper's
   * `d_1`).
   */
  readonly pivot?: "robust" | number;
  /** Warning threshold (default 0.1); 0 disables the warnings. */
  readonly warnBelow?: number;
  /**
   * `ratios` (default): the paper's reconstruction with the corrections of E.1-E.2.
   * `least-squares`: our pivot-free total-least-squares variant on the same gradients
   * (`reconstructQuadraticLeastSquares`); same questions, lower error for k >= 3.
   */
  readonly reconstruction?: "ratios" | "least-squares";
  /**
   * How each gradient direction is found: `lpme` (default, the paper's angle search with
   * `strategy`, `cycles` and `order`) or `pairs` (`elicitPairGradient`: one bisection per
   * coordinate on pairs symmetric about the centre, exact for a quadratic metric; `strategy`,
   * `cycles` and `order` unused). With `pairs` the result keeps every angle's interval, from
   * which `qpmePairsRegion` draws the credible region.
   */
  readonly gradients?: "lpme" | "pairs";
}

/** Measured (or true) gradient directions; any positive scale per vector is fine. */
export interface QpmeGradients {
  /** At `o`. */
  readonly o: readonly number[];
  /** At `z_j = o + (rho - varrho) alpha_j`, j = 0..k-1. */
  readonly z: readonly (readonly number[])[];
  /** At `o - (rho - varrho) alpha_p` for the pivot p. */
  readonly minus: readonly number[];
}

/** Diagnostics of the reconstruction. */
export interface QpmeDiagnostics {
  readonly pivot: number;
  /** Least-squares estimate of `(rho - varrho) B_pp / d_p` (ALGORITHMS.md E.1). */
  readonly K: number;
  /** Smallest `|f_p| / ||f||` over all measured gradients (Assumption 4's constant). */
  readonly minPivot: number;
  /** Largest `|D_i| = |F-_i - F_i|`: how well `B_pp` is identified (E.4). */
  readonly maxD: number;
  /** With `least-squares`: `sqrt(lambda_2 / lambda_max)` of the normal matrix. */
  readonly identifiability?: number;
}

/** Result of QPME. */
export interface QpmeResult {
  /** Elicited metric, normalised `||a||^2 + ||B||_F^2 = 1`, B symmetric. */
  readonly metric: QuadraticMetric;
  readonly gradients: QpmeGradients;
  readonly diagnostics: QpmeDiagnostics;
  /** Human-readable warnings (regularity assumption failing, B_pp poorly identified). */
  readonly warnings: string[];
  /** All questions, and per LPME run (o, z_1..z_k, minus). */
  readonly questions: number;
  readonly runs: {
    readonly label: string;
    readonly centre: number[];
    readonly questions: number;
  }[];
  /** With `gradients: "pairs"`: each run's angle intervals (o, z_1..z_k, minus). */
  readonly pairs?: readonly PairGradient[];
  /** The geometry the gradients were measured in (for `qpmePairsRegion`). */
  readonly geometry?: QpmeGeometry;
}

function unit(v: readonly number[]): number[] {
  const n = norm2(v);
  return v.map((x) => (n > 0 ? x / n : 0));
}

/**
 * The robust pivot (ALGORITHMS.md E.1, E.4), chosen from the gradients at `o` and every `z_j`
 * before the minus ball is placed. Two things make a pivot p bad: a small coordinate
 * `m_p = min_l |f_pl|` (ratio errors grow like `eps / m_p^2`) and a column `B_:,p` nearly
 * parallel to `d` (then `D_i = F-_i - F_{i,p}` is tiny and `B_pp` is poorly identified; we
 * predict `|D_i| ~ 2 |F_{i,p} - F_{i,0}|` to first order). We maximise
 * `m_p^2 * Dmax_p / (1 + Dmax_p)` (a proxy for the inverse error of the reconstruction).
 * @example choosePivot([0.01, 1], [[0.3, 1], [0.5, 1]]) // 1
 */
export function choosePivot(o: readonly number[], z: readonly (readonly number[])[]): number {
  const grads = [o, ...z].map(unit);
  const k = o.length;
  const f0 = grads[0]!;
  let best = 0;
  let bestScore = -1;
  for (let p = 0; p < k; p++) {
    const mn = Math.min(...grads.map((f) => Math.abs(f[p]!)));
    const fp = grads[p + 1]!;
    let dmax = 0;
    for (let i = 0; i < k; i++) {
      if (i === p || mn === 0) continue;
      dmax = Math.max(dmax, 2 * Math.abs(fp[i]! / fp[p]! - f0[i]! / f0[p]!));
    }
    const score = mn === 0 ? 0 : (mn * mn * dmax) / (1 + dmax);
    if (score > bestScore) {
      bestScore = score;
      best = p;
    }
  }
  return best;
}

/**
 * Rebuild `(a, B)` from gradient directions at `o`, `z_j` and `o - (rho - varrho) alpha_p`
 * with the *corrected* relation of ALGORITHMS.md E.2 (the paper's eq. (9)/(18) and
 * `a = d + B o` have typos). With `F_{i,l} = f_{il} / f_{pl}` (l = 0: at `o`; l = j: at `z_j`)
 * and `F-_i` the same ratio at the minus point:
 *
 * - `d_i / d_p = F_{i,0}`;
 * - `K = (rho - varrho) B_pp / d_p` by least squares over all `i != p`:
 *   `K = sum D_i N_i / sum D_i^2`, `D_i = F-_i - F_{i,p}`, `N_i = F-_i + F_{i,p} - 2 F_{i,0}`;
 * - `(rho - varrho) B_ij / d_p = F_{i,j}(1 + F_{j,p}) - F_{i,j} F_{j,0} - F_{i,0} + F_{i,j} F_{j,p} K`
 *   (then symmetrised);
 * - `a = d - B o`; finally `d_p` from `||a||^2 + ||B||_F^2 = 1` with the sign of `f_{p,0}`.
 *
 * Exact (to rounding) when fed the true gradients `a + B r`.
 * @example const { metric, warnings } = reconstructQuadratic(gradients, pivot, geometry);
 */
export function reconstructQuadratic(
  g: QpmeGradients,
  pivot: number,
  geometry: QpmeGeometry,
  warnBelow = REGULARITY_WARNING,
): { metric: QuadraticMetric; diagnostics: QpmeDiagnostics; warnings: string[] } {
  const k = g.o.length;
  const p = pivot;
  const delta = geometry.rho - geometry.varrho;
  if (!(delta > 0)) throw new RangeError("varrho must be smaller than rho");
  const f0 = unit(g.o);
  const fz = g.z.map(unit);
  const fm = unit(g.minus);
  const F0 = f0.map((x) => x / f0[p]!);
  const Fz = fz.map((f) => f.map((x) => x / f[p]!));
  const Fm = fm.map((x) => x / fm[p]!);
  let dn = 0;
  let dd = 0;
  let maxD = 0;
  for (let i = 0; i < k; i++) {
    if (i === p) continue;
    const D = Fm[i]! - Fz[p]![i]!;
    const N = Fm[i]! + Fz[p]![i]! - 2 * F0[i]!;
    dn += D * N;
    dd += D * D;
    maxD = Math.max(maxD, Math.abs(D));
  }
  // No information on B_pp at all (identical ratios): fall back to K = 0 (warned below).
  const K = dd > 0 ? dn / dd : 0;
  const C = Array.from({ length: k }, (_, i) =>
    Array.from({ length: k }, (_, j) => {
      const Fij = Fz[j]![i]!;
      const Fjp = Fz[p]![j]!;
      return (Fij * (1 + Fjp) - Fij * F0[j]! - F0[i]! + Fij * Fjp * K) / delta;
    }),
  );
  const B = C.map((row, i) => row.map((x, j) => (x + C[j]![i]!) / 2));
  const centre = geometry.centre;
  const a = F0.map((d, i) => {
    let s = d;
    for (let j = 0; j < k; j++) s -= B[i]![j]! * centre[j]!;
    return s;
  });
  let ss = 0;
  for (const x of a) ss += x * x;
  for (const row of B) for (const x of row) ss += x * x;
  const scale = Math.sign(f0[p]!) / Math.sqrt(ss);
  const metric: QuadraticMetric = {
    a: a.map((x) => x * scale),
    B: B.map((row) => row.map((x) => x * scale)),
  };
  const minPivot = Math.min(...[f0, ...fz, fm].map((f) => Math.abs(f[p]!)));
  const warnings: string[] = [];
  if (minPivot < warnBelow) {
    warnings.push(
      `regularity assumption (Assumption 4) fails: coordinate ${p + 1} of some measured gradient is ${minPivot.toPrecision(3)} (< ${warnBelow}) at the pivot; the gradient ratios and hence B are unreliable`,
    );
  }
  if (!(maxD >= warnBelow)) {
    warnings.push(
      `B_pp is poorly identified: the gradient ratios at o ± (rho - varrho) alpha_${p + 1} differ by at most ${maxD.toPrecision(3)} (< ${warnBelow}); the split between the linear and quadratic parts is unreliable`,
    );
  }
  if (![...metric.a, ...metric.B.flat()].every(Number.isFinite)) {
    warnings.push("the reconstruction is not finite (a zero gradient coordinate at the pivot)");
  }
  return { metric, diagnostics: { pivot: p, K, minPivot, maxD }, warnings };
}

/**
 * Quadratic Performance Metric Elicitation (UAI 2022 Algorithm 1 with the corrections of
 * ALGORITHMS.md E.1-E.2): k + 2 LPME runs on balls of radius varrho around `o`, around
 * `z_j = o + (rho - varrho) alpha_j` for every j, and (once the pivot p is chosen from those)
 * around `o - (rho - varrho) alpha_p`; then `reconstructQuadratic`. All queried points lie in
 * the ball of radius rho around `o`.
 * @example elicitQpme(oracle.ask, 3, { tolerance: 0.01, strategy: STRATEGIES.lazy }).metric
 */
export function elicitQpme(ask: Ask<RatePoint>, k: number, o: QpmeOptions): QpmeResult {
  if (!(Number.isInteger(k) && k >= 2)) throw new RangeError("QPME needs k >= 2 rates");
  const centre = o.centre ? o.centre.slice() : new Array<number>(k).fill(1 / k);
  if (centre.length !== k) throw new RangeError(`the centre must have ${k} entries`);
  const rho = o.rho ?? PAPER_RHO;
  const varrho = o.varrho ?? defaultVarrho(rho);
  if (!(rho > 0 && varrho > 0 && varrho < rho)) {
    throw new RangeError("need 0 < varrho < rho");
  }
  const delta = rho - varrho;
  const runs: { label: string; centre: number[]; questions: number }[] = [];
  const lpmeOptions = {
    tolerance: o.tolerance,
    strategy: o.strategy,
    cycles: o.cycles,
    order: o.order,
    onShrink: o.onShrink,
  };
  const pairs: PairGradient[] = [];
  const run = (label: string, c: number[]): number[] => {
    if (o.gradients === "pairs") {
      const r = elicitPairGradient(
        ask,
        { centre: c, radius: varrho },
        { tolerance: o.tolerance, label },
      );
      runs.push({ label, centre: c, questions: r.questions });
      pairs.push(r);
      return r.direction;
    }
    const r = elicitLpme(ask, { centre: c, radius: varrho }, { ...lpmeOptions, label });
    runs.push({ label, centre: c, questions: r.questions });
    return r.slope;
  };
  const fo = run("qpme-o", centre);
  const fz = Array.from({ length: k }, (_, j) => run(`qpme-z${j + 1}`, shifted(centre, j, delta)));
  const pivot = o.pivot === undefined || o.pivot === "robust" ? choosePivot(fo, fz) : o.pivot;
  if (!(Number.isInteger(pivot) && pivot >= 0 && pivot < k)) {
    throw new RangeError(`pivot must be an index in 0..${k - 1}`);
  }
  const fm = run(`qpme-minus-z${pivot + 1}`, shifted(centre, pivot, -delta));
  const gradients: QpmeGradients = { o: fo, z: fz, minus: fm };
  const kept = o.gradients === "pairs" ? { pairs, geometry: { centre, rho, varrho } } : {};
  const rec = reconstructQuadratic(
    gradients,
    pivot,
    { centre, rho, varrho },
    o.warnBelow ?? REGULARITY_WARNING,
  );
  if (o.reconstruction === "least-squares") {
    const ls = reconstructQuadraticLeastSquares(gradients, pivot, { centre, rho, varrho });
    return {
      metric: ls.metric,
      diagnostics: { ...rec.diagnostics, identifiability: ls.identifiability },
      warnings: rec.warnings,
      gradients,
      questions: runs.reduce((s, r) => s + r.questions, 0),
      runs,
      ...kept,
    };
  }
  return {
    ...rec,
    gradients,
    questions: runs.reduce((s, r) => s + r.questions, 0),
    runs,
    ...kept,
  };
}

/**
 * QPME as a session procedure (plain synchronous code calling `ask`), for `runProcedure` and
 * `replay`.
 * @example const { result, answers } = runProcedure(qpmeProcedure(3, options), oracle.ask);
 */
export function qpmeProcedure(k: number, o: QpmeOptions): Procedure<RatePoint, QpmeResult> {
  return (ask) => elicitQpme(ask, k, o);
}

/**
 * Maximum number of questions of QPME: `(k + 2)(k + cycles (k - 1) h q)` with
 * `h = ceil(log2((pi/2)/eps))` halvings and `q` questions per halving (4 for `paper`, 3 as
 * the upper bound of `lazy`). With `paper` this is the exact count.
 * @example qpmeQuestionBound(2, 0.01, 4, 3) // 392
 */
export function qpmeQuestionBound(
  k: number,
  tolerance: number,
  perHalving: number,
  cycles = 3,
): number {
  let h = 0;
  for (let w = Math.PI / 2; w > tolerance; w /= 2) h++;
  return (k + 2) * (k + cycles * (k - 1) * h * perHalving);
}
