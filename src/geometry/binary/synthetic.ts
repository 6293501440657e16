import { softplus } from "../../data/sigmoid.ts";
import { type BinaryConfusion, binaryConfusion } from "../../metrics/binary-confusion.ts";
import type { BinaryPopulation } from "./population.ts";
import type { ThresholdClassifier } from "./threshold-classifier.ts";

/**
 * The synthetic population of the AISTATS 2019 experiments: `X ~ U[-1, 1]`,
 * `eta(x) = 1 / (1 + e^{a x})` (a = 5 in the paper), computed exactly as a population
 * rather than sampled.
 *
 * `eta` decreases in `x`, so `eta(x) >= delta` exactly when `x <= x_delta =
 * ln((1 - delta) / delta) / a`; the confusion entries are then integrals of `eta` and
 * `1 - eta` with closed forms `x - softplus(a x)/a` and `softplus(a x)/a`.
 *
 * @example
 * const pop = syntheticPopulation(5);
 * pop.zeta; // 0.5
 * pop.confusion(thresholdClassifier(0.5)); // { tp: 0.4...,  tn: 0.4... } (symmetric)
 */
export function syntheticPopulation(a = 5): BinaryPopulation {
  if (!(a > 0)) throw new RangeError("the noise parameter a must be positive");
  const F = (x: number) => x - softplus(a * x) / a; // antiderivative of eta
  const G = (x: number) => softplus(a * x) / a; // antiderivative of 1 - eta
  const cut = (delta: number): number => {
    if (delta <= 0) return 1;
    if (delta >= 1) return -1;
    return Math.min(1, Math.max(-1, Math.log((1 - delta) / delta) / a));
  };
  const zeta = (F(1) - F(-1)) / 2;
  return {
    zeta,
    description: `synthetic population X ~ U[-1,1], eta(x) = 1/(1+e^(${a}x))`,
    confusion(h: ThresholdClassifier): BinaryConfusion {
      const u = cut(h.threshold);
      if (h.direction === "ge") {
        return binaryConfusion((F(u) - F(-1)) / 2, (G(1) - G(u)) / 2);
      }
      return binaryConfusion((F(1) - F(u)) / 2, (G(u) - G(-1)) / 2);
    },
  };
}
