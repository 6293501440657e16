// A fairness study's consensus: the whole fair metric averaged (fair-quadratic) or lambda's
// mean with the study's known costs, and the group-wise classifiers best for it as the
// participants' screens show them, with whose own best shows the same.

import { type FairMetric, normalizeFair } from "../../../elicit/fair/metric.ts";
import type { Consensus } from "../../api-schemas.ts";
import type { FairSpec } from "../../study/config.ts";
import { fairStudyFamily, fairStudyWeights, fairView } from "./participant.ts";
import type { FairStudyData } from "./study.ts";

/**
 * The mean of fair metrics, normalised again (`normalizeFair`): the consensus whole metric.
 * @example meanFairMetric([{ a: [1, 0], B: { "0-1": I }, lambda: 0.2 }, { a: [0, 1], B: { "0-1": I }, lambda: 0.4 }]).lambda // 0.3
 */
export function meanFairMetric(ms: readonly FairMetric[]): FairMetric {
  const n = ms.length;
  const a = ms[0]!.a.map((_, i) => ms.reduce((s, m) => s + m.a[i]!, 0) / n);
  const B: Record<string, number[][]> = {};
  for (const key of Object.keys(ms[0]!.B)) {
    B[key] = ms[0]!.B[key]!.map((row, i) =>
      row.map((_, j) => ms.reduce((s, m) => s + (m.B[key]?.[i]?.[j] ?? 0), 0) / n),
    );
  }
  return normalizeFair({ a, B, lambda: ms.reduce((s, m) => s + m.lambda, 0) / n });
}

/**
 * The group-wise classifiers best for a fairness study's consensus metric (lambda's mean with
 * the study's known a and B; fair-quadratic: `meanFairMetric`) on its query ball, as the
 * participants' screens show them (whole people of 100 per group and class), and how many
 * participants' own best shows the same counts.
 */
export function fairConsensusBest(
  data: FairStudyData,
  spec: FairSpec,
  consensus: FairMetric,
  own: readonly FairMetric[],
): NonNullable<Consensus["best"]> {
  const family = fairStudyFamily(spec, data);
  const m = data.groupNames.length;
  const shown = (metric: FairMetric) =>
    fairView(data, family.optimal(fairStudyWeights(spec, metric, m)));
  const best = shown(consensus);
  const key = JSON.stringify(best.counts);
  // Everyone's share of each class, groups weighted by their rows: the classes' priors.
  const rows = data.groupRows.reduce((s, x) => s + x, 0);
  const k = data.classNames.length;
  const prior = Array.from({ length: k }, (_, i) =>
    data.pools.reduce((s, pool, g) => s + (data.groupRows[g]! / rows) * pool.priors[i]!, 0),
  );
  const rates = best.overall.map((x) => x / 100);
  return {
    rates,
    accuracy: rates.reduce((s, r, i) => s + prior[i]! * r, 0),
    agree: own.filter((o) => JSON.stringify(shown(o).counts) === key).length,
    groupRates: best.counts.map((row) => row.map((c) => c / 100)),
    gaps: best.gaps.map((g) => g / 100),
  };
}
/** A fair-lambda study's known B, copied (empty for the whole fair metric). */
export function knownCopy(spec: FairSpec): Record<string, number[][]> {
  if (spec.family !== "fair-lambda") return {};
  return Object.fromEntries(
    Object.entries(spec.known.B).map(([key, M]) => [key, M.map((row) => [...row])]),
  );
}
