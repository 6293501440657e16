import { binaryConfusion } from "../binary-confusion.ts";
import { evaluateFractional } from "../binary-fractional.ts";
import { evaluateLinear } from "../binary-linear.ts";
import { metricClassCount, metricGroupCount, type PortableMetric } from "./metric.ts";

/**
 * The confusion convention of every portable metric (and of the code `elicit export-metric`
 * writes): `C[i][j]` counts the cases of true class `i` predicted as class `j` (rows true,
 * columns predicted, as scikit-learn's `confusion_matrix(y_true, y_pred)`; binary: class 0
 * negative, class 1 positive). Counts or joint probabilities `P(Y = i, h = j)` are both
 * accepted: the matrix is divided by its total, so both give the same value. Rates
 * `P(h = j | Y = i)` (rows summing to 1) are NOT accepted: dividing them by their total would
 * weigh every class equally. The fair metric takes one such matrix per group, all on one scale
 * (counts, or joint probabilities over everyone `P(Y = i, h = j, G = g)`): the groups' shares
 * `tau^g_i = P(G = g | Y = i)` come from their row totals.
 */
export const CONFUSION_CONVENTION =
  "C[i][j] = cases of true class i predicted as class j (rows true, columns predicted; binary: class 0 negative, class 1 positive, TN = C[0][0], TP = C[1][1]); counts or joint probabilities P(Y=i, h=j), divided by their total (so both give the same value); not rates P(h=j | Y=i)";

/** A k x k confusion matrix, rows true, columns predicted (counts or joint probabilities). */
export type ConfusionInput = readonly (readonly number[])[];

/**
 * The joint shares of a confusion matrix of counts or joint probabilities: `C / sum(C)`.
 * Throws a RangeError for a matrix that is not k x k, has a negative or non-finite entry, or
 * sums to 0.
 * @example jointShares([[30, 10], [20, 40]], 2) // [[0.3, 0.1], [0.2, 0.4]]
 */
export function jointShares(c: ConfusionInput, k: number): number[][] {
  checkMatrix(c, k, "the confusion matrix");
  const total = c.reduce((s, row) => s + row.reduce((x, y) => x + y, 0), 0);
  if (!(total > 0)) throw new RangeError("the confusion matrix sums to 0");
  return c.map((row) => row.map((x) => x / total));
}

function checkMatrix(c: ConfusionInput, k: number, what: string): void {
  if (!Array.isArray(c) || c.length !== k || !c.every((r) => Array.isArray(r) && r.length === k))
    throw new RangeError(`${what} must be ${k} x ${k} (rows true class, columns predicted)`);
  for (const row of c)
    for (const x of row)
      if (!(Number.isFinite(x) && x >= 0))
        throw new RangeError(`${what} has an entry ${x}: entries must be counts or probabilities`);
}

/** The off-diagonal entries of a k x k matrix row by row (a01, a02, ..., a10, a12, ...). */
function offDiagonal(c: readonly (readonly number[])[]): number[] {
  return c.flatMap((row, i) => row.filter((_, j) => j !== i));
}

function dot(a: readonly number[], x: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * x[i]!;
  return s;
}

/** Rates right per class, `C_ii / sum_j C_ij` (a RangeError for a class with no cases). */
function ratesRight(c: readonly (readonly number[])[], what: string): number[] {
  return c.map((row, i) => {
    const n = row.reduce((x, y) => x + y, 0);
    if (!(n > 0))
      throw new RangeError(`${what}: class ${i} has no cases, so its rate is undefined`);
    return row[i]! / n;
  });
}

function quadraticValue(a: readonly number[], B: readonly (readonly number[])[], r: number[]) {
  let v = 0;
  for (let i = 0; i < a.length; i++) {
    let bi = 0;
    for (let j = 0; j < a.length; j++) bi += B[i]![j]! * r[j]!;
    v += r[i]! * (a[i]! + 0.5 * bi);
  }
  return v;
}

/**
 * The fair metric's cost of one confusion matrix per group (counts or joint probabilities,
 * all on one scale): each group's rates right per class, the groups' shares of each class
 * from the row totals, then `(1 - lambda) <a, 1 - r> + lambda/2 sum (r^u - r^v)^T B^{uv}
 * (r^u - r^v)`.
 * @example fairCostOfConfusions({ family: "fair", a: [1, 0], B: { "0-1": [[2, 0], [0, 0]] }, lambda: 0.5 }, [[[1, 1], [1, 1]], [[1, 1], [1, 1]]]) // 0.25
 */
export function fairCostOfConfusions(
  m: Extract<PortableMetric, { family: "fair" }>,
  confusions: readonly ConfusionInput[],
): number {
  const k = m.a.length;
  const groups = metricGroupCount(m);
  if (!Array.isArray(confusions) || confusions.length < groups)
    throw new RangeError(
      `the fair metric needs one confusion matrix per group (${groups}), got ${Array.isArray(confusions) ? confusions.length : 0}`,
    );
  confusions.forEach((c, g) => {
    checkMatrix(c, k, `group ${g}'s confusion matrix`);
  });
  const rates = confusions.map((c, g) => ratesRight(c, `group ${g}`));
  const totals = confusions.map((c) =>
    c.map((row: readonly number[]) => row.reduce((x: number, y: number) => x + y, 0)),
  );
  const r = new Array<number>(k).fill(0);
  for (let i = 0; i < k; i++) {
    let n = 0;
    for (const t of totals) n += t[i]!;
    for (let g = 0; g < confusions.length; g++) r[i]! += (totals[g]![i]! / n) * rates[g]![i]!;
  }
  let lin = 0;
  for (let i = 0; i < k; i++) lin += m.a[i]! * (1 - r[i]!);
  let viol = 0;
  for (let u = 0; u < confusions.length; u++)
    for (let v = u + 1; v < confusions.length; v++) {
      const B = m.B[`${u}-${v}`];
      if (!B) continue;
      const d = rates[u]!.map((x, i) => x - rates[v]![i]!);
      for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) viol += d[i]! * B[i]![j]! * d[j]!;
    }
  return (1 - m.lambda) * lin + (m.lambda / 2) * viol;
}

/**
 * The value of a portable metric at a confusion matrix (`CONFUSION_CONVENTION`): a utility
 * (larger is better) for every family but `fair`, whose value is its cost (lower is better)
 * and which takes one matrix per group (`fairCostOfConfusions`).
 * @example portableMetricValue({ family: "binary-linear", tp: 0.7, tn: 0.3 }, [[40, 10], [20, 30]]) // 0.7 * 0.3 + 0.3 * 0.4 = 0.33
 */
export function portableMetricValue(
  m: PortableMetric,
  confusion: ConfusionInput | readonly ConfusionInput[],
): number {
  if (m.family === "fair") return fairCostOfConfusions(m, confusion as readonly ConfusionInput[]);
  const k = metricClassCount(m);
  const c = jointShares(confusion as ConfusionInput, k);
  switch (m.family) {
    case "binary-linear":
      return evaluateLinear(m, binaryConfusion(c[1]![1]!, c[0]![0]!));
    case "binary-linear-fractional":
      return evaluateFractional(m, binaryConfusion(c[1]![1]!, c[0]![0]!));
    case "diagonal-linear":
      return dot(
        m.a,
        c.map((row, i) => row[i]!),
      );
    case "linear":
      return dot(m.a, offDiagonal(c));
    case "diagonal-linear-fractional": {
      const d = c.map((row, i) => row[i]!);
      return dot(m.a, d) / (dot(m.b, d) + m.b0);
    }
    case "linear-fractional": {
      const d = offDiagonal(c);
      return dot(m.a, d) / (dot(m.b, d) + m.b0);
    }
    case "quadratic":
      return quadraticValue(m.a, m.B, ratesRight(c, "the confusion matrix"));
  }
}
