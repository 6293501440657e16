import type { FastifyInstance } from "fastify";
import { buildApp } from "./app.ts";
import { ensureTemplateStudy } from "./bootstrap.ts";
import { openDb } from "./db/connect.ts";
import { serverLogger } from "./log-redaction.ts";
import { SERVER_RUNS } from "./participant/replay-cache.ts";
import { researcherCount } from "./researchers.ts";
import { createParticipants } from "./routes/researcher.ts";

export interface ServeOptions {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly databaseUrl?: string;
  /** Write pino JSON logs to stdout (default true). */
  readonly log?: boolean;
  /** The logs' pino level (default "info": one line per request; "warn" keeps only problems). */
  readonly logLevel?: string;
  /** See AppOptions.publicUrl. */
  readonly publicUrl?: string;
  /** See AppOptions.trustProxy. */
  readonly trustProxy?: boolean | number;
  /**
   * Whether a person reads the start-up lines at a terminal (default: stderr is a TTY); only
   * then do they hold a test-run link.
   */
  readonly interactive?: boolean;
  /**
   * Memory for participants' runs kept between answers, in MB (default `DEFAULT_RUN_MEMORY_MB`, 320): beyond it the
   * least recently used run is dropped and its participant's next answer replays the log.
   */
  readonly runMemoryMb?: number;
}

/**
 * Open the database (migrating it), create the built-in study on first start, and listen.
 * Prints the URL and, with no researcher yet, how to create one.
 * @example const app = await serve({ port: 8080, host: "127.0.0.1", dataDir: ".elicit-data" }); // ... await app.close();
 */
export async function serve(o: ServeOptions): Promise<FastifyInstance> {
  if (o.runMemoryMb !== undefined) SERVER_RUNS.limit = o.runMemoryMb * 2 ** 20;
  const { db, kind, location } = await openDb({ dataDir: o.dataDir, databaseUrl: o.databaseUrl });
  const created = await ensureTemplateStudy(db);
  const app = await buildApp({
    db,
    kind,
    logger: o.log === false ? false : serverLogger(o.logLevel ?? "info"),
    publicUrl: o.publicUrl,
    trustProxy: o.trustProxy,
  });
  app.addHook("onClose", async () => {
    await db.destroy();
  });
  await app.listen({ port: o.port, host: o.host });
  const shownHost = o.host === "0.0.0.0" || o.host === "::" ? "127.0.0.1" : o.host;
  // The port listened on (with --port 0 the system picks one: say which).
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : o.port;
  const url = `http://${shownHost.includes(":") ? `[${shownHost}]` : shownHost}:${port}/`;
  const lines = [`elicit serve: listening on ${url} (database: ${kind} ${location})`];
  if (created !== null) {
    lines.push(`created the built-in study "Cancer diagnosis" (id ${created}, live)`);
    // A test-run link is a credential: shown to a person at a terminal, never written where
    // the output is kept (a service's log; issue 28 item 5).
    if (o.interactive ?? process.stderr.isTTY === true) {
      const [token] = await createParticipants(db, created, 1, true);
      lines.push(
        `try it as a participant (a test run): ${o.publicUrl ? `${o.publicUrl}/` : url}p/${token}`,
      );
    } else lines.push("try it as a participant: sign in and press Test run on the study's page");
  }
  if ((await researcherCount(db)) === 0) {
    lines.push(
      "no researcher account yet; create one, then sign in at the URL above:",
      `  elicit admin create-user --email you@example.org --password-file FILE${
        o.databaseUrl ? "" : ` --data-dir ${o.dataDir}`
      }`,
      "  (FILE holds the password on its first line; installed as a dependency: npx elicit admin create-user ...; in a checkout: npm run elicit -- admin create-user ...)",
    );
  }
  process.stderr.write(`${lines.join("\n")}\n`);
  return app;
}
