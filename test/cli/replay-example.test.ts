import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../temp-dir.ts";

// examples/replay-answer-log.mjs on logs written by `elicit simulate --log`, as the README says
// it reads them. It imports the package by name (`metric-elicitation/...`), which from this
// checkout resolves to dist/, built from the current source by test/build-dist.ts.
// scripts/pack-test.sh runs it in an installed package, with no log and with an adaptive one.

const bin = fileURLToPath(new URL("../../bin/elicit.js", import.meta.url));
const example = fileURLToPath(new URL("../../examples/replay-answer-log.mjs", import.meta.url));
const dir = tempDir("elicit-replay-example-");

function run(command: string, args: string[]) {
  const r = spawnSync(process.execPath, [command, ...args], { encoding: "utf8", input: "" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Simulate with `--log`, then replay the log with the example: both outputs. */
function simulateAndReplay(name: string, args: string[]) {
  const log = join(dir, `${name}.json`);
  const sim = run(bin, ["simulate", ...args, "--log", log, "--json"]);
  expect(sim.code, sim.stderr).toBe(0);
  return { report: JSON.parse(sim.stdout), log, replayed: run(example, [log]) };
}

/** The example's last line: "all N answers: elicited k v, k v". */
function elicited(stdout: string): { questions: number; metric: Record<string, number> } {
  const m = /^all (\d+) answers: elicited (.*)$/m.exec(stdout);
  expect(m, stdout).not.toBeNull();
  const metric = Object.fromEntries(
    m![2]!.split(", ").map((kv) => {
      const [k, v] = kv.split(" ");
      return [k!, Number(v)];
    }),
  );
  return { questions: Number(m![1]), metric };
}

describe("examples/replay-answer-log.mjs", () => {
  it("replays a --strategy paper log to the live run's result", () => {
    const { report, replayed } = simulateAndReplay("paper", ["--truth", '{"tp":0.6,"tn":0.8}']);
    expect(replayed.code, replayed.stderr).toBe(0);
    const r = elicited(replayed.stdout);
    expect(r.questions).toBe(report.queries);
    expect(r.metric.tp).toBeCloseTo(report.elicited.tp, 4);
    expect(r.metric.tn).toBeCloseTo(report.elicited.tn, 4);
  });

  it("replays a --strategy adaptive log (binary-linear) to the live run's result", () => {
    const { report, replayed } = simulateAndReplay("adaptive", [
      ...["--truth", '{"tp":0.6,"tn":0.8}', "--strategy", "adaptive"],
    ]);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stdout).toMatch(/^log: binary-linear \(adaptive\)/);
    expect(replayed.stdout).toMatch(/^after \d+ answers: question \d+ /m);
    const r = elicited(replayed.stdout);
    expect(r.questions).toBe(report.questions);
    expect(r.metric.tp).toBeCloseTo(report.elicited.tp, 4);
    expect(r.metric.tn).toBeCloseTo(report.elicited.tn, 4);
  });

  it("replays an adaptive binary-threshold log of --trials 2 (its first session)", () => {
    const { report, replayed } = simulateAndReplay("threshold", [
      ...["--family", "binary-threshold", "--truth", '{"a0":0.3}', "--strategy", "adaptive"],
      ...["--trials", "2"],
    ]);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stdout).toContain("holds 2 sessions");
    const r = elicited(replayed.stdout);
    expect(r.questions).toBe(report.runs[0].questions);
    expect(r.metric.a0).toBeCloseTo(report.runs[0].elicited.a0, 4);
  });

  it("refuses a log it cannot replay in one line naming what it reads, exit 1", () => {
    const { log, replayed } = simulateAndReplay("multiclass", [
      ...["--synthetic", "paper-multiclass", "--family", "diagonal-linear"],
      ...["--truth", '{"a":[0.2,0.5,0.3]}', "--strategy", "adaptive"],
    ]);
    expect(JSON.parse(readFileSync(log, "utf8")).spec.family).toBe("diagonal-linear");
    expect(replayed.code).toBe(1);
    expect(replayed.stdout).toBe("");
    const lines = replayed.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^replay-answer-log: .* is a log of --family diagonal-linear --strategy adaptive; this example reads binary logs of --strategy paper, lazy, bisect .* or adaptive \(binary-linear, binary-threshold\)$/,
    );
  });
});
