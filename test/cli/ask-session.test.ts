import { spawnSync } from "node:child_process";
import { linkSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CliError } from "../../src/cli/errors.ts";
import { MAX_TRIALS, positiveTrials } from "../../src/cli/figure-options.ts";
import { tempDir } from "../temp-dir.ts";

/** Issue 14, Why 10: the `elicit ask` session file and the bound on `--trials`. */
const bin = fileURLToPath(new URL("../../bin/elicit.js", import.meta.url));
const ask = (input: string, ...args: string[]) =>
  spawnSync(process.execPath, [bin, "ask", ...args], { encoding: "utf8", input });

describe("elicit ask's session file (issue 14)", () => {
  it("is replaced atomically (never rewritten in place), records the data and refuses a mismatch", () => {
    const dir = tempDir("elicit-ask-");
    const session = join(dir, "session.json");
    const first = ask("1\nq\n", "--family", "binary-threshold", "--session", session);
    expect(first.status).toBe(1); // stopped before the end (issue 26: a script can tell)
    expect(JSON.parse(readFileSync(session, "utf8")).answers).toHaveLength(1);
    // A second name for the file as it is now: a write in place would change it too, a new
    // file renamed over the session leaves it as it was.
    const before = join(dir, "before.json");
    linkSync(session, before);
    const resumed = ask("2\nq\n", "--session", session);
    expect(resumed.status).toBe(1);
    expect(resumed.stdout).toMatch(/Resuming .*1 answers/);
    const saved = JSON.parse(readFileSync(session, "utf8"));
    expect(saved.answers).toHaveLength(2);
    expect(JSON.parse(readFileSync(before, "utf8")).answers).toHaveLength(1);
    expect(readdirSync(dir).sort()).toEqual(["before.json", "session.json"]); // no temp file left
    // It records the data it was answered on ...
    expect(saved.data).toMatch(/breast cancer/i);
    // ... and will not resume on other data or with another family.
    const otherData = ask("q\n", "--session", session, "--synthetic", "paper-binary");
    expect(otherData.status).toBe(2);
    expect(otherData.stderr).toMatch(/was answered on .* not on /);
    const otherFamily = ask("q\n", "--session", session, "--family", "binary-linear");
    expect(otherFamily.status).toBe(2);
    expect(otherFamily.stderr).toMatch(
      /--family binary-threshold; --family binary-linear does not match/,
    );
    expect(JSON.parse(readFileSync(session, "utf8")).answers).toHaveLength(2); // untouched
  });
});

describe("--trials has an upper bound (issue 14)", () => {
  it(`refuses more than ${MAX_TRIALS} trials with a one-line error`, () => {
    expect(positiveTrials(String(MAX_TRIALS))).toBe(MAX_TRIALS);
    expect(() => positiveTrials(String(MAX_TRIALS + 1))).toThrow(CliError);
    expect(() => positiveTrials("1e9")).toThrow(/--trials must be an integer from 1 to 100000/);
    const r = spawnSync(process.execPath, [bin, "simulate", "--random-truth", "--trials", "1e9"], {
      encoding: "utf8",
    });
    expect(r.status).not.toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/--trials must be an integer from 1 to 100000/);
  });
});
