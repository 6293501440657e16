/**
 * A panel of simulated people (issue 26, item 3): answerers unlike the engine's own answer
 * models, to test the engine honestly. This module never imports from `src/elicit/` and
 * shares no code with the engine's answer models; its only dependencies are the seeded RNG
 * and the question protocol. Pure: no I/O, no clocks, no `Math.random`; runs in Node and in
 * a browser.
 *
 * A person judges the values **as displayed**. The caller supplies `value(shown)`, the
 * person's true utility computed from the quantities the person sees (rounded counts of
 * whole people, rates as printed), not from the unrounded rates the engine computes with.
 * `range` is the spread of that utility over the questions the person could be asked: the
 * person's own sense of what a big difference is. Every noise scale below is a fraction of it.
 *
 * Each question is shown with a random left/right placement (drawn from the person's own
 * seeded stream): the first point is on the left with probability 1/2. Side bias acts on the
 * LEFT item and is mapped back to "first" / "second".
 *
 * One answer, in order (with `d = value(first) - value(second)`, `t` the 0-based index of
 * the question in this person's session):
 * 1. `coin`: a fair coin between "first" and "second"; nothing else applies.
 * 2. lapse: with probability `lapse`, a fair coin between "first" and "second".
 * 3. exact tie (|d| <= 1e-12 of the values' size): "tie" (the person sees no difference).
 * 4. tie band: "tie" when |d| < band * range, the band drawn once per person, uniformly in
 *    `tieBand = [lo, hi]`.
 * 5. side bias: when |d| < `nearBand` * range, the LEFT item with probability `sideBias`,
 *    the right one otherwise (the values are ignored on such pairs).
 * 6. probit (Thurstonian) choice: with `sigma_t = sigma * (1 + fatigue * t)`, "first" with
 *    probability Phi(d / (sigma_t * range)); `sigma = 0` answers on the sign of `d`.
 * 7. flip: the answer of steps 5-6 is replaced by the opposite with probability `flip`.
 *
 * Person types and their defaults (any parameter can be overridden in `makePerson`):
 *
 * | type        | sigma | lapse | tieBand      | fatigue | sideBias / nearBand | flip | coin  |
 * |-------------|-------|-------|--------------|---------|---------------------|------|-------|
 * | `careful`   | 0     | 0     | [0, 0]       | 0       | 0 / 0               | 0    | no    |
 * | `probit`    | 0.05  | 0     | [0, 0]       | 0       | 0 / 0               | 0    | no    |
 * | `lapse`     | 0.05  | 0.10  | [0, 0]       | 0       | 0 / 0               | 0    | no    |
 * | `tie-band`  | 0.05  | 0     | [0.05, 0.10] | 0       | 0 / 0               | 0    | no    |
 * | `fatigue`   | 0.05  | 0     | [0, 0]       | 0.1     | 0 / 0               | 0    | no    |
 * | `side-bias` | 0.05  | 0     | [0, 0]       | 0       | 0.8 / 0.1           | 0    | no    |
 * | `flips-5`   | 0     | 0     | [0, 0]       | 0       | 0 / 0               | 0.05 | no    |
 * | `flips-10`  | 0     | 0     | [0, 0]       | 0       | 0 / 0               | 0.10 | no    |
 * | `flips-20`  | 0     | 0     | [0, 0]       | 0       | 0 / 0               | 0.20 | no    |
 * | `random`    | -     | -     | -            | -       | -                   | -    | yes   |
 *
 * With `sigma = 0.05`, a probit person picks the worse of two points a twentieth of the range
 * apart 15.9% of the time (Phi(-1)), and a tenth of the range apart 2.3% (Phi(-2)). The
 * fatigue person's sigma doubles by question 10 and triples by question 20.
 *
 * @example
 * const person = makePerson("probit", { value: (p: { cost: number }) => -p.cost, range: 1, seed: 7 });
 * person.ask({ stage: "demo", first: { cost: 0.2 }, second: { cost: 0.9 } }); // "first" (almost surely)
 * person.log[0]; // { index: 0, values: [-0.2, -0.9], left: "first" | "second", answer: "first" }
 */
import { createRng, type Rng } from "../math/rng.ts";
import type { Answer, Ask, QuestionDraft } from "../search/question.ts";

/**
 * The names of the panel's person types, in a stable order.
 * @example for (const type of PERSON_TYPES) makePerson(type, { value: (x: number) => x, range: 1, seed: type });
 */
export const PERSON_TYPES = [
  "careful",
  "probit",
  "lapse",
  "tie-band",
  "fatigue",
  "side-bias",
  "flips-5",
  "flips-10",
  "flips-20",
  "random",
] as const;

/**
 * One of `PERSON_TYPES`.
 * @example const type: PersonType = "tie-band";
 */
export type PersonType = (typeof PERSON_TYPES)[number];

/**
 * How a person answers; see the module doc for the order the parameters act in.
 * Scales (`sigma`, `tieBand`, `nearBand`) are fractions of the person's `range`.
 * @example const params: PersonParams = { ...PERSON_DEFAULTS.probit, sigma: 0.1 };
 */
export interface PersonParams {
  /** Probit noise scale at the first question, as a fraction of `range`; 0 = noise-free. */
  readonly sigma: number;
  /** Probability of a lapse: a fair coin between "first" and "second", values ignored. */
  readonly lapse: number;
  /** Interval [lo, hi] the personal "about the same" band is drawn from (uniformly, once). */
  readonly tieBand: readonly [number, number];
  /** Growth of sigma per question: sigma_t = sigma * (1 + fatigue * t). */
  readonly fatigue: number;
  /** Probability of picking the LEFT item on near pairs. */
  readonly sideBias: number;
  /** Pairs with |d| < nearBand * range are "near" for the side bias; 0 = no side bias. */
  readonly nearBand: number;
  /** Probability that the (otherwise) chosen answer is replaced by the opposite. */
  readonly flip: number;
  /** A coin: "first" or "second" 50/50 on every question, never informative. */
  readonly coin: boolean;
}

const NONE: PersonParams = {
  sigma: 0,
  lapse: 0,
  tieBand: [0, 0],
  fatigue: 0,
  sideBias: 0,
  nearBand: 0,
  flip: 0,
  coin: false,
};

/**
 * The default parameters of every person type (the table in the module doc).
 * @example PERSON_DEFAULTS["flips-10"].flip // 0.1
 */
export const PERSON_DEFAULTS: Readonly<Record<PersonType, PersonParams>> = {
  careful: NONE,
  probit: { ...NONE, sigma: 0.05 },
  lapse: { ...NONE, sigma: 0.05, lapse: 0.1 },
  "tie-band": { ...NONE, sigma: 0.05, tieBand: [0.05, 0.1] },
  fatigue: { ...NONE, sigma: 0.05, fatigue: 0.1 },
  "side-bias": { ...NONE, sigma: 0.05, sideBias: 0.8, nearBand: 0.1 },
  "flips-5": { ...NONE, flip: 0.05 },
  "flips-10": { ...NONE, flip: 0.1 },
  "flips-20": { ...NONE, flip: 0.2 },
  random: { ...NONE, coin: true },
};

/** One answered question in a person's log. */
export interface PersonLogEntry {
  /** 0-based index of the question in this person's session. */
  readonly index: number;
  /** The person's utility of the first and the second point, on displayed values. */
  readonly values: readonly [number, number];
  /** Which point was shown on the left. */
  readonly left: "first" | "second";
  readonly answer: Answer;
}

/** A simulated person: answers questions, logging each one. */
export interface Person<P> {
  readonly type: PersonType;
  /** The parameters in force (defaults merged with overrides). */
  readonly params: PersonParams;
  /** The personal "about the same" band (fraction of `range`) drawn from `params.tieBand`. */
  readonly band: number;
  readonly ask: Ask<P>;
  readonly log: readonly PersonLogEntry[];
  /** Number of questions answered so far. */
  readonly count: () => number;
}

/**
 * What `makePerson` needs, plus optional overrides of the type's default parameters.
 * @example
 * const options: PersonOptions<number> = { value: (x) => x, range: 1, seed: 3, sigma: 0.1 };
 */
export interface PersonOptions<P> extends Partial<PersonParams> {
  /**
   * The person's true utility of a point, computed on the values AS DISPLAYED to the person
   * (e.g. from rounded counts of whole people), not on the engine's unrounded quantities.
   */
  readonly value: (shown: P) => number;
  /** Spread of `value` over the questions the person could be asked (must be > 0). */
  readonly range: number;
  readonly seed: number | string;
}

/**
 * The standard normal cumulative distribution function Phi, to about 1e-14 absolute
 * (Hart's 1968 rational approximation, as given by G. West, "Better approximations to
 * cumulative normal functions", 2005).
 * @example normalCdf(0) // 0.5
 * @example normalCdf(1) // 0.841344746068543
 */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  const z = Math.abs(x);
  let tail: number;
  if (z > 37) {
    tail = 0;
  } else {
    const e = Math.exp((-z * z) / 2);
    if (z < 7.07106781186547) {
      let num = 3.52624965998911e-2 * z + 0.700383064443688;
      num = num * z + 6.37396220353165;
      num = num * z + 33.912866078383;
      num = num * z + 112.079291497871;
      num = num * z + 221.213596169931;
      num = num * z + 220.206867912376;
      let den = 8.83883476483184e-2 * z + 1.75566716318264;
      den = den * z + 16.064177579207;
      den = den * z + 86.7807322029461;
      den = den * z + 296.564248779674;
      den = den * z + 637.333633378831;
      den = den * z + 793.826512519948;
      den = den * z + 440.413735824752;
      tail = (e * num) / den;
    } else {
      let b = z + 0.65;
      b = z + 4 / b;
      b = z + 3 / b;
      b = z + 2 / b;
      b = z + 1 / b;
      tail = e / b / 2.506628274631;
    }
  }
  return x > 0 ? 1 - tail : tail;
}

const EXACT_TIE = 1e-12;

function other(side: "first" | "second"): "first" | "second" {
  return side === "first" ? "second" : "first";
}

function checkProbability(name: string, p: number): void {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`${name} must be a probability in [0, 1]`);
}

function checkParams(params: PersonParams): void {
  if (!(params.sigma >= 0 && Number.isFinite(params.sigma))) {
    throw new RangeError("sigma must be a finite number >= 0");
  }
  if (!(params.fatigue >= 0 && Number.isFinite(params.fatigue))) {
    throw new RangeError("fatigue must be a finite number >= 0");
  }
  if (!(params.nearBand >= 0 && Number.isFinite(params.nearBand))) {
    throw new RangeError("nearBand must be a finite number >= 0");
  }
  const [lo, hi] = params.tieBand;
  if (!(lo >= 0 && hi >= lo && Number.isFinite(hi))) {
    throw new RangeError("tieBand must be an interval [lo, hi] with 0 <= lo <= hi");
  }
  checkProbability("lapse", params.lapse);
  checkProbability("sideBias", params.sideBias);
  checkProbability("flip", params.flip);
}

/**
 * Make a simulated person of a panel type. Overrides in `options` replace the type's
 * defaults (`PERSON_DEFAULTS`); the person's random stream (placement, noise, personal band)
 * is a pure function of `seed`.
 * @example
 * const shown = (p: { missed: number; falseAlarms: number }) => -(3 * p.missed + p.falseAlarms);
 * const person = makePerson("tie-band", { value: shown, range: 20, seed: "p1", tieBand: [0.1, 0.1] });
 * person.ask({ stage: "demo", first: { missed: 1, falseAlarms: 4 }, second: { missed: 1, falseAlarms: 5 } });
 * // "tie": a difference of 1 is inside 0.1 * 20
 */
export function makePerson<P>(type: PersonType, options: PersonOptions<P>): Person<P> {
  const defaults = PERSON_DEFAULTS[type];
  if (defaults === undefined) throw new RangeError(`unknown person type: ${String(type)}`);
  const { value, range, seed, ...overrides } = options;
  if (!(range > 0 && Number.isFinite(range))) {
    throw new RangeError("range must be a finite number > 0");
  }
  const params: PersonParams = { ...defaults, ...overrides };
  checkParams(params);
  const rng: Rng = createRng(seed);
  const band = rng.uniform(params.tieBand[0], params.tieBand[1]);
  const log: PersonLogEntry[] = [];

  const decide = (t: number, v1: number, v2: number, left: "first" | "second"): Answer => {
    const coin = (): Answer => (rng.next() < 0.5 ? "first" : "second");
    if (params.coin) return coin();
    if (params.lapse > 0 && rng.next() < params.lapse) return coin();
    const d = v1 - v2;
    const size = Math.max(1, Math.abs(v1), Math.abs(v2));
    if (Math.abs(d) <= EXACT_TIE * size) return "tie";
    if (Math.abs(d) < band * range) return "tie";
    let choice: "first" | "second";
    if (params.sideBias > 0 && Math.abs(d) < params.nearBand * range) {
      choice = rng.next() < params.sideBias ? left : other(left);
    } else {
      const sigma = params.sigma * (1 + params.fatigue * t);
      const better = d > 0 ? "first" : "second";
      if (sigma > 0) {
        const pFirst = normalCdf(d / (sigma * range));
        choice = rng.next() < pFirst ? "first" : "second";
      } else {
        choice = better;
      }
    }
    if (params.flip > 0 && rng.next() < params.flip) choice = other(choice);
    return choice;
  };

  const ask = (draft: QuestionDraft<P>): Answer => {
    const v1 = value(draft.first);
    const v2 = value(draft.second);
    if (!Number.isFinite(v1) || !Number.isFinite(v2)) {
      throw new RangeError("a person's value must be a finite number");
    }
    const index = log.length;
    // The screen's placement when the question carries one (a study's), else the person's
    // own draw (drawn either way, so the person's stream does not depend on it).
    const drawn = rng.next() < 0.5 ? "first" : "second";
    const left = draft.left ?? drawn;
    const answer = decide(index, v1, v2, left);
    log.push({ index, values: [v1, v2], left, answer });
    return answer;
  };

  return { type, params, band, ask, log, count: () => log.length };
}
