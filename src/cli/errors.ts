import { DataError } from "../data/errors.ts";

/** An error caused by the user's input: printed as one line, exit code 2. */
export class CliError extends Error {}

/** One-line message for any error a command can raise; stack traces only with DEBUG set. */
export function describeError(error: unknown): string {
  if (error instanceof CliError || error instanceof DataError || error instanceof RangeError) {
    return error.message;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Run a command body, turning errors into `elicit: error: ...` and a non-zero exit. */
export async function guarded(body: () => Promise<void> | void): Promise<void> {
  try {
    await body();
  } catch (error) {
    process.stderr.write(`elicit: error: ${describeError(error).split("\n")[0]}\n`);
    if (process.env.DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    process.exitCode = error instanceof CliError || error instanceof DataError ? 2 : 1;
  }
}
