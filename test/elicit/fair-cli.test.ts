import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { simulateFairCommand } from "../../src/cli/commands/fair.ts";
import { registerReproduceFair } from "../../src/cli/commands/reproduce-fair.ts";
import { CliError } from "../../src/cli/errors.ts";

const capture = () => {
  const lines: string[] = [];
  vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
    lines.push(args.join(" "));
  });
  return lines;
};

afterEach(() => vi.restoreAllMocks());

describe("elicit simulate --family fair-quadratic (module)", () => {
  it("prints the contract's JSON for a given truth", () => {
    const lines = capture();
    simulateFairCommand(
      {
        synthetic: "sphere",
        classes: "2",
        groups: "2",
        truth: '{"a":[0.6,0.8],"B":{"0-1":[[1,0.2],[0.2,0.5]]},"lambda":0.4}',
        json: true,
      },
      { kind: "none" },
      1,
      1,
    );
    const r = JSON.parse(lines.join("\n"));
    expect(r.family).toBe("fair-quadratic");
    expect(Object.keys(r)).toEqual(
      expect.arrayContaining(["family", "truth", "elicited", "queries", "error"]),
    );
    expect(Object.keys(r.error).sort()).toEqual(["B", "a", "lambda"]);
    expect(r.truth.lambda).toBe(0.4);
    expect(r.error.a).toBeLessThan(0.01);
    expect(r.error.lambda).toBeLessThan(0.05);
  });

  it("summarises random truths over trials", () => {
    const lines = capture();
    simulateFairCommand(
      { synthetic: "sphere", classes: "2", groups: "3", randomTruth: true },
      { kind: "none" },
      2,
      3,
    );
    expect(lines.join("\n")).toMatch(/3 fair QPME trials, k = 2, m = 3/);
    expect(lines.join("\n")).toMatch(/lambda/);
  });

  it("rejects bad flags with one-line CliErrors", () => {
    const bad = [
      { classes: "2" },
      { synthetic: "sphere", groups: "1" },
      { synthetic: "sphere", truth: "{" },
      { synthetic: "sphere", truth: '{"a":[1,1],"B":{"0-2":[[1,0],[0,1]]},"lambda":0.5}' },
      { synthetic: "sphere", strategy: "nope" },
      { synthetic: "sphere", tau: "[[1,1]]" },
    ];
    for (const f of bad) {
      let err: unknown;
      try {
        simulateFairCommand(f, { kind: "none" }, 1, 1);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(CliError);
      expect((err as Error).message).not.toContain("\n");
    }
  });

  it("registers `reproduce fair`", async () => {
    const lines = capture();
    const program = new Command();
    const reproduce = program.command("reproduce");
    registerReproduceFair(reproduce);
    await program.parseAsync(
      ["reproduce", "fair", "--trials", "2", "--classes", "2", "--groups", "2"],
      { from: "user" },
    );
    expect(lines.join("\n")).toMatch(/Fair QPME/);
    expect(lines.join("\n")).toMatch(/332/);
  });
});
