import { Command, type CommanderError, type Help } from "commander";
import { VERSION } from "../version.ts";

/**
 * One `elicit` command, registered lazily: its module (and everything it imports) loads only
 * when the command runs or its own help is asked for. `elicit --help` lists every command
 * from `term` and `summary` without loading any of them (test/cli/program.test.ts checks they
 * match what the modules register).
 */
export interface LazyCommand {
  readonly name: string;
  /** The command's line in `elicit --help`, e.g. "demo [options]". */
  readonly term: string;
  /** The command's description, as its module registers it. */
  readonly summary: string;
  readonly load: () => Promise<(program: Command) => void>;
}

/** Every command of `elicit`, in the order `elicit --help` lists them. */
export const COMMANDS: readonly LazyCommand[] = [
  {
    name: "demo",
    term: "demo [options]",
    summary: "a step-by-step elicitation on the bundled breast-cancer data with a simulated doctor",
    load: async () => (await import("./commands/demo.ts")).registerDemo,
  },
  {
    name: "simulate",
    term: "simulate [options]",
    summary: "elicit the metric of a simulated stakeholder (a true metric plus a noise model)",
    load: async () => (await import("./commands/simulate.ts")).registerSimulate,
  },
  {
    name: "reproduce",
    term: "reproduce",
    summary: "reproduce the source papers' tables",
    load: async () => (await import("./commands/reproduce.ts")).registerReproduce,
  },
  {
    name: "fit",
    term: "fit [options]",
    summary:
      "train a logistic regression on a CSV and write held-out predictions (label,probability)",
    load: async () => (await import("./commands/fit.ts")).registerFit,
  },
  {
    name: "ask",
    term: "ask [options]",
    summary: "elicit your own metric: answer which of two classifiers you prefer, in the terminal",
    load: async () => (await import("./commands/ask.ts")).registerAsk,
  },
  {
    name: "score",
    term: "score [options]",
    summary:
      "score models' predictions under an elicited metric: scores, ranking, the probability each is best, the optimal decision rule",
    load: async () => (await import("./commands/score.ts")).registerScore,
  },
  {
    name: "export-metric",
    term: "export-metric [options] <file>",
    summary:
      "write an elicited metric as a small dependency-free function of a confusion matrix (Python, R or JavaScript)",
    load: async () => (await import("./commands/export-metric.ts")).registerExportMetric,
  },
  {
    name: "sphere",
    term: "sphere [options]",
    summary:
      "radius and axis extents of the largest ball found inside the feasible set (Algorithm 3)",
    load: async () => (await import("./commands/sphere.ts")).registerSphere,
  },
  {
    name: "serve",
    term: "serve [options]",
    summary:
      "start the web app: studies, participants answering in the browser, results and exports",
    load: async () => (await import("./commands/serve.ts")).registerServe,
  },
  {
    name: "report",
    term: "report [options] <study.json>",
    summary: "write a study's report as one self-contained HTML page from its study.json export",
    load: async () => (await import("./commands/report.ts")).registerReport,
  },
  {
    name: "admin",
    term: "admin",
    summary: "administer the web app (researcher accounts)",
    load: async () => (await import("./commands/admin.ts")).registerAdmin,
  },
];

/**
 * How `elicit` exits when commander stops it: help and `--version` with 0, a usage error
 * (commander exits 1) with 2, like every other bad-input error (`guarded`).
 */
function usageExit(error: CommanderError): never {
  process.exit(error.exitCode === 0 ? 0 : 2);
}

/** The command an argument list runs (`elicit <cmd> ...` or `elicit help <cmd>`), if any. */
export function commandOf(args: readonly string[]): LazyCommand | undefined {
  const first = args[0] === "help" ? args[1] : args[0];
  return COMMANDS.find((c) => c.name === first);
}

/**
 * The `elicit` command line for these arguments (without `node` and the script): the
 * command they run is registered in full, every other one as a stub with its name and
 * description (enough for `elicit --help` and for "unknown command" suggestions).
 * `all` registers every command in full (loads every module).
 * @example
 * const program = await buildProgram(process.argv.slice(2));
 * await program.parseAsync(process.argv);
 */
export async function buildProgram(
  args: readonly string[],
  o: { all?: boolean } = {},
): Promise<Command> {
  const program = new Command()
    .name("elicit")
    .description(
      "Metric elicitation: recover a stakeholder's classification metric from pairwise comparisons",
    )
    .version(VERSION)
    .showHelpAfterError("(run with --help for usage)")
    // Commander's own usage errors (a required option not given, an unknown option, an
    // option's missing value) follow the CLI's convention, as `guarded` does for the rest:
    // one line "elicit: error: ...", exit 2. Every command inherits both settings.
    .configureOutput({ outputError: (str, write) => write(`elicit: ${str}`) })
    .exitOverride(usageExit);
  const stubs = new Map<Command, LazyCommand>();
  const chosen = commandOf(args);
  for (const c of COMMANDS) {
    if (o.all || c === chosen) (await c.load())(program);
    else stubs.set(program.command(c.name).description(c.summary), c);
  }
  program.configureHelp({
    subcommandTerm(this: Help, cmd: Command): string {
      const stub = stubs.get(cmd);
      return stub ? stub.term : Object.getPrototypeOf(this).subcommandTerm.call(this, cmd);
    },
  });
  return program;
}
