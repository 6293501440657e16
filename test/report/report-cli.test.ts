import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseStudyExport, StudyExportError } from "../../src/report/schema.ts";
import { HOSTILE_TITLE, studyExports } from "./study-fixtures.ts";

/** `elicit report` at the edge: its input checked, clear errors, the page written. */

const BIN = join(import.meta.dirname, "..", "..", "bin", "elicit.js");
const dir = mkdtempSync(join(tmpdir(), "elicit-report-cli-"));
let text: string;

beforeAll(async () => {
  text = (await studyExports(["binary"])).binary!;
  writeFileSync(join(dir, "study.json"), text);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function elicit(...args: string[]) {
  try {
    const r = await promisify(execFile)(process.execPath, [BIN, ...args], { cwd: dir });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

describe("a study.json checked at the edge", () => {
  it("reads a real export", () => {
    expect(parseStudyExport(text, "study.json").study.name).toBe(HOSTILE_TITLE);
  });

  it("says what is wrong: not JSON, not a study export, a field it cannot read", () => {
    expect(() => parseStudyExport("{", "x.json")).toThrow(/^x\.json is not JSON: \S/);
    // The parser's excerpt of the text (a line break, a quote) is left out: one whole line.
    expect(() => parseStudyExport("not json\n", "x.json")).toThrow(
      /^x\.json is not JSON: Unexpected token 'o'$/,
    );
    // An export lacking a field has it named, as one with a field it cannot read does.
    const partial = JSON.parse(text);
    delete partial.participants;
    expect(() => parseStudyExport(JSON.stringify(partial), "x.json")).toThrow(
      /^x\.json is not a study\.json export this version can read: it has no participants \(download it/,
    );
    delete partial.study;
    expect(() => parseStudyExport(JSON.stringify(partial), "x.json")).toThrow(
      /^x\.json is not a study\.json export this version can read: it has no study \(download it/,
    );
    expect(() => parseStudyExport('{"a": 1}', "x.json")).toThrow(
      /^x\.json is not a study\.json export \(download it from the study's page/,
    );
    expect(() => parseStudyExport("[]", "x.json")).toThrow(StudyExportError);
    const broken = JSON.parse(text);
    broken.participants[0].summary.metric = "0.8";
    expect(() => parseStudyExport(JSON.stringify(broken), "x.json")).toThrow(
      /^x\.json is not a study\.json export this version can read: participants\.0\.summary\.metric: /,
    );
  });
});

describe("elicit report", () => {
  it("writes the page to --out, and to stdout without it", async () => {
    const r = await elicit("report", "study.json", "--out", "report.html");
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^wrote the report on .* \(5 with a result\) to report\.html\n$/);
    const page = readFileSync(join(dir, "report.html"), "utf8");
    expect(page).toContain("<h1>&lt;script&gt;alert(1)&lt;/script&gt;");
    const out = await elicit("report", "study.json");
    expect(out.stdout).toBe(page);
  }, 60_000);

  it("clear errors, exit code 2: missing file, not JSON, not a study export, no such directory", async () => {
    writeFileSync(join(dir, "broken.json"), "{ not json");
    writeFileSync(join(dir, "other.json"), '{"rows": []}');
    const cases: [string[], RegExp][] = [
      [["report", "missing.json"], /^elicit: error: missing\.json: no such file\n$/],
      [["report", "broken.json"], /^elicit: error: broken\.json is not JSON: [^\n]*\n$/],
      [["report", "other.json"], /^elicit: error: other\.json is not a study\.json export/],
      [
        ["report", "study.json", "--out", "nowhere/report.html"],
        /^elicit: error: cannot write nowhere\/report\.html: the directory .*nowhere does not exist\n$/,
      ],
      [
        ["report", "study.json", "--out", "."],
        /^elicit: error: cannot write \.: it is a directory\n$/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await elicit(...args);
      expect(r.stderr, args.join(" ")).toMatch(message);
      expect(r.code, args.join(" ")).toBe(2);
    }
  }, 60_000);

  it("has --help text with an example", async () => {
    const r = await elicit("report", "--help");
    expect(r.stdout).toContain("Usage: elicit report [options] <study.json>");
    expect(r.stdout).toContain("elicit report study.json --out report.html");
  }, 30_000);
});
