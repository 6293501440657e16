import type { MulticlassPool } from "../../src/geometry/multiclass/pool.ts";

/**
 * The finite-sample resolution of pair (p, i) for a true DLPM a: the range of m whose RBO
 * point is within a relative 1e-4 of the best value — steps of the staircase boundary that
 * no stakeholder could tell apart from the optimum (Definition 7 with eps_Omega = 1e-4 |psi*|: a 0.01% difference in expected utility).
 * The RBO labels point n with p when m >= b_n = eta_i / (eta_p + eta_i).
 */
export function resolution(
  pool: MulticlassPool,
  a: readonly number[],
  p: number,
  i: number,
): [number, number] {
  const pts: { b: number; ep: number; ei: number }[] = [];
  for (let n = 0; n < pool.n; n++) {
    const ep = pool.eta[n * pool.k + p]!;
    const ei = pool.eta[n * pool.k + i]!;
    pts.push({ b: ep + ei === 0 ? 0 : ei / (ep + ei), ep, ei });
  }
  pts.sort((x, y) => x.b - y.b);
  // Step s: the s points with the smallest b are labelled p, the rest i.
  let dp = 0;
  let di = pts.reduce((t, x) => t + x.ei, 0);
  const steps: { lo: number; hi: number; v: number }[] = [];
  for (let s = 0; s <= pts.length; s++) {
    if (s > 0) {
      dp += pts[s - 1]!.ep;
      di -= pts[s - 1]!.ei;
    }
    const lo = s === 0 ? 0 : pts[s - 1]!.b;
    const hi = s === pts.length ? 1 : pts[s]!.b;
    steps.push({ lo, hi, v: (a[p]! * dp + a[i]! * di) / pool.n });
  }
  const best = Math.max(...steps.map((x) => x.v));
  const near = steps.filter((x) => x.v >= best - 1e-4 * Math.abs(best));
  return [Math.min(...near.map((x) => x.lo)), Math.max(...near.map((x) => x.hi))];
}
