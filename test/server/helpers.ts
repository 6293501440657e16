import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, describe, it } from "vitest";
import { buildApp } from "../../src/server/app.ts";
import { ensureTemplateStudy } from "../../src/server/bootstrap.ts";
import { openDb } from "../../src/server/db/connect.ts";
import type { Db, DbKind } from "../../src/server/db/schema.ts";
import { createResearcher } from "../../src/server/researchers.ts";
import { createRateLimiter } from "../../src/server/security/rate-limit.ts";

/** The back ends the server suite runs on: SQLite always, PostgreSQL with TEST_DATABASE_URL. */
export const BACKENDS: DbKind[] = process.env.TEST_DATABASE_URL
  ? ["sqlite", "postgres"]
  : ["sqlite"];

/** True in the sweeps run (vitest.sweeps.config.ts sets ELICIT_TEST_TIER=sweeps), false under `npm test`. */
export const IN_SWEEPS = process.env.ELICIT_TEST_TIER === "sweeps";

/**
 * The back ends of the slow end-to-end server files (whole studies over HTTP). Under `npm test`
 * they are `BACKENDS`, but on PostgreSQL only the tests marked `smoke` run (see `tiers`); the
 * sweeps (test/sweeps/postgres/*.sweep.ts, each importing one such file) run every test of the
 * file on PostgreSQL, so nothing is lost from `.ci/run`, which sets TEST_DATABASE_URL.
 * @example describe.each(SLOW_BACKENDS)("adaptive study (%s)", (kind) => { … });
 */
export const SLOW_BACKENDS: DbKind[] = IN_SWEEPS
  ? process.env.TEST_DATABASE_URL
    ? ["postgres"]
    : []
  : BACKENDS;

/**
 * The test functions of a slow server file's describe block on `kind`: `smoke` always runs;
 * `it` runs except on PostgreSQL under `npm test` (there it is skipped, and its PostgreSQL run
 * is in the sweeps).
 * @example
 * describe.each(SLOW_BACKENDS)("adaptive study (%s)", (kind) => {
 *   const { it, smoke } = tiers(kind);
 *   smoke("one participant end to end", async () => { … }); // npm test on both back ends
 *   it("a participant who flips answers", async () => { … }); // PostgreSQL: sweeps only
 * });
 */
export function tiers(kind: DbKind) {
  return { it: it.skipIf(kind === "postgres" && !IN_SWEEPS), smoke: it };
}

/**
 * `describe` for the blocks of a slow server file that do not depend on a back end: they run
 * under `npm test` and are skipped when a sweep imports the file for its PostgreSQL repeat.
 * @example describeOnce("multiclass debrief in words", () => { … });
 */
export const describeOnce = describe.skipIf(IN_SWEEPS);

let schemaCounter = 0;
const tempDirs: string[] = [];
// Registered in every test file that imports these helpers.
afterAll(() => {
  for (const d of tempDirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh, empty database of the given kind; `open()` connects (again) to the same data. */
export async function freshStore(
  kind: DbKind,
): Promise<{ open: () => Promise<{ db: Db; kind: DbKind }> }> {
  if (kind === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "elicit-test-"));
    tempDirs.push(dir);
    return { open: () => openDb({ dataDir: dir }) };
  }
  const base = process.env.TEST_DATABASE_URL!;
  const schema = `t_${process.pid}_${Date.now()}_${schemaCounter++}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  const url = new URL(base);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return { open: () => openDb({ databaseUrl: url.toString() }) };
}

export interface TestApp {
  readonly app: FastifyInstance;
  readonly db: Db;
  readonly kind: DbKind;
  /** Close app and database. */
  close(): Promise<void>;
}

/** Build an app on an opened store (generous rate limits unless given). */
export async function startApp(
  store: { open: () => Promise<{ db: Db; kind: DbKind }> },
  o: {
    /** The built-in study (default: adaptive, as `npm start`), its paper version, or none. */
    template?: boolean | "paper";
    /** The production rate limits instead of generous ones. */
    strictLimits?: boolean;
    limits?: Parameters<typeof buildApp>[0]["limits"];
    publicUrl?: string;
    trustProxy?: boolean | number;
  } = {},
): Promise<TestApp> {
  const { db, kind } = await store.open();
  if (o.template !== false)
    await ensureTemplateStudy(db, o.template === "paper" ? "paper" : "adaptive");
  const loose = () => createRateLimiter(100_000, 100_000);
  // Participants' seeds in a fixed sequence, not at random: a seed draws a participant's sides
  // and Phase III pairs, and a consistent simulated participant's Phase III can, for some
  // seeds, disagree with an imprecise result often enough to be taken for a coin (then the
  // debrief states nothing measured and the consensus leaves them out), which made tests that
  // read their debrief or the consensus fail in about one run in ten. Binary studies' coin
  // test now judges against every metric of the range (`rangeFit`), which cleared the cases
  // seen; the fixed sequence stays so that every run asks the same pairs.
  let nextSeed = 1;
  const app = await buildApp({
    db,
    kind,
    logger: false,
    webDist: null,
    participantSeed: () => 7919 * nextSeed++,
    publicUrl: o.publicUrl,
    trustProxy: o.trustProxy,
    limits:
      o.limits ??
      (o.strictLimits ? undefined : { login: loose(), answers: loose(), misses: loose() }),
  });
  return {
    app,
    db,
    kind,
    async close() {
      await app.close();
      await db.destroy();
    },
  };
}

export const PASSWORD = "a long enough password";

/** Create a researcher and sign in; returns the cookie header value. */
export async function signIn(t: TestApp, email = "r@example.org"): Promise<string> {
  await createResearcher(t.db, email, PASSWORD);
  const res = await t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password: PASSWORD },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  const c = res.cookies.find((x) => x.name === "elicit_session");
  if (!c) throw new Error("no session cookie");
  return `elicit_session=${c.value}`;
}

/** Token of a participant link. */
export function tokenOf(link: string): string {
  return link.slice(link.lastIndexOf("/p/") + 3);
}

/** A JSON call through `inject`; returns the status and the parsed body. */
// biome-ignore lint/suspicious/noExplicitAny: tests read loosely typed JSON
export async function call<T = any>(
  t: TestApp,
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  payload?: unknown,
  cookie?: string,
): Promise<{ status: number; body: T }> {
  const res = await t.app.inject({
    method,
    url,
    ...(payload !== undefined ? { payload: payload as object } : {}),
    headers: cookie ? { cookie } : {},
  });
  const body = res.headers["content-type"]?.toString().includes("json") ? res.json() : res.body;
  return { status: res.statusCode, body: body as T };
}
