/**
 * A portable metric: an elicited metric described by plain numbers, with nothing of the study,
 * the pool or the engine attached, so it can be evaluated on any confusion matrix (`evaluate.ts`),
 * written out as code (`python.ts`, `r.ts`, `javascript.ts`) and used to score models.
 *
 * Every family is a function of the confusion matrix `C[i][j]`, the share of cases of true
 * class `i` predicted as `j` (joint probabilities `P(Y = i, h = j)`, rows true, columns
 * predicted; binary: class 0 negative, class 1 positive, so `TN = C[0][0]`, `TP = C[1][1]`):
 *
 * - `binary-linear`: `tp TP + tn TN` (the user-study threshold metric `a0 TN + (1 - a0) TP` is
 *   `tp = 1 - a0`, `tn = a0`);
 * - `binary-linear-fractional`: `(p11 TP + p00 TN) / (q11 TP + q00 TN + q0)`;
 * - `diagonal-linear`: `sum_i a_i C_ii`;
 * - `linear`: `sum_{i != j} a_ij C_ij`, `a` the off-diagonal entries row by row
 *   (`a01, a02, ..., a10, a12, ...`), costs `<= 0`;
 * - `diagonal-linear-fractional`: `<a, d> / (<b, d> + b0)` with `d_i = C_ii`;
 * - `linear-fractional`: the same over the off-diagonal entries, in the order of `linear`;
 * - `quadratic`: `<a, r> + 1/2 r^T B r` of the class rates `r_i = C_ii / sum_j C_ij`;
 * - `fair`: the UAI 2022 fair metric in its **cost** form (lower is better),
 *   `(1 - lambda) <a, 1 - r> + lambda/2 sum_{u<v} (r^u - r^v)^T B^{uv} (r^u - r^v)` of one
 *   confusion matrix per group `g` (`r^g_i` group g's rate right in class i, `r` everyone's:
 *   `r_i = sum_g tau^g_i r^g_i` with `tau^g_i = P(G = g | Y = i)`); `B` keyed `"u-v"`, 0-based.
 *
 * Every family but `fair` is a utility (larger is better), as everywhere in this package.
 */

import { vectorText } from "../../math/vector-text.ts";

/** The families a portable metric can have. */
export const PORTABLE_FAMILIES = [
  "binary-linear",
  "binary-linear-fractional",
  "diagonal-linear",
  "linear",
  "diagonal-linear-fractional",
  "linear-fractional",
  "quadratic",
  "fair",
] as const;

/** A portable metric's family. */
export type PortableFamily = (typeof PORTABLE_FAMILIES)[number];

/** Names the metric can carry: its classes in its order and (fair) its groups in B's order. */
interface Named {
  /** Class names in the metric's order (binary: negative, then positive); absent: unnamed. */
  readonly classes?: readonly string[];
}

/** A portable metric (see the module comment for each family's formula). */
export type PortableMetric =
  | (Named & {
      readonly family: "binary-linear";
      readonly tp: number;
      readonly tn: number;
      /**
       * Set when the metric was given as the threshold family's `a0` (a `binary-threshold`
       * metric file: `tp = 1 - a0`, `tn = a0`), so reports and exported code name it so; the
       * value reads only `tp` and `tn`.
       */
      readonly a0?: number;
    })
  | (Named & {
      readonly family: "binary-linear-fractional";
      readonly p11: number;
      readonly p00: number;
      readonly q11: number;
      readonly q00: number;
      readonly q0: number;
    })
  | (Named & { readonly family: "diagonal-linear" | "linear"; readonly a: readonly number[] })
  | (Named & {
      readonly family: "diagonal-linear-fractional" | "linear-fractional";
      readonly a: readonly number[];
      readonly b: readonly number[];
      readonly b0: number;
    })
  | (Named & {
      readonly family: "quadratic";
      readonly a: readonly number[];
      readonly B: readonly (readonly number[])[];
    })
  | (Named & {
      readonly family: "fair";
      readonly a: readonly number[];
      readonly B: Readonly<Record<string, readonly (readonly number[])[]>>;
      readonly lambda: number;
      /** Group names in the order of B's 0-based keys; absent: unnamed. */
      readonly groups?: readonly string[];
    });

/**
 * Whether a metric is a cost (lower is better): only the fair metric, in the paper's form.
 * @example isCostMetric({ family: "fair", a: [1, 0], B: {}, lambda: 0 }) // true
 */
export function isCostMetric(m: PortableMetric): boolean {
  return m.family === "fair";
}

/**
 * The number of classes a metric is about.
 * @example metricClassCount({ family: "linear", a: [-1, -1, -1, -1, -1, -1] }) // 3
 */
export function metricClassCount(m: PortableMetric): number {
  switch (m.family) {
    case "binary-linear":
    case "binary-linear-fractional":
      return 2;
    case "diagonal-linear":
    case "diagonal-linear-fractional":
    case "quadratic":
    case "fair":
      return m.a.length;
    case "linear":
    case "linear-fractional":
      // k^2 - k entries.
      return Math.round((1 + Math.sqrt(1 + 4 * m.a.length)) / 2);
  }
}

/**
 * The number of groups a fair metric's B names (the largest index in its keys plus one, at
 * least 2, or its `groups`); 1 for every other family.
 * @example metricGroupCount({ family: "fair", a: [1, 0], B: { "0-2": [[1, 0], [0, 1]] }, lambda: 0.5 }) // 3
 */
export function metricGroupCount(m: PortableMetric): number {
  if (m.family !== "fair") return 1;
  let top = 1;
  for (const key of Object.keys(m.B)) for (const g of key.split("-")) top = Math.max(top, +g);
  return Math.max(top + 1, m.groups?.length ?? 0, 2);
}

const finite = (x: unknown) => typeof x === "number" && Number.isFinite(x);

function vector(name: string, v: readonly number[], length?: number): string[] {
  if (!Array.isArray(v) || !v.every(finite)) return [`${name} must be a list of finite numbers`];
  if (length !== undefined && v.length !== length)
    return [`${name} needs ${length} entries, got ${v.length}`];
  return [];
}

function square(name: string, M: readonly (readonly number[])[], k: number): string[] {
  if (!Array.isArray(M) || M.length !== k || !M.every((row) => vector("", row, k).length === 0))
    return [`${name} must be a ${k} x ${k} matrix of finite numbers`];
  for (let i = 0; i < k; i++)
    for (let j = 0; j < i; j++)
      if (Math.abs(M[i]![j]! - M[j]![i]!) > 1e-9 * Math.max(1, Math.abs(M[i]![j]!)))
        return [`${name} must be symmetric`];
  return [];
}

/**
 * What is wrong with a portable metric's numbers (empty when nothing is): shapes, finiteness,
 * at least two classes, `linear` of k^2 - k entries, fair keys `"u-v"` with u < v, lambda in
 * [0, 1], class and group names distinct and as many as the metric has.
 * @example portableMetricProblems({ family: "diagonal-linear", a: [0.5, 0.5] }) // []
 */
export function portableMetricProblems(m: PortableMetric): string[] {
  const out: string[] = [];
  switch (m.family) {
    case "binary-linear":
      if (!finite(m.tp) || !finite(m.tn)) out.push("tp and tn must be finite numbers");
      else if (m.tp === 0 && m.tn === 0) out.push("tp and tn cannot both be 0");
      break;
    case "binary-linear-fractional":
      if (![m.p11, m.p00, m.q11, m.q00, m.q0].every(finite))
        out.push("p11, p00, q11, q00 and q0 must be finite numbers");
      break;
    case "diagonal-linear":
    case "linear":
    case "diagonal-linear-fractional":
    case "linear-fractional": {
      out.push(...vector("a", m.a));
      if (out.length > 0) break;
      const offDiagonal = m.family === "linear" || m.family === "linear-fractional";
      const k = metricClassCount(m);
      if (offDiagonal && k * (k - 1) !== m.a.length)
        out.push(
          `a has ${m.a.length} entries: a ${m.family} metric has k^2 - k (one per mistake, row by row)`,
        );
      if (!offDiagonal && m.a.length < 2) out.push("a needs one entry per class (at least 2)");
      if (m.a.every((x) => x === 0)) out.push("a cannot be all 0");
      if (m.family === "diagonal-linear-fractional" || m.family === "linear-fractional") {
        out.push(...vector("b", m.b, m.a.length));
        if (!finite(m.b0)) out.push("b0 must be a finite number");
      }
      break;
    }
    case "quadratic":
      out.push(...vector("a", m.a));
      if (out.length === 0 && m.a.length < 2) out.push("a needs one entry per class (at least 2)");
      if (out.length === 0) out.push(...square("B", m.B, m.a.length));
      break;
    case "fair": {
      out.push(...vector("a", m.a));
      if (out.length === 0 && m.a.length < 2) out.push("a needs one entry per class (at least 2)");
      if (!finite(m.lambda) || m.lambda < 0 || m.lambda > 1)
        out.push("lambda must be a number in [0, 1]");
      if (typeof m.B !== "object" || m.B === null || Array.isArray(m.B)) {
        out.push('B must be an object of k x k matrices keyed "u-v"');
        break;
      }
      for (const [key, M] of Object.entries(m.B)) {
        const match = /^(\d+)-(\d+)$/.exec(key);
        if (!match || +match[1]! >= +match[2]!)
          out.push(`B key "${key}" is not a pair "u-v" of 0-based groups with u < v`);
        else out.push(...square(`B["${key}"]`, M, m.a.length));
      }
      if (m.groups !== undefined) {
        const g = metricGroupCount({ ...m, groups: undefined });
        if (m.groups.length < g)
          out.push(`groups names ${m.groups.length} groups; B is about ${g}`);
        if (new Set(m.groups).size !== m.groups.length) out.push("group names must be distinct");
      }
      break;
    }
  }
  if (out.length === 0 && m.classes !== undefined) {
    const k = metricClassCount(m);
    if (m.classes.length !== k)
      out.push(`classes names ${m.classes.length} classes; the metric is about ${k}`);
    if (new Set(m.classes).size !== m.classes.length) out.push("class names must be distinct");
  }
  return out;
}

/**
 * The metric in one line of words, for reports (a threshold metric by its `a0`, then as
 * weights: `binary-threshold: a0 = 0.3 (0.7 TP + 0.3 TN)`).
 * @example describePortableMetric({ family: "binary-linear", tp: 0.7, tn: 0.3 }) // "binary-linear: 0.7 TP + 0.3 TN"
 */
export function describePortableMetric(m: PortableMetric): string {
  const f = (x: number) => String(Number(x.toPrecision(4)));
  const list = (v: readonly number[]) => vectorText(v);
  switch (m.family) {
    case "binary-linear":
      return m.a0 === undefined
        ? `binary-linear: ${f(m.tp)} TP + ${f(m.tn)} TN`
        : `binary-threshold: a0 = ${f(m.a0)} (${f(m.tp)} TP + ${f(m.tn)} TN)`;
    case "binary-linear-fractional":
      return `binary-linear-fractional: (${f(m.p11)} TP + ${f(m.p00)} TN) / (${f(m.q11)} TP + ${f(m.q00)} TN + ${f(m.q0)})`;
    case "diagonal-linear":
      return `diagonal-linear: sum_i a_i C_ii, a = ${list(m.a)}`;
    case "linear":
      return `linear: sum_{i != j} a_ij C_ij, a = ${list(m.a)}`;
    case "diagonal-linear-fractional":
    case "linear-fractional":
      return `${m.family}: <a, x> / (<b, x> + b0), a = ${list(m.a)}, b = ${list(m.b)}, b0 = ${f(m.b0)}`;
    case "quadratic":
      return `quadratic: <a, r> + 1/2 r^T B r of the class rates, a = ${list(m.a)}`;
    case "fair":
      return `fair (cost, lower is better): lambda = ${f(m.lambda)}, a = ${list(m.a)}`;
  }
}
