import { isMissing } from "./cells.ts";
import { sortClassNames } from "./classes.ts";
import type { CsvTable } from "./csv.ts";
import { DataError } from "./errors.ts";
import { buildMulticlassDataset, type MulticlassDataset } from "./table.ts";

/** Options of `buildGroupedDataset`. */
export interface GroupedDatasetOptions {
  readonly target: string;
  /** Column holding the protected group (a categorical column, e.g. "sex"). */
  readonly groups: string;
  readonly dropColumns?: readonly string[];
  /** Keep the group column among the features (default true: group-aware classifiers). */
  readonly groupAsFeature?: boolean;
  /** Fewest rows a group may have (default 10). */
  readonly minGroupRows?: number;
}

/** A classification dataset with a protected-group label per row. */
export interface GroupedDataset extends MulticlassDataset {
  /** Index into `groupNames` per example. */
  readonly groups: Int32Array;
  /** Distinct group values in `sortClassNames` order. */
  readonly groupNames: string[];
  /** Rows dropped because the group cell was missing (reported, never silent). */
  readonly droppedRowsMissingGroup: number;
}

/**
 * A dataset for fairness: rows whose target or group cell is missing are dropped and counted;
 * the group column becomes an index per row (and, by default, stays a one-hot feature).
 * Throws a `DataError` for a missing column, a single group, or a group with too few rows.
 *
 * @example
 * const csv = parseCsv("x,g,y\n1,a,no\n2,b,yes\n3,a,yes\n4,b,no\n");
 * buildGroupedDataset(csv, { target: "y", groups: "g", minGroupRows: 1 }).groupNames; // ["a", "b"]
 */
export function buildGroupedDataset(csv: CsvTable, o: GroupedDatasetOptions): GroupedDataset {
  const gi = csv.header.indexOf(o.groups);
  if (gi < 0) {
    throw new DataError(
      `no group column "${o.groups}"; the columns are ${csv.header.map((h) => `"${h}"`).join(", ")}`,
    );
  }
  if (o.groups === o.target) throw new DataError("the group column cannot be the target");
  const ti = csv.header.indexOf(o.target);
  const kept: string[][] = [];
  const lines: number[] = [];
  let droppedGroup = 0;
  csv.rows.forEach((row, r) => {
    // Rows without a target are dropped (and counted) by the table builder itself.
    if (isMissing(row[gi] ?? "") && !(ti >= 0 && isMissing(row[ti] ?? ""))) {
      droppedGroup++;
      return;
    }
    kept.push(row);
    if (csv.lines) lines.push(csv.lines[r]!);
  });
  const filtered: CsvTable = {
    header: csv.header,
    rows: kept,
    ...(csv.lines ? { lines } : {}),
  };
  const drop = [...(o.dropColumns ?? []), ...(o.groupAsFeature === false ? [o.groups] : [])];
  const data = buildMulticlassDataset(filtered, { target: o.target, dropColumns: drop });
  // The same rows the table builder kept: those with a target.
  const values = kept.filter((row) => !isMissing(row[ti] ?? "")).map((row) => row[gi]!.trim());
  const groupNames = sortClassNames(values);
  if (groupNames.length < 2) {
    throw new DataError(
      `group column "${o.groups}" has a single value (${groupNames[0]}); fairness needs at least two groups`,
    );
  }
  const index = new Map(groupNames.map((g, j) => [g, j]));
  const groups = Int32Array.from(values, (v) => index.get(v)!);
  const counts = new Array<number>(groupNames.length).fill(0);
  for (const g of groups) counts[g]!++;
  const min = o.minGroupRows ?? 10;
  counts.forEach((c, j) => {
    if (c < min) {
      throw new DataError(
        `group "${groupNames[j]}" of column "${o.groups}" has ${c} rows; each group needs at least ${min}`,
      );
    }
  });
  return { ...data, groups, groupNames, droppedRowsMissingGroup: droppedGroup };
}
