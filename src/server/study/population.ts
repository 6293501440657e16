import { readFileSync } from "node:fs";
import { formatCsvRow, parseCsv } from "../../data/csv.ts";
import { DataError } from "../../data/errors.ts";
import type { PreparedBinary } from "../../population/binary.ts";
import type { PreparedMulticlass } from "../../population/multiclass.ts";
import type { FairStudyData } from "../kinds/fair/study.ts";
import { studyKindOf } from "../kinds/registry.ts";
import type { StudyConfig } from "./config.ts";
import { bundledDataPath } from "./template.ts";

/**
 * The CSV text of a multiclass or fairness study's data: the upload stored in the
 * configuration, or the bundled file.
 * @example datasetText({ file: "iris.csv" }) // iris.csv's text
 */
export function datasetText(s: { readonly file: string; readonly csv?: string }): string {
  return s.csv ?? readFileSync(bundledDataPath(s.file), "utf8");
}

/**
 * The CSV with only the rows whose `target` is one of `classes` (header kept); a class that
 * does not occur is a `DataError`.
 * @example onlyClasses("x,y\n1,a\n2,b\n3,c\n", "y", ["a", "c"]) // "x,y\n1,a\n3,c\n"
 */
export function onlyClasses(text: string, target: string, classes: readonly string[]): string {
  const table = parseCsv(text);
  const t = table.header.indexOf(target);
  if (t < 0) throw new DataError(`no column "${target}"`);
  const want = new Set(classes);
  const rows = table.rows.filter((r) => want.has(r[t] ?? ""));
  for (const c of want) {
    if (!rows.some((r) => r[t] === c))
      throw new DataError(`class "${c}" does not occur in "${target}"`);
  }
  return `${[table.header, ...rows].map(formatCsvRow).join("\n")}\n`;
}

/** A study's prepared data, binary, multiclass or fair by the study's kind. */
export type StudyData = PreparedBinary | PreparedMulticlass | FairStudyData;

/** The prepared data of any study, by its kind (cached by configuration hash). */
export function anyStudyData(configHash: string, config: StudyConfig): StudyData {
  return studyKindOf(config).data(configHash, config);
}
