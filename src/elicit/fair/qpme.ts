import { norm2 } from "../../math/vector.ts";
import type { Answer, Ask } from "../../search/question.ts";
import type { Strategy } from "../../search/strategy.ts";
import { searchUnimodal } from "../../search/unimodal-search.ts";
import { elicitLpme, type RatePoint } from "../quadratic/lpme.ts";
import type { QuadraticMetric } from "../quadratic/metric.ts";
import {
  defaultVarrho,
  elicitQpme,
  PAPER_RHO,
  type QpmeDiagnostics,
  type QpmeOptions,
} from "../quadratic/qpme.ts";
import type { Procedure } from "../session.ts";
import { type FairMetric, type FairPoint, groupPairs, pairKey } from "./metric.ts";

/**
 * The sets of groups `sigma` (0-based) whose QPME runs Algorithm 4 uses, as the authors' code
 * chooses them (ALGORITHMS.md D): m = 2 → one run `{0}`; m = 4 → the single groups 0..3 and
 * the pairs {0,3}, {1,3} (complementary pairs would give identical rows); otherwise all pairs
 * `{u, v}` (m = 3: the paper's example with `Xi = [[0,1,1],[1,0,1],[1,1,0]]`). For other m a
 * greedy search over subsets picks C(m,2) sets with an invertible `Xi`.
 * @example groupPartitions(3) // [[0, 1], [0, 2], [1, 2]]
 */
export function groupPartitions(m: number): number[][] {
  if (!(Number.isInteger(m) && m >= 2)) throw new RangeError("need m >= 2 groups");
  let M: number[][];
  if (m === 2) M = [[0]];
  else if (m === 4) M = [[0], [1], [2], [3], [0, 3], [1, 3]];
  else M = groupPairs(m).map(([u, v]) => [u, v]);
  if (invert(membershipMatrix(M, m)) !== null) return M;
  // Greedy fallback: add subsets (by size) that raise the rank.
  const chosen: number[][] = [];
  for (let mask = 1; mask < 2 ** m - 1 && chosen.length < M.length; mask++) {
    const s = Array.from({ length: m }, (_, g) => g).filter((g) => (mask >> g) & 1);
    const trial = [...chosen, s];
    if (rank(membershipMatrix(trial, m)) === trial.length) chosen.push(s);
  }
  return chosen;
}

/**
 * `Xi[s][l] = 1` iff pair l = (u, v) crosses the cut `sigma_s` (exactly one of u, v in it):
 * then `W^sigma = sum_l Xi[s][l] B^l`.
 * @example membershipMatrix(groupPartitions(3), 3) // [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
 */
export function membershipMatrix(M: readonly (readonly number[])[], m: number): number[][] {
  return M.map((sigma) => {
    const inS = new Set(sigma);
    return groupPairs(m).map(([u, v]) => (inS.has(u) !== inS.has(v) ? 1 : 0));
  });
}

function rank(A: readonly (readonly number[])[]): number {
  const R = A.map((row) => row.slice());
  let r = 0;
  const cols = R[0]?.length ?? 0;
  for (let c = 0; c < cols && r < R.length; c++) {
    let piv = r;
    for (let i = r; i < R.length; i++) if (Math.abs(R[i]![c]!) > Math.abs(R[piv]![c]!)) piv = i;
    if (Math.abs(R[piv]![c]!) < 1e-9) continue;
    [R[r], R[piv]] = [R[piv]!, R[r]!];
    for (let i = 0; i < R.length; i++) {
      if (i === r) continue;
      const f = R[i]![c]! / R[r]![c]!;
      for (let j = c; j < cols; j++) R[i]![j] = R[i]![j]! - f * R[r]![j]!;
    }
    r++;
  }
  return r;
}

/**
 * Inverse by Gauss-Jordan with partial pivoting; null if (numerically) singular.
 * @example invert([[2, 0], [0, 4]]) // [[0.5, 0], [0, 0.25]]; invert([[1, 2], [2, 4]]) // null
 */
export function invert(A: readonly (readonly number[])[]): number[][] | null {
  const n = A.length;
  if (n === 0 || !A.every((row) => row.length === n)) return null;
  const R = A.map((row, i) => [...row, ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))]);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let i = c; i < n; i++) if (Math.abs(R[i]![c]!) > Math.abs(R[piv]![c]!)) piv = i;
    if (Math.abs(R[piv]![c]!) < 1e-12) return null;
    [R[c], R[piv]] = [R[piv]!, R[c]!];
    const d = R[c]![c]!;
    for (let j = 0; j < 2 * n; j++) R[c]![j] = R[c]![j]! / d;
    for (let i = 0; i < n; i++) {
      if (i === c) continue;
      const f = R[i]![c]!;
      if (f === 0) continue;
      for (let j = 0; j < 2 * n; j++) R[i]![j] = R[i]![j]! - f * R[c]![j]!;
    }
  }
  return R.map((row) => row.slice(n));
}

/** Options of fair QPME. */
export interface FairQpmeOptions extends Omit<QpmeOptions, "centre"> {
  /** `tau[g][i] = P(G = g | Y = i)`, m x k. */
  readonly tau: readonly (readonly number[])[];
  /** Centre `o` (default 1/k each: the uniform random classifier, the same for every group). */
  readonly centre?: readonly number[];
  /** Sets of groups sigma (default `groupPartitions(m)`). */
  readonly partitions?: readonly (readonly number[])[];
  /**
   * Where `a` comes from. `lpme` (default): one extra LPME run on the whole ball (radius rho)
   * with every group at the same rates `s`, so no discrepancy and the oracle sees the linear
   * `(1 - lambda) <a, s>` (FPME's stage 1; koyejolab's `Reparam_LPME_FairOracle`); this is
   * what the paper's Table 1 counts (C(m,2) QPME runs + one LPME run, see the report in
   * `reproduce-fair.ts`). `qpme`: Appendix D eq. (21) only, from the QPME gradients at o.
   */
  readonly aFrom?: "lpme" | "qpme";
}

/** One QPME run of Algorithm 4 (line 3) and its reading. */
export interface FairRun {
  readonly sigma: number[];
  /** QPME's normalised utility-form estimate on `S'_sigma` (`<a_q, s> + 1/2 s^T B_q s`). */
  readonly metric: QuadraticMetric;
  readonly questions: number;
  readonly diagnostics?: QpmeDiagnostics;
  readonly warnings: string[];
}

export interface FairQpmeResult {
  readonly metric: FairMetric;
  readonly runs: FairRun[];
  readonly questions: number;
  /** Questions of the extra LPME run for `a` (0 with `aFrom: "qpme"`). */
  readonly aQuestions: number;
  readonly warnings: string[];
  /** `Xi` of the partitions used. */
  readonly xi: number[][];
}

/**
 * The profile of Appendix D eq. (19): groups in sigma at `s`, the others at `o`.
 * @example profileOf(s, [0], 2, centre) // group 0 at the rates s, group 1 at the centre
 */
export function profileOf(
  s: ArrayLike<number>,
  sigma: readonly number[],
  m: number,
  centre: readonly number[],
): FairPoint {
  const inS = new Set(sigma);
  return {
    rates: Array.from({ length: m }, (_, g) =>
      inS.has(g) ? Float64Array.from(s as ArrayLike<number>) : Float64Array.from(centre),
    ),
  };
}

/**
 * Recover `(a, {B^{uv}}, lambda)` from the QPME estimates on every `S'_sigma` (Algorithm 4
 * lines 4-6, Appendix D eqs. (21)-(25)). In utility form QPME sees, up to a positive factor c,
 * `a_q = c[(1 - lambda) tau^sigma ⊙ a + lambda W^sigma o]` and `B_q = -c lambda W^sigma`, so
 * the gradient at o is `g = a_q + B_q o = c (1 - lambda) tau^sigma ⊙ a`:
 * - `a_hat` = `aHat` when given (the extra LPME run), else the normalised average of the unit
 *   vectors `g ⊘ tau^sigma` over the runs (eq. (21));
 * - `beta^sigma = -B_q / <g ⊘ tau^sigma, a_hat>` = `lambda / (1 - lambda) W^sigma` (eq. (22));
 * - `Xi btilde = beta` entry-wise (eqs. (23)-(24)), symmetrised;
 * - `N = 1/2 sum ||Btilde^{uv}||_F = lambda / (1 - lambda)`: `B_hat = Btilde / N` (eq. (25)) and
 *   `lambda_hat = N / (1 + N)` (the koyejolab code's `1 / (1 + 2 / sum ||.||_F)`).
 * Exact when the QPME estimates are exact.
 * @example const { metric, warnings } = recoverFair(runs, tau, centre); // metric: a, B, lambda
 */
export function recoverFair(
  runs: readonly { sigma: readonly number[]; metric: QuadraticMetric }[],
  tau: readonly (readonly number[])[],
  centre: readonly number[],
  aHat?: readonly number[],
): { metric: FairMetric; xi: number[][]; warnings: string[] } {
  const m = tau.length;
  const k = centre.length;
  const warnings: string[] = [];
  const xi = membershipMatrix(
    runs.map((r) => [...r.sigma]),
    m,
  );
  const inv = invert(xi);
  if (inv === null) throw new RangeError("the group membership matrix Xi is singular");
  const raw = runs.map((r) => {
    const tauS = Array.from({ length: k }, (_, i) => r.sigma.reduce((s, g) => s + tau[g]![i]!, 0));
    const g = r.metric.a.map((x, i) => {
      let s = x;
      for (let j = 0; j < k; j++) s += r.metric.B[i]![j]! * centre[j]!;
      return s / tauS[i]!;
    });
    return g;
  });
  const aSum = new Array<number>(k).fill(0);
  for (const g of raw) {
    const n = norm2(g);
    for (let i = 0; i < k; i++) aSum[i]! += g[i]! / n;
  }
  const aVec = aHat ? [...aHat] : aSum;
  const na = norm2(aVec);
  const a = aVec.map((x) => x / na);
  if (a.some((x) => x < -1e-6)) {
    warnings.push("the elicited misclassification costs a have a negative entry (expected a >= 0)");
  }
  const beta = runs.map((r, s) => {
    let scale = 0;
    for (let i = 0; i < k; i++) scale += raw[s]![i]! * a[i]!;
    if (!(scale > 0)) warnings.push(`run sigma={${r.sigma.join(",")}}: non-positive scale of a`);
    return r.metric.B.map((row) => row.map((x) => -x / scale));
  });
  const pairs = groupPairs(m);
  const Bt = pairs.map(() => Array.from({ length: k }, () => new Array<number>(k).fill(0)));
  for (let l = 0; l < pairs.length; l++) {
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) {
        let s = 0;
        for (let q = 0; q < runs.length; q++) s += inv[l]![q]! * beta[q]![i]![j]!;
        Bt[l]![i]![j] = s;
      }
    }
  }
  for (const M of Bt) {
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < i; j++) {
        const x = (M[i]![j]! + M[j]![i]!) / 2;
        M[i]![j] = x;
        M[j]![i] = x;
      }
    }
  }
  const N = Bt.reduce((s, M) => s + Math.sqrt(M.flat().reduce((t, x) => t + x * x, 0)), 0) / 2;
  const B: Record<string, number[][]> = {};
  pairs.forEach(([u, v], l) => {
    B[pairKey(u, v)] = Bt[l]!.map((row) => row.map((x) => (N > 0 ? x / N : 0)));
  });
  if (!(N > 0)) warnings.push("no fairness violation was detected (lambda_hat = 0)");
  const lambda = N > 0 ? N / (1 + N) : 0;
  return { metric: { a, B, lambda }, xi, warnings };
}

/**
 * Fair Quadratic Performance Metric Elicitation for m >= 2 groups (UAI 2022 Section 4,
 * Appendix D, Algorithm 4): with `aFrom: "lpme"` (default) first one LPME run for `a` with
 * every group at the same rates (stage `fair-a-lpme`); then for every sigma in the
 * partitions, QPME on the sphere
 * `S'_sigma = {(groups in sigma at s, others at o) : s in Sbar}` with the oracle
 * `Omega'(s1, s2) = Omega(profile(s1), profile(s2))`, then `recoverFair`. Every queried
 * group rate lies in the ball of radius rho around o (`Sbar`, assumed inside every group's
 * feasible set). Questions are staged `fair-{sigma}-...`.
 * @example const { metric } = elicitFairQpme(oracle.ask, 3, options); // a, B per pair of groups, lambda
 */
export function elicitFairQpme(ask: Ask<FairPoint>, k: number, o: FairQpmeOptions): FairQpmeResult {
  const m = o.tau.length;
  const centre = o.centre ? o.centre.slice() : new Array<number>(k).fill(1 / k);
  const M = (o.partitions ?? groupPartitions(m)).map((s) => [...s]);
  const runs: FairRun[] = [];
  const everyone = Array.from({ length: m }, (_, g) => g);
  let aHat: number[] | undefined;
  let aQuestions = 0;
  if ((o.aFrom ?? "lpme") === "lpme") {
    const askAll = (d: {
      stage: string;
      first: RatePoint;
      second: RatePoint;
      params?: readonly [number, number];
    }): Answer =>
      ask({
        stage: d.stage,
        first: profileOf(d.first.point, everyone, m, centre),
        second: profileOf(d.second.point, everyone, m, centre),
        ...(d.params ? { params: d.params } : {}),
      });
    const lin = elicitLpme(
      askAll,
      { centre, radius: o.rho ?? PAPER_RHO },
      {
        tolerance: o.tolerance,
        strategy: o.strategy,
        cycles: o.cycles,
        order: o.order,
        onShrink: o.onShrink,
        label: "fair-a-lpme",
      },
    );
    aHat = lin.slope;
    aQuestions = lin.questions;
  }
  for (const sigma of M) {
    const tag = `fair-${sigma.map((g) => g + 1).join("")}`;
    const askS = (d: {
      stage: string;
      first: RatePoint;
      second: RatePoint;
      params?: readonly [number, number];
    }): Answer =>
      ask({
        stage: `${tag}-${d.stage}`,
        first: profileOf(d.first.point, sigma, m, centre),
        second: profileOf(d.second.point, sigma, m, centre),
        ...(d.params ? { params: d.params } : {}),
      });
    const { tau: _tau, partitions: _p, aFrom: _a, ...qo } = o;
    const r = elicitQpme(askS, k, { ...qo, centre });
    runs.push({
      sigma,
      metric: r.metric,
      questions: r.questions,
      diagnostics: r.diagnostics,
      warnings: r.warnings.map((w) => `sigma={${sigma.map((g) => g + 1).join(",")}}: ${w}`),
    });
  }
  const rec = recoverFair(runs, o.tau, centre, aHat);
  return {
    metric: rec.metric,
    runs,
    questions: aQuestions + runs.reduce((s, r) => s + r.questions, 0),
    aQuestions,
    warnings: [...runs.flatMap((r) => r.warnings), ...rec.warnings],
    xi: rec.xi,
  };
}

/**
 * Fair QPME as a session procedure (for `runProcedure` and `replay`).
 * @example const { result, answers } = runProcedure(fairQpmeProcedure(3, options), oracle.ask);
 */
export function fairQpmeProcedure(
  k: number,
  o: FairQpmeOptions,
): Procedure<FairPoint, FairQpmeResult> {
  return (ask) => elicitFairQpme(ask, k, o);
}

/** Options of the lambda-only search (Algorithm 5). */
export interface LambdaSearchOptions {
  readonly tau: readonly (readonly number[])[];
  /** Known costs `a` and violation weights `B^{uv}` (normalised as in Definition 4). */
  readonly a: readonly number[];
  readonly B: Readonly<Record<string, number[][]>>;
  readonly tolerance: number;
  readonly strategy: Strategy;
  readonly centre?: readonly number[];
  readonly rho?: number;
  readonly varrho?: number;
}

export interface LambdaSearchResult {
  readonly lambda: number;
  readonly lo: number;
  readonly hi: number;
  readonly questions: number;
}

/**
 * Algorithm 5 (Appendix D.1): elicit lambda when `a` and the `B`s are known. Profiles
 * `(s, o, ..., o)` with `s` in the small ball of radius varrho around
 * `z_1 = o + (rho - varrho) alpha_1`; near `z_1` the cost is linear in `s` with slope
 * `l(lambda) = -(1 - lambda) tau^1 ⊙ a + lambda sum_v B^{1v} (z_1 - o)` (eq. (28)). For a
 * candidate lambda' the most preferred (least-cost) point of the ball is, by Lemma 1,
 * `s(lambda') = z_1 - varrho l(lambda') / ||l(lambda')||`; the oracle's preference over
 * `s(lambda')` is unimodal in lambda' (Lemma 3), so ShrinkInterval on [0, 1] to width eps;
 * output the midpoint. Bias O(varrho) from the curvature inside the small ball.
 * @example const { lambda, questions } = elicitLambda(oracle.ask, options);
 */
export function elicitLambda(ask: Ask<FairPoint>, o: LambdaSearchOptions): LambdaSearchResult {
  const k = o.a.length;
  const m = o.tau.length;
  const centre = o.centre ? o.centre.slice() : new Array<number>(k).fill(1 / k);
  const rho = o.rho ?? PAPER_RHO;
  const varrho = o.varrho ?? defaultVarrho(rho);
  const delta = rho - varrho;
  const z1 = centre.slice();
  z1[0] = z1[0]! + delta;
  // sum_v B^{1v} (z_1 - o) = delta * column 0 of sum_v B^{1v}.
  const w = new Array<number>(k).fill(0);
  for (let v = 1; v < m; v++) {
    const B = o.B[pairKey(0, v)];
    if (!B) continue;
    for (let i = 0; i < k; i++) w[i]! += B[i]![0]! * delta;
  }
  const pointAt = (lam: number): FairPoint => {
    const l = Array.from(
      { length: k },
      (_, i) => -(1 - lam) * o.tau[0]![i]! * o.a[i]! + lam * w[i]!,
    );
    const n = norm2(l);
    const s = z1.map((x, i) => x - (n > 0 ? (varrho * l[i]!) / n : 0));
    return profileOf(s, [0], m, centre);
  };
  const r = searchUnimodal(ask, {
    lo: 0,
    hi: 1,
    tolerance: o.tolerance,
    strategy: o.strategy,
    sense: "max",
    stage: "fair-lambda",
    pointAt,
  });
  return { lambda: r.estimate, lo: r.lo, hi: r.hi, questions: r.questions };
}

/**
 * Algorithm 5 as a session procedure.
 * @example const { result } = runProcedure(lambdaProcedure(options), oracle.ask); // result.lambda
 */
export function lambdaProcedure(o: LambdaSearchOptions): Procedure<FairPoint, LambdaSearchResult> {
  return (ask) => elicitLambda(ask, o);
}
