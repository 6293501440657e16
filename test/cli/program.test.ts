import { Command, Help } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram, COMMANDS, commandOf } from "../../src/cli/program.ts";

function helpOf(program: Command): string {
  let out = "";
  program.configureOutput({ writeOut: (s) => (out += s) });
  program.outputHelp();
  return out;
}

describe("elicit's lazy command table", () => {
  it("lists each command as its module registers it (name, help line, description)", async () => {
    for (const c of COMMANDS) {
      const program = new Command();
      (await c.load())(program);
      const [cmd] = program.commands;
      expect(cmd!.name()).toBe(c.name);
      expect(cmd!.description()).toBe(c.summary);
      expect(new Help().subcommandTerm(cmd!)).toBe(c.term);
    }
  });

  it("prints the same `elicit --help` as the program with every command loaded", async () => {
    const lazy = helpOf(await buildProgram(["--help"]));
    const full = helpOf(await buildProgram(["--help"], { all: true }));
    expect(lazy).toBe(full);
    expect(lazy).toContain("simulate [options]");
  });

  it("finds the command an argument list runs", () => {
    expect(commandOf(["simulate", "--truth", "{}"])?.name).toBe("simulate");
    expect(commandOf(["help", "fit"])?.name).toBe("fit");
    expect(commandOf(["--help"])).toBeUndefined();
    expect(commandOf(["bogus"])).toBeUndefined();
  });
});
