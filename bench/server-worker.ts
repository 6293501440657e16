/**
 * The server half of `npm run bench:server`, in its own process so the simulated participants
 * do not share its event loop. Started with `fork`; replies `{ port, tokens, kind }` over IPC
 * and closes on "stop".
 */
import { buildApp } from "../src/server/app.ts";
import { ensureTemplateStudy } from "../src/server/bootstrap.ts";
import { openDb } from "../src/server/db/connect.ts";
import { createParticipants } from "../src/server/routes/researcher.ts";
import { createRateLimiter } from "../src/server/security/rate-limit.ts";

const [dataDir, participants] = [process.argv[2]!, Number(process.argv[3])];
const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
const { db, kind } = await openDb({ dataDir, databaseUrl });
if (databaseUrl) {
  // start from an empty study list on a shared database
  for (const table of [
    "answers",
    "responses",
    "comprehension",
    "guesses",
    "participants",
    "studies",
  ] as const) {
    await db.deleteFrom(table).execute();
  }
}
await ensureTemplateStudy(db);
const study = await db.selectFrom("studies").select("id").orderBy("id").executeTakeFirstOrThrow();
// Rate limits are per participant token and sized for people; the simulated participants
// answer as fast as the server replies, so the bench lifts them.
const loose = () => createRateLimiter(1e9, 1e9);
const app = await buildApp({
  db,
  kind,
  logger: false,
  webDist: null,
  limits: { answers: loose(), login: loose(), misses: loose() },
});
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
const port = typeof address === "object" && address ? address.port : 0;
const tokens = await createParticipants(db, study.id, participants, false);
process.send!({ port, tokens, kind });
process.on("message", async (m) => {
  if (m === "stop") {
    await app.close();
    await db.destroy();
    process.exit(0);
  }
});
