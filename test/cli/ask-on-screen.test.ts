import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { credibleRatios } from "../../src/cli/commands/ask.ts";

/**
 * Issue 26 for `elicit ask`: a person answers on the counts the terminal prints. Its default
 * (then `paper`) returned 1.1 for a person minding a missed cancer 1.7 times a false alarm,
 * against 5 of their 13 answers, and showed the same system as A and B ten times.
 */
const bin = fileURLToPath(new URL("../../bin/elicit.js", import.meta.url));

interface Shown {
  readonly caught: number[];
  readonly missed: number[];
  readonly cleared: number[];
  readonly falseAlarms: number[];
}

/** The four counts of both systems, read off one printed question (A first). */
function readScreen(block: string): Shown {
  const all = (re: RegExp) => [...block.matchAll(re)].map((m) => Number(m[1]));
  return {
    caught: all(/caught\s+([\d.]+)/g),
    missed: all(/missed\s+([\d.]+)/g),
    cleared: all(/cleared\s+([\d.]+)/g),
    falseAlarms: all(/false alarms\s+([\d.]+)/g),
  };
}

/**
 * `elicit ask` answered by a person for whom a missed case costs `ratio` false alarms, judging
 * the missed cases and false alarms printed (1 = A, 2 = B, 0 when they cost the same).
 */
function askPerson(
  ratio: number,
  args: string[],
): Promise<{ out: string; code: number | null; screens: Shown[] }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [bin, "ask", ...args], { stdio: "pipe" });
    let buffer = "";
    let out = "";
    const screens: Shown[] = [];
    p.stdout.on("data", (d: Buffer) => {
      buffer += d;
      out += d;
      if (!/Your choice[^\n]*: $/.test(buffer)) return;
      const s = readScreen(buffer.slice(buffer.lastIndexOf("Question")));
      screens.push(s);
      const cost = [0, 1].map((i) => ratio * s.missed[i]! + s.falseAlarms[i]!);
      const key = Math.abs(cost[0]! - cost[1]!) < 1e-9 ? "0" : cost[0]! < cost[1]! ? "1" : "2";
      buffer = "";
      p.stdin.write(`${key}\n`);
    });
    p.stderr.on("data", (d: Buffer) => {
      out += d;
    });
    p.on("close", (code) => resolve({ out, code, screens }));
  });
}

/** The range of ratios the debrief line allows, and the ratio "In words". */
function ratios(out: string): { low: number; high: number; point: number } {
  const range = /allow missing a case being ([\d.]+) to ([\d.]+) times as bad/.exec(out);
  const point = /In words: missing a .* case is about ([\d.]+) times as bad/.exec(out);
  expect(range, out).not.toBeNull();
  expect(point, out).not.toBeNull();
  return { low: Number(range![1]), high: Number(range![2]), point: Number(point![1]) };
}

describe("elicit ask judges what the person sees (issue 26)", () => {
  const cases: [string, number, string[]][] = [
    ["the default (adaptive)", 1.7, []],
    ["the default (adaptive)", 0.5, []],
    ["the threshold family", 1.7, ["--family", "binary-threshold"]],
    ["--strategy paper", 1.7, ["--strategy", "paper"]],
    ["--strategy paper", 0.5, ["--strategy", "paper"]],
  ];
  for (const [name, ratio, args] of cases) {
    it(`${name}: a person minding a miss ${ratio} times a false alarm gets a range holding it`, async () => {
      const { out, code, screens } = await askPerson(ratio, args);
      expect(code, out).toBe(0);
      expect(out).toMatch(/Done after \d+ answers/);
      // Every question printed two systems that differ, whose counts add up as printed.
      expect(screens.length).toBeGreaterThan(3);
      for (const s of screens) {
        expect(s.caught[0] === s.caught[1] && s.cleared[0] === s.cleared[1]).toBe(false);
        for (const i of [0, 1]) {
          expect(s.caught[i]! + s.missed[i]!).toBeCloseTo(s.caught[0]! + s.missed[0]!, 9);
          expect(s.cleared[i]! + s.falseAlarms[i]!).toBeCloseTo(
            s.cleared[0]! + s.falseAlarms[0]!,
            9,
          );
        }
      }
      // The result agrees with every answer as shown: its range holds the person's ratio,
      // and the point lies in it (one decimal printed, so within its rounding).
      const r = ratios(out);
      expect(out).not.toMatch(/go against every such metric/);
      expect(r.low).toBeLessThanOrEqual(ratio);
      expect(r.high).toBeGreaterThanOrEqual(ratio);
      expect(r.point).toBeGreaterThanOrEqual(r.low - 0.05);
      expect(r.point).toBeLessThanOrEqual(r.high + 0.05);
      expect(Math.max(r.point / ratio, ratio / r.point)).toBeLessThanOrEqual(1.5);
      // The person is never shown the classifiers' thresholds.
      expect(out.slice(0, out.indexOf("Done after"))).not.toMatch(/eta >=/);
      if (args.includes("paper")) expect(out).toMatch(/--strategy paper is the papers' search/);
      else
        expect(out).toMatch(
          /Confidence: with probability 0\.9, missing a .* case is [\d.]+ to [\d.]+ times/,
        );
    }, 60_000);
  }

  it("says which families it takes before reading data, and exits 1 when stopped early", () => {
    const wrong = spawnSync(process.execPath, [bin, "ask", "--family", "diagonal-linear"], {
      encoding: "utf8",
      input: "",
    });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(
      /elicit ask takes a binary family \(binary-linear, .*\); --family diagonal-linear is not one/,
    );
    const stopped = spawnSync(process.execPath, [bin, "ask"], { encoding: "utf8", input: "1\n" });
    expect(stopped.status).toBe(1);
    expect(stopped.stdout).toMatch(/Input ended; answers NOT saved/);
    const help = spawnSync(process.execPath, [bin, "ask", "--help"], { encoding: "utf8" });
    expect(help.stdout.replace(/\s+/g, " ")).toMatch(
      /default: adaptive; paper for binary-linear-fractional/,
    );
  });
});

describe("the credible region as cost ratios (what ask tells a person)", () => {
  it("maps a0 +- r and theta +- r to the ratios (1 - a) / a they span", () => {
    expect(credibleRatios({ a0: 0.25 }, 0.05)).toBe("2.3 to 4.0 times");
    // tp / tn = 3 at theta = atan(1 / 3); +- 0.05 rad spans about 2.4 to 3.9.
    const theta = Math.atan(1 / 3);
    const text = credibleRatios({ tp: Math.cos(theta), tn: Math.sin(theta) }, 0.05)!;
    const [low, high] = text.split(" to ").map((x) => Number.parseFloat(x));
    expect(low).toBeLessThan(3);
    expect(high).toBeGreaterThan(3);
    // Rounded outward to one decimal, so the printed range holds the exact one.
    const [exactLow, exactHigh] = [theta + 0.05, theta - 0.05].map((t) => 1 / Math.tan(t));
    expect(low).toBeLessThanOrEqual(exactLow!);
    expect(low).toBeGreaterThan(exactLow! - 0.1);
    expect(high).toBeGreaterThanOrEqual(exactHigh!);
    expect(high).toBeLessThan(exactHigh! + 0.1);
    // An a0 region reaching 0 leaves the ratio unbounded above; a negative weight has none.
    expect(credibleRatios({ a0: 0.02 }, 0.05)).toMatch(/^at least /);
    expect(credibleRatios({ tp: -0.6, tn: 0.8 }, 0.05)).toBeUndefined();
  });
});
