import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { CliError } from "./errors.ts";

/**
 * Why a file could not be read or written, in words: Node's own message ("ENOENT: no such file
 * or directory, open 'x'") names a C error code a user need not know. The wording follows
 * `elicit report`'s checks of its --out.
 * @example fileProblem(Object.assign(new Error(), { code: "EISDIR" }), "data", false) // "it is a directory"
 */
export function fileProblem(error: unknown, path: string, writing: boolean): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case "ENOENT":
      return writing ? `the directory ${dirname(resolve(path))} does not exist` : "no such file";
    case "EISDIR":
      return "it is a directory";
    case "ENOTDIR":
      return "a part of its path is a file, not a directory";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    default:
      return (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
  }
}

/**
 * Write a text file, turning a failure into a one-line CLI error (exit code 2, as for a file
 * that cannot be read). `what` names the option, e.g. "--log ".
 * @example writeText("/nope/x.js", code) // throws "cannot write /nope/x.js: the directory /nope does not exist"
 */
export function writeText(path: string, text: string, what = ""): void {
  try {
    writeFileSync(path, text);
  } catch (e) {
    throw new CliError(`cannot write ${what}${path}: ${fileProblem(e, path, true)}`);
  }
}

/** Read a text file, turning a failure into a one-line CLI error. */
export function readText(path: string | URL, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    throw new CliError(
      `cannot read ${what} ${String(path)}: ${fileProblem(e, String(path), false)}`,
    );
  }
}
