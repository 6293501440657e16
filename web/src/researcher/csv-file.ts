// The create form's checks on a chosen CSV file, before anything is sent: its size against the
// server's limit, and that it has a header and data rows (issue 27: a 6 MB file was dropped
// with only "Please choose a dataset CSV file.", and an empty one read "-1 rows, 0 columns").

/** Largest CSV the server takes in a study upload (MAX_UPLOAD_BYTES in src/server/api-schemas.ts). */
export const MAX_CSV_BYTES = 5 * 1024 * 1024;

const bytes = (n: number) => n.toLocaleString("en-US");

/**
 * Why a file of `size` bytes is refused before reading it, or null when it is small enough.
 * @example csvTooLarge("big.csv", 6_000_000) // "big.csv is 6.0 MB (6,000,000 bytes); the limit is 5 MB (5,242,880 bytes). ..."
 */
export function csvTooLarge(name: string, size: number): string | null {
  if (size <= MAX_CSV_BYTES) return null;
  return `${name} is ${(size / 1e6).toFixed(1)} MB (${bytes(size)} bytes); the limit is 5 MB (${bytes(MAX_CSV_BYTES)} bytes). Choose a smaller file, for example with fewer rows or columns.`;
}

/** A CSV's header and data rows as the form counts them (blank lines left out). */
export function csvShape(text: string): { rows: number; columns: number } {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  return {
    rows: Math.max(0, lines.length - 1),
    columns: lines.length > 0 ? lines[0]!.split(",").length : 0,
  };
}

/**
 * Why a file's text is refused as a study's data, or null: an empty file, or a header without
 * data rows (the server refuses both too; said here at once, beside the file).
 * @example csvEmpty("x.csv", "") // "x.csv is empty: it has no header and no data rows. Choose the CSV file with your data."
 */
export function csvEmpty(name: string, text: string): string | null {
  if (text.trim() === "")
    return `${name} is empty: it has no header and no data rows. Choose the CSV file with your data.`;
  if (csvShape(text).rows === 0)
    return `${name} has a header but no data rows. Choose the CSV file with your data.`;
  return null;
}

/**
 * What the form says of a chosen file: its rows and columns.
 * @example csvSummary("d.csv", "a,b\n1,2\n") // "d.csv: 1 row, 2 columns"
 */
export function csvSummary(name: string, text: string): string {
  const { rows, columns } = csvShape(text);
  return `${name}: ${rows} ${rows === 1 ? "row" : "rows"}, ${columns} ${columns === 1 ? "column" : "columns"}`;
}

/**
 * What "Create study" says when no file was taken: why, if one was refused, else to choose one.
 * @example noFileChosen(null, "dataset") // "Please choose a dataset CSV file."
 */
export function noFileChosen(fileError: string | null, what: string): string {
  return fileError ?? `Please choose a ${what} CSV file.`;
}

/**
 * The header and each column's distinct values (at most 50) of a CSV, read in the browser.
 * @example csvColumns("a,b\n1,x\n2,x\n") // [{ name: "a", values: ["1", "2"] }, { name: "b", values: ["x"] }]
 */
export function csvColumns(text: string): { name: string; values: string[] }[] {
  const rows = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  // A plain split: enough to offer the columns (the server parses quotes properly).
  const split = (l: string) => l.split(",").map((x) => x.trim().replace(/^"(.*)"$/, "$1"));
  const header = rows.length > 0 ? split(rows[0]!) : [];
  const values = header.map(() => new Set<string>());
  for (const r of rows.slice(1, 5001)) {
    split(r).forEach((v, i) => {
      if (i < values.length && values[i]!.size <= 50) values[i]!.add(v);
    });
  }
  return header.map((name, i) => ({ name, values: [...values[i]!].sort() }));
}
