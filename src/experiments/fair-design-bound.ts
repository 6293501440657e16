// What the best questions could tell of the whole fair metric's gap weights B for the people
// panel's noisy people (issue 26): a bound on any searcher, which the engine is measured against.
import { fairToW, wToFair } from "../elicit/adaptive/families/fair.ts";
import { randomDomainPoint } from "../elicit/adaptive/families/quadratic.ts";
import { type FairPoint, fairUtility } from "../elicit/fair/metric.ts";
import { createRng } from "../math/rng.ts";
import { dot } from "../math/vector.ts";
import { fairStudyFamily, shownRatesOf } from "../server/kinds/fair/participant.ts";
import type { FairStudyData } from "../server/kinds/fair/study.ts";
import {
  type DesignBoundOptions,
  type DesignBoundRow,
  designBound,
  type TruthGeometry,
  tangentBasis,
} from "./design-bound.ts";
import { fairPeopleSpec, peopleTruths } from "./reproduce-people.ts";
import { truthRange } from "./simulate-adaptive.ts";

/** Options of `fairDesignBound`: the person, question counts and design's of `DesignBoundOptions`. */
export interface FairDesignBoundOptions extends DesignBoundOptions {
  /** The fairness study's data, as the people panel shows it (`peopleFairData`). */
  readonly data: FairStudyData;
  /** The panel's draw of truths (`reproduce people --truth-seed`); default the asserted one. */
  readonly truthSeed?: string;
  /** Truths of the draw, the first `trials` as the panel draws them. */
  readonly trials: number;
  /** Random points of the query ball (half on its surface), besides the family's candidates. */
  readonly points?: number;
}

/** One question count's bound: B's error over the truths' draws. */
export type FairDesignBoundRow = DesignBoundRow;

/** `fairDesignBound`'s result: a row per question count, each truth's lambda and rms error. */
export interface FairDesignBound {
  readonly limit: number;
  readonly rows: readonly FairDesignBoundRow[];
  readonly truths: readonly { readonly lambda: number; readonly rms: readonly number[] }[];
}

/**
 * The error of the gap weights B (`sum ||B - B'||_F`) that the best design of n questions
 * leaves for one of the panel's people, knowing the truth and the person (`designBound`). For
 * each truth of the people panel's draw, the pairs of points of the study's query ball
 * (random points and the family's candidates), shown as counts, in the metric's directions
 * across the truth (a, B and lambda together, B's error through the map from direction to
 * metric); the person's answer as `DesignBoundOptions.person` says (by default the panel's
 * probit person: sigma 0.05 of their metric's range). No searcher knows the truth, nor asks
 * every question at the best pairs for it, so this is a yardstick for the engine rather than
 * a proof: a local bound for unbiased estimates, which a prior that favours a truth can beat
 * on that truth.
 * @example fairDesignBound({ data: peopleFairData().data, trials: 2, questions: [45] }).rows[0].p95
 * @example fairDesignBound({ data, trials: 30, questions: [45], person: "side-bias", steps: 100 }).rows[0].p95 // about 0.37
 */
export function fairDesignBound(o: FairDesignBoundOptions): FairDesignBound {
  const limit = 0.2;
  const truths = peopleTruths("fair-quadratic", {
    trials: o.trials,
    ...(o.truthSeed !== undefined ? { truthSeed: o.truthSeed } : {}),
    fair: { data: o.data, description: "" },
    // The fair families' truths need no binary population.
  } as Parameters<typeof peopleTruths>[1]);
  const geometries: TruthGeometry[] = truths.map((truth, t) => {
    if (truth.family !== "fair-quadratic") throw new RangeError("expected a whole fair metric");
    const family = fairStudyFamily(fairPeopleSpec(truth, {}), o.data);
    const value = (p: FairPoint) => fairUtility(truth.metric, o.data.tau, shownRatesOf(o.data, p));
    const rng = createRng(`fair-design-bound:${t}`);
    const w = fairToW(truth.metric, o.data.tau.length);
    const points = queryPoints(o, family, w.length, rng);
    const features = points.map((p) => family.features(p));
    // The value is an affine map of <w, f> over the ball: its slope turns w's units into
    // the person's, whose noise is sigma of their range.
    const u = features.map((f) => dot(w, f));
    const values = points.map(value);
    let far = 1;
    for (let i = 1; i < u.length; i++)
      if (Math.abs(u[i]! - u[0]!) > Math.abs(u[far]! - u[0]!)) far = i;
    const basis = tangentBasis(w);
    return {
      u,
      coords: features.map((f) => basis.map((b) => dot(b, f))),
      unit: (values[far]! - values[0]!) / (u[far]! - u[0]!) / truthRange(family, value),
      jacobian: bJacobian(w, basis, o.data.tau[0]!.length, o.data.tau.length),
    };
  });
  const { rows, rms } = designBound(geometries, o, {
    limit,
    norm: "l2",
    seed: "fair-design-bound",
  });
  return {
    limit,
    rows,
    truths: truths.map((truth, t) => ({
      lambda: truth.family === "fair-quadratic" ? truth.metric.lambda : Number.NaN,
      rms: rms[t]!,
    })),
  };
}

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
