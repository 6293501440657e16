import { describe, expect, it } from "vitest";
import { parseCsv } from "../../src/data/csv.ts";
import { DataError } from "../../src/data/errors.ts";
import { formatDatasetReport } from "../../src/data/report.ts";
import { buildBinaryDataset, buildMulticlassDataset } from "../../src/data/table.ts";
import { prepareMulticlassFromPredictions } from "../../src/population/multiclass.ts";
import { errorOf } from "./data-error.ts";

const rows = (features: Float64Array[]) => features.map((r) => Array.from(r));

describe("buildBinaryDataset", () => {
  it("imputes numeric missing values with the column mean and reports them", () => {
    const csv = parseCsv("x,y,label\n1,10,a\nNA,20,b\n3,?,a\n , null ,b\n");
    const data = buildBinaryDataset(csv, { target: "label", positive: "b" });
    expect(data.featureNames).toEqual(["x", "y"]);
    expect(rows(data.features)).toEqual([
      [1, 10],
      [2, 20],
      [3, 15],
      [2, 15],
    ]);
    expect(data.report.imputed).toEqual([
      { column: "x", count: 2 },
      { column: "y", count: 2 },
    ]);
    expect(Array.from(data.labels)).toEqual([0, 1, 0, 1]);
  });

  it("treats quoted numbers as numbers", () => {
    const csv = parseCsv('x,label\n"3.5",a\n"1",b\n');
    const data = buildBinaryDataset(csv, { target: "label" });
    expect(rows(data.features)).toEqual([[3.5], [1]]);
  });

  it("one-hot encodes categorical columns with sorted levels; missing sets no indicator", () => {
    const csv = parseCsv("color,size,label\nred,1,0\nblue,2,1\n,3,0\nred,4,1\ngreen,5,0\n");
    const data = buildBinaryDataset(csv, { target: "label" });
    expect(data.featureNames).toEqual(["color=blue", "color=green", "color=red", "size"]);
    expect(rows(data.features)).toEqual([
      [0, 0, 1, 1],
      [1, 0, 0, 2],
      [0, 0, 0, 3],
      [0, 0, 1, 4],
      [0, 1, 0, 5],
    ]);
    expect(data.report.oneHot).toEqual([{ column: "color", levels: 3 }]);
  });

  it("makes a column with one non-number categorical", () => {
    const csv = parseCsv("x,label\n1,a\n2,b\nthree,a\n");
    const data = buildBinaryDataset(csv, { target: "label" });
    expect(data.featureNames).toEqual(["x=1", "x=2", "x=three"]);
  });

  it("refuses a numeric column with a few non-numbers, naming the column, lines and values", () => {
    const table = (cell: (i: number) => string, rows = 20) =>
      parseCsv(
        `x1,x2,y\n${Array.from({ length: rows }, (_, i) => `${i},${cell(i)},${i % 2 ? "a" : "b"}`).join("\n")}\n`,
      );
    // One typo: line 12 (the header is line 1) holds row 11.
    const typo = errorOf(() =>
      buildBinaryDataset(
        table((i) => (i === 10 ? "abc" : `${i / 10}`)),
        { target: "y" },
      ),
    );
    expect(typo.message).toBe(
      'column "x2" holds numbers except for 1 of its 20 values: line 12 "abc". Fix the value, or leave the cell empty (an empty cell is imputed with the column mean, and reported)',
    );
    expect(typo.line).toBe(12);
    // A number too large for a double, and infinities, in a numeric column.
    const overflow = errorOf(() =>
      buildMulticlassDataset(
        table((i) => (i === 5 ? "1e999" : i === 7 ? "-Infinity" : `${i}`)),
        { target: "y" },
      ),
    );
    expect(overflow.message).toMatch(
      /^column "x2" holds numbers except for 2 of its 20 values: line 7 "1e999" \(not a finite number\), line 9 "-Infinity" \(not a finite number\)\. Fix the values, or leave the cells empty/,
    );
    // Many: the first three quoted, the rest counted; a missing cell is neither.
    const many = errorOf(() =>
      buildBinaryDataset(
        table((i) => (i < 2 ? `?${i}` : i === 2 ? "" : `${i}`), 30),
        { target: "y" },
      ),
    );
    expect(many.message).toMatch(/except for 2 of its 29 values: line 2 "\?0", line 3 "\?1"\./);
    const five = errorOf(() =>
      buildBinaryDataset(
        parseCsv(
          `x,y\n${Array.from({ length: 60 }, (_, i) => `${i < 5 ? `n${i}` : i},${i % 2}`).join("\n")}\n`,
        ),
        { target: "y" },
      ),
    );
    expect(five.message).toMatch(
      /except for 5 of its 60 values: line 2 "n0", line 3 "n1", line 4 "n2" and 2 more\./,
    );
  });

  it("keeps one-hot encoding a column that is mostly not numbers (under 90% numbers)", () => {
    // 8 numbers of 10 (80%): categorical, as a column of codes and words is.
    const cells = ["1", "2", "3", "4", "5", "6", "7", "8", "red", "blue"];
    const csv = parseCsv(`x,y\n${cells.map((c, i) => `${c},${i % 2}`).join("\n")}\n`);
    const data = buildBinaryDataset(csv, { target: "y" });
    expect(data.report.oneHot).toEqual([{ column: "x", levels: 10 }]);
  });

  it("names rows by their place when the table records no lines", () => {
    const csv = parseCsv(
      `x,y\n${Array.from({ length: 10 }, (_, i) => `${i === 3 ? "oops" : i},${i % 2}`).join("\n")}\n`,
    );
    const { lines: _, ...bare } = csv;
    expect(errorOf(() => buildBinaryDataset(bare, { target: "y" })).message).toMatch(
      /^column "x" holds numbers except for 1 of its 10 values: row 4 "oops"\./,
    );
  });

  it("drops constant and all-missing columns and reports them", () => {
    const csv = parseCsv("k,c,e,u,x,label\n5,same,,7,1,a\n5,same,NA,NA,2,b\n5,same,?,7,3,a\n");
    const data = buildBinaryDataset(csv, { target: "label" });
    expect(data.featureNames).toEqual(["x"]);
    expect(data.report.droppedConstant).toEqual(["k", "c", "e", "u"]);
    // u is constant after imputation, so it is not reported as imputed.
    expect(data.report.imputed).toEqual([]);
  });

  it("keeps a single-level categorical column with missing values as one indicator", () => {
    const csv = parseCsv("c,label\nyes,a\n,b\nyes,a\n");
    const data = buildBinaryDataset(csv, { target: "label" });
    expect(data.featureNames).toEqual(["c=yes"]);
    expect(rows(data.features)).toEqual([[1], [0], [1]]);
  });

  it("drops rows with a missing target and counts them", () => {
    const csv = parseCsv("x,label\n1,a\n2,\n3,b\n4,NA\n5,a\n");
    const data = buildBinaryDataset(csv, { target: "label" });
    expect(rows(data.features)).toEqual([[1], [3], [5]]);
    expect(data.report.rows).toBe(3);
    expect(data.report.droppedRowsMissingTarget).toBe(2);
  });

  it("honours dropColumns", () => {
    const csv = parseCsv("id,x,label\n1,5,a\n2,6,b\n3,8,a\n");
    const data = buildBinaryDataset(csv, { target: "label", dropColumns: ["id"] });
    expect(data.featureNames).toEqual(["x"]);
    expect(() => buildBinaryDataset(csv, { target: "label", dropColumns: ["nope"] })).toThrow(
      /unknown column "nope"/,
    );
    expect(() => buildBinaryDataset(csv, { target: "label", dropColumns: ["label"] })).toThrow(
      /cannot drop the target/,
    );
  });

  it("picks the less frequent class as positive, ties by sort order, and reports the rule", () => {
    const minority = buildBinaryDataset(parseCsv("x,y\n1,no\n2,yes\n3,no\n"), { target: "y" });
    expect(minority.positiveLabel).toBe("yes");
    expect(minority.negativeLabel).toBe("no");
    expect(minority.report.positive).toEqual({ label: "yes", rule: "less frequent" });

    const majorityLast = buildBinaryDataset(parseCsv("x,y\n1,b\n2,a\n3,b\n"), { target: "y" });
    expect(majorityLast.positiveLabel).toBe("a");

    const tie = buildBinaryDataset(parseCsv("x,y\n1,1\n2,0\n3,0\n4,1\n"), { target: "y" });
    expect(tie.positiveLabel).toBe("1");
    expect(tie.report.positive?.rule).toBe("tie: last in sort order");
    expect(Array.from(tie.labels)).toEqual([1, 0, 0, 1]);
  });

  it("with positive given, treats every other value as negative", () => {
    const csv = parseCsv("x,y\n1,cat\n2,dog\n3,cow\n4,cat\n");
    const data = buildBinaryDataset(csv, { target: "y", positive: "cat" });
    expect(Array.from(data.labels)).toEqual([1, 0, 0, 1]);
    expect(data.negativeLabel).toBe("not cat");
    expect(data.report.classCounts).toEqual({ cat: 2, cow: 1, dog: 1 });
    expect(data.report.positive).toEqual({ label: "cat", rule: "given" });
  });

  it("rejects an unknown target column, listing the columns", () => {
    const csv = parseCsv("x,y\n1,a\n2,b\n");
    expect(() => buildBinaryDataset(csv, { target: "label" })).toThrow(
      new DataError('unknown column "label"; columns are: x, y'),
    );
  });

  it("rejects a positive class that does not occur, naming the values that do", () => {
    const csv = parseCsv("x,y\n1,benign\n2,malignant\n");
    expect(() => buildBinaryDataset(csv, { target: "y", positive: "cancer" })).toThrow(
      /positive class "cancer" does not occur in target "y"; its values are: benign, malignant/,
    );
  });

  it("rejects a single-class target, with or without positive", () => {
    const csv = parseCsv("x,y\n1,a\n2,a\n3,\n");
    expect(() => buildBinaryDataset(csv, { target: "y" })).toThrow(/single class \(a\)/);
    expect(() => buildBinaryDataset(csv, { target: "y", positive: "a" })).toThrow(/single class/);
  });

  it("rejects more than two classes without positive", () => {
    const csv = parseCsv("x,y\n1,a\n2,b\n3,c\n");
    expect(() => buildBinaryDataset(csv, { target: "y" })).toThrow(/3 distinct values \(a, b, c\)/);
  });

  it("rejects a target that is missing everywhere", () => {
    expect(() => buildBinaryDataset(parseCsv("x,y\n1,\n2,NA\n"), { target: "y" })).toThrow(
      /missing in every row/,
    );
  });

  it("rejects a table without usable features", () => {
    expect(() => buildBinaryDataset(parseCsv("k,y\n1,a\n1,b\n"), { target: "y" })).toThrow(
      /no usable feature columns.*\(k\)/,
    );
    expect(() => buildBinaryDataset(parseCsv("y\na\nb\n"), { target: "y" })).toThrow(
      /no feature columns/,
    );
  });

  it("rejects duplicate column names", () => {
    expect(() => buildBinaryDataset(parseCsv("x,x,y\n1,2,a\n3,4,b\n"), { target: "y" })).toThrow(
      /duplicate column name "x"/,
    );
  });
});

describe("buildMulticlassDataset", () => {
  it("indexes classes in numeric order when all are numbers", () => {
    const csv = parseCsv("x,y\n1,10\n2,9\n3,10\n4,2\n5,\n");
    const data = buildMulticlassDataset(csv, { target: "y" });
    expect(data.classNames).toEqual(["2", "9", "10"]);
    expect(Array.from(data.labels)).toEqual([2, 1, 2, 0]);
    expect(data.report.classCounts).toEqual({ 2: 1, 9: 1, 10: 2 });
    expect(data.report.droppedRowsMissingTarget).toBe(1);
    expect(data.report.positive).toBeUndefined();
  });

  it("shares the feature encoding with the binary builder", () => {
    const text = "c,x,y\nred,1,a\nblue,,b\nred,3,c\n";
    const multi = buildMulticlassDataset(parseCsv(text), { target: "y" });
    const binary = buildBinaryDataset(parseCsv(text), { target: "y", positive: "a" });
    expect(multi.featureNames).toEqual(["c=blue", "c=red", "x"]);
    expect(rows(multi.features)).toEqual(rows(binary.features));
    expect(multi.classNames).toEqual(["a", "b", "c"]);
  });

  it("rejects a single class", () => {
    expect(() => buildMulticlassDataset(parseCsv("x,y\n1,a\n2,a\n"), { target: "y" })).toThrow(
      DataError,
    );
  });
});

describe("formatDatasetReport", () => {
  it("describes every non-empty part of the report", () => {
    const csv = parseCsv("k,c,x,y\n1,red,1,no\n1,blue,,yes\n1,red,3,no\n1,red,4,\n");
    const lines = formatDatasetReport(buildBinaryDataset(csv, { target: "y" }).report);
    expect(lines).toEqual([
      "3 rows (1 dropped: missing target)",
      "classes: no 2, yes 1",
      "positive class: yes (less frequent)",
      "missing values imputed with the column mean: x (1)",
      "categorical columns one-hot encoded: c (2 levels)",
      "constant columns dropped: k",
    ]);
  });

  it("says how many predictions rows were renormalised to sum to 1", () => {
    const base = formatDatasetReport({
      rows: 3,
      droppedRowsMissingTarget: 0,
      imputed: [],
      droppedConstant: [],
      oneHot: [],
      classCounts: { a: 1, b: 1, c: 1 },
    });
    expect(base).toEqual(["3 rows", "classes: a 1, b 1, c 1"]);
    const report = prepareMulticlassFromPredictions(
      "label,p_a,p_b,p_c\na,0.6667,0.1667,0.1667\nb,0.1,0.8,0.1\nc,0.3333,0.3333,0.3333\n",
    ).report;
    expect(report.renormalisedRows).toBe(2);
    expect(formatDatasetReport(report).at(-1)).toBe(
      "2 rows' probabilities summed to 1 only within 0.001 (rounded?): divided by their sum",
    );
  });
});
