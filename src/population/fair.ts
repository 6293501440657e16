import { parseCsv } from "../data/csv.ts";
import { DataError } from "../data/errors.ts";
import { buildGroupedDataset } from "../data/groups.ts";
import { parseMulticlassPredictions } from "../data/predictions.ts";
import type { DatasetReport } from "../data/report.ts";
import { MulticlassPool } from "../geometry/multiclass/pool.ts";
import { heldOutProbabilities, predictionsPool, predictionsSummary } from "./multiclass.ts";

/** A fairness problem prepared from a CSV: one soft-label pool per group, and tau. */
export interface PreparedFair {
  /** Held-out class probabilities of each group's rows (group order as `groupNames`). */
  readonly pools: MulticlassPool[];
  /** `tau[g][i] = P(G = g | Y = i)` on the held-out half (soft labels, as the pools). */
  readonly tau: number[][];
  readonly classNames: string[];
  readonly groupNames: string[];
  /** Held-out rows per group. */
  readonly groupRows: number[];
  readonly report: DatasetReport & { readonly droppedRowsMissingGroup: number };
  readonly model: {
    readonly testAccuracy: number;
    readonly trainSize: number;
    readonly testSize: number;
  };
}

/**
 * Read a CSV with a group column, standardise, split 50/50 (stratified by class, seeded), fit
 * an L2 softmax regression on one half (the group stays a feature: group-aware classifiers)
 * and return each group's held-out class probabilities as a soft-label pool. With soft labels
 * `r^g_i = sum_{n in g} eta_i(x_n) h_i(x_n) / sum_{n in g} eta_i(x_n)`, so the overall rates
 * are `r_i = sum_g tau^g_i r^g_i` with `tau^g_i = sum_{n in g} eta_i / sum_n eta_i` exactly.
 *
 * @example prepareFairFromCsv(text, { target: "released", groups: "colour" }).tau
 */
export function prepareFairFromCsv(
  text: string,
  o: {
    readonly target: string;
    readonly groups: string;
    readonly dropColumns?: readonly string[];
    readonly splitSeed?: number;
    readonly l2?: number;
  },
): PreparedFair {
  const data = buildGroupedDataset(parseCsv(text), {
    target: o.target,
    groups: o.groups,
    dropColumns: o.dropColumns,
  });
  const k = data.classNames.length;
  const m = data.groupNames.length;
  const { probs, train, test, accuracy } = heldOutProbabilities(
    data.features,
    data.labels,
    data.classNames,
    o,
  );
  const rows: number[][] = Array.from({ length: m }, () => []);
  test.forEach((row, n) => {
    rows[data.groups[row]!]!.push(n);
  });
  rows.forEach((r, g) => {
    if (r.length < 2) {
      throw new DataError(
        `group "${data.groupNames[g]}" has ${r.length} rows in the held-out half; it needs more rows`,
      );
    }
  });
  const mass = Array.from({ length: m }, () => new Array<number>(k).fill(0));
  const pools = rows.map((r, g) => {
    const eta = new Float64Array(r.length * k);
    r.forEach((n, p) => {
      const row = probs[n]!;
      eta.set(row, p * k);
      for (let i = 0; i < k; i++) mass[g]![i]! += row[i]!;
    });
    return new MulticlassPool(eta, k);
  });
  const tau = mass.map((row) => row.map((x, i) => x / mass.reduce((s, other) => s + other[i]!, 0)));
  return {
    pools,
    tau,
    classNames: data.classNames,
    groupNames: data.groupNames,
    groupRows: rows.map((r) => r.length),
    report: { ...data.report, droppedRowsMissingGroup: data.droppedRowsMissingGroup },
    model: { testAccuracy: accuracy, trainSize: train.length, testSize: test.length },
  };
}

/**
 * A fairness problem from a predictions file with a group column (`label`, `group`, one
 * `p_<class>` per class; the model is the user's): each group's rows form its soft-label pool
 * and tau is each group's share of every class's probability mass, as `prepareFairFromCsv`
 * computes them on a held-out half. Every group needs at least 2 rows.
 * @example prepareFairFromPredictions(text, "sex").groupNames // ["female", "male"]
 */
export function prepareFairFromPredictions(text: string, group: string): PreparedFair {
  const p = parseMulticlassPredictions(text, { group });
  const k = p.classNames.length;
  const groupNames = p.groupNames!;
  const m = groupNames.length;
  const rows: Float64Array[][] = Array.from({ length: m }, () => []);
  p.probabilities.forEach((row, n) => {
    rows[p.groups![n]!]!.push(row);
  });
  rows.forEach((r, g) => {
    if (r.length < 2) {
      throw new DataError(
        `group "${groupNames[g]}" has ${r.length} row; each group needs at least 2`,
      );
    }
  });
  const mass = rows.map((r) =>
    Array.from({ length: k }, (_, i) => r.reduce((s, row) => s + row[i]!, 0)),
  );
  const tau = mass.map((row) => row.map((x, i) => x / mass.reduce((s, other) => s + other[i]!, 0)));
  const summary = predictionsSummary(p);
  return {
    pools: rows.map((r) => predictionsPool(r, k)),
    tau,
    classNames: summary.classNames,
    groupNames,
    groupRows: rows.map((r) => r.length),
    report: { ...summary.report, droppedRowsMissingGroup: 0 },
    model: summary.model,
  };
}
