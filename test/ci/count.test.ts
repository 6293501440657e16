import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module without types, run by .ci/run with node.
import { linesCounts, playwrightCounts, vitestCounts } from "../../scripts/ci/count.mjs";

/**
 * Issue 25 item 2: .ci/run's one count line misses no failure. A fixture suite with each kind
 * of failure (lint, type, assertion, failing hook, file that cannot load, a stage past its
 * time limit) goes through the stage function and counter that .ci/run uses
 * (scripts/ci/lib.sh, scripts/ci/count.mjs); each must be counted as failed.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const results = join(root, "test-results");
mkdirSync(results, { recursive: true });
// Inside the repo (git- and Biome-ignored) so that the fixtures resolve vitest from node_modules.
const dir = mkdtempSync(join(results, "ci-count-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, text: string) {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), text);
}

write(
  "suite/vitest.config.ts",
  `import { defineConfig } from "vitest/config";\nexport default defineConfig({ test: { include: ["*.fixture.ts"] } });\n`,
);
write(
  "suite/pass.fixture.ts",
  `import { expect, it } from "vitest";\nit("one", () => expect(1 + 1).toBe(2));\nit("two", () => expect([1]).toHaveLength(1));\n`,
);
write(
  "suite/assert.fixture.ts",
  `import { expect, it } from "vitest";\nit("holds", () => expect(2).toBe(2));\nit("fails", () => expect(2).toBe(3));\n`,
);
write(
  "suite/hook.fixture.ts",
  `import { beforeAll, expect, it } from "vitest";\nbeforeAll(() => { throw new Error("set-up failed"); });\nit("never runs", () => expect(1).toBe(1));\n`,
);
write(
  "suite/load.fixture.ts",
  `import { expect, it } from "vitest";\nimport { nothing } from "./no-such-module.ts";\nit("never loads", () => expect(nothing).toBe(1));\n`,
);
write("lint/biome.json", `{ "root": true }\n`);
write("lint-good/biome.json", `{ "root": true }\n`);
write("lint-good/good.ts", "export const x = 1;\n");
write("lint/bad.ts", "var x = 1;\ndebugger;\nexport { x };\n");
write("types/bad.ts", `export const x: number = "not a number";\n`);
write("types/good.ts", "export const x: number = 1;\n");

const bin = (name: string) => join(root, "node_modules", ".bin", name);
const script = `
set -uo pipefail
. "${join(root, "scripts/ci/lib.sh")}"
stage lint-ok 60 exit - -- bash -c 'cd "$0" && "$1" check .' "${join(dir, "lint-good")}" "${bin("biome")}"
stage lint-bad 60 exit - -- bash -c 'cd "$0" && "$1" check .' "${join(dir, "lint")}" "${bin("biome")}"
stage types-ok 120 exit - -- "${bin("tsc")}" --noEmit --strict --ignoreConfig "${join(dir, "types/good.ts")}"
stage types-bad 120 exit - -- "${bin("tsc")}" --noEmit --strict --ignoreConfig "${join(dir, "types/bad.ts")}"
stage suite 180 vitest "${join(dir, "report.json")}" -- "${bin("vitest")}" run --root "${join(dir, "suite")}" \\
  --config "${join(dir, "suite/vitest.config.ts")}" --reporter=json --outputFile.json="${join(dir, "report.json")}"
stage no-report 60 vitest "${join(dir, "missing.json")}" -- true
stage too-slow 1 exit - -- sleep 30
stage lines 60 lines "${join(dir, "pack.log")}" -- bash -c 'printf "pack: ok a\\npack: 4 passed, 1 failed\\n" | tee "$0"' "${join(dir, "pack.log")}"
ci_summary
`;

describe(".ci/run's counting (scripts/ci/lib.sh and count.mjs) on a fixture suite", () => {
  it("counts lint, type, assertion, hook, load, missing-report, time-limit and log failures", () => {
    const env: NodeJS.ProcessEnv = { ...process.env, CI_STAGES: join(dir, "stages.tsv") };
    // The child vitest must not think it runs inside this one.
    for (const key of Object.keys(env)) if (key.startsWith("VITEST")) delete env[key];
    const run = spawnSync("bash", ["-c", script], { cwd: root, env, encoding: "utf8" });
    const out = run.stdout;
    const stageLine = (name: string) => {
      const line = out.split("\n").find((l) => l.startsWith(`::: stage ${name}:`));
      expect(line, `${name} reported\n${out}\n${run.stderr}`).toBeDefined();
      const m = /(\d+) passed, (\d+) failed/.exec(line!);
      return [Number(m![1]), Number(m![2])];
    };
    expect(stageLine("lint-ok")).toEqual([1, 0]);
    expect(stageLine("lint-bad")).toEqual([0, 1]);
    expect(stageLine("types-ok")).toEqual([1, 0]);
    expect(stageLine("types-bad")).toEqual([0, 1]);
    // Each failed for its own reason, not for a broken command line.
    expect(out + run.stderr).toMatch(/noDebugger/);
    expect(out + run.stderr).toMatch(/TS2322/);
    // 3 passing tests; failed: the assertion, the file whose beforeAll threw, the file that
    // cannot load.
    expect(stageLine("suite")).toEqual([3, 3]);
    expect(stageLine("no-report")).toEqual([0, 1]);
    expect(stageLine("too-slow")).toEqual([0, 1]);
    expect(out).toMatch(/::: stage too-slow: .*stopped at its time limit/);
    expect(stageLine("lines")).toEqual([4, 1]);
    // Each stage's CPU share (cores busy, stolen by the host), from /proc/stat where there is
    // one, on its line and in the table.
    if (existsSync("/proc/stat")) {
      expect(out).toMatch(/^::: stage lint-ok: .*; cores busy \d+\.\d\d, stolen \d+\.\d\d$/m);
      expect(out).toMatch(/^lint-ok +\d+ +\d+ +1 +0 +\d+\.\d\d +\d+\.\d\d$/m);
      expect(out).toMatch(
        /^too-slow +\d+ +1 +0 +1 +\d+\.\d\d +\d+\.\d\d {2}stopped at its time limit$/m,
      );
    }
    expect(out).toMatch(/^stage +seconds +limit +passed +failed +cores +stolen$/m);
    const lines = out.trimEnd().split("\n");
    expect(lines.at(-1)).toBe("9 passed, 8 failed");
    expect(run.status).toBe(1);
  }, 300_000);
});

describe("count.mjs on reports", () => {
  it("vitest: a failed file with no failed test and success: false each count", () => {
    const base = { numPassedTests: 5, numFailedTests: 0, success: true };
    expect(vitestCounts({ ...base, testResults: [] })).toMatchObject({ passed: 5, failed: 0 });
    expect(
      vitestCounts({
        ...base,
        success: false,
        testResults: [{ name: "a.test.ts", status: "failed", assertionResults: [] }],
      }),
    ).toMatchObject({ passed: 5, failed: 1 });
    expect(vitestCounts({ ...base, success: false, testResults: [] })).toMatchObject({
      failed: 1,
    });
    expect(
      vitestCounts({
        ...base,
        numFailedTests: 1,
        success: false,
        testResults: [
          { name: "b.test.ts", status: "failed", assertionResults: [{ status: "failed" }] },
        ],
      }),
    ).toMatchObject({ failed: 1 });
  });

  it("playwright: unexpected tests and errors outside tests fail, flaky ones pass", () => {
    expect(
      playwrightCounts({ stats: { expected: 3, unexpected: 1, flaky: 1 }, errors: [{}] }),
    ).toMatchObject({ passed: 4, failed: 2 });
  });

  it("lines: the last count line of a log; none is a failure", () => {
    expect(linesCounts("chaos: 1 passed, 0 failed\nx\npack: 7 passed, 2 failed\n")).toMatchObject({
      passed: 7,
      failed: 2,
    });
    expect(linesCounts("nothing here\n")).toMatchObject({ passed: 0, failed: 1 });
  });
});
