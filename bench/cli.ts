/**
 * Start-up benchmark of the `elicit` command (not a test): `npm run bench:cli [-- --runs N]`.
 *
 * Builds dist/ (the npm script runs `npm run build` first), then runs each command N times
 * (default 10, after one unmeasured warm-up run) as a child process, `node bin/elicit.js ...`
 * with ELICIT_DIST=1 so the checkout runs the compiled CLI an installed package runs, and
 * prints the median, min and max wall time beside the target of issue 13: `--version` and
 * `--help` under 150 ms, `simulate` of a binary linear metric on the bundled breast-cancer
 * data under 400 ms, end to end. Exits 1 if a command fails; a missed target is printed, not
 * an error (timings on a shared machine vary; the 1-minute load average is printed after the
 * table so a busy machine's timings are not taken for the start-up's).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = fileURLToPath(new URL("../bin/elicit.js", import.meta.url));

interface Case {
  readonly label: string;
  readonly args: readonly string[];
  readonly targetMs: number;
}

const CASES: readonly Case[] = [
  { label: "elicit --version", args: ["--version"], targetMs: 150 },
  { label: "elicit --help", args: ["--help"], targetMs: 150 },
  {
    label: "elicit simulate (binary LPM, bundled data)",
    args: ["simulate", "--truth", '{"tp":0.6,"tn":0.8}'],
    targetMs: 400,
  },
];

function runsFrom(argv: readonly string[]): number {
  const i = argv.indexOf("--runs");
  if (i < 0) return 10;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--runs must be a positive integer`);
  return n;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Wall time of one run in ms; throws if the command fails. `bare`: run `node` with `args`
 * alone (Node's own start-up, the floor under every row).
 */
function timeOnce(args: readonly string[], bare = false): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, bare ? [...args] : [bin, ...args], {
    cwd: root,
    encoding: "utf8",
    input: "",
    env: { ...process.env, ELICIT_DIST: "1" },
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) {
    throw new Error(`elicit ${args.join(" ")} exited ${r.status}:\n${r.stderr}`);
  }
  return ms;
}

if (!existsSync(new URL("../dist/cli/main.js", import.meta.url))) {
  console.error("dist/ is missing: run `npm run build` first (npm run bench:cli does)");
  process.exit(1);
}
const runs = runsFrom(process.argv.slice(2));
console.log(
  `elicit start-up, compiled CLI (dist/), ${runs} runs each after a warm-up, node ${process.version}`,
);
const rows: string[][] = [["command", "median", "min", "max", "target", ""]];
for (const c of CASES) {
  timeOnce(c.args);
  const times = Array.from({ length: runs }, () => timeOnce(c.args));
  const m = median(times);
  rows.push([
    c.label,
    `${m.toFixed(0)} ms`,
    `${Math.min(...times).toFixed(0)} ms`,
    `${Math.max(...times).toFixed(0)} ms`,
    `< ${c.targetMs} ms`,
    m < c.targetMs ? "ok" : "MISSED",
  ]);
}
// Node's own start-up on this machine now: no command can start faster.
timeOnce(["-e", "0"], true);
const floor = Array.from({ length: runs }, () => timeOnce(["-e", "0"], true));
rows.push([
  "node -e 0 (Node's own start-up)",
  `${median(floor).toFixed(0)} ms`,
  `${Math.min(...floor).toFixed(0)} ms`,
  `${Math.max(...floor).toFixed(0)} ms`,
  "",
  "",
]);
const widths = rows[0]!.map((_, j) => Math.max(...rows.map((r) => r[j]!.length)));
for (const r of rows) {
  console.log(
    r
      .map((cell, j) => (j === 0 ? cell.padEnd(widths[j]!) : cell.padStart(widths[j]!)))
      .join("  ")
      .trimEnd(),
  );
}
// The targets are for this machine at rest: say when other work shared its cores.
const load = loadavg()[0]!;
const cores = availableParallelism();
console.log(
  `load average ${load.toFixed(1)} on ${cores} cores during the runs${
    load > cores ? ": the machine was busy, so these timings overstate the start-up" : ""
  }`,
);
