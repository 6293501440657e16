import { Command } from "commander";
import { VERSION } from "../version.ts";
import { registerAdmin } from "./commands/admin.ts";
import { registerAsk } from "./commands/ask.ts";
import { registerDemo } from "./commands/demo.ts";
import { registerFit } from "./commands/fit.ts";
import { registerReproduce } from "./commands/reproduce.ts";
import { registerServe } from "./commands/serve.ts";
import { registerSimulate } from "./commands/simulate.ts";
import { registerSphere } from "./commands/sphere.ts";

/** The `elicit` command line. */
export function buildProgram(): Command {
  const program = new Command()
    .name("elicit")
    .description(
      "Metric elicitation: recover a stakeholder's classification metric from pairwise comparisons",
    )
    .version(VERSION)
    .showHelpAfterError("(run with --help for usage)");
  registerDemo(program);
  registerSimulate(program);
  registerReproduce(program);
  registerFit(program);
  registerAsk(program);
  registerSphere(program);
  registerServe(program);
  registerAdmin(program);
  return program;
}

await buildProgram().parseAsync(process.argv);
