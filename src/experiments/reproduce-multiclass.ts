import type { MulticlassSpec } from "../elicit/multiclass/spec.ts";
import { createSpace } from "../geometry/multiclass/space.ts";
import { findSphere } from "../geometry/multiclass/sphere.ts";
import { createRng } from "../math/rng.ts";
import { syntheticMulticlassPool } from "../population/multiclass.ts";
import type { StrategyName } from "../search/strategy.ts";
import {
  type MulticlassRunReport,
  randomMulticlassTruth,
  simulateMulticlass,
} from "./simulate-multiclass.ts";

/** Table 5 of the NeurIPS 2019 appendix: true DLPMs and the elicited ones (eps = 0.01). */
export const PAPER_TABLE5: Record<3 | 4, { truth: number[]; paper: number[] }[]> = {
  3: [
    [
      [0.21, 0.59, 0.2],
      [0.21, 0.6, 0.2],
    ],
    [
      [0.44, 0.26, 0.31],
      [0.44, 0.26, 0.31],
    ],
    [
      [0.46, 0.33, 0.22],
      [0.46, 0.33, 0.22],
    ],
    [
      [0.23, 0.15, 0.62],
      [0.23, 0.15, 0.62],
    ],
    [
      [0.31, 0.15, 0.54],
      [0.3, 0.15, 0.54],
    ],
    [
      [0.29, 0.4, 0.31],
      [0.29, 0.4, 0.31],
    ],
    [
      [0.35, 0.32, 0.33],
      [0.35, 0.33, 0.33],
    ],
    [
      [0.33, 0.35, 0.32],
      [0.33, 0.35, 0.31],
    ],
    [
      [0.45, 0.27, 0.29],
      [0.45, 0.26, 0.29],
    ],
    [
      [0.44, 0.44, 0.13],
      [0.45, 0.43, 0.13],
    ],
  ].map(([truth, paper]) => ({ truth: truth!, paper: paper! })),
  4: [
    [
      [0.13, 0.37, 0.12, 0.38],
      [0.13, 0.37, 0.12, 0.38],
    ],
    [
      [0.21, 0.26, 0.31, 0.22],
      [0.21, 0.26, 0.31, 0.22],
    ],
    [
      [0.23, 0.17, 0.11, 0.48],
      [0.23, 0.17, 0.11, 0.48],
    ],
    [
      [0.25, 0.13, 0.45, 0.18],
      [0.25, 0.12, 0.45, 0.18],
    ],
    [
      [0.22, 0.17, 0.31, 0.29],
      [0.22, 0.17, 0.31, 0.29],
    ],
    [
      [0.38, 0.21, 0.22, 0.2],
      [0.38, 0.21, 0.21, 0.2],
    ],
    [
      [0.22, 0.13, 0.14, 0.52],
      [0.22, 0.13, 0.14, 0.52],
    ],
    [
      [0.58, 0.17, 0.08, 0.18],
      [0.58, 0.17, 0.08, 0.18],
    ],
    [
      [0.32, 0.35, 0.06, 0.27],
      [0.32, 0.35, 0.06, 0.27],
    ],
    [
      [0.05, 0.24, 0.29, 0.42],
      [0.05, 0.24, 0.29, 0.42],
    ],
  ].map(([truth, paper]) => ({ truth: truth!, paper: paper! })),
};

/** Table 6 of the appendix: true LPMs over off-diagonal confusions (eps = 0.01, T = 2(q-1)). */
export const PAPER_TABLE6: Record<3 | 4, { truth: number[]; paper: number[] }[]> = {
  3: [
    [-0.37, -0.89, -0.09, -0.23, -0.04, -0.03],
    [-0.8, -0.55, -0.18, -0.08, -0.14, -0.05],
    [-0.19, -0.88, -0.28, -0.1, -0.08, -0.3],
    [-0.44, -0.55, -0.33, -0.51, -0.23, -0.28],
    [-0.79, -0.27, -0.25, -0.21, -0.38, -0.23],
  ].map((t) => ({ truth: t, paper: t })),
  4: [
    [
      [-0.9, -0.28, -0.1, -0.31, -0.04, -0.05, -0.03, -0.04, -0.02, -0.01, -0.01, -0.01],
      [-0.9, -0.28, -0.1, -0.31, -0.04, -0.05, -0.03, -0.04, -0.02, -0.01, -0.01, -0.01],
    ],
    [
      [-0.54, -0.1, -0.62, -0.52, -0.03, -0.07, -0.11, -0.07, -0.14, -0.03, -0.03, -0.04],
      [-0.55, -0.11, -0.62, -0.51, -0.03, -0.07, -0.11, -0.07, -0.14, -0.03, -0.03, -0.04],
    ],
    [
      [-0.56, -0.07, -0.79, -0.05, -0.16, -0.16, -0.04, -0.02, -0.03, -0.0, -0.01, -0.01],
      [-0.56, -0.07, -0.79, -0.05, -0.16, -0.17, -0.04, -0.02, -0.03, -0.0, -0.01, -0.01],
    ],
    [
      [-0.6, -0.79, -0.09, -0.01, -0.01, -0.02, -0.02, -0.01, -0.01, -0.01, -0.0, -0.0],
      [-0.6, -0.79, -0.09, -0.01, -0.01, -0.02, -0.02, -0.01, -0.01, -0.01, -0.0, -0.0],
    ],
    [
      [-0.45, -0.38, -0.42, -0.19, -0.21, -0.63, -0.09, -0.0, -0.0, -0.0, -0.01, -0.01],
      [-0.46, -0.38, -0.41, -0.19, -0.2, -0.62, -0.09, -0.0, -0.0, -0.0, -0.01, -0.01],
    ],
  ].map(([truth, paper]) => ({ truth: truth!, paper: paper! })),
};

/** Table 7: fraction of runs with ||a - a_hat||_inf <= omega, per sphere radius. */
export interface Table7Row {
  readonly radius: number;
  readonly fractions: number[];
}

export interface MulticlassReproduction {
  readonly strategy: StrategyName;
  readonly table5: { k: number; truth: number[]; paper: number[]; run: MulticlassRunReport }[];
  readonly table6: {
    k: number;
    truth: number[];
    paper: number[];
    run: MulticlassRunReport;
    radius: number;
  }[];
  readonly table7: {
    readonly omegas: number[];
    readonly trials: number;
    readonly rows: Table7Row[];
  };
}

/**
 * Reproduce Tables 5, 6 and 7 of the NeurIPS 2019 appendix on the synthetic population
 * (ALGORITHMS.md A.7). Table 7 shrinks the query sphere (same centre, the radii of the
 * appendix: 1.25e-12, 1.875e-12, 2.5e-12 around o, plus larger ones to show the trend) and
 * counts how often every coordinate is within omega; in double precision such radii make
 * the stakeholder's value differences comparable to rounding (the appendix's eps_Omega).
 * @example reproduceMulticlass("paper", 100).table5[0].run.queries // 56
 */
export function reproduceMulticlass(
  strategy: StrategyName = "paper",
  table7Trials = 100,
): MulticlassReproduction {
  const none = { kind: "none" } as const;
  const table5 = ([3, 4] as const).flatMap((k) => {
    const pool = syntheticMulticlassPool(k);
    const spec: MulticlassSpec = { family: "diagonal-linear", tolerance: 0.01, strategy };
    return PAPER_TABLE5[k].map((row, i) => ({
      k,
      ...row,
      run: simulateMulticlass(spec, row.truth, pool, undefined, none, i),
    }));
  });
  const spheres = new Map<number, ReturnType<typeof findSphere>>();
  const table6 = ([3, 4] as const).flatMap((k) => {
    const pool = syntheticMulticlassPool(k);
    const sphere = findSphere(createSpace("offdiag-confusion", pool));
    spheres.set(k, sphere);
    const spec: MulticlassSpec = {
      family: "linear",
      tolerance: 0.01,
      strategy,
      cycles: 2,
      order: "forward",
    };
    return PAPER_TABLE6[k].map((row, i) => ({
      k,
      ...row,
      radius: sphere.rho,
      run: simulateMulticlass(spec, row.truth, pool, sphere, none, i),
    }));
  });
  const omegas = [0.02, 0.04, 0.06, 0.08, 0.1];
  const sphere4 = spheres.get(4)!;
  const pool4 = syntheticMulticlassPool(4);
  const rows = [1.25e-12, 1.875e-12, 2.5e-12, 1e-11, 1e-10, 1e-9, 1e-6, sphere4.rho].map(
    (radius) => {
      const small = { ...sphere4, rho: radius };
      const rng = createRng(7);
      const spec: MulticlassSpec = {
        family: "linear",
        tolerance: 0.01,
        strategy,
        cycles: 2,
        order: "forward",
      };
      const errors = Array.from({ length: table7Trials }, (_, t) => {
        const a = randomMulticlassTruth("linear", 4, rng);
        return simulateMulticlass(spec, a, pool4, small, none, t).error.linf;
      });
      return {
        radius,
        fractions: omegas.map((w) => errors.filter((e) => e <= w).length / errors.length),
      };
    },
  );
  return { strategy, table5, table6, table7: { omegas, trials: table7Trials, rows } };
}
