import { type FairPoint, fairUtility } from "../elicit/fair/metric.ts";
import { createRng } from "../math/rng.ts";
import { makePerson, normalCdf, PERSON_DEFAULTS } from "../oracle/people.ts";
import { fairShownKey, fairStudyFamily, shownRatesOf } from "../server/kinds/fair/participant.ts";
import type { FairStudyData } from "../server/kinds/fair/study.ts";
import { type IdealSearchSummary, massIndex, summarise } from "./ideal-searcher.ts";
import { fairPeopleSpec, personSeed, randomFairTruth } from "./reproduce-people.ts";
import { truthRange } from "./simulate-adaptive.ts";

/** Options of `idealSideBiasSearch`. */
export interface SideBiasSearchOptions {
  /** The fairness study's data (the people panel's: arrests by colour). */
  readonly data: FairStudyData;
  /** Questions per run (fixed: the searcher never stops early). */
  readonly questions: number;
  readonly trials: number;
  /** Error above which a run misses (twice lambda's tolerance: 0.1). */
  readonly target: number;
  readonly seed: string;
  /** Points of the grid on lambda's prior [0.1, 0.9] (default 201). */
  readonly grid?: number;
  /**
   * The kinds of person the searcher believes it may face, with prior weights, each the
   * panel's side-biased person with some parameters replaced (default: one kind, the panel's
   * side bias itself: told exactly). `sideBias` 0.5: answers within the near band say
   * nothing, whichever side; `nearBand` 0: a probit person with no band at all.
   */
  readonly kinds?: readonly SearcherKind[];
  /**
   * Each question's pool (default 3 draws of 32 posterior directions, no prior ones): `draws`
   * times the family's candidates for `posterior` directions drawn from the posterior and
   * `prior` from lambda's prior (each draw adds the points on the level set of their centre).
   */
  readonly pool?: { readonly draws: number; readonly posterior: number; readonly prior: number };
}

/** A kind of person the searcher believes it may face (`SideBiasSearchOptions.kinds`). */
export interface SearcherKind {
  readonly sideBias?: number;
  readonly nearBand?: number;
  /** Prior weight (default 1; the weights are normalised). */
  readonly weight?: number;
}

/**
 * How close a searcher could come on lambda (a fairness study's trade-off, the people panel's
 * `fair-lambda` cell) facing the panel's side-biased person (`src/oracle/people.ts`: on a pair
 * nearer than a tenth of their range they pick the left system with probability 0.8, else
 * they judge the counts shown with probit noise 0.05 of their range), told how the truths are
 * drawn (lambda uniform on [0.1, 0.9]) and, by default, the person too (`kinds`: what it
 * believes instead). It asks the study's kind of questions: each question, pairs of a pool of
 * the profiles a lambda study offers (`pool`: optimal for lambdas drawn from its posterior,
 * and points on the level set of their centre), every pair allowed, repeats too, the one
 * whose answer tells the most about lambda and the kind of person given the placement the
 * person will draw. It keeps the exact posterior on a grid, with the person's own range at
 * every lambda, and estimates the centre of the window of width 2 x `target` holding the most
 * posterior mass. The person is the panel's, answering on the counts shown. Told the person,
 * it bounds what the engine can reach on that cell; believing otherwise, it shows what the
 * engine's beliefs cost. Pure and seeded.
 * @example idealSideBiasSearch({ data, questions: 25, trials: 100, target: 0.1, seed: "s" }).error.p95 // about 0.08
 */
export function idealSideBiasSearch(o: SideBiasSearchOptions): IdealSearchSummary {
  const { data } = o;
  if (!(Number.isInteger(o.trials) && o.trials >= 1 && Number.isInteger(o.questions))) {
    throw new RangeError("trials must be a whole number >= 1 and questions a whole number");
  }
  if (o.kinds?.length === 0 || o.kinds?.some((k) => !((k.weight ?? 1) > 0))) {
    throw new RangeError("the searcher needs a kind of person, each with a weight > 0");
  }
  const rng = createRng(`${o.seed}:side-bias-lambda`);
  const probe = randomFairTruth("fair-lambda", data, createRng(`${o.seed}:probe`));
  const family = fairStudyFamily(fairPeopleSpec(probe, {}), data);
  const known = probe.metric;
  const shown = (p: FairPoint) => shownRatesOf(data, p);
  const kinds = (o.kinds ?? [{}]).map((k) => ({ ...PERSON_DEFAULTS["side-bias"], ...k }));
  const weights = kinds.map((k) => k.weight ?? 1);
  const totalWeight = weights.reduce((x, y) => x + y, 0);
  const g = o.grid ?? 201;
  const draws = o.pool ?? { draws: 3, posterior: 32, prior: 0 };
  const size = kinds.length * g;
  const lambdas = Float64Array.from({ length: g }, (_, i) => 0.1 + (0.8 * i) / (g - 1));
  // The person's value is linear in lambda: (1 - lambda) v(0) + lambda v(1).
  const ends = (p: FairPoint) => {
    const r = shown(p);
    return [0, 1].map((lambda) => fairUtility({ ...known, lambda }, data.tau, r)) as [
      number,
      number,
    ];
  };
  const ranges = Array.from(lambdas, (lambda) =>
    truthRange(family, (p) => fairUtility({ ...known, lambda }, data.tau, shown(p))),
  );
  const errors: number[] = [];
  // The posterior on (kind, lambda), kind-major; `marginal` on lambda.
  const w = new Float64Array(size);
  const marginal = new Float64Array(g);
  const directions = (n: number) =>
    Array.from({ length: n }, () => {
      const l = lambdas[massIndex(marginal, rng.next())]!;
      return new Float64Array([1 - l, l]);
    });
  const left = new Float64Array(size);
  const right = new Float64Array(size);
  // Each kind's first kind of the same probit noise, and that kind's probits of the pair
  // being scored (valid where `phiStamp` holds the score's stamp).
  const sameSigma = kinds.map((k) => kinds.findIndex((e) => e.sigma === k.sigma));
  const phi = new Float64Array(size);
  const phiEntropy = new Float64Array(size);
  const phiStamp = new Float64Array(size);
  let stamp = 0;
  for (let t = 0; t < o.trials; t++) {
    const truth = randomFairTruth("fair-lambda", data, rng);
    const value = (p: FairPoint) => fairUtility(truth.metric, data.tau, shown(p));
    const answerer = makePerson<FairPoint>("side-bias", {
      value,
      range: truthRange(family, value),
      seed: personSeed("fair-lambda", { trial: t, person: "side-bias", draw: o.seed }),
    });
    for (let c = 0; c < kinds.length; c++)
      w.fill(weights[c]! / totalWeight / g, c * g, (c + 1) * g);
    for (let n = 0; n < o.questions; n++) {
      marginal.fill(0);
      for (let s = 0; s < size; s++) marginal[s % g]! += w[s]!;
      // The engine's kind of pool: the profiles optimal for drawn lambdas and points on the
      // level set of their centre (by default three times over, from the posterior alone:
      // more than the engine gets).
      const pool = new Map<string, FairPoint>();
      for (let r = 0; r < draws.draws; r++) {
        const ds = directions(draws.posterior);
        for (let z = 0; z < draws.prior; z++) {
          const l = rng.uniform(0.1, 0.9);
          ds.push(new Float64Array([1 - l, l]));
        }
        for (const p of family.candidates(ds, rng)) pool.set(fairShownKey(data, p), p);
      }
      const points = [...pool.values()];
      const v = points.map(ends);
      // The answer's information about (kind, lambda) for the pair whose values differ by
      // d0 at lambda 0 and d1 at 1; with `keep`, each state's chance of "left" / "right"
      // into left / right too (only the chosen pair's are needed).
      const score = (d0: number, d1: number, keep: boolean) => {
        let gain = 0;
        let mLeft = 0;
        let mRight = 0;
        stamp++;
        for (let c = 0; c < kinds.length; c++) {
          const kind = kinds[c]!;
          const nearEntropy = entropy(kind.sideBias);
          const from = sameSigma[c]! * g;
          for (let k = 0; k < g; k++) {
            const s = c * g + k;
            const d = d0 + lambdas[k]! * (d1 - d0);
            const range = ranges[k]!;
            let pl: number;
            let pr: number;
            if (Math.abs(d) < kind.nearBand * range) {
              pl = kind.sideBias;
              pr = 1 - kind.sideBias;
              gain -= 2 * w[s]! * nearEntropy;
            } else {
              // A kind of the same noise as an earlier one has the same probit at this
              // lambda: computed once per pair (the same numbers, so the same bits).
              let h: number;
              if (phiStamp[from + k] === stamp) {
                pl = phi[from + k]!;
                h = phiEntropy[from + k]!;
              } else {
                pl = normalCdf(d / (kind.sigma * range));
                h = entropy(pl);
                phi[from + k] = pl;
                phiEntropy[from + k] = h;
                phiStamp[from + k] = stamp;
              }
              pr = pl;
              gain -= 2 * w[s]! * h;
            }
            if (keep) {
              left[s] = pl;
              right[s] = pr;
            }
            mLeft += w[s]! * pl;
            mRight += w[s]! * pr;
          }
        }
        return gain + (entropy(mLeft) + entropy(mRight));
      };
      let best = { gain: -Infinity, i: 0, j: 1 };
      for (let i = 0; i < points.length; i++) {
        for (let j = i + 1; j < points.length; j++) {
          const gain = score(v[i]![0] - v[j]![0], v[i]![1] - v[j]![1], false);
          if (gain > best.gain) best = { gain, i, j };
        }
      }
      score(v[best.i]![0] - v[best.j]![0], v[best.i]![1] - v[best.j]![1], true);
      const answer = answerer.ask({
        stage: "ideal",
        first: points[best.i]!,
        second: points[best.j]!,
      });
      const pFirst = answerer.log.at(-1)!.left === "first" ? left : right;
      let total = 0;
      for (let s = 0; s < size; s++) {
        // "tie": the two look equal to the person, whatever lambda (the pool is distinct).
        const like = answer === "first" ? pFirst[s]! : answer === "second" ? 1 - pFirst[s]! : 1;
        w[s]! *= like;
        total += w[s]!;
      }
      for (let s = 0; s < size; s++) w[s]! /= total;
    }
    marginal.fill(0);
    for (let s = 0; s < size; s++) marginal[s % g]! += w[s]!;
    errors.push(Math.abs(bestWindow(marginal, lambdas, o.target) - truth.metric.lambda));
  }
  return summarise(errors, o.target, rng);
}

/** Binary entropy (nats) of p. */
function entropy(p: number): number {
  return p <= 0 || p >= 1 ? 0 : -(p * Math.log(p) + (1 - p) * Math.log(1 - p));
}

/** The centre of the window of width 2 x `target` on the grid holding the most mass. */
function bestWindow(w: Float64Array, at: Float64Array, target: number): number {
  let best = at[0]!;
  let bestMass = -1;
  let lo = 0;
  let hi = 0;
  let mass = 0;
  for (let c = 0; c < at.length; c++) {
    while (hi < at.length && at[hi]! <= at[c]! + target) mass += w[hi++]!;
    while (at[lo]! < at[c]! - target) mass -= w[lo++]!;
    if (mass > bestMass) {
      bestMass = mass;
      best = at[c]!;
    }
  }
  return best;
}
