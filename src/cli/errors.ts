import { DataError } from "../data/errors.ts";

/** An error caused by the user's input: printed as one line, exit code 2. */
export class CliError extends Error {}

/**
 * What to do when better-sqlite3 (the web app's SQLite driver) cannot load its compiled
 * binary: its install script did not run (npm 11 warns about, and can block, dependency
 * install scripts not approved in `allowScripts`; `--ignore-scripts` skips them) or it was
 * built for another Node version. `undefined` for any other error.
 * @example sqliteBindingHint(new Error("Could not locate the bindings file. Tried: build/better_sqlite3.node")) // "the SQLite driver ..."
 */
export function sqliteBindingHint(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  // Both `bindings`' "Could not locate the bindings file. Tried: ..." and Node's "was compiled
  // against a different Node.js version" name the binary's path.
  if (!/better_sqlite3\.node/.test(message)) return undefined;
  return (
    "the SQLite driver (better-sqlite3) has no compiled binary for this Node.js: its install script " +
    "did not run (npm 11 blocks or warns about dependency install scripts not approved in " +
    "allowScripts; --ignore-scripts skips them) or it was built for another Node.js version. In the " +
    "folder where you installed metric-elicitation run `npm install-scripts approve better-sqlite3` " +
    "(npm 11 only) and then `npm rebuild better-sqlite3`; or use PostgreSQL with " +
    "DATABASE_URL=postgres://..."
  );
}

/** One-line message for any error a command can raise; stack traces only with DEBUG set. */
export function describeError(error: unknown): string {
  if (error instanceof CliError || error instanceof DataError || error instanceof RangeError) {
    return error.message;
  }
  const hint = sqliteBindingHint(error);
  if (hint !== undefined) return hint;
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
