import { describe, expect, it } from "vitest";
import { parseCsv } from "../../src/data/csv.ts";
import { DataError } from "../../src/data/errors.ts";
import { formatDatasetReport } from "../../src/data/report.ts";
import { buildBinaryDataset, buildMulticlassDataset } from "../../src/data/table.ts";

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
});
