import type { Rng } from "../../math/rng.ts";
import type { Answer } from "../../search/question.ts";
import {
  type AnswerModel,
  addTieBands,
  answerLogLikelihood,
  choiceProbability,
  choiceSigmoid,
  isHardConstraint,
  TIE_BANDS,
  tieMarginal,
} from "./answer-model.ts";

/**
 * A belief over a metric's parameter direction as weighted particles.
 *
 * Particles live in `u`-space: the unit ball intersected with the family's sign cone; the
 * metric is `w = u / |u|`. A uniform prior on that convex set is a uniform prior on the
 * directions, and every answer's likelihood depends on `<w, delta>` only. Optionally the
 * prior is a mixture with a sparse component; each component then keeps its own particles
 * (resampled within it, its mass the evidence it earned) and the moves add its prior density
 * to the slice. After each answer
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
/** Soft answers multiplied together between two logs in the slice likelihood. */
const PRODUCT_RUN = 16;

/**
 * A belief's answers split for the moves: the soft ones and the hard constraints (indices,
 * signs +1 first, -1 second).
 */
/** Per-level work arrays of `otherLevelsLogLikelihood`, and its groups of levels. */
interface LevelScratch {
  readonly groups: readonly Int32Array[];
  readonly sum: Float64Array;
  readonly prod: Float64Array;
  readonly inRun: Int32Array;
  readonly otherTerms: Float64Array;
  readonly otherIsTie: Uint8Array;
}

interface SoftAnswers {
  /** Soft choices under the human model, and `-sign / temperature` of each. */
  readonly choice: Int32Array;
  readonly choiceScale: Float64Array;
  /** Other soft answers (ties; the exact model's inconsistent answers). */
  readonly other: Int32Array;
  /** Number of soft answers. */
  readonly count: number;
  readonly hardIndex: Int32Array;
  readonly hardSign: Int8Array;
}

export class ParticleBelief {
  readonly dim: number;
  readonly size: number;
  /** Particle positions, row-major `size x dim` (a grid: `gridAngles x dim`, see `row`). */
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
  private proj: Float64Array = new Float64Array(0);
  /** Row length of `proj` (its capacity in answers; rows are particle-major for locality). */
  private stride = 0;
  /** Per particle, the log-likelihood of the soft answers at its position (set by the moves). */
  private softLL: Float64Array;
  /** Per sparse particle, its sparse prior log-density at its position (set by the moves). */
  private readonly priorLL: Float64Array;
  /** Answers the exact model could not keep as constraints (no particle agreed). */
  inconsistent = 0;
  /** Reference points (row-major `refCount x dim`), when differences are relative to ranges. */
  private reference: Float64Array | undefined;
  private refCount = 0;
  /** Per particle p, `<g_c, u_p>` for every reference point c (kept up to date by the moves). */
  private refProj: Float64Array;
  /**
   * Per particle, its prior component: 0 uniform, 1 sparse (see `sparse` in the constructor).
   * Resampling carries it and moves keep it, so the particles target the mixture's posterior.
   */
  private readonly component: Uint8Array;
  /** Indices of the sign-constrained coordinates and the sparse component's concentration. */
  private readonly constrained: Int32Array;
  private readonly alpha: number;
  /**
   * The lapse levels a person may have (the model's `lapses`) and their log prior weights;
   * undefined when the lapse is fixed. Particles each carry a level for the moves (`level`,
   * updated by a Gibbs step), but their weights mix the levels (`partLL`); a grid keeps, per
   * point and level, the answers' log-likelihood (`levelLL`, `size x levels`) and mixes the
   * levels in its weights.
   */
  private readonly levels: Float64Array | undefined;
  /** Per level, the multiple of 1 / temperature its choices are answered with (1 default). */
  private readonly levelSharpness: Float64Array;
  /** Per level, its lean to the left side (`LapsePrior.side`; 0 default). */
  private readonly levelSide: Float64Array;
  /** Per level, its temperature's growth per question (`LapsePrior.fatigue`; 0 default). */
  private readonly levelFatigue: Float64Array;
  /**
   * Per answer, the side `first` was shown on: +1 left, -1 right, 0 unknown (a lean then
   * cannot act on it).
   */
  private sides: number[] = [];
  private readonly levelLogPrior: Float64Array;
  private level: Uint8Array;
  private levelLL: Float32Array = new Float32Array(0);
  /**
   * Particles with learned lapse: per particle and level, the soft answers' log-likelihood at
   * its position (`size x levels`). The weights marginalise the level with it (each answer
   * reweights a particle by its likelihood averaged over the levels' posterior there), so the
   * kinds of person do not split the particles; the carried `level` serves the moves only.
   */
  private partLL: Float64Array = new Float64Array(0);
  /**
   * A grid under the human model: per point and band of `TIE_BANDS`, its ties'
   * log-likelihood (`size x bands`); particles recompute theirs from their projections.
   */
  private gridTieLL: Float64Array = new Float64Array(0);
  private gridPrior: Float64Array = new Float64Array(0);
  /**
   * A grid's points per prior component (0 for particles). The components lay the same
   * angles, so point p has the direction, and every answer the likelihood, of point
   * `p % gridAngles`: a grid computes those once per angle and keeps one row per angle.
   */
  readonly gridAngles: number = 0;

  constructor(o: {
    readonly dim: number;
    readonly signs: readonly number[];
    readonly model: AnswerModel;
    readonly particles: number;
    readonly rng: Rng;
    /** Sweeps of moves after each answer (default `defaultMoves(model, dim)`). */
    readonly moves?: number;
    /**
     * A mixture prior: this share of the particles (default 0) comes from a sparse component
     * whose squared sign-constrained weights are Dirichlet(`alpha`) instead of the uniform
     * prior's 1/2 (density `prod |w_i|^(2 alpha - 1)` relative to uniform): metrics with a few
     * large weights and many near zero, which a uniform prior in many dimensions almost never
     * draws.
     */
    readonly sparse?: { readonly share: number; readonly alpha: number };
    /**
     * Hold the belief on a fixed grid of `grid` directions per prior component instead of
     * moving particles (only for one free parameter: `dim` 2 with both signs known). The
     * posterior is then exact up to the grid's spacing, and a question's split is measured
     * on it exactly, so halving takes one question per bit (`particles` is ignored).
     */
    readonly grid?: number;
  }) {
    this.dim = o.dim;
    this.gridded =
      o.grid !== undefined && o.dim === 2 && o.signs.length === 2 && o.signs.every((x) => x !== 0);
    const share0 = o.sparse && o.signs.filter((x) => x !== 0).length >= 2 ? o.sparse.share : 0;
    this.size = this.gridded ? (share0 > 0 ? 2 : 1) * (o.grid ?? 0) : o.particles;
    this.signs = o.signs;
    this.model = o.model;
    this.rng = o.rng;
    this.moves = o.moves ?? defaultMoves(o.model, o.dim);
    // A grid's components share their angles: one row of `u` per angle (`row`).
    this.u = new Float64Array((this.gridded ? (o.grid ?? 0) : this.size) * this.dim);
    this.weight = new Float64Array(this.size).fill(1 / this.size);
    // A grid never moves: the moves' per-particle arrays (`softLL`, `priorLL`, `level`) stay
    // empty, so a server keeps more participants' runs in the same memory (issue 28).
    const moving = this.gridded ? 0 : this.size;
    this.softLL = new Float64Array(moving);
    this.refProj = new Float64Array(0);
    this.constrained = Int32Array.from(o.signs.flatMap((x, i) => (x !== 0 ? [i] : [])));
    this.alpha = o.sparse?.alpha ?? 0.5;
    this.component = new Uint8Array(this.size);
    this.priorLL = new Float64Array(moving);
    const lapses = o.model.kind === "human" ? o.model.lapses : undefined;
    if (lapses) {
      const k = lapses.levels.length;
      const total = lapses.prior.reduce((a, b) => a + b, 0);
      if (
        !(k >= 1 && k <= 255 && lapses.prior.length === k) ||
        !lapses.levels.every((l) => l >= 0 && l <= 1) ||
        !lapses.prior.every((w) => w > 0) ||
        !(total > 0) ||
        (lapses.sharpness !== undefined &&
          !(lapses.sharpness.length === k && lapses.sharpness.every((x) => x > 0))) ||
        (lapses.side !== undefined &&
          !(lapses.side.length === k && lapses.side.every((x) => Number.isFinite(x)))) ||
        (lapses.fatigue !== undefined &&
          !(lapses.fatigue.length === k && lapses.fatigue.every((x) => x >= 0 && x < Infinity)))
      ) {
        throw new RangeError(
          "lapse levels must be in [0, 1], one positive prior weight (and sharpness, a finite side lean and a finite fatigue >= 0) each",
        );
      }
      this.levels = Float64Array.from(lapses.levels);
      this.levelSharpness = Float64Array.from(lapses.sharpness ?? lapses.levels.map(() => 1));
      this.levelSide = Float64Array.from(lapses.side ?? lapses.levels.map(() => 0));
      this.levelFatigue = Float64Array.from(lapses.fatigue ?? lapses.levels.map(() => 0));
      this.levelLogPrior = Float64Array.from(lapses.prior, (w) => Math.log(w / total));
    } else {
      this.levels = undefined;
      this.levelSharpness = new Float64Array(0);
      this.levelSide = new Float64Array(0);
      this.levelFatigue = new Float64Array(0);
      this.levelLogPrior = new Float64Array(0);
    }
    this.level = new Uint8Array(moving);
    const share = o.sparse && this.constrained.length >= 2 ? o.sparse.share : 0;
    if (!(share >= 0 && share <= 1)) throw new RangeError("the sparse share must be in [0, 1]");
    // A fixed split (not a draw per particle): the first share of the particles is sparse.
    if (this.gridded) {
      this.gridAngles = o.grid ?? 0;
      this.layGrid(this.gridAngles, share);
      const n = this.gridAngles;
      if (this.levels) {
        this.gridPrior = this.weight.slice();
        this.levelLL = new Float32Array(n * this.levels.length);
      }
      return;
    }
    const sparseCount = Math.round(share * this.size);
    for (let p = 0; p < sparseCount; p++) this.component[p] = 1;
    for (let p = 0; p < this.size; p++) this.samplePrior(p);
    if (this.levels) {
      for (let p = 0; p < this.size; p++) this.level[p] = this.drawLevel();
      this.partLL = new Float64Array(this.size * this.levels.length);
    }
  }

  /** A lapse level drawn from its prior. */
  private drawLevel(): number {
    const lp = this.levelLogPrior;
    let x = this.rng.next();
    for (let k = 0; k < lp.length - 1; k++) {
      x -= Math.exp(lp[k]!);
      if (x < 0) return k;
    }
    return lp.length - 1;
  }

  /**
   * The posterior over the person's lapse levels (undefined when the lapse is fixed).
   * @example belief.lapsePosterior() // Float64Array [0.7, 0.2, 0.08, 0.02]
   */
  lapsePosterior(): Float64Array | undefined {
    const levels = this.levels;
    if (!levels) return undefined;
    // The engine asks several times per question; answers alone change it (observe clears).
    if (this.lapsePost === undefined) this.lapsePost = this.computeLapsePosterior(levels);
    return this.lapsePost.slice();
  }

  /** `lapsePosterior` as the answers so far leave it (cleared by `observe`). */
  private lapsePost: Float64Array | undefined;

  private computeLapsePosterior(levels: Float64Array): Float64Array {
    const k = levels.length;
    const post = new Float64Array(k);
    if (this.gridded) {
      let best = -Infinity;
      for (let i = 0; i < this.levelLL.length; i++)
        if (this.levelLL[i]! > best) best = this.levelLL[i]!;
      // Each angle's terms once (the components share them), summed point by point.
      const n = this.gridAngles;
      const terms = new Float64Array(n * k);
      for (let i = 0; i < n * k; i++)
        terms[i] = Math.exp(this.levelLogPrior[i % k]! + this.levelLL[i]! - best);
      for (let p = 0; p < this.size; p++) {
        const g = this.gridPrior[p]!;
        if (!(g > 0)) continue;
        const row = (p % n) * k;
        for (let j = 0; j < k; j++) post[j]! += g * terms[row + j]!;
      }
    } else {
      // Each particle's posterior over the levels at its position, weighted.
      const ll = this.partLL;
      const lp = this.levelLogPrior;
      const terms = new Float64Array(k);
      for (let p = 0; p < this.size; p++) {
        let best = -Infinity;
        for (let j = 0; j < k; j++) {
          terms[j] = lp[j]! + ll[p * k + j]!;
          if (terms[j]! > best) best = terms[j]!;
        }
        let sum = 0;
        for (let j = 0; j < k; j++) {
          terms[j] = Math.exp(terms[j]! - best);
          sum += terms[j]!;
        }
        const w = this.weight[p]! / sum;
        for (let j = 0; j < k; j++) post[j]! += w * terms[j]!;
      }
    }
    const sum = post.reduce((a, b) => a + b, 0);
    for (let j = 0; j < k; j++) post[j]! /= sum;
    return post;
  }

  /** The lapse levels (undefined when the lapse is fixed). */
  lapseLevels(): readonly number[] | undefined {
    return this.levels ? [...this.levels] : undefined;
  }

  /** Each lapse level's sharpness (undefined when the lapse is fixed). */
  levelSharpnesses(): readonly number[] | undefined {
    return this.levels ? [...this.levelSharpness] : undefined;
  }

  /**
   * Each lapse level's lean to the left side of the screen (`LapsePrior.side`; negative: to
   * the right), undefined when the lapse is fixed.
   */
  levelSides(): readonly number[] | undefined {
    return this.levels ? [...this.levelSide] : undefined;
  }

  /**
   * Each lapse level's growth of temperature per question (`LapsePrior.fatigue`), undefined
   * when the lapse is fixed.
   */
  levelFatigues(): readonly number[] | undefined {
    return this.levels ? [...this.levelFatigue] : undefined;
  }

  /** Log-likelihood of the newest answer at scaled difference `x` for particle p (its own level). */
  private answerLL(p: number, answer: Answer, x: number): number {
    const levels = this.levels;
    const model = this.model;
    if (!levels || answer === "tie" || model.kind !== "human") {
      return answerLogLikelihood(model, answer, x);
    }
    const j = this.level[p]!;
    // A lean to the left acts as a difference in favour of the side shown on the left.
    const leaned = x + this.levelSide[j]! * this.sides[this.sides.length - 1]!;
    const signed = answer === "first" ? leaned : -leaned;
    const tired = 1 + this.levelFatigue[j]! * (this.answers.length - 1);
    return Math.log(
      choiceProbability(levels[j]!, (model.temperature / this.levelSharpness[j]!) * tired, signed),
    );
  }

  /** Whether the belief is a fixed grid (see the constructor's `grid`). */
  readonly gridded: boolean;

  /**
   * The grid: `n` angles at cell midpoints of the quarter circle of the signs, per component;
   * the uniform component's weights are equal, the sparse one's are its prior mass on each
   * cell. The sparse density in the angle is `(cos t sin t)^(2 alpha - 1)`; at the two end
   * cells, where it is singular for alpha < 1/2, the cell's mass is integrated exactly
   * (`h^(2 alpha) / (2 alpha)`).
   */
  private layGrid(n: number, share: number): void {
    if (!(Number.isInteger(n) && n >= 2)) throw new RangeError("the grid needs at least 2 points");
    const h = Math.PI / 2 / n;
    const a = this.alpha;
    const sparseMass = new Float64Array(n);
    let total = 0;
    for (let i = 0; i < n; i++) {
      const t = (i + 0.5) * h;
      sparseMass[i] =
        i === 0 || i === n - 1
          ? h ** (2 * a) / (2 * a)
          : h * (Math.cos(t) * Math.sin(t)) ** (2 * a - 1);
      total += sparseMass[i]!;
    }
    const s0 = this.signs[0]!;
    const s1 = this.signs[1]!;
    for (let c = 0; c < this.size / n; c++) {
      for (let i = 0; i < n; i++) {
        const p = c * n + i;
        const t = (i + 0.5) * h;
        if (c === 0) {
          this.u[2 * p] = s0 * Math.cos(t);
          this.u[2 * p + 1] = s1 * Math.sin(t);
        }
        this.component[p] = c;
        this.weight[p] = c === 0 ? (1 - share) / n : (share * sparseMass[i]!) / total;
      }
    }
  }

  /** The prior component of particle p: 0 uniform, 1 sparse. */
  componentOf(p: number): number {
    return this.component[p]!;
  }

  /** Number of answers observed. */
  get observed(): number {
    return this.answers.length;
  }

  /**
   * The bytes of the belief's arrays: what a server keeping the run holds for it (issue 28:
   * a server's kept runs share a memory budget).
   * @example new ParticleBelief({ dim: 3, signs: [1, 1, 1], model, particles: 1000, rng }).bytes // about 60000
   */
  get bytes(): number {
    const arrays: (ArrayBufferView | undefined)[] = [
      this.u,
      this.weight,
      this.deltas,
      this.proj,
      this.softLL,
      this.priorLL,
      this.reference,
      this.refProj,
      this.component,
      this.level,
      this.levelLL,
      this.partLL,
      this.gridTieLL,
      this.gridPrior,
      this.gridRange,
      this.lapsePost,
    ];
    return arrays.reduce((sum, a) => sum + (a?.byteLength ?? 0), 0);
  }

  /**
   * A draw in the ball intersected with the sign cone: uniform, or from the sparse component
   * (a sign-constrained coordinate's square is Gamma(alpha) instead of a squared normal's
   * Gamma(1/2), so the squared direction is Dirichlet with alpha on those coordinates).
   */
  private samplePrior(p: number): void {
    const d = this.dim;
    const off = p * d;
    const sparse = this.component[p] === 1;
    let n2 = 0;
    for (let i = 0; i < d; i++) {
      const s = this.signs[i] ?? 0;
      let g =
        sparse && s !== 0 ? Math.sqrt(2 * gammaDraw(this.alpha, this.rng)) : this.rng.normal();
      if (s !== 0) g = s * Math.abs(g);
      this.u[off + i] = g;
      n2 += g * g;
    }
    const r = this.rng.next() ** (1 / d) / Math.sqrt(n2 || 1);
    for (let i = 0; i < d; i++) this.u[off + i]! *= r;
    this.projectReference(p);
  }

  /**
   * Measure answers' differences relative to each particle's own range over these reference
   * points' features (row-major, `dim` per point, at least two points; before any answer):
   * `<u, delta> / (max_c <u, g_c> - min_c <u, g_c>)` instead of `<u / |u|, delta>`. A metric
   * whose values spread widely over the questions is then believed to be answered as noisily,
   * relative to that spread, as any other: the human model's "a tenth of the metric's range".
   */
  useReference(reference: Float64Array): void {
    if (this.answers.length > 0) throw new Error("set the reference before any answer");
    if (!(reference.length >= 2 * this.dim && reference.length % this.dim === 0)) {
      throw new RangeError("the reference needs at least two points of the belief's dimension");
    }
    this.reference = reference;
    this.refCount = reference.length / this.dim;
    // A grid: one row per angle (its components share them).
    const rows = this.gridded ? this.gridAngles : this.size;
    this.refProj = new Float64Array(rows * this.refCount);
    for (let p = 0; p < rows; p++) this.projectReference(p);
    if (this.gridded) {
      // A grid never moves, so each angle's range over the reference is fixed: keep that
      // one number per angle instead of every projection (a binary grid's were ~4 MB).
      const range = new Float64Array(rows);
      for (let p = 0; p < rows; p++) range[p] = this.divisor(p, 0, 1, 0, undefined);
      this.gridRange = range;
      this.refProj = new Float64Array(0);
    }
  }

  /** A grid's per-point range over the reference points (see `useReference`). */
  private gridRange: Float64Array | undefined;

  /** Point p's row of `u` (and of a grid's ranges): a grid's components share each angle's. */
  private row(p: number): number {
    return this.gridded ? p % this.gridAngles : p;
  }

  /** `refProj` of particle p from its position. */
  private projectReference(p: number): void {
    const ref = this.reference;
    if (!ref) return;
    const d = this.dim;
    const off = p * d;
    for (let c = 0; c < this.refCount; c++) {
      let s = 0;
      for (let i = 0; i < d; i++) s += this.u[off + i]! * ref[c * d + i]!;
      this.refProj[p * this.refCount + c] = s;
    }
  }

  /**
   * The divisor of `<u_p + t v, delta>` in the likelihood: `|u_p + t v|` (`uu = |u_p|^2`,
   * `uv = <u_p, v>`), or with reference points the range of `u_p + t v` over them
   * (`rb[c] = <g_c, v>`).
   */
  private divisor(
    p: number,
    t: number,
    uu: number,
    uv: number,
    rb: Float64Array | undefined,
  ): number {
    if (!this.reference) return Math.sqrt(Math.max(1e-300, uu + 2 * t * uv + t * t));
    if (this.gridRange) return this.gridRange[this.row(p)]!;
    const row = p * this.refCount;
    let lo = Infinity;
    let hi = -Infinity;
    for (let c = 0; c < this.refCount; c++) {
      const x = this.refProj[row + c]! + (rb ? t * rb[c]! : 0);
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    return Math.max(1e-300, hi - lo);
  }

  /** The unit direction `w` of particle p (a new array). */
  direction(p: number): Float64Array {
    return this.directionInto(p, new Float64Array(this.dim));
  }

  /**
   * `direction(p)` written into `out` (the same numbers; no allocation in the engine's loops
   * over every point).
   */
  directionInto(p: number, out: Float64Array): Float64Array {
    const d = this.dim;
    const w = out;
    const off = this.row(p) * d;
    for (let i = 0; i < d; i++) w[i] = this.u[off + i]!;
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
  observe(delta: Float64Array, answer: Answer, left?: "first" | "second"): void {
    this.lapsePost = undefined;
    this.sides.push(left === "first" ? 1 : left === "second" ? -1 : 0);
    const d = this.dim;
    const prev = this.deltas;
    this.deltas = new Float64Array(prev.length + d);
    this.deltas.set(prev);
    this.deltas.set(delta, prev.length);
    this.answers.push(answer);
    // The answers' projections serve the moves only, and a grid never moves: a grid keeps
    // none (16 answers' worth of a binary grid's projections were 4 MB per belief).
    if (!this.gridded) this.project(delta);
    let hard = isHardConstraint(this.model, answer);
    // Reweight by the new answer.
    const logw = new Float64Array(this.size);
    let best = -Infinity;
    const tie = answer === "tie" && this.model.kind === "human" ? this.tieIncrements() : undefined;
    if (this.gridded && this.levels) {
      this.observeGridLevels(delta, answer, logw, tie);
      for (let p = 0; p < this.size; p++) if (logw[p]! > best) best = logw[p]!;
    } else if (this.gridded) {
      // One likelihood per angle, shared by the components' points at that angle.
      const n = this.gridAngles;
      const ll = new Float64Array(n);
      for (let i = 0; i < n; i++)
        ll[i] = tie ? tie[i]! : this.answerLL(i, answer, this.scaledDot(i, delta));
      for (let p = 0; p < this.size; p++) {
        logw[p] = Math.log(this.weight[p]!) + ll[p % n]!;
        if (logw[p]! > best) best = logw[p]!;
      }
    } else if (this.levels && !hard) {
      this.observeParticleLevels(delta, answer, logw, tie);
      for (let p = 0; p < this.size; p++) if (logw[p]! > best) best = logw[p]!;
    } else {
      for (let p = 0; p < this.size; p++) {
        const ll = tie ? tie[p]! : this.answerLL(p, answer, this.scaledDot(p, delta));
        logw[p] = Math.log(this.weight[p]!) + ll;
        if (logw[p]! > best) best = logw[p]!;
      }
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
    // A grid's weights are the exact posterior already: nothing to resample or move.
    if (!this.gridded) this.resampleAndMove();
  }

  /**
   * Particles with learned lapse: set `logw` to each particle's log weight times the new
   * answer's likelihood averaged over the levels' posterior at its position (the level
   * marginalised, not the particle's carried one), and add the answer to `partLL`.
   */
  private observeParticleLevels(
    delta: Float64Array,
    answer: Answer,
    logw: Float64Array,
    tie: Float64Array | undefined,
  ): void {
    const k = this.levelLogPrior.length;
    const lp = this.levelLogPrior;
    const ll = this.partLL;
    for (let p = 0; p < this.size; p++) {
      const row = p * k;
      const x = tie ? 0 : this.scaledDot(p, delta);
      const before = logSumExp(lp, ll, row, k);
      const own = this.level[p]!;
      for (let j = 0; j < k; j++) {
        this.level[p] = j;
        ll[row + j]! += tie ? tie[p]! : this.answerLL(p, answer, x);
      }
      this.level[p] = own;
      logw[p] = Math.log(this.weight[p]!) + logSumExp(lp, ll, row, k) - before;
    }
  }

  /**
   * Under the human model, each point's change in its ties' log-likelihood from the newest
   * answer, a tie (the last of `answers`): the per-person band mixture of all its ties now,
   * less that of its earlier ones. A grid keeps its per-band sums; a particle sums its
   * projections on the ties' differences.
   */
  private tieIncrements(): Float64Array {
    const model = this.model as Extract<AnswerModel, { kind: "human" }>;
    const bands = TIE_BANDS.length;
    const out = new Float64Array(this.size);
    const last = this.answers.length - 1;
    const sums = new Float64Array(bands);
    const d = this.dim;
    const newest = this.deltas.subarray(last * d, (last + 1) * d);
    // A grid's points repeat their angles: one row per angle (see `gridAngles`).
    const points = this.gridded ? this.gridAngles : this.size;
    // A grid's per-band sums start at zero with its first tie (most people's runs have none).
    if (this.gridded && this.gridTieLL.length === 0)
      this.gridTieLL = new Float64Array(points * bands);
    for (let p = 0; p < points; p++) {
      if (this.gridded) {
        for (let b = 0; b < bands; b++) sums[b] = this.gridTieLL[p * bands + b]!;
      } else {
        sums.fill(0);
        let uu = 0;
        for (let i = 0; i < d; i++) uu += this.u[p * d + i]! ** 2;
        const inv = 1 / this.divisor(p, 0, uu, 0, undefined);
        for (let j = 0; j < last; j++) {
          if (this.answers[j] !== "tie") continue;
          addTieBands(model, this.proj[p * this.stride + j]! * inv, sums);
        }
      }
      const before = tieMarginal(sums);
      addTieBands(model, this.scaledDot(p, newest), sums);
      out[p] = tieMarginal(sums) - before;
      if (this.gridded) for (let b = 0; b < bands; b++) this.gridTieLL[p * bands + b] = sums[b]!;
    }
    for (let p = points; p < this.size; p++) out[p] = out[p % points]!;
    return out;
  }

  /**
   * A grid with learned lapse: add the answer's log-likelihood under each level to every
   * point's `levelLL`, and set `logw` to each point's log posterior weight, its prior times
   * the levels' mixture (up to a constant).
   */
  private observeGridLevels(
    delta: Float64Array,
    answer: Answer,
    logw: Float64Array,
    tie: Float64Array | undefined,
  ): void {
    const levels = this.levels!;
    const k = levels.length;
    const model = this.model;
    const temperature = model.kind === "human" ? model.temperature : 1;
    const ll = this.levelLL;
    const lp = this.levelLogPrior;
    // Levels that share a temperature and a lean share their sigmoid (the same value
    // choiceProbability computes): one per distinct pair per point, not one per level.
    const side = this.sides[this.sides.length - 1]!;
    const asked = this.answers.length - 1;
    const temps: number[] = [];
    const shifts: number[] = [];
    const tempOf = new Int32Array(k);
    for (let j = 0; j < k; j++) {
      const t = (temperature / this.levelSharpness[j]!) * (1 + this.levelFatigue[j]! * asked);
      const shift = this.levelSide[j]! * side;
      let i = temps.findIndex((x, m) => x === t && shifts[m] === shift);
      if (i < 0) {
        i = temps.push(t) - 1;
        shifts.push(shift);
      }
      tempOf[j] = i;
    }
    const sig = new Float64Array(temps.length);
    const n = this.gridAngles;
    // Per angle (`gridAngles`): its levels' log-likelihoods, then each component's point.
    for (let p = 0; p < n; p++) {
      const x = this.scaledDot(p, delta);
      const row = p * k;
      if (answer === "tie") {
        const t = tie ? tie[p]! : answerLogLikelihood(model, answer, x);
        for (let j = 0; j < k; j++) ll[row + j]! += t;
      } else {
        const sg = answer === "first" ? 1 : -1;
        for (let i = 0; i < temps.length; i++)
          sig[i] = choiceSigmoid(temps[i]!, sg * (x + shifts[i]!));
        for (let j = 0; j < k; j++) {
          const lapse = levels[j]!;
          ll[row + j]! += Math.log(0.5 * lapse + (1 - lapse) * sig[tempOf[j]!]!);
        }
      }
      let m = -Infinity;
      for (let j = 0; j < k; j++) m = Math.max(m, lp[j]! + ll[row + j]!);
      let sum = 0;
      for (let j = 0; j < k; j++) sum += Math.exp(lp[j]! + ll[row + j]! - m);
      const logSum = Math.log(sum);
      for (let q = p; q < this.size; q += n) {
        const g = this.gridPrior[q]!;
        // No level explains the answers (m = -Infinity: a "tie" far beyond every band): the
        // point is ruled out, not NaN.
        logw[q] = g > 0 && m > -Infinity ? Math.log(g) + m + logSum : -Infinity;
      }
    }
  }

  /** Append every particle's projection on the newest answer's `delta` to `proj`. */
  private project(delta: Float64Array): void {
    const d = this.dim;
    const column = new Float64Array(this.size);
    for (let p = 0; p < this.size; p++) {
      let s = 0;
      for (let i = 0; i < d; i++) s += this.u[p * d + i]! * delta[i]!;
      column[p] = s;
    }
    const count = this.answers.length;
    if (count > this.stride) {
      // Grow by doubling: particle p's projections stay contiguous.
      const stride = Math.max(16, 2 * this.stride);
      const grown = new Float64Array(this.size * stride);
      for (let p = 0; p < this.size; p++)
        grown.set(this.proj.subarray(p * this.stride, p * this.stride + count - 1), p * stride);
      this.proj = grown;
      this.stride = stride;
    }
    for (let p = 0; p < this.size; p++) this.proj[p * this.stride + count - 1] = column[p]!;
  }

  /** `<u_p, delta>` over the divisor (`|u_p|`, or the particle's range over the reference). */
  private scaledDot(p: number, delta: Float64Array): number {
    const d = this.dim;
    const off = this.row(p) * d;
    let s = 0;
    let n = 0;
    for (let i = 0; i < d; i++) {
      const x = this.u[off + i]!;
      s += x * delta[i]!;
      n += x * x;
    }
    return n > 0 ? s / this.divisor(p, 0, n, 0, undefined) : 0;
  }

  /**
   * A unit direction's range over the reference points (1 without them): the engine divides
   * its predicted differences by it, as the likelihood does.
   */
  rangeOf(w: Float64Array): number {
    const ref = this.reference;
    if (!ref) return 1;
    const d = this.dim;
    let lo = Infinity;
    let hi = -Infinity;
    for (let c = 0; c < this.refCount; c++) {
      let s = 0;
      for (let i = 0; i < d; i++) s += w[i]! * ref[c * d + i]!;
      if (s < lo) lo = s;
      if (s > hi) hi = s;
    }
    return Math.max(1e-300, hi - lo);
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
    const oldComponent = this.component;
    const oldLevel = this.level.slice();
    const oldLL = this.partLL.slice();
    const kl = this.levelLogPrior.length;
    const oldProj = this.proj.slice();
    const oldRef = this.refProj.slice();
    const rc = this.refCount;
    const stride = this.stride;
    // Each prior component is resampled within itself and keeps its particles (and its mass,
    // the evidence its prior earned), so neither component's posterior is lost to the other.
    const oldWeight = this.weight.slice();
    // Which old particle each new one copies: copies of one particle share its likelihood.
    const source = new Int32Array(n).fill(-1);
    for (const comp of [0, 1]) {
      const members: number[] = [];
      let mass = 0;
      for (let p = 0; p < n; p++) {
        if (oldComponent[p] === comp) {
          members.push(p);
          mass += oldWeight[p]!;
        }
      }
      if (members.length === 0 || !(mass > 0)) continue;
      const m = members.length;
      const step = mass / m;
      let c = oldWeight[members[0]!]!;
      let j = 0;
      const start = this.rng.next() * step;
      for (let r = 0; r < m; r++) {
        const target = start + r * step;
        while (target > c && j < m - 1) c += oldWeight[members[++j]!]!;
        const from = members[j]!;
        const p = members[r]!;
        source[p] = from;
        this.u.set(old.subarray(from * d, (from + 1) * d), p * d);
        this.proj.set(oldProj.subarray(from * stride, (from + 1) * stride), p * stride);
        if (rc > 0) this.refProj.set(oldRef.subarray(from * rc, (from + 1) * rc), p * rc);
        this.level[p] = oldLevel[from]!;
        if (kl > 0) this.partLL.set(oldLL.subarray(from * kl, (from + 1) * kl), p * kl);
        this.weight[p] = step;
      }
    }
    const snapshot = this.u.slice();
    const count = this.answers.length;
    const dirs = Array.from({ length: DIRECTIONS }, () => new Float64Array(d));
    const dirProj = Array.from({ length: DIRECTIONS }, () => new Float64Array(count));
    const widths = new Float64Array(DIRECTIONS);
    const ref = this.reference;
    const refDir = ref ? Array.from({ length: DIRECTIONS }, () => new Float64Array(rc)) : undefined;
    const soft = this.softAnswers();
    const chords = Array.from({ length: DIRECTIONS }, () => chordSides(soft));
    const still = new Float64Array(d);
    for (let p = 0; p < n; p++) {
      if (this.component[p] !== 1) continue;
      let uu = 0;
      for (let i = 0; i < d; i++) uu += this.u[p * d + i]! ** 2;
      this.priorLL[p] = this.sparseLogPrior(p * d, still, uu, 0, 0);
    }
    if (soft.count > 0) {
      const none = new Float64Array(count);
      const levels = this.levels;
      const lp = this.levelLogPrior;
      const ll = new Float64Array(lp.length);
      const odds = new Float64Array(lp.length);
      // The first new particle copying each old one, whose likelihood its other copies share.
      const firstCopy = new Int32Array(n).fill(-1);
      for (let p = 0; p < n; p++) {
        if (!levels) {
          const from = source[p]!;
          const twin = from >= 0 ? firstCopy[from]! : -1;
          if (twin >= 0) {
            this.softLL[p] = this.softLL[twin]!;
            continue;
          }
          if (from >= 0) firstCopy[from] = p;
          let uu = 0;
          for (let i = 0; i < d; i++) uu += this.u[p * d + i]! ** 2;
          this.softLL[p] = this.softLogLikelihood(p, none, uu, 0, undefined, soft, 0);
          continue;
        }
        // Gibbs step on the particle's lapse level given its position (the moves then keep
        // the level): the resampled copies of one particle spread over the levels it fits.
        let best = -Infinity;
        for (let j = 0; j < lp.length; j++) {
          ll[j] = lp[j]! + this.partLL[p * kl + j]!;
          if (ll[j]! > best) best = ll[j]!;
        }
        let sum = 0;
        for (let j = 0; j < lp.length; j++) {
          odds[j] = Math.exp(ll[j]! - best);
          sum += odds[j]!;
        }
        let x = this.rng.next() * sum;
        let chosen = lp.length - 1;
        for (let j = 0; j < lp.length; j++) {
          x -= odds[j]!;
          if (x < 0) {
            chosen = j;
            break;
          }
        }
        this.level[p] = chosen;
        this.softLL[p] = ll[chosen]! - lp[chosen]!;
      }
    }
    for (let m = 0; m < this.moves; m++) {
      for (let g = 0; g < DIRECTIONS; g++) {
        this.pickDirection(dirs[g]!, snapshot);
        for (let a = 0; a < count; a++) {
          let s = 0;
          const row = a * d;
          for (let i = 0; i < d; i++) s += this.deltas[row + i]! * dirs[g]![i]!;
          dirProj[g]![a] = s;
        }
        if (soft.count > 0) widths[g] = this.spread(dirs[g]!, snapshot);
        sideOfChord(soft, dirProj[g]!, chords[g]!);
        if (ref && refDir) {
          for (let c = 0; c < rc; c++) {
            let s = 0;
            for (let i = 0; i < d; i++) s += ref[c * d + i]! * dirs[g]![i]!;
            refDir[g]![c] = s;
          }
        }
      }
      for (let p = 0; p < n; p++) {
        const g = this.rng.int(DIRECTIONS);
        this.moveAlong(p, dirs[g]!, dirProj[g]!, widths[g]!, soft, refDir?.[g], chords[g]!);
      }
    }
    // Each level's likelihood at the particles' new positions, for the next answer's weights.
    if (kl > 0 && soft.count > 0) {
      const scratch = this.levelScratch(soft);
      for (let p = 0; p < n; p++) {
        let uu = 0;
        for (let i = 0; i < d; i++) uu += this.u[p * d + i]! ** 2;
        this.otherLevelsLogLikelihood(p, uu, soft, scratch);
        this.partLL[p * kl + this.level[p]!] = this.softLL[p]!;
      }
    }
  }

  /**
   * Work arrays for `otherLevelsLogLikelihood`, and the levels grouped by what their choice
   * probabilities' exponent depends on (sharpness, side lean, fatigue): a group's levels
   * differ in their lapse only, so they share one `exp` per answer.
   */
  private levelScratch(soft: SoftAnswers): LevelScratch {
    const kl = this.levelLogPrior.length;
    const groups: number[][] = [];
    const keyOf = (j: number) =>
      `${this.levelSharpness[j]} ${this.levelSide[j]} ${this.levelFatigue[j]}`;
    const byKey = new Map<string, number[]>();
    for (let j = 0; j < kl; j++) {
      const key = keyOf(j);
      let g = byKey.get(key);
      if (!g) {
        g = [];
        byKey.set(key, g);
        groups.push(g);
      }
      g.push(j);
    }
    return {
      groups: groups.map((g) => Int32Array.from(g)),
      sum: new Float64Array(kl),
      prod: new Float64Array(kl),
      inRun: new Int32Array(kl),
      otherTerms: new Float64Array(soft.other.length),
      otherIsTie: new Uint8Array(soft.other.length),
    };
  }

  /**
   * Every level's soft log-likelihood at particle p's position (`uu = |u_p|^2`) but its own
   * level's (the moves keep that one in `softLL`), into `partLL`: the same sums as
   * `softLogLikelihood` at each level, term by term and in the same order, so the same to the
   * bit, with one `exp` per answer and group of levels instead of one per answer and level.
   */
  private otherLevelsLogLikelihood(
    p: number,
    uu: number,
    { choice, choiceScale, other }: SoftAnswers,
    scratch: LevelScratch,
  ): void {
    const levels = this.levels!;
    const kl = levels.length;
    const own = this.level[p]!;
    const proj = this.proj;
    const row = p * this.stride;
    const sides = this.sides;
    const inv = 1 / this.divisor(p, 0, uu, 0, undefined);
    const { groups, sum, prod, inRun } = scratch;
    sum.fill(0);
    prod.fill(1);
    inRun.fill(0);
    const m = choice.length;
    for (const g of groups) {
      if (g.length === 1 && g[0] === own) continue;
      const sharp = this.levelSharpness[g[0]!]!;
      const lean = this.levelSide[g[0]!]!;
      const fatigue = this.levelFatigue[g[0]!]!;
      const sharpInv = sharp * inv;
      for (let k = 0; k < m; k++) {
        const j = choice[k]!;
        let z = (proj[row + j]! + 0 * 0) * sharpInv * choiceScale[k]!;
        if (lean !== 0) z += lean * sides[j]! * sharp * choiceScale[k]!;
        if (fatigue !== 0) z /= 1 + fatigue * j;
        const far = z > 36 || z < -36;
        const e = far ? 0 : Math.exp(z);
        for (let q = 0; q < g.length; q++) {
          const l = g[q]!;
          if (l === own) continue;
          const lapse = levels[l]!;
          const low = 0.5 * lapse;
          prod[l]! *= z > 36 ? low : z < -36 ? 1 - 0.5 * lapse : low + (1 - lapse) / (1 + e);
          if (++inRun[l]! === (lapse >= 0.01 ? PRODUCT_RUN : 1)) {
            sum[l]! += Math.log(prod[l]!);
            prod[l] = 1;
            inRun[l] = 0;
          }
        }
      }
    }
    // The other soft answers (ties) do not depend on the level: their terms once, added to
    // each level's sum in order.
    const model = this.model;
    const terms = scratch.otherTerms;
    const isTie = scratch.otherIsTie;
    let ties: Float64Array | undefined;
    for (let k = 0; k < other.length; k++) {
      const j = other[k]!;
      const x = (proj[row + j]! + 0 * 0) * inv;
      if (model.kind === "human" && this.answers[j] === "tie") {
        ties ??= new Float64Array(TIE_BANDS.length);
        addTieBands(model, x, ties);
        isTie[k] = 1;
      } else {
        terms[k] = answerLogLikelihood(model, this.answers[j]!, x);
        isTie[k] = 0;
      }
    }
    const tieTerm = ties ? tieMarginal(ties) : 0;
    for (let l = 0; l < kl; l++) {
      if (l === own) continue;
      let s = sum[l]!;
      if (inRun[l]! > 0) s += Math.log(prod[l]!);
      for (let k = 0; k < other.length; k++) if (isTie[k] === 0) s += terms[k]!;
      this.partLL[p * kl + l] = ties ? s + tieTerm : s;
    }
  }

  /** The answers split into soft and hard, with their signs, for the moves. */
  private softAnswers(): SoftAnswers {
    const choice: number[] = [];
    const choiceScale: number[] = [];
    const other: number[] = [];
    const hardIndex: number[] = [];
    const hardSign: number[] = [];
    const model = this.model;
    for (let j = 0; j < this.answers.length; j++) {
      const a = this.answers[j];
      const sg = a === "first" ? 1 : a === "second" ? -1 : 0;
      if (this.hard[j]) {
        hardIndex.push(j);
        hardSign.push(sg);
      } else if (sg !== 0 && model.kind === "human") {
        choice.push(j);
        choiceScale.push(-sg / model.temperature);
      } else {
        other.push(j);
      }
    }
    return {
      choice: Int32Array.from(choice),
      choiceScale: Float64Array.from(choiceScale),
      other: Int32Array.from(other),
      count: choice.length + other.length,
      hardIndex: Int32Array.from(hardIndex),
      hardSign: Int8Array.from(hardSign),
    };
  }

  /**
   * Twice the spread of the particles along unit direction v: the initial width of the slice
   * interval, so the slice is found in a few steps instead of by halving the whole chord. It
   * depends on the ensemble before the sweep, not on the particle moved.
   */
  private spread(v: Float64Array, snapshot: Float64Array): number {
    const d = this.dim;
    let s1 = 0;
    let s2 = 0;
    for (let p = 0; p < this.size; p++) {
      let x = 0;
      for (let i = 0; i < d; i++) x += snapshot[p * d + i]! * v[i]!;
      s1 += x;
      s2 += x * x;
    }
    const mean = s1 / this.size;
    return 2 * Math.sqrt(Math.max(0, s2 / this.size - mean * mean));
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

  /**
   * One hit-and-run move of particle p along unit direction v (`b[j] = <delta_j, v>`): the
   * hard constraints cut an exact chord; soft answers are slice-sampled on it from an interval
   * of `width` with shrinkage (Neal 2003). `softLL[p]` holds the particle's soft
   * log-likelihood, so a move costs the likelihood at the points it tries only.
   */
  private moveAlong(
    p: number,
    v: Float64Array,
    b: Float64Array,
    width: number,
    softAnswers: SoftAnswers,
    rb: Float64Array | undefined,
    chord: ChordSides,
  ): void {
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
    // Answers: a_j + t b_j with a_j = <delta_j, u>, each bounding the chord from the side
    // `chord` sorted it to for this direction (max and min do not depend on the order).
    const proj = this.proj;
    const row = p * this.stride;
    const { lower, upper } = chord;
    for (let k = 0; k < chord.lowerCount; k++) {
      const j = lower[k]!;
      lo = Math.max(lo, -proj[row + j]! / b[j]!);
    }
    for (let k = 0; k < chord.upperCount; k++) {
      const j = upper[k]!;
      hi = Math.min(hi, -proj[row + j]! / b[j]!);
    }
    if (!(hi > lo)) return;
    const sparse = this.component[p] === 1;
    if (softAnswers.count === 0 && !sparse) {
      this.shift(p, lo + (hi - lo) * this.rng.next(), v, b, rb);
      return;
    }
    const hasSoft = softAnswers.count > 0;
    const current = this.softLL[p]! + (sparse ? this.priorLL[p]! : 0);
    const level = current + Math.log(1 - this.rng.next());
    // An interval of `width` placed at random around 0 (slice sampling without stepping out,
    // Neal's m = 1, which keeps the posterior invariant), within the chord; then shrink.
    let l = Math.min(0, lo);
    let h = Math.max(0, hi);
    if (width > 0 && width < h - l) {
      const left = -width * this.rng.next();
      l = Math.max(l, left);
      h = Math.min(h, left + width);
    }
    for (let iter = 0; iter < 30; iter++) {
      const t = l + (h - l) * this.rng.next();
      const priorValue = sparse ? this.sparseLogPrior(off, v, uu, uv, t) : 0;
      // Below `level - priorValue` the point is rejected whatever the rest of the sum.
      const softValue = hasSoft
        ? this.softLogLikelihood(p, b, uu, uv, rb, softAnswers, t, level - priorValue)
        : 0;
      if (softValue + priorValue >= level) {
        this.shift(p, t, v, b, rb);
        this.softLL[p] = softValue;
        this.priorLL[p] = priorValue;
        return;
      }
      if (t < 0) l = t;
      else h = t;
    }
  }

  /**
   * The sparse component's log prior density (relative to uniform, unnormalised) along the
   * line `u + t v` from the particle at offset `off`: `(2 alpha - 1) sum log |w_i|` over the
   * sign-constrained coordinates of the direction `w`.
   */
  private sparseLogPrior(off: number, v: Float64Array, uu: number, uv: number, t: number): number {
    const u = this.u;
    const c = this.constrained;
    const e = 2 * this.alpha - 1;
    // Products of up to 8 coordinates (each at most 1 in the unit ball, at least 1e-37 once
    // floored) cannot underflow, so one log per 8 instead of one per coordinate: this is
    // the inner loop of every sparse particle's move.
    let s = 0;
    let prod = 1;
    for (let k = 0; k < c.length; k++) {
      const i = c[k]!;
      prod *= Math.max(1e-37, Math.abs(u[off + i]! + t * v[i]!));
      if ((k & 7) === 7) {
        s += Math.log(prod);
        prod = 1;
      }
    }
    s += Math.log(prod);
    const n2 = Math.max(1e-300, uu + 2 * t * uv + t * t);
    return e * (s - 0.5 * c.length * Math.log(n2));
  }

  /** Move particle `p` to `u_p + t v`, its answers' and reference points' projections with it. */
  private shift(
    p: number,
    t: number,
    v: Float64Array,
    b: Float64Array,
    rb: Float64Array | undefined,
  ): void {
    const d = this.dim;
    const off = p * d;
    const u = this.u;
    for (let i = 0; i < d; i++) u[off + i]! += t * v[i]!;
    const proj = this.proj;
    const row = p * this.stride;
    const count = this.answers.length;
    for (let j = 0; j < count; j++) proj[row + j]! += t * b[j]!;
    if (rb) {
      const rc = this.refCount;
      const ref = this.refProj;
      for (let c = 0; c < rc; c++) ref[p * rc + c]! += t * rb[c]!;
    }
  }

  /**
   * The soft answers' log-likelihood along the line `u_p + t v` (`uu = |u_p|^2`,
   * `uv = <u_p, v>`, `rb` the reference points' projections on v). Every term is a log
   * probability (at most 0), so the partial sums only fall: once one is below `floor` the
   * whole is too, and the sum so far is returned (a slice move rejects such a point whatever
   * the rest; the accepted points' values are summed in full, in the same order, so the
   * result is the same to the bit).
   */
  private softLogLikelihood(
    p: number,
    b: Float64Array,
    uu: number,
    uv: number,
    rb: Float64Array | undefined,
    { choice, choiceScale, other }: SoftAnswers,
    t: number,
    floor = -Infinity,
  ): number {
    const model = this.model;
    const proj = this.proj;
    const row = p * this.stride;
    const lapse = this.levels
      ? this.levels[this.level[p]!]!
      : model.kind === "human"
        ? model.lapse
        : 0;
    // The human model's choice probability is at least lapse / 2, so a product of PRODUCT_RUN
    // of them stays far from underflow: one log per run instead of one per answer.
    const run = lapse >= 0.01 ? PRODUCT_RUN : 1;
    const low = 0.5 * lapse;
    const high = 1 - 0.5 * lapse;
    const m = choice.length;
    const sharp = this.levels ? this.levelSharpness[this.level[p]!]! : 1;
    const lean = this.levels ? this.levelSide[this.level[p]!]! : 0;
    const fatigue = this.levels ? this.levelFatigue[this.level[p]!]! : 0;
    const sides = this.sides;
    const inv = 1 / this.divisor(p, t, uu, uv, rb);
    const sharpInv = sharp * inv;
    let s = 0;
    let prod = 1;
    let inRun = 0;
    // Prefilter for the early exit: the run's product below `cut` may put the sum below floor.
    let cut = floor === -Infinity ? 0 : Math.exp(floor - s) * 1.000001;
    const plain = lean === 0 && fatigue === 0;
    for (let k = 0; k < m; k++) {
      const j = choice[k]!;
      // z = -(signed scaled difference) / temperature. Beyond |z| = 36 the sigmoid is 0 or
      // 1 to double precision, so a sharp model (flips:P) skips the exp.
      let z = (proj[row + j]! + t * b[j]!) * sharpInv * choiceScale[k]!;
      if (!plain) {
        // A lean to the left: the left side's scaled difference grows by `lean`.
        if (lean !== 0) z += lean * sides[j]! * sharp * choiceScale[k]!;
        // A tiring person's temperature grows with the question's index.
        if (fatigue !== 0) z /= 1 + fatigue * j;
      }
      prod *= z > 36 ? low : z < -36 ? high : low + (1 - lapse) / (1 + Math.exp(z));
      if (prod < cut && s + Math.log(prod) < floor) {
        return s + Math.log(prod);
      }
      if (++inRun === run) {
        s += Math.log(prod);
        prod = 1;
        inRun = 0;
        if (cut > 0) cut = Math.exp(floor - s) * 1.000001;
      }
    }
    if (inRun > 0) s += Math.log(prod);
    if (s < floor) return s;
    let ties: Float64Array | undefined;
    for (let k = 0; k < other.length; k++) {
      const j = other[k]!;
      const x = (proj[row + j]! + t * b[j]!) * inv;
      if (model.kind === "human" && this.answers[j] === "tie") {
        ties ??= new Float64Array(TIE_BANDS.length);
        addTieBands(model, x, ties);
      } else {
        s += answerLogLikelihood(model, this.answers[j]!, x);
      }
    }
    return ties ? s + tieMarginal(ties) : s;
  }
}

/**
 * The hard answers split by the side of a move's chord they bound along one direction: the
 * answer j with sign s bounds it from below where s b_j > 0 (b_j its projection on the
 * direction), from above otherwise, and not at all where b_j = 0. Sorted once per direction
 * instead of once per particle moved (the test and its branch were a fifth of the move).
 */
interface ChordSides {
  readonly lower: Int32Array;
  lowerCount: number;
  readonly upper: Int32Array;
  upperCount: number;
}

/** Room for every hard answer of `soft` on either side. */
function chordSides(soft: SoftAnswers): ChordSides {
  const size = soft.hardIndex.length;
  return { lower: new Int32Array(size), lowerCount: 0, upper: new Int32Array(size), upperCount: 0 };
}

/** Sorts `soft`'s hard answers into `out` for the direction whose projections are `b`. */
function sideOfChord(soft: SoftAnswers, b: Float64Array, out: ChordSides): void {
  const { hardIndex, hardSign } = soft;
  let lower = 0;
  let upper = 0;
  for (let k = 0; k < hardIndex.length; k++) {
    const j = hardIndex[k]!;
    const bj = b[j]!;
    if (bj === 0) continue;
    if (hardSign[k]! * bj > 0) out.lower[lower++] = j;
    else out.upper[upper++] = j;
  }
  out.lowerCount = lower;
  out.upperCount = upper;
}

/** `log sum_j exp(a[j] + b[off + j])` over j < k. */
function logSumExp(a: Float64Array, b: Float64Array, off: number, k: number): number {
  let best = -Infinity;
  for (let j = 0; j < k; j++) if (a[j]! + b[off + j]! > best) best = a[j]! + b[off + j]!;
  if (best === -Infinity) return best;
  let sum = 0;
  for (let j = 0; j < k; j++) sum += Math.exp(a[j]! + b[off + j]! - best);
  return best + Math.log(sum);
}

/**
 * Sweeps of moves after each answer by default: exact-model moves only cut chords (cheap),
 * max(8, dim); soft answers need slice sampling (dearer), max(4, dim / 2). A family may ask
 * for more under the exact model (`AdaptiveFamily.exactMoves`).
 * @example defaultMoves(EXACT_MODEL, 12) // 12
 */
export function defaultMoves(model: AnswerModel, dim: number): number {
  return model.kind === "exact" ? Math.max(8, dim) : Math.max(4, Math.ceil(dim / 2));
}

/**
 * A Gamma(shape, 1) draw (Marsaglia and Tsang; for shape < 1 via Gamma(shape + 1) U^(1/shape)).
 * @example gammaDraw(0.25, createRng(1)) // > 0, mean 0.25
 */
export function gammaDraw(shape: number, rng: Rng): number {
  if (shape < 1) return gammaDraw(shape + 1, rng) * rng.next() ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = rng.normal();
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = rng.next();
    if (u < 1 - 0.0331 * x ** 4) return d * v;
    if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}
