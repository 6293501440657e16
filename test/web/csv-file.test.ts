import { h } from "preact";
import { render } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES } from "../../src/server/api-schemas.ts";
import {
  csvEmpty,
  csvShape,
  csvSummary,
  csvTooLarge,
  MAX_CSV_BYTES,
} from "../../web/src/researcher/csv-file.ts";
import { FileNote } from "../../web/src/researcher/form-parts.tsx";

describe("issue 27 defects 9 and 10: the create form says why a chosen CSV file is not taken", () => {
  it("defect: a 6 MB file is refused with a message naming its size and the 5 MB limit", () => {
    expect(MAX_CSV_BYTES).toBe(MAX_UPLOAD_BYTES);
    const message = csvTooLarge("loans.csv", 6_000_000);
    expect(message).toBe(
      "loans.csv is 6.0 MB (6,000,000 bytes); the limit is 5 MB (5,242,880 bytes). Choose a smaller file, for example with fewer rows or columns.",
    );
    expect(csvTooLarge("loans.csv", MAX_CSV_BYTES)).toBeNull();
    expect(csvTooLarge("loans.csv", MAX_CSV_BYTES + 1)).toMatch(/the limit is 5 MB/);
    // Shown under the file input as an alert, not dropped.
    expect(render(h(FileNote, { csv: null, error: message }))).toBe(
      `<p class="error" role="alert" data-testid="file-error">${message}</p>`,
    );
  });

  it("defect: an empty CSV is refused as empty, not shown as -1 rows, 0 columns", () => {
    for (const text of ["", "\n", "  \r\n\r\n"])
      expect(csvEmpty("empty.csv", text)).toBe(
        "empty.csv is empty: it has no header and no data rows. Choose the CSV file with your data.",
      );
    expect(csvEmpty("head.csv", "a,b,label\n")).toBe(
      "head.csv has a header but no data rows. Choose the CSV file with your data.",
    );
    expect(csvEmpty("ok.csv", "a,label\n1,yes\n")).toBeNull();
    expect(csvShape("")).toEqual({ rows: 0, columns: 0 });
    expect(csvSummary("ok.csv", "a,b,label\r\n1,2,yes\n\n3,4,no\n")).toBe(
      "ok.csv: 2 rows, 3 columns",
    );
    expect(csvSummary("one.csv", "label\nyes\n")).toBe("one.csv: 1 row, 1 column");
    expect(render(h(FileNote, { csv: { name: "ok.csv", text: "a,b\n1,2\n" }, error: null }))).toBe(
      '<p class="muted">ok.csv: 1 row, 2 columns</p>',
    );
  });
});
