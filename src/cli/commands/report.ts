import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import { reportHtml } from "../../report/document.ts";
import { parseStudyExport, StudyExportError } from "../../report/schema.ts";
import { studyNames } from "../../report/study-names.ts";
import { CliError, guarded } from "../errors.ts";

/** The text of the file at `path`, or a CliError saying why it cannot be read. */
function readInput(path: string): string {
  if (!existsSync(path)) throw new CliError(`${path}: no such file`);
  if (statSync(path).isDirectory()) throw new CliError(`${path} is a directory, not a study.json`);
  return readFileSync(path, "utf8");
}

/** Checks that `out` can be written: its directory exists and it is not itself a directory. */
function checkOutput(out: string): void {
  const dir = dirname(resolve(out));
  if (!existsSync(dir))
    throw new CliError(`cannot write ${out}: the directory ${dir} does not exist`);
  if (existsSync(out) && statSync(out).isDirectory())
    throw new CliError(`cannot write ${out}: it is a directory`);
}

/** `elicit report`. */
export function registerReport(program: Command): void {
  program
    .command("report")
    .description(
      "write a study's report as one self-contained HTML page from its study.json export",
    )
    .argument(
      "<study.json>",
      "the study's JSON export (the study's page: Export, Everything (JSON))",
    )
    .option("--out <file>", "where to write the HTML page (default: stdout)")
    .addHelpText(
      "after",
      `
The page has the study (kind, family, data, classes and groups, strategy, who finished), the
consensus with its spread, the recommended classifier, each participant's result with its
range, agreement M and consistency, as text, tables and inline SVG plots. It needs no network
and runs no script: open it in any browser, mail it, print it.

Example:
  elicit report study.json --out report.html`,
    )
    .action((file: string, f: { out?: string }) =>
      guarded(() => {
        if (f.out !== undefined) checkOutput(f.out);
        let exp: ReturnType<typeof parseStudyExport>;
        try {
          exp = parseStudyExport(readInput(file), file);
        } catch (e) {
          if (e instanceof StudyExportError) throw new CliError(e.message);
          throw e;
        }
        // Exports from before they named their classes: the names from the study's data.
        const names = exp.classes === undefined ? studyNames(exp) : null;
        const page = reportHtml(exp, { names });
        if (f.out === undefined) {
          process.stdout.write(page);
          return;
        }
        writeFileSync(f.out, page);
        const finished = exp.participants.filter((p) => p.summary.metric !== null).length;
        process.stderr.write(
          `wrote the report on ${JSON.stringify(exp.study.name)} (${finished} with a result) to ${f.out}\n`,
        );
      }),
    );
}
