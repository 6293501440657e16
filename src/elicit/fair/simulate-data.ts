import type { MulticlassPool } from "../../geometry/multiclass/pool.ts";
import type { SphereOptions } from "../../geometry/multiclass/sphere.ts";
import type { NoiseModel } from "../../oracle/noise.ts";
import { defaultVarrho } from "../quadratic/qpme.ts";
import { type GroupQuerySpace, groupQuerySpace } from "./group-space.ts";
import type { FairMetric, FairPoint } from "./metric.ts";
import { type FairRunReport, type SimulateFairOptions, simulateFair } from "./simulate.ts";

/** Every queried profile, realised: how many and how far from the queried rates at worst. */
export interface FeasibilityCheck {
  /** Distinct profiles the oracle was shown (both sides of every question). */
  readonly profiles: number;
  /** Largest |realised - queried| rate over all profiles, groups and classes. */
  readonly maxError: number;
}

/** Report of one fair elicitation on data (the synthetic report without `synthetic`). */
export interface FairDataRunReport extends Omit<FairRunReport, "synthetic"> {
  readonly query: "data";
  /** Radius of the ball inside every group's feasible set, and `rho` = margin * radius. */
  readonly sphere: { readonly radius: number; readonly rho: number; readonly margin: number };
  readonly feasibility: FeasibilityCheck;
}

/**
 * One simulated fair QPME elicitation on data (UAI 2022 Section 4 on real groups): queries
 * live on the ball of radius `rho` inside the intersection of the groups' feasible rate sets
 * (`groupQuerySpace`); each queried profile is realised by group-wise classifiers and the
 * stakeholder (cost `truth`) judges the rates those classifiers achieve.
 * @example simulateFairOnData({ pools, tau }, truth, { tolerance: 0.01, strategy: STRATEGIES.lazy }, { kind: "none" }, 1)
 */
export function simulateFairOnData(
  data: {
    readonly pools: readonly MulticlassPool[];
    readonly tau: readonly (readonly number[])[];
    readonly space?: GroupQuerySpace;
  },
  truth: FairMetric,
  options: Omit<SimulateFairOptions, "tau" | "groups" | "realise" | "rho" | "varrho"> & {
    readonly sphere?: SphereOptions;
  },
  noise: NoiseModel,
  seed: number,
): FairDataRunReport {
  const gs = data.space ?? groupQuerySpace(data.pools, options.sphere);
  const rho = gs.sphere.rho;
  const seen = new Set<FairPoint>();
  let maxError = 0;
  const realise = (p: FairPoint): Float64Array[] => {
    const r = gs.realise(p);
    seen.add(p);
    maxError = Math.max(maxError, r.error);
    return r.rates;
  };
  const { sphere: _s, ...rest } = options;
  const { synthetic: _syn, ...report } = simulateFair(
    truth,
    {
      ...rest,
      tau: data.tau,
      groups: data.tau.length,
      rho,
      varrho: defaultVarrho(rho),
      centre: Array.from(gs.sphere.centre),
      realise,
    },
    noise,
    seed,
  );
  return {
    ...report,
    query: "data",
    sphere: { radius: gs.sphere.radius, rho, margin: gs.sphere.margin },
    feasibility: { profiles: seen.size, maxError },
  };
}
