// A study's consensus (issue 12 item 4): the participants' elicited metrics aggregated, with
// their spread. Multiclass studies: the mean of the diagonal-linear weights (a mean of weight
// vectors that each sum to 1 sums to 1) with each class's standard deviation, least and
// greatest weight. Fairness studies: the trade-off lambda's mean and median with its standard
// deviation, least and greatest value. Over the participants who finished Phase II, test runs
// and pilot participants left out (analysed separately). Multiclass studies also name the
// classifier best for the consensus on the study's pool and how many participants' own best
// classifier is the same. Binary studies: not yet (null); fairness: no best classifier yet.

import {
  pluginClassifier,
  pluginConfusion,
  pluginLabels,
} from "../../geometry/multiclass/plugin.ts";
import type { MulticlassPool } from "../../geometry/multiclass/pool.ts";
import type { Consensus } from "../api-schemas.ts";
import { anyStudyData, multiclassStudyData } from "./population.ts";
import { participantSummary, type StudyRecords } from "./results.ts";

/** The mean of `xs` (non-empty). @example mean([1, 2, 6]) // 3 */
function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}

/** The population standard deviation of `xs` (divides by n). @example sd([1, 3]) // 1 */
function sd(xs: readonly number[]): number {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / xs.length);
}

/** The median of `xs` (non-empty; the mean of the middle two for an even count). */
function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const h = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

/**
 * The consensus of elicited metrics: multiclass weight vectors or fairness lambdas, each with
 * its participant's id; null when there are none.
 * @example consensusOf("fair", [{ id: 1, metric: { lambda: 0.2 } }, { id: 2, metric: { lambda: 0.6 } }], []).lambda?.mean // 0.4
 */
export function consensusOf(
  kind: "multiclass" | "fair",
  metrics: readonly { id: number; metric: { weights?: number[]; lambda?: number } }[],
  classes: readonly string[],
  pool?: MulticlassPool,
): Consensus | null {
  if (kind === "multiclass") {
    const ws = metrics.filter((m) => Array.isArray(m.metric.weights));
    if (ws.length === 0) return null;
    const col = (i: number) => ws.map((m) => m.metric.weights![i]!);
    const idx = classes.map((_, i) => i);
    const means = idx.map((i) => mean(col(i)));
    return {
      n: ws.length,
      participants: ws.map((m) => m.id),
      weights: {
        classes: [...classes],
        mean: means,
        sd: idx.map((i) => sd(col(i))),
        min: idx.map((i) => Math.min(...col(i))),
        max: idx.map((i) => Math.max(...col(i))),
      },
      ...(pool
        ? {
            best: bestForConsensus(
              pool,
              means,
              ws.map((m) => m.metric.weights!),
            ),
          }
        : {}),
    };
  }
  const ls = metrics.filter((m) => typeof m.metric.lambda === "number");
  if (ls.length === 0) return null;
  const xs = ls.map((m) => m.metric.lambda!);
  return {
    n: ls.length,
    participants: ls.map((m) => m.id),
    lambda: {
      mean: mean(xs),
      median: median(xs),
      sd: sd(xs),
      min: Math.min(...xs),
      max: Math.max(...xs),
    },
  };
}

/**
 * The classifier best for the consensus weights on the study's pool (the plug-in rule
 * `argmax_i mean_i eta_i(x)`, which maximises `sum_i mean_i C_ii`), its per-class share right
 * (`C_ii / zeta_i`) and accuracy, and how many participants' own best classifier (the same rule
 * with their weights) labels every case of the pool the same way.
 * @example bestForConsensus(pool, [0.4, 0.3, 0.3], [[0.4, 0.3, 0.3]]).agree // 1
 */
export function bestForConsensus(
  pool: MulticlassPool,
  consensus: readonly number[],
  own: readonly (readonly number[])[],
): NonNullable<Consensus["best"]> {
  const h = pluginClassifier("diag-confusion", consensus, pool.priors);
  const C = pluginConfusion(pool, h);
  const k = pool.k;
  const labels = pluginLabels(pool, h);
  const same = (w: readonly number[]) => {
    const mine = pluginLabels(pool, pluginClassifier("diag-confusion", w, pool.priors));
    return mine.every((x, p) => x === labels[p]);
  };
  let accuracy = 0;
  for (let i = 0; i < k; i++) accuracy += C[i * k + i]!;
  return {
    rates: Array.from({ length: k }, (_, i) => C[i * k + i]! / pool.priors[i]!),
    accuracy,
    agree: own.filter(same).length,
  };
}

/**
 * A study's consensus from its records: multiclass and fairness studies only (binary: null),
 * over finished participants who are neither test runs nor pilot participants.
 * @example const c = studyConsensus(await loadStudyRecords(db, id)); c?.lambda?.median
 */
export function studyConsensus(rec: StudyRecords): Consensus | null {
  const kind = rec.config.kind;
  if (kind !== "multiclass" && kind !== "fair") return null;
  const metrics = rec.participants
    .filter((p) => p.test !== 1 && p.pilot !== 1)
    .flatMap((p) => {
      const m = participantSummary(rec, p).metric;
      if (m === null) return [];
      const metric =
        "weights" in m ? { weights: m.weights } : "lambda" in m ? { lambda: m.lambda } : {};
      return [{ id: p.id, metric }];
    });
  const data = anyStudyData(rec.study.hash, rec.config);
  if (kind === "multiclass") {
    const mc = multiclassStudyData(rec.study.hash, rec.config);
    return consensusOf(kind, metrics, mc.classNames, mc.pool);
  }
  return consensusOf(kind, metrics, "classNames" in data ? data.classNames : []);
}
