import type { Command } from "commander";
import { z } from "zod";
import { normalizePublicUrl } from "../../server/app.ts";
import { DEFAULT_RUN_MEMORY_MB } from "../../server/participant/replay-cache.ts";
import { serve } from "../../server/serve.ts";
import { CliError, guarded } from "../errors.ts";

/** pino's levels, most verbose last; `silent` writes nothing. */
const LOG_LEVELS = ["silent", "fatal", "error", "warn", "info", "debug", "trace"] as const;

function logLevelOf(v: string): (typeof LOG_LEVELS)[number] {
  const parsed = z.enum(LOG_LEVELS).safeParse(v.trim().toLowerCase());
  if (!parsed.success)
    throw new CliError(
      `--log-level (or LOG_LEVEL) must be one of ${LOG_LEVELS.join(", ")}, not "${v}"`,
    );
  return parsed.data;
}

function portOf(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new CliError(`--port must be a whole number from 0 to 65535, not "${v}"`);
  return n;
}

/** `elicit serve`: the web app (participants and researchers in the browser). */
export function registerServe(program: Command): void {
  program
    .command("serve")
    .description(
      "start the web app: studies, participants answering in the browser, results and exports",
    )
    .option("--port <n>", "port to listen on (env PORT)", process.env.PORT ?? "8080")
    .option("--host <h>", "address to listen on (env HOST)", process.env.HOST ?? "127.0.0.1")
    .option(
      "--data-dir <dir>",
      "directory of the SQLite database (env DATA_DIR; ignored when DATABASE_URL is set)",
      process.env.DATA_DIR ?? ".elicit-data",
    )
    .option(
      "--public-url <url>",
      "address participants reach the app at, e.g. https://study.example.org; invite links are built on it (env PUBLIC_URL; default: links relative to the researcher's page, never from the request's Host header)",
      process.env.PUBLIC_URL || undefined,
    )
    .option(
      "--trust-proxy [hops]",
      "behind reverse proxies: trust this many of them (default 1) for X-Forwarded-For / -Proto; the client's address (rate limits) is the right-most one no trusted proxy added, https marks cookies Secure (env TRUST_PROXY=N)",
      process.env.TRUST_PROXY || undefined,
    )
    .option(
      "--log-level <level>",
      `log level (env LOG_LEVEL): ${LOG_LEVELS.join(", ")}; info logs every request (URLs with tokens redacted), warn only problems`,
      process.env.LOG_LEVEL || "info",
    )
    .option(
      "--run-memory <mb>",
      `memory for participants' runs kept between answers, in MB (env RUN_MEMORY_MB; default ${DEFAULT_RUN_MEMORY_MB}, room for about 500 people answering at once): a participant whose run was dropped has their answer log replayed, which costs CPU, never an answer`,
      process.env.RUN_MEMORY_MB || String(DEFAULT_RUN_MEMORY_MB),
    )
    .option("--quiet", "no request logs: only errors (the log level error)")
    .action(
      (f: {
        port: string;
        host: string;
        dataDir: string;
        publicUrl?: string;
        trustProxy?: boolean | string;
        logLevel: string;
        runMemory: string;
        quiet?: boolean;
      }) =>
        guarded(async () => {
          let publicUrl: string | undefined;
          try {
            publicUrl = f.publicUrl === undefined ? undefined : normalizePublicUrl(f.publicUrl);
          } catch (e) {
            throw new CliError(`--public-url: ${(e as Error).message}`);
          }
          const logLevel = logLevelOf(f.logLevel);
          const app = await serve({
            port: portOf(f.port),
            host: f.host,
            dataDir: f.dataDir,
            databaseUrl: process.env.DATABASE_URL || undefined,
            // Quiet hides the request lines, never a failure: a 500's cause must reach the log.
            logLevel: f.quiet ? "error" : logLevel,
            publicUrl,
            trustProxy: trustProxyOf(f.trustProxy),
            runMemoryMb: runMemoryOf(f.runMemory),
          });
          const stop = async () => {
            await app.close();
            process.exit(0);
          };
          process.once("SIGINT", stop);
          process.once("SIGTERM", stop);
        }),
    );
}

/**
 * `--trust-proxy [hops]` (or TRUST_PROXY): absent or "0" trusts none, the bare flag one proxy,
 * a whole number from 1 to 10 that many.
 * @example trustProxyOf("2") // 2
 */
export function trustProxyOf(v: boolean | string | undefined): number | false {
  if (v === undefined || v === false || v === "0") return false;
  if (v === true) return 1;
  if (!/^(?:[1-9]|10)$/.test(v))
    throw new CliError(`--trust-proxy: "${v}" is not a number of proxies from 1 to 10`);
  return Number(v);
}

/**
 * `--run-memory <mb>` (or RUN_MEMORY_MB): a whole number of MB from 16 to 65536.
 * @example runMemoryOf("512") // 512
 */
export function runMemoryOf(v: string): number {
  if (!/^\d{2,5}$/.test(v) || Number(v) < 16 || Number(v) > 65536)
    throw new CliError(`--run-memory: "${v}" is not a number of MB from 16 to 65536`);
  return Number(v);
}
