import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { registerReproduceRanking } from "../../src/cli/commands/ranking.ts";

async function run(args: string[]): Promise<{ out: string; err: string; code: unknown }> {
  const program = new Command().exitOverride();
  registerReproduceRanking(program.command("reproduce"));
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, "log").mockImplementation((s: unknown) => void out.push(String(s)));
  vi.spyOn(console, "error").mockImplementation((s: unknown) => void err.push(String(s)));
  vi.spyOn(process.stderr, "write").mockImplementation((s: unknown) => {
    err.push(String(s));
    return true;
  });
  process.exitCode = undefined;
  await program.parseAsync(["node", "elicit", "reproduce", "ranking", ...args]);
  const code = process.exitCode;
  process.exitCode = undefined;
  return { out: out.join("\n"), err: err.join(""), code };
}

afterEach(() => vi.restoreAllMocks());

describe("elicit reproduce ranking", () => {
  it("prints JSON with the three methods", async () => {
    const r = await run([
      "--data",
      "data/wine.csv",
      "--target",
      "target",
      "--metrics",
      "3",
      "--json",
    ]);
    const json = JSON.parse(r.out);
    expect(Object.keys(json.methods)).toEqual(["elicited", "linear", "accuracy"]);
    expect(json.classifiers).toHaveLength(40);
  }, 30_000);
  it("ranks by fair metrics with --groups (Table 3)", async () => {
    const r = await run([
      "--data",
      "data/arrests.csv",
      "--target",
      "released",
      "--groups",
      "colour",
      "--metrics",
      "3",
    ]);
    expect(r.code).toBeUndefined();
    expect(r.out).toMatch(/groups by colour: Black, White/);
    expect(r.out).toMatch(/elicited via fair QPME\s+\d\.\d{4}/);
    expect(r.out).toMatch(/accuracy with equalised odds/);
  }, 60_000);
  it("rejects a missing --target and an unknown group column with one-line errors", async () => {
    const g = await run(["--data", "data/arrests.csv", "--target", "released", "--groups", "nope"]);
    expect(g.code).toBe(2);
    expect(g.err).toMatch(/no group column "nope"/);
    const t = await run(["--data", "data/wine.csv"]);
    expect(t.code).toBe(2);
    expect(t.err).toMatch(/--target/);
  });
});
