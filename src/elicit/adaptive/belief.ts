import type { Rng } from "../../math/rng.ts";
import type { Answer } from "../../search/question.ts";
import { type AnswerModel, answerLogLikelihood, isHardConstraint } from "./answer-model.ts";

/**
 * A belief over a metric's parameter direction as weighted particles.
 *
 * Particles live in `u`-space: the unit ball intersected with the family's sign cone; the
 * metric is `w = u / |u|`. A uniform prior on that convex set is a uniform prior on the
 * directions, and every answer's likelihood depends on `<w, delta>` only. After each answer
 * the particles are reweighted, resampled and moved by hit-and-run slice sampling under the
 * whole posterior: along a random line through a particle, hard constraints (the exact
 * model's half-spaces, the ball, the signs) cut an exact chord, and soft answers (the human
 * model, ties) are handled by slice sampling with shrinkage on that chord. Line directions
 * are isotropic half of the time and differences of two particles otherwise, so the moves
 * follow an elongated posterior. Everything draws from the given seeded `Rng`, so the belief
 * is a pure function of (seed, questions, answers).
 *
 * @example
 * const belief = new ParticleBelief({ dim: 2, signs: [1, 1], model: EXACT_MODEL, particles: 500, rng });
 * belief.observe(Float64Array.of(0.1, -0.1), "first"); // w_0 > w_1 from now on
 */
/** Line directions shared by the particles in one sweep of moves. */
const DIRECTIONS = 8;

export class ParticleBelief {
  readonly dim: number;
  readonly size: number;
  /** Particle positions, row-major `size x dim`. */
  readonly u: Float64Array;
  /** Normalised weights (sum 1). */
  readonly weight: Float64Array;
  private readonly signs: readonly number[];
  private readonly model: AnswerModel;
  private readonly rng: Rng;
  private readonly moves: number;
  /** Observed scaled differences, row-major, and their answers. */
  private deltas: Float64Array = new Float64Array(0);
  private readonly answers: Answer[] = [];
  private readonly hard: boolean[] = [];
  /** Per answer j, `<delta_j, u_p>` for every particle p, kept up to date by the moves. */
  private proj: Float64Array[] = [];
  /** Answers the exact model could not keep as constraints (no particle agreed). */
  inconsistent = 0;

  constructor(o: {
    readonly dim: number;
    readonly signs: readonly number[];
    readonly model: AnswerModel;
    readonly particles: number;
    readonly rng: Rng;
    /** Sweeps of moves after each answer (default: max(8, dim) exact, max(4, dim / 2) otherwise). */
    readonly moves?: number;
  }) {
    this.dim = o.dim;
    this.size = o.particles;
    this.signs = o.signs;
    this.model = o.model;
    this.rng = o.rng;
    // Exact-model moves only cut chords (cheap); soft answers need slice sampling (dearer).
    this.moves =
      o.moves ??
      (o.model.kind === "exact" ? Math.max(8, o.dim) : Math.max(4, Math.ceil(o.dim / 2)));
    this.u = new Float64Array(this.size * this.dim);
    this.weight = new Float64Array(this.size).fill(1 / this.size);
    for (let p = 0; p < this.size; p++) this.samplePrior(p);
  }

  /** Number of answers observed. */
  get observed(): number {
    return this.answers.length;
  }

  /** Uniform draw in the ball intersected with the sign cone. */
  private samplePrior(p: number): void {
    const d = this.dim;
    const off = p * d;
    let n2 = 0;
    for (let i = 0; i < d; i++) {
      let g = this.rng.normal();
      const s = this.signs[i] ?? 0;
      if (s !== 0) g = s * Math.abs(g);
      this.u[off + i] = g;
      n2 += g * g;
    }
    const r = this.rng.next() ** (1 / d) / Math.sqrt(n2 || 1);
    for (let i = 0; i < d; i++) this.u[off + i]! *= r;
  }

  /** The unit direction `w` of particle p (a new array). */
  direction(p: number): Float64Array {
    const d = this.dim;
    const w = this.u.slice(p * d, (p + 1) * d);
    let n = 0;
    for (let i = 0; i < d; i++) n += w[i]! * w[i]!;
    n = Math.sqrt(n) || 1;
    for (let i = 0; i < d; i++) w[i]! /= n;
    return w;
  }

  /**
   * Observe an answer to a question whose scaled feature difference is `delta`
   * (`(features(first) - features(second)) / scale`).
   */
  observe(delta: Float64Array, answer: Answer): void {
    const d = this.dim;
    const prev = this.deltas;
    this.deltas = new Float64Array(prev.length + d);
    this.deltas.set(prev);
    this.deltas.set(delta, prev.length);
    this.answers.push(answer);
    const column = new Float64Array(this.size);
    for (let p = 0; p < this.size; p++) {
      let s = 0;
      for (let i = 0; i < d; i++) s += this.u[p * d + i]! * delta[i]!;
      column[p] = s;
    }
    this.proj.push(column);
    let hard = isHardConstraint(this.model, answer);
    // Reweight by the new answer.
    const logw = new Float64Array(this.size);
    let best = -Infinity;
    for (let p = 0; p < this.size; p++) {
      const x = this.scaledDot(p, delta);
      logw[p] = Math.log(this.weight[p]!) + answerLogLikelihood(this.model, answer, x);
      if (logw[p]! > best) best = logw[p]!;
    }
    if (best === -Infinity) {
      // No particle agrees: the exact model meets a contradiction (a slip). Keep the answer
      // as a soft observation instead of emptying the belief.
      hard = false;
      this.inconsistent++;
      const soft: AnswerModel = { kind: "human", temperature: 0.02, lapse: 0.1, tieWidth: 0.01 };
      best = -Infinity;
      for (let p = 0; p < this.size; p++) {
        logw[p] =
          Math.log(this.weight[p]!) + answerLogLikelihood(soft, answer, this.scaledDot(p, delta));
        if (logw[p]! > best) best = logw[p]!;
      }
    }
    this.hard.push(hard);
    let sum = 0;
    for (let p = 0; p < this.size; p++) {
      const w = Math.exp(logw[p]! - best);
      this.weight[p] = w;
      sum += w;
    }
    for (let p = 0; p < this.size; p++) this.weight[p]! /= sum;
    this.resampleAndMove();
  }

  /** `<u_p / |u_p|, delta>`. */
  private scaledDot(p: number, delta: Float64Array): number {
    const d = this.dim;
    const off = p * d;
    let s = 0;
    let n = 0;
    for (let i = 0; i < d; i++) {
      const x = this.u[off + i]!;
      s += x * delta[i]!;
      n += x * x;
    }
    return n > 0 ? s / Math.sqrt(n) : 0;
  }

  /** Effective sample size `1 / sum w^2`. */
  effectiveSize(): number {
    let s = 0;
    for (let p = 0; p < this.size; p++) s += this.weight[p]! ** 2;
    return 1 / s;
  }

  /**
   * Systematic resampling, then `moves` sweeps of hit-and-run slice moves. In a sweep the
   * particles share `DIRECTIONS` line directions (each particle's direction is still
   * independent of its position, so every move keeps the posterior invariant), which lets the
   * answers' projections on a direction be computed once per sweep: a move then costs
   * O(answers), not O(answers x dim).
   */
  private resampleAndMove(): void {
    const d = this.dim;
    const n = this.size;
    const old = this.u.slice();
    const oldProj = this.proj.map((c) => c.slice());
    const step = 1 / n;
    let c = this.weight[0]!;
    let j = 0;
    const start = this.rng.next() * step;
    for (let p = 0; p < n; p++) {
      const target = start + p * step;
      while (target > c && j < n - 1) c += this.weight[++j]!;
      this.u.set(old.subarray(j * d, (j + 1) * d), p * d);
      for (let a = 0; a < oldProj.length; a++) this.proj[a]![p] = oldProj[a]![j]!;
    }
    this.weight.fill(1 / n);
    const snapshot = this.u.slice();
    const count = this.answers.length;
    const dirs = Array.from({ length: DIRECTIONS }, () => new Float64Array(d));
    const dirProj = Array.from({ length: DIRECTIONS }, () => new Float64Array(count));
    for (let m = 0; m < this.moves; m++) {
      for (let g = 0; g < DIRECTIONS; g++) {
        this.pickDirection(dirs[g]!, snapshot);
        for (let a = 0; a < count; a++) {
          let s = 0;
          const row = a * d;
          for (let i = 0; i < d; i++) s += this.deltas[row + i]! * dirs[g]![i]!;
          dirProj[g]![a] = s;
        }
      }
      for (let p = 0; p < n; p++) {
        const g = this.rng.int(DIRECTIONS);
        this.moveAlong(p, dirs[g]!, dirProj[g]!);
      }
    }
  }

  private pickDirection(v: Float64Array, snapshot: Float64Array): void {
    const d = this.dim;
    let n2 = 0;
    if (this.rng.next() < 0.5) {
      const i = this.rng.int(this.size) * d;
      const j = this.rng.int(this.size) * d;
      for (let t = 0; t < d; t++) {
        v[t] = snapshot[i + t]! - snapshot[j + t]!;
        n2 += v[t]! * v[t]!;
      }
    }
    if (!(n2 > 1e-24)) {
      n2 = 0;
      for (let t = 0; t < d; t++) {
        v[t] = this.rng.normal();
        n2 += v[t]! * v[t]!;
      }
    }
    const n = Math.sqrt(n2);
    for (let t = 0; t < d; t++) v[t]! /= n;
  }

  /** One hit-and-run slice move of particle p along unit direction v (`b[j] = <delta_j, v>`). */
  private moveAlong(p: number, v: Float64Array, b: Float64Array): void {
    const d = this.dim;
    const off = p * d;
    const u = this.u;
    // Ball: |u + t v|^2 <= 1.
    let uv = 0;
    let uu = 0;
    for (let i = 0; i < d; i++) {
      uv += u[off + i]! * v[i]!;
      uu += u[off + i]! * u[off + i]!;
    }
    const disc = uv * uv - (uu - 1);
    if (!(disc >= 0)) return;
    const root = Math.sqrt(disc);
    let lo = -uv - root;
    let hi = -uv + root;
    // Sign cone.
    for (let i = 0; i < d; i++) {
      const s = this.signs[i] ?? 0;
      if (s === 0 || v[i] === 0) continue;
      const t = -u[off + i]! / v[i]!;
      // s (u_i + t v_i) >= 0
      if (s * v[i]! > 0) lo = Math.max(lo, t);
      else hi = Math.min(hi, t);
    }
    // Answers: a_j + t b_j with a_j = <delta_j, u>.
    const count = this.answers.length;
    const proj = this.proj;
    let soft = false;
    for (let j = 0; j < count; j++) {
      if (!this.hard[j]) {
        soft = true;
        continue;
      }
      const bj = b[j]!;
      if (bj === 0) continue;
      const s = this.answers[j] === "first" ? 1 : -1;
      const t = -proj[j]![p]! / bj;
      if (s * bj > 0) lo = Math.max(lo, t);
      else hi = Math.min(hi, t);
    }
    if (!(hi > lo)) return;
    const apply = (t: number) => {
      for (let i = 0; i < d; i++) u[off + i]! += t * v[i]!;
      for (let j = 0; j < count; j++) proj[j]![p]! += t * b[j]!;
    };
    if (!soft) {
      apply(lo + (hi - lo) * this.rng.next());
      return;
    }
    const model = this.model;
    const logL = (t: number): number => {
      const n = Math.sqrt(Math.max(1e-300, uu + 2 * t * uv + t * t));
      let s = 0;
      for (let j = 0; j < count; j++) {
        if (this.hard[j]) continue;
        const x = (proj[j]![p]! + t * b[j]!) / n;
        const answer = this.answers[j]!;
        if (answer === "tie" || model.kind === "exact") {
          s += answerLogLikelihood(model, answer, x);
        } else {
          // Inlined human-model likelihood (the hot path of the moves).
          const signed = answer === "first" ? x : -x;
          s += Math.log(
            0.5 * model.lapse + (1 - model.lapse) / (1 + Math.exp(-signed / model.temperature)),
          );
        }
      }
      return s;
    };
    const level = logL(0) + Math.log(1 - this.rng.next());
    let l = Math.min(0, lo);
    let h = Math.max(0, hi);
    for (let iter = 0; iter < 30; iter++) {
      const t = l + (h - l) * this.rng.next();
      if (logL(t) >= level) {
        apply(t);
        return;
      }
      if (t < 0) l = t;
      else h = t;
    }
  }
}
