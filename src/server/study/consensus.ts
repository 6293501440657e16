// A study's consensus (issue 12 item 4): the participants' elicited metrics aggregated, with
// their spread, over the participants who finished Phase II (test runs and pilot participants
// left out, analysed separately, as are participants whose answers a coin could have given).
// Each kind aggregates its own (kinds/*/index.ts `consensus`); shared here: the weights per
// class (multiclass, quadratic) with the classifier best for their mean, and lambda's spread.

import {
  pluginClassifier,
  pluginConfusion,
  pluginLabels,
} from "../../geometry/multiclass/plugin.ts";
import type { MulticlassPool } from "../../geometry/multiclass/pool.ts";
import type { Consensus } from "../api-schemas.ts";
import { rateWeights } from "../kinds/multiclass/participant.ts";
import { studyKindOf } from "../kinds/registry.ts";
import { participantSummary, type StudyRecords } from "./results.ts";

/** The mean of `xs` (non-empty). @example mean([1, 2, 6]) // 3 */
export function mean(xs: readonly number[]): number {
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

/** Mean, median, sd, least and greatest of `xs` (non-empty). */
export function spread(xs: readonly number[]) {
  return {
    mean: mean(xs),
    median: median(xs),
    sd: sd(xs),
    min: Math.min(...xs),
    max: Math.max(...xs),
  };
}

/**
 * How a multiclass consensus states weights: `of` takes a participant's metric weights to the
 * figures their debrief states (weights per case, or each mistake's share), whose means,
 * spread and range the consensus reports; `back` takes the mean figures to metric weights
 * for the best classifier.
 */
export interface ConsensusFigures {
  of(weights: readonly number[]): number[];
  back(figures: readonly number[]): number[];
}

/**
 * The figures of a multiclass study (issue 27 item 4: one normalisation per figure):
 * diagonal-linear, each class's weight per case (`rateWeights`: a_i p_i normalised), back by
 * a_i proportional to b_i / p_i; linear, each mistake's share of the cost (|a_ij| over their
 * sum, as the debrief's `mistakes`), back as costs (negated shares, a positive rescaling).
 * @example consensusFigures("diagonal-linear", pool.priors).of([0.5, 0.5]) // weights per case
 */
export function consensusFigures(
  family: "diagonal-linear" | "linear",
  priors: ArrayLike<number>,
): ConsensusFigures {
  if (family === "linear") {
    const shares = (w: readonly number[]) => {
      const t = w.reduce((x, y) => x + Math.abs(y), 0);
      return w.map((x) => (t > 0 ? Math.abs(x) / t : 1 / w.length));
    };
    return { of: shares, back: (f) => f.map((x) => -x) };
  }
  return {
    of: (w) => rateWeights(w, priors),
    back: (b) => {
      const a = b.map((x, i) => (priors[i]! > 0 ? x / priors[i]! : 0));
      const t = a.reduce((x, y) => x + y, 0);
      return a.map((x) => (t > 0 ? x / t : 1 / a.length));
    },
  };
}

/**
 * The consensus of multiclass weight vectors, each with its participant's id (null when there
 * are none): each entry's mean, spread and range as the study's figures show it (`figures`:
 * weights per case), and with the pool the classifier best for the mean.
 * @example weightsConsensus([{ id: 1, metric: { weights: [0.2, 0.8] } }], ["a", "b"])?.weights?.mean // [0.2, 0.8]
 */
export function weightsConsensus(
  metrics: readonly { id: number; metric: { weights?: number[] } }[],
  classes: readonly string[],
  pool?: MulticlassPool,
  family: "diagonal-linear" | "linear" = "diagonal-linear",
  figures?: ConsensusFigures,
): Consensus | null {
  const ws = metrics.filter((m) => Array.isArray(m.metric.weights));
  if (ws.length === 0) return null;
  const shown = ws.map((m) => (figures ? figures.of(m.metric.weights!) : m.metric.weights!));
  const col = (i: number) => shown.map((w) => w[i]!);
  // A linear metric's weights are its mistakes (true i taken for j), row by row.
  const entries =
    family === "linear"
      ? classes.flatMap((a, i) => classes.flatMap((b, j) => (i === j ? [] : [`${a} → ${b}`])))
      : [...classes];
  const idx = entries.map((_, i) => i);
  const means = idx.map((i) => mean(col(i)));
  return {
    n: ws.length,
    participants: ws.map((m) => m.id),
    classes: [...classes],
    weights: {
      classes: entries,
      mean: means,
      sd: idx.map((i) => sd(col(i))),
      min: idx.map((i) => Math.min(...col(i))),
      max: idx.map((i) => Math.max(...col(i))),
    },
    ...(pool
      ? {
          best: bestForConsensus(
            pool,
            figures ? figures.back(means) : means,
            ws.map((m) => m.metric.weights!),
            family === "linear" ? "offdiag-confusion" : "diag-confusion",
          ),
        }
      : {}),
  };
}

/**
 * The consensus of fairness lambdas, each with its participant's id (null when there are
 * none): their mean, median, spread and range.
 * @example lambdaConsensus([{ id: 1, lambda: 0.2 }, { id: 2, lambda: 0.6 }])?.lambda?.mean // 0.4
 */
export function lambdaConsensus(
  metrics: readonly { id: number; lambda: number }[],
): Consensus | null {
  if (metrics.length === 0) return null;
  return {
    n: metrics.length,
    participants: metrics.map((m) => m.id),
    lambda: spread(metrics.map((m) => m.lambda)),
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
  space: "diag-confusion" | "offdiag-confusion" = "diag-confusion",
): NonNullable<Consensus["best"]> {
  const h = pluginClassifier(space, consensus, pool.priors);
  const C = pluginConfusion(pool, h);
  const k = pool.k;
  const labels = pluginLabels(pool, h);
  const same = (w: readonly number[]) => {
    const mine = pluginLabels(pool, pluginClassifier(space, w, pool.priors));
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
 * A study's consensus from its records, for every kind, over finished participants who are
 * neither test runs nor pilot participants (null when there are none). Participants whose
 * answers cannot be told apart from a coin's (`consistency.coinLike`: the study's Phase III, else the learned answer model of a multiclass, fairness or quadratic study without one) are
 * left out unless `includeCoinLike`; their ids are in `coinLike` either way.
 * @example const c = studyConsensus(await loadStudyRecords(db, id)); c?.lambda?.median
 */
export function studyConsensus(
  rec: StudyRecords,
  o: { includeCoinLike?: boolean } = {},
): Consensus | null {
  const counted = rec.participants
    .filter((p) => p.test !== 1 && p.pilot !== 1)
    .map((p) => ({ id: p.id, s: participantSummary(rec, p) }));
  const coinLike = counted.filter(({ s }) => s.consistency?.coinLike === true).map((x) => x.id);
  const finished = counted.flatMap(({ id, s }) => {
    if (!o.includeCoinLike && coinLike.includes(id)) return [];
    return s.metric === null ? [] : [{ id, metric: s.metric }];
  });
  const included = (o.includeCoinLike ?? false) && coinLike.length > 0;
  const c = consensusOver(rec, finished);
  // Everyone who finished answered like a coin: say so rather than "nobody finished".
  if (c === null) {
    return coinLike.length === 0
      ? null
      : { n: 0, participants: [], coinLike, coinLikeIncluded: included };
  }
  return { ...c, coinLike, coinLikeIncluded: included };
}

function consensusOver(
  rec: StudyRecords,
  finished: readonly {
    id: number;
    metric: NonNullable<ReturnType<typeof participantSummary>["metric"]>;
  }[],
): Consensus | null {
  return studyKindOf(rec.config).consensus(rec, finished);
}
