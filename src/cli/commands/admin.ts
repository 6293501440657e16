import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { openDb } from "../../server/db/connect.ts";
import { createResearcher } from "../../server/researchers.ts";
import { CliError, guarded } from "../errors.ts";

/** `elicit admin ...`: administration of the web app's database. */
export function registerAdmin(program: Command): void {
  const admin = program
    .command("admin")
    .description("administer the web app (researcher accounts)");
  admin
    .command("create-user")
    .description("create a researcher account for the web app")
    .requiredOption("--email <e>", "the researcher's e-mail address (the sign-in name)")
    .requiredOption(
      "--password-file <f>",
      "a file whose first line is the password (at least 10 characters, not a common password, not one character repeated or a keyboard run, not your e-mail name; keeps it out of the shell history)",
    )
    .option(
      "--data-dir <dir>",
      "directory of the SQLite database (env DATA_DIR; ignored when DATABASE_URL is set)",
      process.env.DATA_DIR ?? ".elicit-data",
    )
    .action((f: { email: string; passwordFile: string; dataDir: string }) =>
      guarded(async () => {
        let password: string;
        try {
          password = (readFileSync(f.passwordFile, "utf8").split(/\r?\n/)[0] ?? "").trimEnd();
        } catch {
          throw new CliError(`cannot read the password file ${f.passwordFile}`);
        }
        const { db, location } = await openDb({
          dataDir: f.dataDir,
          databaseUrl: process.env.DATABASE_URL || undefined,
        });
        try {
          const id = await createResearcher(db, f.email, password);
          console.log(`created researcher ${id} (${f.email.trim().toLowerCase()}) in ${location}`);
        } catch (e) {
          throw new CliError((e as Error).message);
        } finally {
          await db.destroy();
        }
      }),
    );
}
