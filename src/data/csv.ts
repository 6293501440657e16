/**
 * Reading and writing CSV text (RFC 4180 with the usual leniencies). Pure: callers read files.
 *
 * @example
 * const { header, rows } = parseCsv('name,score\n"Smith, J.",3.5\n');
 * // header: ["name", "score"], rows: [["Smith, J.", "3.5"]]
 */
import { DataError } from "./errors.ts";

/** A parsed CSV file: the header and the data rows, all fields as (unquoted) strings. */
export interface CsvTable {
  header: string[];
  rows: string[][];
  /** 1-based line on which each data row starts (rows may span lines inside quotes). */
  lines?: number[];
}

const QUOTE = 34; // "
const COMMA = 44; // ,
const LF = 10; // \n
const CR = 13; // \r

/**
 * Parse CSV text with a required header row.
 *
 * - Fields are separated by commas; a field starting with `"` is quoted and may contain
 *   commas, line breaks and `""` (an escaped quote). Quotes inside unquoted fields are kept
 *   literally.
 * - Lines end with LF or CRLF; a byte-order mark at the start is dropped.
 * - Blank lines (no characters at all) are skipped anywhere, so a trailing newline or a few
 *   empty lines at the end do not make rows. (So a one-column file cannot express a missing
 *   value by an empty line; write `""` or `NA`.)
 * - Every row must have as many fields as the header; otherwise a `DataError` names the line
 *   and both counts (and, when the header or that line holds a `;`, says that the file looks
 *   semicolon-separated, as spreadsheets with decimal commas save it). Empty input, or a
 *   header without data rows, is also a `DataError`.
 *
 * Fields are not trimmed here; the dataset builders trim where it matters.
 *
 * @example
 * parseCsv("a,b\r\n1,\"x\"\"y\"\r\n").rows; // [["1", 'x"y']]
 */
export function parseCsv(text: string): CsvTable & { lines: number[] } {
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: string[][] = [];
  const lines: number[] = [];
  const n = s.length;
  let i = 0;
  let line = 1;

  while (i < n) {
    const startLine = line;
    const record: string[] = [];
    let blank = true; // stays true only for a line with no characters at all
    for (;;) {
      // One field starting at i.
      let field: string;
      if (i < n && s.charCodeAt(i) === QUOTE) {
        blank = false;
        const fieldLine = line;
        i++;
        let parts = "";
        let from = i;
        for (;;) {
          if (i >= n) {
            throw new DataError(`line ${fieldLine}: quoted field is never closed`, {
              line: fieldLine,
            });
          }
          const c = s.charCodeAt(i);
          if (c === QUOTE) {
            if (i + 1 < n && s.charCodeAt(i + 1) === QUOTE) {
              parts += s.slice(from, i + 1);
              i += 2;
              from = i;
              continue;
            }
            parts += s.slice(from, i);
            i++;
            break;
          }
          if (c === LF) line++;
          i++;
        }
        field = parts;
        if (i < n) {
          const c = s.charCodeAt(i);
          if (c !== COMMA && c !== LF && c !== CR) {
            throw new DataError(
              `line ${line}: unexpected character after a closing quote (a quote inside a quoted field must be doubled: "")`,
              { line },
            );
          }
        }
      } else {
        const from = i;
        while (i < n) {
          const c = s.charCodeAt(i);
          if (c === COMMA || c === LF || c === CR) break;
          i++;
        }
        field = s.slice(from, i);
        if (field.length > 0) blank = false;
      }
      record.push(field);

      if (i >= n) break;
      const c = s.charCodeAt(i);
      if (c === COMMA) {
        blank = false;
        i++;
        continue;
      }
      // End of line: CRLF, LF, or a lone CR (old Mac files).
      if (c === CR && i + 1 < n && s.charCodeAt(i + 1) === LF) i++;
      i++;
      line++;
      break;
    }
    if (blank) continue;
    records.push(record);
    lines.push(startLine);
  }

  if (records.length === 0) throw new DataError("empty CSV: a header row is required");
  const header = records[0]!;
  if (records.length === 1) {
    throw new DataError("CSV has a header but no data rows", { line: lines[0] });
  }
  for (let r = 1; r < records.length; r++) {
    const count = records[r]!.length;
    if (count !== header.length) {
      const at = lines[r]!;
      const semicolons = [header, records[r]!].some((fields) =>
        fields.some((f) => f.includes(";")),
      );
      throw new DataError(
        `line ${at}: expected ${header.length} fields (as in the header) but found ${count}` +
          (semicolons
            ? `; the file looks semicolon-separated (";" in the header or on line ${at}): save it comma-separated, with "." as the decimal point`
            : ""),
        { line: at },
      );
    }
  }
  return { header, rows: records.slice(1), lines: lines.slice(1) };
}

/** Characters that force a field to be quoted. */
const NEEDS_QUOTES = /[",\r\n]|^\uFEFF/;

/**
 * One CSV line (without the line ending), quoting fields only where needed so that
 * `parseCsv` reads back exactly the same strings.
 *
 * @example
 * formatCsvRow(["a", "b,c", 'say "hi"']); // 'a,"b,c","say ""hi"""'
 */
export function formatCsvRow(fields: readonly string[]): string {
  // A lone empty field would be a blank line, which the parser skips.
  if (fields.length === 1 && fields[0] === "") return '""';
  return fields.map((f) => (NEEDS_QUOTES.test(f) ? `"${f.replaceAll('"', '""')}"` : f)).join(",");
}
