import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatCsvRow, parseCsv } from "../../src/data/csv.ts";
import { DataError } from "../../src/data/errors.ts";
import { errorOf } from "./data-error.ts";

describe("parseCsv", () => {
  it("reads a plain table", () => {
    expect(parseCsv("a,b\n1,2\n3,4\n")).toEqual({
      header: ["a", "b"],
      rows: [
        ["1", "2"],
        ["3", "4"],
      ],
      lines: [2, 3],
    });
  });

  it("works without a final newline", () => {
    expect(parseCsv("a,b\n1,2").rows).toEqual([["1", "2"]]);
  });

  it("unquotes fields with embedded commas, newlines and doubled quotes", () => {
    const text = 'name,note\n"Smith, J.","line one\nline two"\n"say ""hi""",""\n';
    const csv = parseCsv(text);
    expect(csv.rows).toEqual([
      ["Smith, J.", "line one\nline two"],
      ['say "hi"', ""],
    ]);
    // The second row starts after the two physical lines of the first.
    expect(csv.lines).toEqual([2, 4]);
  });

  it("accepts CRLF line endings, also inside quotes", () => {
    const csv = parseCsv('a,b\r\n1,"x\r\ny"\r\n2,3\r\n');
    expect(csv.rows).toEqual([
      ["1", "x\r\ny"],
      ["2", "3"],
    ]);
    expect(csv.header).toEqual(["a", "b"]);
  });

  it("strips a byte-order mark", () => {
    expect(parseCsv("\uFEFFa,b\n1,2\n").header).toEqual(["a", "b"]);
  });

  it("keeps empty fields and skips blank lines", () => {
    expect(parseCsv("a,b,c\n,,\n\n1,,3\n\n\n").rows).toEqual([
      ["", "", ""],
      ["1", "", "3"],
    ]);
  });

  it("keeps a quote inside an unquoted field literally", () => {
    expect(parseCsv('a\n5"\n').rows).toEqual([['5"']]);
  });

  it("rejects a ragged row, naming the line and both counts", () => {
    const e = errorOf(() => parseCsv("a,b,c\n1,2,3\n4,5\n"));
    expect(e.message).toBe("line 3: expected 3 fields (as in the header) but found 2");
    expect(e.line).toBe(3);
    expect(errorOf(() => parseCsv("a,b\n1,2,3\n")).message).toMatch(/line 2: .*2 fields.*found 3/);
  });

  it("says that a ragged file with semicolons looks semicolon-separated (decimal commas)", () => {
    const semi = "x1;x2;y\n1,97;-0,89;sick\n-0,09;0,53;healthy\n";
    const e = errorOf(() => parseCsv(semi));
    expect(e.message).toBe(
      'line 2: expected 1 fields (as in the header) but found 3; the file looks semicolon-separated (";" in the header or on line 2): save it comma-separated, with "." as the decimal point',
    );
    expect(e.line).toBe(2);
    // A semicolon on the line alone is enough; a ragged file without any gets no hint.
    expect(errorOf(() => parseCsv("a,b\n1;2,3,4\n")).message).toMatch(/semicolon-separated/);
    expect(errorOf(() => parseCsv("a,b\n1,2,3\n")).message).not.toMatch(/semicolon/);
    // A semicolon inside a well-formed file is only data.
    expect(parseCsv("a,b\n1;2,3\n").rows).toEqual([["1;2", "3"]]);
  });

  it("counts physical lines when naming a ragged row after a multi-line field", () => {
    expect(errorOf(() => parseCsv('a,b\n"x\ny",1\n2\n')).line).toBe(4);
  });

  it("rejects empty input and a header without rows", () => {
    expect(() => parseCsv("")).toThrow(DataError);
    expect(() => parseCsv("\n\n")).toThrow(/header row is required/);
    expect(() => parseCsv("a,b\n")).toThrow(/no data rows/);
  });

  it("rejects an unclosed quote and garbage after a closing quote", () => {
    expect(errorOf(() => parseCsv('a,b\n1,"open\n')).message).toMatch(/line 2: .*never closed/);
    expect(errorOf(() => parseCsv('a,b\n1,"x"y\n')).message).toMatch(/line 2: .*closing quote/);
  });
});

describe("formatCsvRow", () => {
  it("quotes only where needed", () => {
    expect(formatCsvRow(["a", "b,c", 'say "hi"', "x\ny"])).toBe('a,"b,c","say ""hi""","x\ny"');
    expect(formatCsvRow([""])).toBe('""');
  });

  it("round-trips arbitrary tables through parseCsv", () => {
    const field = fc.string({
      unit: fc.constantFrom("a", "b", ",", '"', "\n", "\r", " ", "\uFEFF"),
    });
    const table = fc.integer({ min: 1, max: 4 }).chain((width) =>
      fc.array(fc.array(field, { minLength: width, maxLength: width }), {
        minLength: 2,
        maxLength: 6,
      }),
    );
    fc.assert(
      fc.property(table, (records) => {
        const text = `${records.map(formatCsvRow).join("\r\n")}\n`;
        const csv = parseCsv(text);
        expect([csv.header, ...csv.rows]).toEqual(records);
      }),
    );
  });
});
