import type { Ask } from "../../search/question.ts";
import { type Ball, ballPoint, type RatePoint } from "./lpme.ts";

/**
 * Gradient directions from symmetric pairs (our QPME strategy `pairs`, issue 28 item 7).
 *
 * The papers' LPME finds a gradient direction by searching the angles of a point on a small
 * sphere, sweep after sweep (the angles interact, so UAI 2022 runs T = 3(q - 1) searches), and
 * reads a Taylor approximation (its error grows with the sphere's radius). Here every question
 * is a pair symmetric about the centre c: `c + varrho u` against `c - varrho u`. For a
 * quadratic metric the two values differ by exactly `2 varrho <g, u>` (the quadratic terms
 * cancel), so the answer is the sign of `<g, u>` with no approximation. With
 * `u = -s sin(t) e_p + cos(t) e_i` (s the sign of `g_p`) that sign says whether the angle
 * `theta_i = atan2(g_i, |g_p|)` of the gradient in the plane of coordinates p and i is above
 * t: one bisection per coordinate, each independent of the others, so one pass suffices.
 * The pivot p moves to any coordinate found larger than it (`|theta| > pi/4`), so every ratio
 * is read where it is well conditioned.
 *
 * Questions: 1 (the sign of the first pivot) + (q - 1) ceil(log2(pi / eps)); 100 at q = 12
 * and eps = 0.01, against about 1,400 for an LPME run of the paper's search.
 */

/** One coordinate's bisection: its angle against `pivot` lies in `[lo, hi]`. */
export interface PairAngle {
  readonly coordinate: number;
  readonly pivot: number;
  readonly lo: number;
  readonly hi: number;
}

/** The result of one gradient search. */
export interface PairGradient {
  /** Unit gradient direction from the intervals' midpoints. */
  readonly direction: number[];
  /** The first pivot and its sign (`g_p > 0` or `< 0`; a tie counts as +). */
  readonly firstPivot: number;
  readonly firstSign: 1 | -1;
  /** Every other coordinate's angle interval, in the order searched. */
  readonly angles: readonly PairAngle[];
  readonly questions: number;
}

/** Options of `elicitPairGradient`. */
export interface PairGradientOptions {
  /** Width of every angle's final interval (the papers' eps: 0.01). */
  readonly tolerance: number;
  /** Prefix of the questions' stage names. */
  readonly label?: string;
}

/** Number of halvings that bring an interval of width pi under `tolerance`. */
export function pairHalvings(tolerance: number): number {
  let h = 0;
  for (let w = Math.PI; w > tolerance; w /= 2) h++;
  return h;
}

/**
 * The gradient direction at `ball.centre`, from pairs symmetric about it (see the module's
 * comment). Exact intervals for a noise-free quadratic metric; a wrong answer puts an angle's
 * interval off the truth (this search, like the papers', assumes exact answers).
 * @example elicitPairGradient(oracle.ask, { centre: [0, 0, 0], radius: 0.005 }, { tolerance: 0.01 }).direction
 */
export function elicitPairGradient(
  ask: Ask<RatePoint>,
  ball: Ball,
  o: PairGradientOptions,
): PairGradient {
  const q = ball.centre.length;
  if (q < 2) throw new RangeError("a gradient search needs at least two rates");
  if (!(ball.radius > 0)) throw new RangeError("the ball must have a positive radius");
  if (!(o.tolerance > 0 && o.tolerance < Math.PI)) throw new RangeError("need 0 < tolerance < pi");
  const label = o.label ?? "pairs";
  const halvings = pairHalvings(o.tolerance);
  // Symmetric pair along u: the answer is the sign of <g, u>.
  const sign = (u: number[], stage: string): 1 | -1 => {
    const minus = u.map((x) => -x);
    const answer = ask({ stage, first: ballPoint(ball, u), second: ballPoint(ball, minus) });
    return answer === "second" ? -1 : 1;
  };
  const unitAxis = (i: number) => {
    const u = new Array<number>(q).fill(0);
    u[i] = 1;
    return u;
  };
  const firstPivot = 0;
  const firstSign = sign(unitAxis(firstPivot), `${label}-sign`);
  let questions = 1;
  // R_j = g_j / |g_firstPivot|, filled as the angles are found.
  const R = new Array<number>(q).fill(0);
  R[firstPivot] = firstSign;
  let pivot = firstPivot;
  const angles: PairAngle[] = [];
  for (let i = 0; i < q; i++) {
    if (i === firstPivot) continue;
    const s = Math.sign(R[pivot]!) || 1;
    let lo = -Math.PI / 2;
    let hi = Math.PI / 2;
    for (let h = 0; h < halvings; h++) {
      const t = (lo + hi) / 2;
      const u = new Array<number>(q).fill(0);
      u[pivot] = -s * Math.sin(t);
      u[i] = Math.cos(t);
      // <g, u> = |g_p| cos(t) (tan(theta) - tan(t)): positive iff theta > t.
      if (sign(u, `${label}-angle-${i + 1}`) > 0) lo = t;
      else hi = t;
      questions++;
    }
    angles.push({ coordinate: i, pivot, lo, hi });
    R[i] = Math.abs(R[pivot]!) * Math.tan((lo + hi) / 2);
    if (Math.abs(R[i]!) > Math.abs(R[pivot]!)) pivot = i;
  }
  return {
    direction: pairDirection(firstPivot, firstSign, angles, (a) => (a.lo + a.hi) / 2),
    firstPivot,
    firstSign,
    angles,
    questions,
  };
}

/**
 * The unit direction given one angle per searched coordinate (`pick`: the midpoint, or a draw
 * within the interval for a credible region).
 * @example pairDirection(0, 1, [{ coordinate: 1, pivot: 0, lo: 0.7, hi: 0.9 }], () => Math.PI / 4) // [0.707.., 0.707..]
 */
export function pairDirection(
  firstPivot: number,
  firstSign: 1 | -1,
  angles: readonly PairAngle[],
  pick: (a: PairAngle) => number,
): number[] {
  const q = angles.length + 1;
  const R = new Array<number>(q).fill(0);
  R[firstPivot] = firstSign;
  for (const a of angles) R[a.coordinate] = Math.abs(R[a.pivot]!) * Math.tan(pick(a));
  let n = 0;
  for (const x of R) n += x * x;
  n = Math.sqrt(n);
  return R.map((x) => x / n);
}
