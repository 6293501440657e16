import { buildProgram } from "./program.ts";

// `elicit ... | head` closes the pipe early: stop quietly instead of an EPIPE stack trace.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(0);
  throw e;
});

/** The `elicit` command line: loads only the module of the command it runs. */
await (await buildProgram(process.argv.slice(2))).parseAsync(process.argv);
