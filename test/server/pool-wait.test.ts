import { EventEmitter } from "node:events";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/server/app.ts";
import { isPoolTimeout } from "../../src/server/db/connect.ts";
import type { Database } from "../../src/server/db/schema.ts";

/**
 * While set, every query of a `StuckClient` never finishes; else each returns one row with a
 * `value` (building the app reads its cookie secret).
 */
let stuck = true;
/** The stuck queries, to let them finish when the test ends (a pool ends once all are back). */
const waiting: (() => void)[] = [];
const ROW = { rows: [{ value: "s".repeat(64) }], rowCount: 1, command: "SELECT" };

/**
 * A PostgreSQL client that connects at once and whose queries never finish while `stuck`: a
 * pool of one of them is a database whose only connection stays busy.
 */
class StuckClient extends EventEmitter {
  connect(callback: (err: Error | null) => void): void {
    setImmediate(() => callback(null));
  }
  query(): Promise<{ rows: { value: string }[]; rowCount: number; command: string }> {
    if (stuck) return new Promise((resolve) => waiting.push(() => resolve(ROW)));
    return Promise.resolve(ROW);
  }
  end(callback?: () => void): Promise<void> {
    callback?.();
    return Promise.resolve();
  }
}

function stuckPool(waitMs: number): pg.Pool {
  return new pg.Pool({
    Client: StuckClient as unknown as typeof pg.Client,
    max: 1,
    connectionTimeoutMillis: waitMs,
  });
}

describe("a server whose database connections are all busy", () => {
  it("recognises pg-pool's own timeout error (the pinned version's message)", async () => {
    const pool = stuckPool(20);
    await pool.connect();
    const err = await pool.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect(isPoolTimeout(err)).toBe(true);
    expect(isPoolTimeout(new Error("connection refused"))).toBe(false);
  });

  it("answers 503 busy with Retry-After, not 500, when no connection comes free in time", async () => {
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: stuckPool(30) }) });
    stuck = false; // building the app reads the database
    const app = await buildApp({ db, kind: "postgres", logger: false, webDist: null });
    stuck = true;
    try {
      // The first request takes the only connection and never gives it back.
      void app.inject({ method: "GET", url: `/api/p/${"a".repeat(43)}` });
      while (waiting.length === 0) await new Promise((r) => setTimeout(r, 5));
      const r = await app.inject({ method: "GET", url: `/api/p/${"b".repeat(43)}` });
      expect(r.statusCode).toBe(503);
      expect(r.headers["retry-after"]).toBe("5");
      expect(r.json()).toEqual({
        error: { code: "busy", message: "the server is busy: try again in a moment" },
      });
    } finally {
      stuck = false;
      for (const release of waiting.splice(0)) release();
      await app.close();
    }
  });
});
