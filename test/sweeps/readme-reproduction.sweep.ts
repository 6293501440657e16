import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * Issue 13: "README's reproduction table matches what the commands print". Runs the commands
 * the table quotes, with the README's arguments (`elicit reproduce binary --no-real`,
 * `elicit reproduce multiclass`, `elicit reproduce quadratic`; all deterministic, about a
 * minute together), and checks every figure of the table that those commands print, ours and
 * the paper's, against the README as it is on disk. A README figure with fewer decimals than
 * the output matches when it is the printed figure rounded (half either way).
 * Not checked here (no command prints them): the paper's query counts of AISTATS Table 1 and
 * NeurIPS Tables 5 and 6, the paper's elicited metric's sigma on our points (AISTATS Table 2),
 * the UAI 2022 fair, Figure 4 and ranking rows (no figures).
 *
 * Also checked: the README's quoted command outputs, character for character (the
 * `elicit simulate` example, the fair-quadratic run on arrests, `elicit reproduce binary`,
 * both `elicit reproduce ranking` runs; about 15 s of CPU together), the library
 * example's printed line, and the figures the prose quotes from quick commands (the lambda
 * search over 20 metrics, fair QPME on titanic by passenger class, the ranking on titanic by
 * sex).
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = fileURLToPath(new URL("../../bin/elicit.js", import.meta.url));
const run = promisify(execFile);

async function elicit(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 600_000,
  });
  return stdout;
}

/** The "What reproduces and what does not" table: the "ours vs paper" cell of each row. */
function readmeRows(): Map<string, string> {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const start = readme.indexOf("### What reproduces and what does not");
  if (start < 0) throw new Error('README has no "What reproduces and what does not" section');
  const rows = new Map<string, string>();
  for (const line of readme.slice(start).split("\n").slice(1)) {
    if (line.startsWith("#")) break;
    if (!line.startsWith("|") || /^\|\s*-/.test(line)) continue;
    const cells = line.split("|").map((c) => c.trim());
    // | paper, table | reproduces? | ours vs paper |
    if (cells.length >= 4 && cells[1] !== "paper, table") rows.set(cells[1]!, cells[3]!);
  }
  return rows;
}

/** The README cell of the row whose first cell starts with `title`. */
function row(rows: Map<string, string>, title: string): string {
  const hits = [...rows.entries()].filter(([k]) => k.startsWith(title));
  if (hits.length !== 1) throw new Error(`README table: ${hits.length} rows start "${title}"`);
  return hits[0]![1];
}

/** Match `re` in a README cell, or fail saying the wording changed. */
function read(cell: string, re: RegExp): RegExpMatchArray {
  const m = cell.match(re);
  if (!m) throw new Error(`README cell no longer reads as ${re}: "${cell}" (update this test)`);
  return m;
}

/**
 * The printed figure `printed` as the README shows it: equal, or rounded to the README's
 * decimals (half either way, the printed figure being itself rounded).
 */
function agrees(readme: string, printed: string | number): boolean {
  const p = typeof printed === "number" ? printed : Number(printed);
  const r = Number(readme);
  if (!Number.isFinite(p) || !Number.isFinite(r)) return false;
  const decimals = (readme.split(".")[1] ?? "").length;
  return Math.abs(r - p) <= 0.5 * 10 ** -decimals + 1e-9;
}

function expectFigures(what: string, readme: string[], printed: (string | number)[]) {
  const bad = readme
    .map((r, i) => (agrees(r, printed[i]!) ? null : `${r} (printed ${printed[i]})`))
    .filter((x) => x !== null);
  expect(readme.length, `${what}: figure count`).toBe(printed.length);
  expect(bad, `${what}: README figures that differ from the output`).toEqual([]);
}

/** Rows of the space-aligned table after the line starting with `title` (cells 2+ spaces apart). */
function textTable(out: string, title: string): string[][] {
  const lines = out.split("\n");
  const at = lines.findIndex((l) => l.startsWith(title));
  if (at < 0) throw new Error(`the output has no "${title}"`);
  const dashes = lines.findIndex((l, i) => i > at && /^-+(\s+-+)*\s*$/.test(l));
  const columns = lines[dashes]!.trim().split(/\s+/).length;
  const rows: string[][] = [];
  // Rows until one that does not split into the table's columns (a blank line, a note).
  for (const l of lines.slice(dashes + 1)) {
    const cells = l.trim().split(/\s{2,}/);
    if (cells.length !== columns) break;
    rows.push(cells);
  }
  return rows;
}

const range = (xs: string[]) => {
  const n = xs.map(Number);
  return [Math.min(...n), Math.max(...n)];
};
/** "1.226 / 0.040" -> ["1.226", "0.040"] */
const pair = (cell: string) => cell.split("/").map((s) => s.trim());

let rows: Map<string, string>;
let binary: string;
let multiclass: string;
let quadratic: string;

beforeAll(async () => {
  rows = readmeRows();
  [binary, multiclass, quadratic] = await Promise.all([
    elicit("reproduce", "binary", "--no-real"),
    elicit("reproduce", "multiclass"),
    elicit("reproduce", "quadratic"),
  ]);
}, 900_000);

describe("README: what reproduces and what does not", () => {
  it("AISTATS 2019, Table 1 (LPM): angle errors and queries", () => {
    const cell = row(rows, "AISTATS 2019, Table 1");
    const m = read(
      cell,
      /angle errors ([\d.]+)-([\d.]+) rad \(tolerance ([\d.]+)\), (\d+) queries each/,
    );
    const t = textTable(binary, "Table 1.");
    expect(t).toHaveLength(4);
    const [lo, hi] = range(t.map((r) => r[4]!));
    expectFigures("AISTATS Table 1 angle errors", [m[1]!, m[2]!], [lo!, hi!]);
    expect(binary).toContain(`at tolerance ${m[3]} rad`);
    expect(new Set(t.map((r) => r[5])), "queries").toEqual(new Set([m[4]]));
  });

  it("AISTATS 2019, Table 2 (LFPM): alpha and sigma, ours and the paper's", () => {
    const cell = row(rows, "AISTATS 2019, Table 2");
    const m = read(
      cell,
      /row 1 alpha ([\d.]+), sigma ([\d.]+) \(paper ([\d.]+), ([\d.]+)\); row 2 alpha ([\d.]+), sigma ([\d.]+) \(paper ([\d.]+), ([\d.]+)\)/,
    );
    // true metric, paper elicited, paper alpha, paper sigma, ours elicited, alpha, sigma, queries
    const t = textTable(binary, "Table 2.");
    expect(t).toHaveLength(2);
    expectFigures(
      "AISTATS Table 2",
      m.slice(1, 9),
      t.flatMap((r) => [r[5]!, r[6]!, r[2]!, r[3]!]),
    );
  });

  it("NeurIPS 2019, Table 5 (DLPM): max error range, tolerance, queries", () => {
    const cell = row(rows, "NeurIPS 2019, Table 5");
    const m = read(
      cell,
      /max error ([\d.]+)-([\d.]+) \(tolerance ([\d.]+)\), (\d+) \/ (\d+) queries/,
    );
    // k, true, paper, ours, max |error|, queries
    const t = textTable(multiclass, "Table 5.");
    const [lo, hi] = range(t.map((r) => r[4]!));
    expectFigures("NeurIPS Table 5 max error", [m[1]!, m[2]!], [lo!, hi!]);
    expect(hi!).toBeLessThanOrEqual(Number(m[3]));
    expect(new Set(t.filter((r) => r[0] === "3").map((r) => r[5])), "k = 3 queries").toEqual(
      new Set([m[4]]),
    );
    expect(new Set(t.filter((r) => r[0] === "4").map((r) => r[5])), "k = 4 queries").toEqual(
      new Set([m[5]]),
    );
  });

  it("NeurIPS 2019, Table 6 (LPM): max error range, queries", () => {
    const cell = row(rows, "NeurIPS 2019, Table 6");
    const m = read(cell, /max error ([\d.]+)-([\d.]+), (\d+) \/ (\d+) queries/);
    // k, true, ours, max |error|, queries, sphere rho
    const t = textTable(multiclass, "Table 6.");
    const [lo, hi] = range(t.map((r) => r[3]!));
    expectFigures("NeurIPS Table 6 max error", [m[1]!, m[2]!], [lo!, hi!]);
    expect(new Set(t.filter((r) => r[0] === "3").map((r) => r[4])), "k = 3 queries").toEqual(
      new Set([m[3]]),
    );
    expect(new Set(t.filter((r) => r[0] === "4").map((r) => r[4])), "k = 4 queries").toEqual(
      new Set([m[4]]),
    );
  });

  it("NeurIPS 2019, Table 7 (sphere size): fractions at the paper's radii and from 1e-9 up", () => {
    const cell = row(rows, "NeurIPS 2019, Table 7");
    const m = read(
      cell,
      /at radii ([\d.e-]+) to ([\d.e-]+) our fraction within omega is ([\d.]+) \(paper ([\d.]+)-([\d.]+)\).*from ([\d.e-]+) up the fractions rise to ([\d.]+)/,
    );
    // radius, then one fraction per omega
    const t = textTable(multiclass, "Table 7.");
    const low = t.filter((r) => Number(r[0]) >= Number(m[1]) && Number(r[0]) <= Number(m[2]));
    expect(low.length, "rows at the paper's radii").toBeGreaterThan(0);
    for (const r of low)
      expectFigures(
        `Table 7 at ${r[0]}`,
        r.slice(1).map(() => m[3]!),
        r.slice(1),
      );
    // The paper's fractions at those radii, as the output quotes the appendix.
    const appendix = read(multiclass, /\(appendix at [^:]*: ([^;]*);/)[1]!;
    const paper = [...appendix.matchAll(/([\d.]+)-([\d.]+)/g)].flatMap((x) => [x[1]!, x[2]!]);
    const [plo, phi] = range(paper);
    expectFigures("Table 7 paper fractions", [m[4]!, m[5]!], [plo!, phi!]);
    // From that radius up the fractions rise (never fall) and reach the README's figure.
    const high = t.filter((r) => Number(r[0]) >= Number(m[6])).sort((a, b) => +a[0]! - +b[0]!);
    expect(high.length).toBeGreaterThan(0);
    for (let j = 1; j < high[0]!.length; j++) {
      const col = high.map((r) => Number(r[j]));
      expect(col, `omega column ${j} rises`).toEqual([...col].sort((a, b) => a - b));
      expectFigures(`Table 7 omega column ${j} at the largest radius`, [m[7]!], [col.at(-1)!]);
    }
  });

  it("NeurIPS 2019, Table 8 (DLFPM, k = 3): sigma, the paper's sigma, alpha within", () => {
    const cell = row(rows, "NeurIPS 2019, Table 8");
    const m = read(
      cell,
      /sigma ([\d.]+) \/ ([\d.]+) \/ ([\d.]+) \(paper ([\d.]+) \/ ([\d.]+) \/ ([\d.]+)\), alpha within ([\d.]+)/,
    );
    // true, paper alpha/sigma, ours elicited, ours alpha/sigma, ideal alpha/sigma, queries, pivot 0
    const t = textTable(multiclass, "Table 8.");
    expect(t).toHaveLength(3);
    const ours = t.map((r) => pair(r[3]!));
    const paper = t.map((r) => pair(r[1]!));
    expectFigures("NeurIPS Table 8 sigma", m.slice(1, 7), [
      ...ours.map((p) => p[1]!),
      ...paper.map((p) => p[1]!),
    ]);
    const worst = Math.max(...ours.map((p, i) => Math.abs(Number(p[0]) - Number(paper[i]![0]))));
    expect(worst, "alpha: ours against the paper's").toBeLessThanOrEqual(Number(m[7]));
  });

  it("NeurIPS 2019, Table 9 (DLFPM, k = 4): sigma per row, the paper's, the truth's own", () => {
    const cell = row(rows, "NeurIPS 2019, Table 9");
    const m = read(
      cell,
      /row 1 sigma ([\d.]+) \(paper ([\d.]+); the truth's own representative scores ([\d.]+)\); rows 2-3 ([\d.]+) \/ ([\d.]+) \(paper ([\d.]+) \/ ([\d.]+)\)/,
    );
    const t = textTable(multiclass, "Table 9.");
    expect(t).toHaveLength(3);
    const sigma = (r: string[], col: number) => pair(r[col]!)[1]!;
    expectFigures("NeurIPS Table 9", m.slice(1, 8), [
      sigma(t[0]!, 3),
      sigma(t[0]!, 1),
      sigma(t[0]!, 4),
      sigma(t[1]!, 3),
      sigma(t[2]!, 3),
      sigma(t[1]!, 1),
      sigma(t[2]!, 1),
    ]);
  });

  it("NeurIPS 2019, Table 10 (LFPM): sigma, alpha ranges (ours, paper, truth's own)", () => {
    const cell = row(rows, "NeurIPS 2019, Table 10");
    const m = read(
      cell,
      /sigma ([\d.]+) \(paper ([\d.]+)\); alpha ([\d.]+)-([\d.]+) \(paper ([\d.]+)-([\d.]+)\).*about the same alpha \(([\d.]+)-([\d.]+)\)/,
    );
    // true, paper alpha/sigma, ours elicited, ours alpha/sigma, ideal alpha/sigma, queries
    const t = textTable(multiclass, "Table 10.");
    expect(t).toHaveLength(3);
    const ours = t.map((r) => pair(r[3]!));
    const paper = t.map((r) => pair(r[1]!));
    const ideal = t.map((r) => pair(r[4]!));
    for (const p of ours) expectFigures("Table 10 sigma", [m[1]!], [p[1]!]);
    for (const p of paper) expectFigures("Table 10 paper sigma", [m[2]!], [p[1]!]);
    const [alo, ahi] = range(ours.map((p) => p[0]!));
    const [plo, phi] = range(paper.map((p) => p[0]!));
    const [ilo, ihi] = range(ideal.map((p) => p[0]!));
    expectFigures("Table 10 alpha ranges", m.slice(3, 9), [alo!, ahi!, plo!, phi!, ilo!, ihi!]);
  });

  it("UAI 2022, Table 1 (QPME queries): mean queries for k = 2..5, ours and the paper's", () => {
    const cell = row(rows, "UAI 2022, Table 1 (QPME");
    const m = read(
      cell,
      /([\d.]+) \/ ([\d.]+) \/ ([\d.]+) \/ ([\d.]+) for k = 2\.\.5 \(paper ([\d.]+) \/ ([\d.]+) \/ ([\d.]+) \/ ([\d.]+)\)/,
    );
    // Tab-separated: k, strategy, q, trials, mean #Q, Table 1, ...; the lazy rows count as
    // the paper's Table 1 does.
    const lines = quadratic.split("\n").map((l) => l.split("\t"));
    const header = lines.find((l) => l[0] === "k" && l.includes("mean #Q"))!;
    expect(header, "the quadratic output's header").toBeDefined();
    const [mean, paper] = [header.indexOf("mean #Q"), header.indexOf("Table 1")];
    const lazy = ["2", "3", "4", "5"].map((k) => lines.find((l) => l[0] === k && l[1] === "lazy")!);
    expect(lazy.every((l) => l !== undefined)).toBe(true);
    expectFigures("UAI Table 1 queries", m.slice(1, 9), [
      ...lazy.map((l) => l[mean]!),
      ...lazy.map((l) => l[paper]!),
    ]);
  });
});

/** The fenced block that follows the first line of the README containing `marker`. */
function readmeBlock(marker: string): string {
  const lines = readFileSync(new URL("../../README.md", import.meta.url), "utf8").split("\n");
  const at = lines.findIndex((l) => l.includes(marker));
  if (at < 0) throw new Error(`README no longer has "${marker}" (update this test)`);
  const open = lines.findIndex((l, i) => i > at && l.startsWith("```"));
  const close = lines.findIndex((l, i) => i > open && l === "```");
  if (open < 0 || close < 0) throw new Error(`no fenced block after "${marker}"`);
  return lines.slice(open + 1, close).join("\n");
}

describe("README: quoted command outputs are what the commands print", () => {
  const cases: { marker: string; args: string[] }[] = [
    {
      marker: 'An example (`elicit simulate --truth \'{"tp":0.6,"tn":0.8}\'`):',
      args: ["simulate", "--truth", '{"tp":0.6,"tn":0.8}'],
    },
    {
      marker:
        '--groups colour --truth \'{"a":[0.6,0.8],"B":{"0-1":[[1,0.2],[0.2,0.5]]},"lambda":0.4}\'` prints:',
      args: [
        "simulate",
        "--family",
        "fair-quadratic",
        "--data",
        "data/arrests.csv",
        "--target",
        "released",
        "--groups",
        "colour",
        "--truth",
        '{"a":[0.6,0.8],"B":{"0-1":[[1,0.2],[0.2,0.5]]},"lambda":0.4}',
      ],
    },
    {
      marker: "`elicit reproduce binary` prints (this is its output):",
      args: ["reproduce", "binary"],
    },
    {
      marker: "`elicit reproduce ranking --data data/vehicle.csv --target Class` prints:",
      args: ["reproduce", "ranking", "--data", "data/vehicle.csv", "--target", "Class"],
    },
    {
      marker: "--groups colour` ranks the same kind of pool",
      args: [
        "reproduce",
        "ranking",
        "--data",
        "data/arrests.csv",
        "--target",
        "released",
        "--groups",
        "colour",
      ],
    },
  ];
  for (const c of cases) {
    it(`elicit ${c.args.slice(0, 2).join(" ")}: ${c.marker.slice(0, 60)}`, async () => {
      const block = readmeBlock(c.marker);
      expect((await elicit(...c.args)).trimEnd()).toBe(block.trimEnd());
    }, 600_000);
  }

  it("the library example prints what its comment says", async () => {
    const code = readmeBlock("A simulated stakeholder on the synthetic");
    const comment = code.match(/console\.log\([^)]*\);\s*\/\/ (.+)$/m)?.[1];
    expect(comment, "the example's // comment").toBeDefined();
    // The example imports the package by name; here it runs against src/exports/ in place.
    const local = code.replace(
      /from "metric-elicitation\/([a-z]+)"/g,
      (_, sub: string) =>
        `from ${JSON.stringify(pathToFileURL(join(ROOT, "src/exports", `${sub}.ts`)).href)}`,
    );
    expect(local).not.toContain('"metric-elicitation');
    const dir = mkdtempSync(join(tmpdir(), "elicit-readme-"));
    try {
      const file = join(dir, "example.mts");
      writeFileSync(file, local);
      const { stdout } = await run(process.execPath, ["--import", "tsx", file], { cwd: ROOT });
      // "0.6006..." in the comment: the printed number starts with those digits.
      const pattern = comment!
        .split("...")
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        .join("\\d*");
      expect(stdout.trim()).toMatch(new RegExp(`^${pattern}$`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

/** The README's prose as one line (the figures below are quoted inside sentences). */
function readmeProse(): string {
  return readFileSync(new URL("../../README.md", import.meta.url), "utf8").replace(/\s+/g, " ");
}

/** The row of a space-aligned summary table whose first cell is `name`. */
function summaryRow(out: string, name: string): string[] {
  const line = out.split("\n").find((l) => l.trim().split(/\s{2,}/)[0] === name);
  if (!line) throw new Error(`the output has no row "${name}"`);
  return line.trim().split(/\s{2,}/);
}

describe("README: figures quoted in the prose", () => {
  it("--lambda-only: 20 random metrics, k = 3, m = 3: about 20 questions, mean and max error", async () => {
    const m = read(
      readmeProse(),
      /in about (\d+) questions \(20 random metrics with k = 3, m = 3 on the sphere: mean \|lambda - lambda_hat\| ([\d.]+), max ([\d.]+)\)/,
    );
    const out = await elicit(
      ...["simulate", "--family", "fair-quadratic", "--synthetic", "sphere", "--classes", "3"],
      ...["--groups", "3", "--lambda-only", "--random-truth", "--trials", "20"],
    );
    const questions = read(out, /mean questions ([\d.]+)/)[1]!;
    expect(Math.abs(Number(questions) - Number(m[1])), "about N questions").toBeLessThan(1);
    // error, mean, median, p95, max
    const lambda = summaryRow(out, "lambda");
    expectFigures("lambda search errors", [m[2]!, m[3]!], [lambda[1]!, lambda[4]!]);
  }, 600_000);

  it("fair QPME on titanic by passenger class, 20 random truths", async () => {
    const m = read(
      readmeProse(),
      /on titanic by `passengerClass` \(m = 3\): mean (\d+) questions, median errors ([\d.]+) \(`a`\), ([\d.]+) \(`B`\), ([\d.]+) \(lambda\), max deviation of any realised profile ([\d.]+e-\d+)/,
    );
    const out = await elicit(
      ...["simulate", "--family", "fair-quadratic", "--data", "data/titanic_survival.csv"],
      ...["--target", "survived", "--groups", "passengerClass", "--random-truth", "--trials", "20"],
    );
    expectFigures("mean questions", [m[1]!], [read(out, /mean questions ([\d.]+)/)[1]!]);
    expectFigures(
      "median errors",
      [m[2]!, m[3]!, m[4]!],
      ["a", "B", "lambda"].map((k) => summaryRow(out, k)[2]!),
    );
    expect(read(out, /max deviation ([\d.e-]+)/)[1]).toBe(m[5]);
  }, 600_000);

  it("ranking on titanic by sex (seed 1): NDCG / Kendall tau of the three methods", async () => {
    const m = read(
      readmeProse(),
      /On titanic by sex \(seed 1\): elicited ([\d.]+) \/ ([\d.-]+), linear ([\d.]+) \/ ([\d.-]+), accuracy with equalised odds ([\d.]+) \/ ([\d.-]+)\./,
    );
    const out = await elicit(
      ...["reproduce", "ranking", "--data", "data/titanic_survival.csv", "--target", "survived"],
      ...["--groups", "sex"],
    );
    // method, NDCG (sd), Kendall tau (sd)
    const figures = [
      "elicited via fair QPME",
      "linear with no fairness",
      "accuracy with equalised odds",
    ].flatMap((name) => {
      const r = summaryRow(out, name);
      return [r[1]!.split(" ")[0]!, r[2]!.split(" ")[0]!];
    });
    expectFigures("titanic by sex ranking", m.slice(1, 7), figures);
  }, 600_000);
});
