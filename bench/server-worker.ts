/**
 * The server half of `npm run bench:server`, in its own process so the simulated participants
 * do not share its event loop. Started with `fork` as `server-worker.ts DATA_DIR` (PostgreSQL
 * when BENCH_DATABASE_URL is set) on a database the bench has already prepared; replies
 * `{ port, kind }` over IPC and, on "stop", the CPU time it used since, its queries and its peak
 * resident memory and the most its kept runs held (`{ cpuMs, queries, peakRssMb, keptMb,
 * keptRuns }`) before closing. Several workers may serve one database.
 * On "usage" it replies, and keeps serving, the CPU time it has used since it listened and the
 * PostgreSQL queries it has sent since it started (`{ cpuMs, queries }`; every `query` of a
 * pooled client, BEGIN and COMMIT included, so database round trips; 0 on SQLite).
 */
import pg from "pg";
import { buildApp } from "../src/server/app.ts";
import { openDb } from "../src/server/db/connect.ts";
import { SERVER_RUNS } from "../src/server/participant/replay-cache.ts";
import { createRateLimiter } from "../src/server/security/rate-limit.ts";

// Count the round trips to PostgreSQL: Kysely's PostgresDialect sends every statement (and a
// transaction's BEGIN / COMMIT / ROLLBACK) with one `query` of a pooled pg.Client.
let queries = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  queries++;
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

const dataDir = process.argv[2]!;
// BENCH_RUN_MEMORY_MB: the servers' memory for kept runs (`elicit serve --run-memory`).
if (process.env.BENCH_RUN_MEMORY_MB)
  SERVER_RUNS.limit = Number(process.env.BENCH_RUN_MEMORY_MB) * 2 ** 20;
// The most the kept runs held at once (sampled each second).
let peakKept = { bytes: 0, runs: 0 };
setInterval(() => {
  const u = SERVER_RUNS.usage;
  if (u.bytes > peakKept.bytes) peakKept = u;
}, 1000).unref();
const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
const { db, kind } = await openDb({ dataDir, databaseUrl });
// Rate limits are per participant token and sized for people; the simulated participants
// answer as fast as the server replies, so the bench lifts them.
const loose = () => createRateLimiter(1e9, 1e9);
const app = await buildApp({
  db,
  kind,
  // BENCH_LOG=1: the server's errors (pino JSON lines on stdout), e.g. to see why a 500 happened.
  logger: process.env.BENCH_LOG ? { level: "error" } : false,
  webDist: null,
  limits: { answers: loose(), login: loose(), misses: loose() },
});
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
const port = typeof address === "object" && address ? address.port : 0;
const atStart = process.cpuUsage();
process.send!({ port, kind });
process.on("message", async (m) => {
  if (m === "usage") {
    const cpu = process.cpuUsage(atStart);
    process.send!({ cpuMs: (cpu.user + cpu.system) / 1000, queries });
  }
  if (m === "stop") {
    // CPU time this process used serving (user + system since it listened, start-up left
    // out), for the bench's per-request cost, and the PostgreSQL queries.
    const cpu = process.cpuUsage(atStart);
    // The process's peak resident memory (kept runs, states, the heap), in MB.
    const peakRssMb = process.resourceUsage().maxRSS / 1024;
    process.send!({
      cpuMs: (cpu.user + cpu.system) / 1000,
      queries,
      peakRssMb,
      keptMb: peakKept.bytes / 2 ** 20,
      keptRuns: peakKept.runs,
    });
    await app.close();
    await db.destroy();
    process.exit(0);
  }
});
