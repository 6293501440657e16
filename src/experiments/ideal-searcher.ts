import { fairToW } from "../elicit/adaptive/families/fair.ts";
import { fairError, normalizeFair, randomFairMetric } from "../elicit/fair/metric.ts";
import { wilsonInterval } from "../math/binomial.ts";
import { createRng, type Rng } from "../math/rng.ts";
import { quantile } from "../math/stats.ts";
import { randomMulticlassTruth } from "./simulate-multiclass.ts";

/**
 * How close a searcher could come that is TOLD how the person errs: each answer is right
 * except that it is flipped with probability `flip`, whatever the pair (the people panel's
 * 5-20% flips, `src/oracle/people.ts`). The searcher knows this exactly, may cut the metric's
 * space anywhere (no display, no set of classifiers to choose pairs from) and updates a
 * Bayesian posterior: exact on a fine grid (one or two free parameters), particles for LPM's
 * six costs and the whole fair metric's five numbers. It bounds what the engine can reach on those
 * cells, which learns the person instead of being told (issue 26's targets: error p95 at most
 * twice the tolerance within 30 questions). Pure and seeded.
 */
export interface IdealSearchOptions {
  /** Probability that an answer is flipped (0.2: the panel's `flips-20`). */
  readonly flip: number;
  /** Questions per run (fixed: the searcher never stops early). */
  readonly questions: number;
  readonly trials: number;
  /** Error above which a run misses (twice the family's tolerance). */
  readonly target: number;
  readonly seed: string;
}

/** The searcher's errors over its runs, against `target`. */
export interface IdealSearchSummary {
  readonly trials: number;
  readonly error: { readonly p50: number; readonly p95: number; readonly max: number };
  /** Share of runs whose error is above the target, with its 95% Wilson interval. */
  readonly beyond: { readonly share: number; readonly low: number; readonly high: number };
  /**
   * The chance that a cell of 30 runs, as `reproduce people` draws one, has its error p95
   * within the target: 30 of this searcher's runs drawn at random, 4000 times.
   */
  readonly cellWithin: number;
}

/**
 * A searcher's runs summarised against `target` (errors in any order; `rng` draws the cells).
 * @example summarise([0.01, 0.3], 0.2, createRng("s")).beyond.share // 0.5
 */
export function summarise(errors: readonly number[], target: number, rng: Rng): IdealSearchSummary {
  const beyond = errors.filter((e) => e > target).length;
  const interval = wilsonInterval(beyond, errors.length, 0.95)!;
  const draws = 4000;
  let within = 0;
  const cell = new Float64Array(30);
  for (let d = 0; d < draws; d++) {
    for (let i = 0; i < cell.length; i++) cell[i] = errors[rng.int(errors.length)]!;
    if (quantile(cell, 0.95) <= target) within++;
  }
  return {
    trials: errors.length,
    error: { p50: quantile(errors, 0.5), p95: quantile(errors, 0.95), max: Math.max(...errors) },
    beyond: { share: beyond / errors.length, low: interval.low, high: interval.high },
    cellWithin: within / draws,
  };
}

/**
 * Bayes update of the grid's weights for the answer `below` ("below the cut"), flipped with
 * probability `flip`; `isBelow(i)` says which side of the cut grid point i is on.
 */
function update(
  w: Float64Array,
  isBelow: (i: number) => boolean,
  below: boolean,
  flip: number,
): void {
  const inside = below ? 1 - flip : flip;
  const outside = below ? flip : 1 - flip;
  let total = 0;
  for (let i = 0; i < w.length; i++) {
    w[i]! *= isBelow(i) ? inside : outside;
    total += w[i]!;
  }
  for (let i = 0; i < w.length; i++) w[i]! /= total;
}

/**
 * The index of the first cell whose cumulative mass reaches `q`.
 * @example massIndex(Float64Array.of(0.2, 0.5, 0.3), 0.6) // 1
 */
export function massIndex(w: Float64Array, q: number): number {
  let c = 0;
  for (let i = 0; i < w.length; i++) {
    c += w[i]!;
    if (c >= q) return i;
  }
  return w.length - 1;
}

/**
 * One-dimensional search for a value uniform on [0, `length`] (binary-linear's angle on
 * [0, pi/2], lambda on its range): each question asks "is it below this cut?".
 * `policy` "median" is probabilistic bisection (every cut at the posterior median, the
 * estimate the median: it gains the most information per answer); "tail" bisects too but
 * spends its last `tailQuestions` on the cut that maximises the expected posterior mass
 * within the target of the best estimate, and estimates the centre of the window of width
 * 2 x target holding the most mass (it trades the median error for the tail).
 * @example idealLineSearch({ flip: 0.2, questions: 30, trials: 500, target: 0.04, seed: "s", length: Math.PI / 2, policy: "median" }).beyond.share // about 0.08
 */
export function idealLineSearch(
  o: IdealSearchOptions & {
    readonly length: number;
    readonly policy: "median" | "tail";
    readonly grid?: number;
    readonly tailQuestions?: number;
  },
): IdealSearchSummary {
  const grid = o.grid ?? 800;
  const step = o.length / grid;
  // Cells of the window of width 2 x target.
  const width = Math.max(1, Math.round((2 * o.target) / step));
  const tail = o.policy === "tail" ? (o.tailQuestions ?? 8) : 0;
  const rng = createRng(`ideal-line:${o.seed}`);
  const w = new Float64Array(grid);
  const prefix = new Float64Array(grid + 1);
  const errors: number[] = [];
  for (let t = 0; t < o.trials; t++) {
    const truth = rng.uniform(0, o.length);
    w.fill(1 / grid);
    for (let q = 0; q < o.questions; q++) {
      let cut: number;
      if (q < o.questions - tail) {
        cut = massIndex(w, 0.5) + 1;
      } else {
        for (let i = 0; i < grid; i++) prefix[i + 1] = prefix[i]! + w[i]!;
        // Cuts where the belief has mass: the rest cannot move it.
        const from = massIndex(w, 1e-4);
        const to = massIndex(w, 1 - 1e-4) + 1;
        // At most about 100 cuts scored, evenly over the belief's support.
        const stride = Math.max(1, Math.ceil((to - from) / 100));
        cut = from + 1;
        let best = -1;
        for (let k = from + 1; k <= to; k += stride) {
          let score = 0;
          for (const below of [true, false]) {
            const inside = below ? 1 - o.flip : o.flip;
            const outside = below ? o.flip : 1 - o.flip;
            let top = 0;
            for (let j = 0; j + width <= grid; j++) {
              const end = j + width;
              const split = Math.min(Math.max(k, j), end);
              const m =
                inside * (prefix[split]! - prefix[j]!) + outside * (prefix[end]! - prefix[split]!);
              if (m > top) top = m;
            }
            score += top;
          }
          if (score > best) {
            best = score;
            cut = k;
          }
        }
      }
      const right = truth < cut * step;
      update(w, (i) => i < cut, rng.next() < o.flip ? !right : right, o.flip);
    }
    let estimate: number;
    if (o.policy === "median") {
      estimate = (massIndex(w, 0.5) + 0.5) * step;
    } else {
      for (let i = 0; i < grid; i++) prefix[i + 1] = prefix[i]! + w[i]!;
      let top = -1;
      for (let j = 0; j + width <= grid; j++) top = Math.max(top, prefix[j + width]! - prefix[j]!);
      // A belief narrower than the window fills many windows alike: the middle one of those.
      let first = -1;
      let last = -1;
      for (let j = 0; j + width <= grid; j++) {
        if (prefix[j + width]! - prefix[j]! >= top - 1e-12) {
          if (first < 0) first = j;
          last = j;
        }
      }
      estimate = ((first + last) / 2 + width / 2) * step;
    }
    errors.push(Math.abs(estimate - truth));
  }
  return summarise(errors, o.target, rng);
}

/**
 * Two-dimensional search for three weights summing to 1 (a DLPM of three classes), drawn as
 * the people panel draws them (uniform numbers, normalised). Each question cuts the simplex
 * along a line through the posterior median in one of `directions` directions, the one whose
 * answer leaves the least expected posterior variance (across the belief's widest extent);
 * the estimate is the posterior mean; the error is the largest of the three weights' errors.
 * @example idealSimplexSearch({ flip: 0.2, questions: 30, trials: 200, target: 0.1, seed: "s" }).error.p95 // about 0.15
 */
export function idealSimplexSearch(
  o: IdealSearchOptions & { readonly step?: number; readonly directions?: number },
): IdealSearchSummary {
  const h = o.step ?? 0.01;
  const n = Math.round(1 / h);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i <= n; i++)
    for (let j = 0; i + j <= n; j++) {
      xs.push(i * h);
      ys.push(j * h);
    }
  const size = xs.length;
  // x^2 + y^2 of each point, as the variance sums use it.
  const squares = Float64Array.from(xs, (x, i) => x ** 2 + ys[i]! ** 2);
  const directions = o.directions ?? 6;
  const bins = 1024;
  const rng = createRng(`ideal-simplex:${o.seed}`);
  const w = new Float64Array(size);
  const proj = new Float64Array(size);
  const hist = new Float64Array(bins);
  const errors: number[] = [];
  for (let t = 0; t < o.trials; t++) {
    const truth = randomMulticlassTruth("diagonal-linear", 3, rng);
    w.fill(1 / size);
    for (let q = 0; q < o.questions; q++) {
      const turn = rng.uniform(0, Math.PI / directions);
      let best = { spread: Infinity, dx: 1, dy: 0, cut: 0 };
      for (let d = 0; d < directions; d++) {
        const angle = turn + (d * Math.PI) / directions;
        const dx = Math.cos(angle);
        const dy = Math.sin(angle);
        let lo = Infinity;
        let hi = -Infinity;
        for (let s = 0; s < size; s++) {
          proj[s] = dx * xs[s]! + dy * ys[s]!;
          if (proj[s]! < lo) lo = proj[s]!;
          if (proj[s]! > hi) hi = proj[s]!;
        }
        // The median of the projection, to a bin of the histogram.
        hist.fill(0);
        const scale = (bins - 1e-9) / (hi - lo);
        for (let s = 0; s < size; s++) hist[Math.floor((proj[s]! - lo) * scale)]! += w[s]!;
        let c = 0;
        let b = 0;
        while (b < bins - 1 && c + hist[b]! < 0.5) c += hist[b++]!;
        const cut = lo + (b + 1) / scale;
        // Expected posterior variance (x and y, the third weight follows) over the answers
        // "below" and "above", both in one pass (each sum over the points in their order).
        const keep = 1 - o.flip;
        let m0 = 0;
        let sx0 = 0;
        let sy0 = 0;
        let sq0 = 0;
        let m1 = 0;
        let sx1 = 0;
        let sy1 = 0;
        let sq1 = 0;
        for (let s = 0; s < size; s++) {
          const isBelow = proj[s]! < cut;
          const v0 = w[s]! * (isBelow ? keep : o.flip);
          const v1 = w[s]! * (isBelow ? o.flip : keep);
          const x = xs[s]!;
          const y = ys[s]!;
          const r2 = squares[s]!;
          m0 += v0;
          sx0 += v0 * x;
          sy0 += v0 * y;
          sq0 += v0 * r2;
          m1 += v1;
          sx1 += v1 * x;
          sy1 += v1 * y;
          sq1 += v1 * r2;
        }
        let spread = 0;
        spread += sq0 - (sx0 * sx0 + sy0 * sy0) / m0;
        spread += sq1 - (sx1 * sx1 + sy1 * sy1) / m1;
        if (spread < best.spread) best = { spread, dx, dy, cut };
      }
      const right = best.dx * truth[0]! + best.dy * truth[1]! < best.cut;
      const cutBelow = (s: number) => best.dx * xs[s]! + best.dy * ys[s]! < best.cut;
      update(w, cutBelow, rng.next() < o.flip ? !right : right, o.flip);
    }
    let ex = 0;
    let ey = 0;
    for (let s = 0; s < size; s++) {
      ex += w[s]! * xs[s]!;
      ey += w[s]! * ys[s]!;
    }
    const estimate = [ex, ey, 1 - ex - ey];
    errors.push(Math.max(...estimate.map((e, i) => Math.abs(e - truth[i]!))));
  }
  return summarise(errors, o.target, rng);
}

/** The six costs of an LPM of three classes from its five angles, as the panel maps them. */
function costsOf(theta: Float64Array, at: number, out: Float64Array): void {
  let s = 1;
  for (let i = 0; i < 5; i++) {
    out[i] = -s * Math.cos(theta[at + i]!);
    s *= Math.sin(theta[at + i]!);
  }
  out[5] = -s;
}

/**
 * Misses of `w` against the first `count` answers: their pairs' differences, `w.length` each
 * in one array (the Metropolis moves' inner loop), and their sides.
 */
function misses(w: Float64Array, deltas: Float64Array, sides: Uint8Array, count: number) {
  const dim = w.length;
  let k = 0;
  for (let a = 0; a < count; a++) {
    let v = 0;
    for (let i = 0; i < dim; i++) v += w[i]! * deltas[a * dim + i]!;
    if ((v > 0 ? 1 : 0) !== sides[a]) k++;
  }
  return k;
}

/**
 * A metric's parameter space as the particle searcher sees it: where a particle may be, its
 * prior, its metric's direction `w` (an answer's side is that of `<w, delta>`), the
 * statistics whose posterior variance the cuts reduce, and the truths with their errors.
 */
interface ParticleSpace {
  /** Length of a particle's position. */
  readonly stride: number;
  /** Length of a metric's direction `w`. */
  readonly dim: number;
  /** Length of a particle's statistics. */
  readonly width: number;
  /** A position drawn from the prior into `pos` at `at`. */
  draw(rng: Rng, pos: Float64Array, at: number): void;
  /** Whether the position in `pos` at `at` is in the space. */
  inside(pos: Float64Array, at: number): boolean;
  /** Log prior density of a position, up to a constant. */
  logPrior(pos: Float64Array, at: number): number;
  /** The unit direction `w` of a position into `out`. */
  direction(pos: Float64Array, at: number, out: Float64Array): void;
  /** The statistics of a direction into `out` at `at`. */
  stats(w: Float64Array, out: Float64Array, at: number): void;
  /** A truth: its direction and the error of the estimate made from the statistics' mean. */
  truth(rng: Rng): { readonly w: Float64Array; readonly error: (mean: Float64Array) => number };
}

/** The particle searcher's tuning (see `idealCostSearch`). */
interface ParticleOptions extends IdealSearchOptions {
  readonly particles?: number;
  readonly moves?: number;
  readonly directions?: number;
}

/**
 * The particle searcher on `space`: `particles` positions reweighted by each answer (flipped
 * with probability `flip`) and, when their effective number falls below half, resampled and
 * moved by `moves` Metropolis steps on every answer's likelihood. Each question is a
 * hyperplane through the posterior's median along one of `directions` directions (the
 * belief's principal axes and random ones, across its mean direction), the one whose answer
 * leaves the least expected variance of the statistics; the estimate is made from the
 * statistics' posterior mean. The truths are drawn from `truths` (by default the searcher's
 * own stream; a stream of their own keeps them the same whatever the searcher's settings).
 */
function particleSearch(
  space: ParticleSpace,
  o: ParticleOptions,
  rng: Rng,
  truths: Rng = rng,
): IdealSearchSummary {
  const n = o.particles ?? 2000;
  const moves = o.moves ?? 6;
  const directions = o.directions ?? 8;
  const { stride, dim, width } = space;
  const pos = new Float64Array(n * stride);
  const ws = new Float64Array(n * dim);
  const stats = new Float64Array(n * width);
  const weight = new Float64Array(n);
  const miss = new Int32Array(n);
  const proposal = new Float64Array(stride);
  const trial = new Float64Array(dim);
  const trialStats = new Float64Array(width);
  const mean = new Float64Array(dim);
  const values = new Float64Array(n);
  const ratio = new Float64Array(n);
  const along = new Float64Array(n);
  // Each particle's log prior, kept with its position (a move's proposal needs the current one).
  const prior = new Float64Array(n);
  const logOdds = Math.log(o.flip / (1 - o.flip));
  const errors: number[] = [];
  const wOf = (p: number) => ws.subarray(p * dim, p * dim + dim);
  const place = (p: number) => {
    space.direction(pos, p * stride, wOf(p));
    space.stats(wOf(p), stats, p * width);
  };
  for (let t = 0; t < o.trials; t++) {
    const truth = space.truth(truths);
    for (let p = 0; p < n; p++) {
      space.draw(rng, pos, p * stride);
      place(p);
    }
    weight.fill(1 / n);
    miss.fill(0);
    const deltas = new Float64Array(o.questions * dim);
    const sides = new Uint8Array(o.questions);
    let asked = 0;
    for (let q = 0; q < o.questions; q++) {
      // The posterior mean direction and the candidates across it.
      mean.fill(0);
      for (let p = 0; p < n; p++)
        for (let i = 0; i < dim; i++) mean[i]! += weight[p]! * ws[p * dim + i]!;
      const m = Float64Array.from(mean);
      const norm = Math.hypot(...m);
      for (let i = 0; i < dim; i++) m[i]! /= norm;
      const candidates = principalDirections(ws, weight, m, 3, rng);
      while (candidates.length < directions) {
        const v = Float64Array.from({ length: dim }, () => rng.normal());
        candidates.push(across(v, m));
      }
      // <w, m> per particle, the same for every candidate.
      for (let p = 0; p < n; p++) {
        let b = 0;
        for (let i = 0; i < dim; i++) b += ws[p * dim + i]! * m[i]!;
        along[p] = b;
      }
      let best = { spread: Infinity, delta: candidates[0]! };
      for (const v of candidates) {
        // The cut through the median of <w, v> / <w, m>: its normal delta = v - c m.
        for (let p = 0; p < n; p++) {
          let a = 0;
          for (let i = 0; i < dim; i++) a += ws[p * dim + i]! * v[i]!;
          ratio[p] = a / along[p]!;
        }
        const c = weightedMedian(ratio, weight);
        const delta = Float64Array.from(v, (x, i) => x - c * m[i]!);
        for (let p = 0; p < n; p++) {
          let v2 = 0;
          for (let i = 0; i < dim; i++) v2 += ws[p * dim + i]! * delta[i]!;
          values[p] = v2;
        }
        const spread = expectedSpread(stats, weight, values, o.flip, width);
        if (spread < best.spread) best = { spread, delta };
      }
      let truthValue = 0;
      for (let i = 0; i < dim; i++) truthValue += truth.w[i]! * best.delta[i]!;
      const right = truthValue > 0;
      const side = rng.next() < o.flip ? !right : right;
      deltas.set(best.delta, asked * dim);
      sides[asked++] = side ? 1 : 0;
      let total = 0;
      let squares = 0;
      for (let p = 0; p < n; p++) {
        let v2 = 0;
        for (let i = 0; i < dim; i++) v2 += ws[p * dim + i]! * best.delta[i]!;
        const agrees = v2 > 0 === side;
        if (!agrees) miss[p]!++;
        weight[p]! *= agrees ? 1 - o.flip : o.flip;
        total += weight[p]!;
      }
      for (let p = 0; p < n; p++) {
        weight[p]! /= total;
        squares += weight[p]! ** 2;
      }
      if (1 / squares >= n / 2) continue;
      resample(pos, miss, weight, rng);
      for (let p = 0; p < n; p++) {
        place(p);
        prior[p] = space.logPrior(pos, p * stride);
      }
      // Metropolis moves, each coordinate's step a half of its spread.
      const step = angleSpread(pos, stride).map((s) => Math.max(1e-3, 0.5 * s));
      for (let s = 0; s < moves; s++) {
        for (let p = 0; p < n; p++) {
          for (let i = 0; i < stride; i++)
            proposal[i] = pos[p * stride + i]! + step[i]! * rng.normal();
          if (!space.inside(proposal, 0)) continue;
          space.direction(proposal, 0, trial);
          const k = misses(trial, deltas, sides, asked);
          const proposed = space.logPrior(proposal, 0);
          // (k - misses) x log-odds, written so that no flips (log-odds -inf) never makes a NaN.
          const change = (k === miss[p]! ? 0 : (k - miss[p]!) * logOdds) + proposed - prior[p]!;
          const accept = change >= 0 || Math.log(rng.next()) < change;
          if (accept) {
            pos.set(proposal, p * stride);
            prior[p] = proposed;
            wOf(p).set(trial);
            space.stats(trial, trialStats, 0);
            stats.set(trialStats, p * width);
            miss[p] = k;
          }
        }
      }
    }
    const statsMean = new Float64Array(width);
    for (let p = 0; p < n; p++)
      for (let i = 0; i < width; i++) statsMean[i]! += weight[p]! * stats[p * width + i]!;
    errors.push(truth.error(statsMean));
  }
  return summarise(errors, o.target, rng);
}

/**
 * Search for the six costs of an LPM of three classes (the off-diagonal confusions' weights,
 * <= 0, unit length), drawn as the people panel draws them (`randomMulticlassTruth`: five
 * angles uniform on [0, pi/2]), by `particleSearch` in angle space (2000 particles, 6 moves,
 * 8 directions by default); its statistics are the costs, the estimate their posterior mean
 * normalised, the error the largest of the six costs' errors, as the people panel measures
 * LPM's.
 * @example idealCostSearch({ flip: 0.2, questions: 45, trials: 100, target: 0.2, seed: "s" }).error.p95 // about 0.2
 */
export function idealCostSearch(
  o: ParticleOptions & {
    /**
     * The searcher's prior: "panel" (default) the truths' own draw, angles uniform, which
     * puts most mass near the first cost alone; "uniform" uniform on the unit sphere's
     * negative orthant, the uniform part of the engine's prior.
     */
    readonly prior?: "panel" | "uniform";
  },
): IdealSearchSummary {
  const uniform = o.prior === "uniform";
  const space: ParticleSpace = {
    stride: 5,
    dim: 6,
    width: 6,
    draw: (rng, pos, at) => {
      if (uniform) {
        const g = Array.from({ length: 6 }, () => Math.abs(rng.normal()));
        // Angles of g: theta_i = atan2(|g_(i+1..)|, g_i).
        for (let i = 0; i < 5; i++) {
          let rest = 0;
          for (let j = i + 1; j < 6; j++) rest += g[j]! ** 2;
          pos[at + i] = Math.atan2(Math.sqrt(rest), g[i]!);
        }
      } else for (let i = 0; i < 5; i++) pos[at + i] = rng.uniform(0, Math.PI / 2);
    },
    inside: (pos, at) => {
      for (let i = 0; i < 5; i++) if (pos[at + i]! < 0 || pos[at + i]! > Math.PI / 2) return false;
      return true;
    },
    // Uniform angles, or the sphere's volume element.
    logPrior: (pos, at) => {
      if (!uniform) return 0;
      let l = 0;
      for (let i = 0; i < 4; i++) l += (4 - i) * Math.log(Math.sin(pos[at + i]!));
      return l;
    },
    direction: costsOf,
    stats: (w, out, at) => out.set(w, at),
    truth: (rng) => {
      const truth = randomMulticlassTruth("linear", 3, rng);
      return {
        w: Float64Array.from(truth),
        error: (mean) => {
          const norm = Math.hypot(...Array.from(mean, (x) => Math.min(0, x)));
          const estimate = Array.from(mean, (x) => Math.min(0, x) / norm);
          return Math.max(...estimate.map((e, i) => Math.abs(e - truth[i]!)));
        },
      };
    },
  };
  return particleSearch(space, o, createRng(`ideal-costs:${o.seed}`));
}

/**
 * Search for the whole fair metric of two classes and two groups (costs `a`, the gap weights
 * `B` of the one pair of groups, `lambda`), drawn as the people panel draws it
 * (`randomFairMetric`: lambda uniform on [0.25, 0.75]), by `particleSearch` on its parameter
 * direction `w = ((1 - lambda) a, lambda B)` (`fairToW`, five numbers; 2000 particles, 6
 * moves, 16 directions by default). The prior is uniform
 * on the directions with `a >= 0` and `B`'s diagonal >= 0, the engine's own (particles
 * uniform in that part of the unit ball); the statistics are `a`, `B` (its off-diagonal entry
 * times sqrt 2) and lambda, the estimate their posterior mean (normalised as `normalizeFair`),
 * the error the panel's: max(||a - a'||, ||B - B'||_F, |lambda - lambda'|).
 * @example idealFairSearch({ flip: 0.1, questions: 30, trials: 100, target: 0.2, seed: "s" }).error.p95
 */
export function idealFairSearch(o: ParticleOptions): IdealSearchSummary {
  // w = (a1, a2, B11, B22, sqrt 2 B12) up to scale; the first four >= 0.
  const space: ParticleSpace = {
    stride: 5,
    dim: 5,
    width: 6,
    draw: (rng, pos, at) => {
      const g = Array.from({ length: 5 }, (_, i) =>
        i < 4 ? Math.abs(rng.normal()) : rng.normal(),
      );
      const r = rng.next() ** (1 / 5) / Math.hypot(...g);
      for (let i = 0; i < 5; i++) pos[at + i] = r * g[i]!;
    },
    inside: (pos, at) => {
      let s = 0;
      for (let i = 0; i < 5; i++) {
        if (i < 4 && pos[at + i]! < 0) return false;
        s += pos[at + i]! ** 2;
      }
      return s <= 1;
    },
    logPrior: () => 0,
    direction: (pos, at, out) => {
      const norm = Math.hypot(pos[at]!, pos[at + 1]!, pos[at + 2]!, pos[at + 3]!, pos[at + 4]!);
      for (let i = 0; i < 5; i++) out[i] = pos[at + i]! / norm;
    },
    stats: fairStats,
    truth: (rng) => {
      const metric = normalizeFair(randomFairMetric(2, 2, rng));
      return {
        w: fairToW(metric, 2),
        error: (mean) => {
          const off = mean[4]! / Math.SQRT2;
          const estimate = normalizeFair({
            a: [mean[0]!, mean[1]!],
            B: {
              "0-1": [
                [mean[2]!, off],
                [off, mean[3]!],
              ],
            },
            lambda: mean[5]!,
          });
          const e = fairError(metric, estimate);
          return Math.max(e.a, e.B, e.lambda);
        },
      };
    },
  };
  const rng = createRng(`ideal-fair:${o.seed}`);
  // 16 directions (tune-a, 10% flips, 100 runs, the same truths: 8 left 11% beyond the
  // target, 16 9%; 4000 particles and 12 moves with 16, 8%).
  return particleSearch(
    space,
    { directions: 16, ...o },
    rng,
    createRng(`ideal-fair-truths:${o.seed}`),
  );
}

/**
 * The whole fair metric's statistics of a direction `w` (two classes, two groups) into `out`
 * at `at`: a, B's diagonal, sqrt 2 times its off-diagonal entry and lambda, as
 * `wToFair(w, 2, 2)` gives them (the same operations in the same order, so the same numbers
 * to the bit), without building the metric: it runs for every particle after each resampling.
 */
function fairStats(w: Float64Array, out: Float64Array, at: number): void {
  let sa = 0;
  sa += w[0]! * w[0]!;
  sa += w[1]! * w[1]!;
  sa = Math.sqrt(sa);
  let f = 0;
  f += w[2]! * w[2]!;
  f += w[3]! * w[3]!;
  f += w[4]! * w[4]!;
  let sb = 0;
  sb += Math.sqrt(f) / 2;
  const off = w[4]! * Math.SQRT1_2;
  out[at] = sa > 0 ? w[0]! / sa : 1 / Math.sqrt(2);
  out[at + 1] = sa > 0 ? w[1]! / sa : 1 / Math.sqrt(2);
  out[at + 2] = sb > 0 ? w[2]! / sb : 0;
  out[at + 3] = sb > 0 ? w[3]! / sb : 0;
  out[at + 4] = Math.SQRT2 * (sb > 0 ? off / sb : 0);
  out[at + 5] = sa + sb > 0 ? sb / (sa + sb) : 0;
}

/** `v` without its part along the unit vector `m`, made unit. */
function across(v: Float64Array, m: Float64Array): Float64Array {
  let along = 0;
  for (let i = 0; i < v.length; i++) along += v[i]! * m[i]!;
  for (let i = 0; i < v.length; i++) v[i]! -= along * m[i]!;
  const norm = Math.hypot(...v) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

/**
 * The `count` directions of largest weighted spread of the points (`m.length` coordinates
 * each, in `points`) across `m` (power iteration).
 */
function principalDirections(
  points: Float64Array,
  weight: Float64Array,
  m: Float64Array,
  count: number,
  rng: Rng,
): Float64Array[] {
  const d = m.length;
  const cov = new Float64Array(d * d);
  const x = new Float64Array(d);
  for (let p = 0; p < weight.length; p++) {
    // The particle's offset across m's line.
    let along = 0;
    for (let i = 0; i < d; i++) along += points[p * d + i]! * m[i]!;
    for (let i = 0; i < d; i++) x[i] = points[p * d + i]! - along * m[i]!;
    for (let i = 0; i < d; i++)
      for (let j = 0; j < d; j++) cov[i * d + j]! += weight[p]! * x[i]! * x[j]!;
  }
  const axes: Float64Array[] = [];
  for (let c = 0; c < count; c++) {
    let v = across(
      Float64Array.from({ length: d }, () => rng.normal()),
      m,
    );
    for (let iter = 0; iter < 30; iter++) {
      const next = new Float64Array(d);
      for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) next[i]! += cov[i * d + j]! * v[j]!;
      for (const u of axes) {
        let s = 0;
        for (let i = 0; i < d; i++) s += next[i]! * u[i]!;
        for (let i = 0; i < d; i++) next[i]! -= s * u[i]!;
      }
      v = across(next, m);
    }
    axes.push(v);
  }
  return axes;
}

/** Scratch arrays of `weightedMedian`, grown as needed (the searcher calls it per candidate). */
let medianKeys = new Float64Array(0);
let medianWeights = new Float64Array(0);

/**
 * The weighted median of `values`: the first value, in increasing order, at which the weights
 * summed in that order reach a half. Equal values are summed next to each other in any order,
 * which gives the same sums as a stable sort would: here equal values come from copies of one
 * particle (resampling), whose weights are equal.
 *
 * Found by weighted selection (`selectWeightedMedian`, linear time) when its sums leave no
 * doubt, else by sorting: the sums in sorted order, which define the result, and the
 * selection's, taken in another order, differ by rounding only, so where the selection's
 * mass below its value is under a half by more than that and its mass through it over a half
 * by more, the sort would return the same value to the bit.
 * @example weightedMedian(Float64Array.of(3, 1, 2), Float64Array.of(0.2, 0.3, 0.5)) // 2
 */
export function weightedMedian(values: Float64Array, weight: Float64Array): number {
  const n = values.length;
  if (medianKeys.length < n) {
    medianKeys = new Float64Array(n);
    medianWeights = new Float64Array(n);
  }
  const keys = medianKeys.subarray(0, n);
  const w = medianWeights.subarray(0, n);
  keys.set(values);
  w.set(weight);
  const picked = equalWeightsMedian(keys, w) ?? selectWeightedMedian(keys, w);
  if (picked !== undefined) return picked;
  keys.set(values);
  w.set(weight);
  sortTogether(keys, w, 0, n - 1);
  let c = 0;
  for (let i = 0; i < n; i++) {
    c += w[i]!;
    if (c >= 0.5) return keys[i]!;
  }
  return keys[n - 1]!;
}

/**
 * The weighted median of `keys` (weights `w`, both reordered in place) by three-way
 * partitioning around a median-of-three pivot, or undefined where rounding could decide it
 * (its mass below the value or through it within `MEDIAN_DOUBT` of a half) or a key is NaN.
 * `MEDIAN_DOUBT` is far above the rounding of any order's sum of a few thousand weights
 * summing to 1 (at most n x 2^-53 each, 2e-13 for 2000).
 */
function selectWeightedMedian(keys: Float64Array, w: Float64Array): number | undefined {
  for (let i = 0; i < keys.length; i++) if (Number.isNaN(keys[i]!)) return undefined;
  let lo = 0;
  let hi = keys.length - 1;
  // The mass of the keys known to be below keys[lo..hi].
  let below = 0;
  while (lo <= hi) {
    const pivot = medianOfThree(keys, lo, hi);
    partition3(keys, w, lo, hi, pivot);
    const { lt, gt, less, equal } = parted;
    if (below + less >= 0.5) {
      hi = lt - 1;
    } else if (below + less + equal >= 0.5) {
      const before = below + less;
      const through = before + equal;
      return before < 0.5 - MEDIAN_DOUBT && through >= 0.5 + MEDIAN_DOUBT ? pivot : undefined;
    } else {
      below += less + equal;
      lo = gt + 1;
    }
  }
  return undefined;
}

/** Where the last `partition3` put its bounds, and the weights it found below and equal. */
const parted = { lt: 0, gt: 0, less: 0, equal: 0 };

/**
 * Three-way partition of `keys[lo..hi]` around `pivot`, `w` moved along (Dutch national
 * flag): afterwards [lo, lt) is below the pivot, [lt, gt] equal to it and (gt, hi] above,
 * with `less` and `equal` the weights of the first two parts (`parted`).
 */
function partition3(keys: Float64Array, w: Float64Array, lo: number, hi: number, pivot: number) {
  let lt = lo;
  let gt = hi;
  let i = lo;
  let less = 0;
  let equal = 0;
  while (i <= gt) {
    const k = keys[i]!;
    if (k < pivot) {
      less += w[i]!;
      swap(keys, w, lt++, i++);
    } else if (k > pivot) {
      swap(keys, w, i, gt--);
    } else {
      equal += w[i]!;
      i++;
    }
  }
  parted.lt = lt;
  parted.gt = gt;
  parted.less = less;
  parted.equal = equal;
}

const MEDIAN_DOUBT = 1e-9;

/** The median of `keys` at lo, the middle of lo..hi and hi: a quickselect's pivot. */
function medianOfThree(keys: Float64Array, lo: number, hi: number): number {
  const a = keys[lo]!;
  const b = keys[(lo + hi) >>> 1]!;
  const c = keys[hi]!;
  // Comparisons only (not Math.min / max): the pivot is one of the three keys as stored.
  if (a < b) {
    if (b < c) return b;
    if (a < c) return c;
    return a;
  }
  if (a < c) return a;
  if (b < c) return c;
  return b;
}

/** The rank `equalWeightsMedian` last computed, for its weight and count. */
let equalRank = { weight: Number.NaN, n: 0, rank: 0 };

/**
 * The weighted median where every weight is the same (after a resampling, the searcher's
 * commonest case, and one where the crossing of a half is decided by rounding): the sums in
 * sorted order are then the same whatever the order, so the result is the key of the rank at
 * which those sums reach a half, found by selection (`keys` and `w` reordered in place);
 * undefined, with both untouched, if the weights differ or a key is NaN.
 */
function equalWeightsMedian(keys: Float64Array, w: Float64Array): number | undefined {
  const n = keys.length;
  const w0 = w[0]!;
  for (let i = 1; i < n; i++) if (w[i] !== w0) return undefined;
  for (let i = 0; i < n; i++) if (Number.isNaN(keys[i]!)) return undefined;
  if (equalRank.weight !== w0 || equalRank.n !== n) {
    let c = 0;
    let rank = n - 1;
    for (let i = 0; i < n; i++) {
      c += w0;
      if (c >= 0.5) {
        rank = i;
        break;
      }
    }
    equalRank = { weight: w0, n, rank };
  }
  return selectRank(keys, w, equalRank.rank);
}

/** The key of 0-based rank `r` in increasing order (`keys` and `w` reordered in place; no NaN). */
function selectRank(keys: Float64Array, w: Float64Array, r: number): number {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo < hi) {
    const pivot = medianOfThree(keys, lo, hi);
    partition3(keys, w, lo, hi, pivot);
    if (r < parted.lt) hi = parted.lt - 1;
    else if (r > parted.gt) lo = parted.gt + 1;
    else return pivot;
  }
  return keys[lo]!;
}

/**
 * Sorts `keys[lo..hi]` increasingly and moves `w` along (quicksort, median of three, insertion
 * sort below 16): a comparator sort of indices took a third of the searcher's time.
 */
function sortTogether(keys: Float64Array, w: Float64Array, lo: number, hi: number): void {
  while (hi - lo >= 16) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < keys[lo]!) swap(keys, w, mid, lo);
    if (keys[hi]! < keys[lo]!) swap(keys, w, hi, lo);
    if (keys[hi]! < keys[mid]!) swap(keys, w, hi, mid);
    const pivot = keys[mid]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (keys[i]! < pivot) i++;
      while (keys[j]! > pivot) j--;
      if (i <= j) swap(keys, w, i++, j--);
    }
    // Recurse into the smaller side, loop on the larger: the stack stays logarithmic.
    if (j - lo < hi - i) {
      sortTogether(keys, w, lo, j);
      lo = i;
    } else {
      sortTogether(keys, w, i, hi);
      hi = j;
    }
  }
  for (let i = lo + 1; i <= hi; i++) {
    const k = keys[i]!;
    const x = w[i]!;
    let j = i - 1;
    while (j >= lo && keys[j]! > k) {
      keys[j + 1] = keys[j]!;
      w[j + 1] = w[j]!;
      j--;
    }
    keys[j + 1] = k;
    w[j + 1] = x;
  }
}

function swap(keys: Float64Array, w: Float64Array, i: number, j: number): void {
  const k = keys[i]!;
  keys[i] = keys[j]!;
  keys[j] = k;
  const x = w[i]!;
  w[i] = w[j]!;
  w[j] = x;
}

/**
 * Expected posterior variance (summed over coordinates) of the particles' `stats` (`width`
 * numbers each) over the two answers to a cut, `values` each particle's side of it.
 */
function expectedSpread(
  stats: Float64Array,
  weight: Float64Array,
  values: Float64Array,
  flip: number,
  width = 6,
): number {
  // Both answers in one pass over the particles, each sum in the particles' order.
  if (spreadSums.length < 2 * width) spreadSums = new Float64Array(2 * width);
  const sum = spreadSums;
  sum.fill(0, 0, 2 * width);
  let massAbove = 0;
  let massBelow = 0;
  let squaresAbove = 0;
  let squaresBelow = 0;
  for (let p = 0; p < weight.length; p++) {
    const isAbove = values[p]! > 0;
    const up = weight[p]! * (isAbove ? 1 - flip : flip);
    const down = weight[p]! * (isAbove ? flip : 1 - flip);
    massAbove += up;
    massBelow += down;
    for (let i = 0; i < width; i++) {
      const x = stats[p * width + i]!;
      sum[i]! += up * x;
      squaresAbove += up * x * x;
      sum[width + i]! += down * x;
      squaresBelow += down * x * x;
    }
  }
  let above = 0;
  let below = 0;
  for (let i = 0; i < width; i++) {
    above += sum[i]! ** 2;
    below += sum[width + i]! ** 2;
  }
  let spread = 0;
  spread += squaresAbove - (massAbove > 0 ? above / massAbove : 0);
  spread += squaresBelow - (massBelow > 0 ? below / massBelow : 0);
  return spread;
}

/** Scratch sums of `expectedSpread` (both answers' statistics). */
let spreadSums = new Float64Array(12);

/** Systematic resampling of the particles' positions (`theta`) and misses; equal weights after. */
function resample(theta: Float64Array, miss: Int32Array, weight: Float64Array, rng: Rng): void {
  const n = weight.length;
  const d = theta.length / n;
  const oldTheta = theta.slice();
  const oldMiss = miss.slice();
  const start = rng.next() / n;
  let c = weight[0]!;
  let j = 0;
  for (let r = 0; r < n; r++) {
    const target = start + r / n;
    while (target > c && j < n - 1) c += weight[++j]!;
    theta.set(oldTheta.subarray(j * d, j * d + d), r * d);
    miss[r] = oldMiss[j]!;
  }
  weight.fill(1 / n);
}

/** Each coordinate's standard deviation over the (equally weighted) particles, `d` each. */
function angleSpread(theta: Float64Array, d = 5): number[] {
  const n = theta.length / d;
  return Array.from({ length: d }, (_, i) => {
    let s = 0;
    let s2 = 0;
    for (let p = 0; p < n; p++) {
      s += theta[p * d + i]!;
      s2 += theta[p * d + i]! ** 2;
    }
    return Math.sqrt(Math.max(0, s2 / n - (s / n) ** 2));
  });
}
