import { existsSync, mkdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { migrateToLatest } from "./migrations.ts";
import type { Database, Db, DbKind } from "./schema.ts";

/** Where the data lives: a SQLite file under `dataDir`, or PostgreSQL at `databaseUrl`. */
export interface DbOptions {
  readonly dataDir?: string;
  readonly databaseUrl?: string;
  /** SQLite file name inside the data dir (default `elicit.sqlite`). */
  readonly fileName?: string;
}

export interface OpenedDb {
  readonly db: Db;
  readonly kind: DbKind;
  /** Human-readable location (file path or URL without password). */
  readonly location: string;
}

// pg returns int8 (bigint, e.g. counts and seeds) as strings; every bigint we store fits in
// a double, so parse them as numbers.
pg.types.setTypeParser(20, (v) => Number(v));

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres";
  }
}

/**
 * How long a request waits for one of the pool's connections before it is answered 503
 * (`isPoolTimeout`). A busy server (every core replaying participants' answers) queues
 * requests for seconds: the chaos run's 200 participants on two servers waited over 10 s,
 * which was the limit, and got 500s. A minute covers a busy server; a database that is gone
 * fails its connections at once, not after this.
 */
export const POOL_WAIT_MS = 60_000;

/**
 * Whether `err` is the pool's "no connection came free in time" (pg-pool's own message):
 * the server is overloaded, not broken, so the request is answered 503 to be retried.
 * @example isPoolTimeout(new Error("timeout exceeded when trying to connect")) // true
 */
export function isPoolTimeout(err: unknown): boolean {
  return err instanceof Error && err.message === "timeout exceeded when trying to connect";
}

/**
 * Open the database and apply migrations. PostgreSQL when `databaseUrl` is set, else a SQLite
 * file under `dataDir` (default `./.elicit-data`, created when missing).
 * @example const { db, kind } = await openDb({ dataDir: ".elicit-data" });
 */
export async function openDb(o: DbOptions): Promise<OpenedDb> {
  if (o.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: o.databaseUrl,
      max: 10,
      connectionTimeoutMillis: POOL_WAIT_MS,
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    try {
      await migrateToLatest(db, "postgres");
    } catch (e) {
      await db.destroy();
      throw new Error(
        `cannot use the PostgreSQL database at ${redact(o.databaseUrl)}: ${(e as Error).message}`,
      );
    }
    return { db, kind: "postgres", location: redact(o.databaseUrl) };
  }
  const dir = o.dataDir ?? ".elicit-data";
  makeDataDir(dir);
  const file = join(dir, o.fileName ?? "elicit.sqlite");
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma("journal_mode = WAL");
  // FULL: a committed answer survives an OS crash or power loss too (with WAL, NORMAL keeps it
  // only across a process crash). An acknowledged answer must never be lost.
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  // Kysely prepares every statement anew; better-sqlite3 statements are reusable, so cache them
  // by SQL text (the query builder produces a small fixed set of statements).
  const statements = new Map<string, ReturnType<typeof sqlite.prepare>>();
  const database = {
    close: () => sqlite.close(),
    prepare: (sqlText: string) => {
      // Every transaction starts IMMEDIATE: it takes the database's write lock at BEGIN (waiting
      // up to busy_timeout while another process holds it) instead of reading first and failing
      // with SQLITE_BUSY when another `elicit serve` on the same file wrote in between. In one
      // process Kysely's one connection already serialises transactions; this serialises them
      // across processes too.
      const text = sqlText === "begin" ? "begin immediate" : sqlText;
      let st = statements.get(text);
      if (!st) {
        st = sqlite.prepare(text);
        if (statements.size > 500) statements.clear();
        statements.set(text, st);
      }
      return st;
    },
  };
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  await migrateToLatest(db, "sqlite");
  return { db, kind: "sqlite", location: file };
}

/**
 * True when `e` is a unique-constraint violation on either back end.
 * @example isUniqueViolation({ code: "23505" }) // true (PostgreSQL's unique_violation)
 */
export function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return (
    code === "23505" ||
    code === "SQLITE_CONSTRAINT_UNIQUE" ||
    code === "SQLITE_CONSTRAINT_PRIMARYKEY"
  );
}

/**
 * Creates the data folder `dir` and its missing parents one level at a time. Node's recursive
 * mkdir never returns on a path it cannot create under some file systems (`/proc/x`: it
 * retries the ENOENT forever), so `elicit serve --data-dir /proc/x` hung with no message; here
 * the first folder that cannot be made is named with the reason.
 * @example makeDataDir(".elicit-data") // creates ./.elicit-data if it is missing
 */
export function makeDataDir(dir: string): void {
  const missing: string[] = [];
  let at = resolve(dir);
  while (!existsSync(at)) {
    missing.push(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  if (existsSync(at) && !statSync(at).isDirectory()) {
    throw new Error(`cannot use the data folder ${dir}: ${at} is a file, not a folder`);
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // Another process made it in between: fine.
      if (code === "EEXIST" && statSync(folder).isDirectory()) continue;
      const why =
        code === "EACCES" || code === "EPERM"
          ? "permission denied"
          : code === "EROFS"
            ? "the file system is read-only"
            : code === "ENOENT"
              ? "folders cannot be created there"
              : (e as Error).message;
      throw new Error(`cannot create the data folder ${folder}: ${why}`);
    }
  }
}
