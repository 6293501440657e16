import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../temp-dir.ts";

// A new-user audit of the CLI's CSV input: one bad cell in a numeric column (a typo, 1e999)
// silently made the column 60 one-hot indicators; a semicolon-separated file (decimal commas)
// got a field-count error with no hint at the cause.

const bin = fileURLToPath(new URL("../../bin/elicit.js", import.meta.url));
const dir = tempDir("elicit-data-file-errors-");

function elicit(args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** 60 rows of x1,x2,y (x2 a noisy copy of the label), `edit` applied to row i's cells. */
function csv(name: string, edit: (i: number, cells: string[]) => void = () => {}): string {
  const lines = ["x1,x2,y"];
  for (let i = 0; i < 60; i++) {
    const sick = i % 5 < 2;
    const cells = [String((i * 37) % 11), ((sick ? 1 : -1) + ((i * 13) % 7) / 4).toFixed(3)];
    edit(i, cells);
    lines.push(`${cells.join(",")},${sick ? "sick" : "healthy"}`);
  }
  const path = join(dir, name);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

describe("a numeric column with a bad cell is refused, not one-hot encoded", () => {
  it("fit on clean data encodes nothing", () => {
    const r = elicit([
      "fit",
      "--data",
      csv("good.csv"),
      "--target",
      "y",
      "--out",
      join(dir, "p.csv"),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("one-hot");
    expect(r.stderr).toContain("logistic regression on 2 features");
  });

  it.each([
    ["abc", 10, "x2", 1, '"abc"'],
    ["1e999", 5, "x1", 0, '"1e999" (not a finite number)'],
    ["Infinity", 5, "x1", 0, '"Infinity" (not a finite number)'],
  ])(
    "%s in a numeric column: the column, line and value, and what to do",
    (bad, row, column, at, quoted) => {
      const data = csv(`bad-${row}-${at}.csv`, (i, cells) => {
        if (i === row) cells[at] = bad;
      });
      const simulate = ["simulate", "--truth", '{"tp":0.6,"tn":0.8}'];
      for (const command of [["fit", "--out", join(dir, "p.csv")], simulate]) {
        const r = elicit([...command, "--data", data, "--target", "y"]);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toBe(
          `elicit: error: column "${column}" holds numbers except for 1 of its 60 values: line ${row + 2} ${quoted}. Fix the value, or leave the cell empty (an empty cell is imputed with the column mean, and reported)\n`,
        );
      }
    },
  );

  it("an empty cell instead is imputed and reported", () => {
    const data = csv("empty.csv", (i, cells) => {
      if (i === 10) cells[1] = "";
    });
    const r = elicit(["fit", "--data", data, "--target", "y", "--out", join(dir, "p.csv")]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("missing values imputed with the column mean: x2 (1)");
    // simulate on the same CSV says so too (it printed nothing of its data before).
    const sim = elicit([
      "simulate",
      "--data",
      data,
      "--target",
      "y",
      "--truth",
      '{"tp":0.6,"tn":0.8}',
    ]);
    expect(sim.code, sim.stderr).toBe(0);
    expect(sim.stderr).toContain("missing values imputed with the column mean: x2 (1)");
    expect(sim.stdout).toMatch(/^family\s+binary-linear/m);
  });
});

describe("a semicolon-separated CSV", () => {
  it("is refused with a hint that it must be comma-separated", () => {
    const path = join(dir, "semi.csv");
    writeFileSync(path, "x1;x2;y\n1,976;-0,890;sick\n-0,092;0,531;healthy\n");
    const r = elicit(["fit", "--data", path, "--target", "y"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'elicit: error: line 2: expected 1 fields (as in the header) but found 3; the file looks semicolon-separated (";" in the header or on line 2): save it comma-separated, with "." as the decimal point\n',
    );
  });
});
