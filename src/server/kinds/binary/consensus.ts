// A binary study's consensus: the participants' weights on true positives aggregated, the
// threshold classifier best for the mean weight and who shares it.

import { bayesClassifier } from "../../../geometry/binary/bayes.ts";
import { predictThreshold } from "../../../geometry/binary/threshold-classifier.ts";
import type { PreparedBinary } from "../../../population/binary.ts";
import type { Consensus } from "../../api-schemas.ts";
import type { MetricRecord } from "../../participant/metric.ts";
import { metricWeights } from "../../participant/metric.ts";
import { spread } from "../../study/consensus.ts";

/**
 * A binary study's consensus: each participant's weight on true positives (`tp / (tp + tn)`)
 * aggregated; the classifier best for the mean weight on the study's pool (Proposition 1: positive
 * when `eta >= 1 - mean`), its shares right (negative, positive), accuracy, and how many
 * participants' own best threshold labels every case of the pool the same way.
 * @example binaryConsensus([{ id: 1, metric: { tp: 0.7, tn: 0.3 } }], data).best?.threshold // 0.3
 */
export function binaryConsensus(
  metrics: readonly { id: number; metric: MetricRecord }[],
  data: PreparedBinary,
): Consensus | null {
  if (metrics.length === 0) return null;
  const tps = metrics.map((m) => metricWeights(m.metric).tp);
  const eta = data.test.probabilities;
  const classify = (tp: number) => bayesClassifier({ tp, tn: 1 - tp });
  const labelsOf = (tp: number) => Array.from(eta, (x) => predictThreshold(classify(tp), x));
  const c = spread(tps);
  const h = classify(c.mean);
  const labels = labelsOf(c.mean);
  const C = data.pool.confusion(h);
  const zeta = data.pool.zeta;
  return {
    n: metrics.length,
    participants: metrics.map((m) => m.id),
    classes: [data.negativeLabel, data.positiveLabel],
    tpWeight: c,
    best: {
      rates: [zeta < 1 ? C.tn / (1 - zeta) : 0, zeta > 0 ? C.tp / zeta : 0],
      accuracy: C.tp + C.tn,
      agree: tps.filter((tp) => labelsOf(tp).every((y, i) => y === labels[i])).length,
      threshold: h.threshold,
    },
  };
}
