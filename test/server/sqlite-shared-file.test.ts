import { createRequire } from "node:module";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/server/db/connect.ts";
import { tempDir } from "../temp-dir.ts";

/**
 * Two `elicit serve` processes on one SQLite file (issue 14, scale-out): a transaction that
 * read the database and then writes must not fail because the other process wrote in between
 * (SQLITE_BUSY). Our transactions begin IMMEDIATE, taking the write lock first, so the other
 * writer waits (busy timeout) instead. The other process here is a worker thread with its own
 * connection to the same file, writing while our transaction is between its read and its write.
 */
const betterSqlite = createRequire(import.meta.url).resolve("better-sqlite3");

describe("two processes on one SQLite file", () => {
  it("a transaction that reads, waits and writes is not broken by the other process's write", async () => {
    const dir = tempDir("elicit-shared-");
    const { db } = await openDb({ dataDir: dir });
    const file = join(dir, "elicit.sqlite");
    // The other process: on "write", inserts a setting (autocommit) and reports how it went.
    const other = new Worker(
      `const { parentPort, workerData } = require("node:worker_threads");
       const Database = require(workerData.lib);
       const db = new Database(workerData.file);
       db.pragma("busy_timeout = 5000");
       parentPort.on("message", () => {
         try {
           db.prepare("insert into settings (key, value) values ('other', 'x')").run();
           parentPort.postMessage("ok");
         } catch (e) {
           parentPort.postMessage(String(e.code || e.message));
         }
         db.close();
       });`,
      { eval: true, workerData: { file, lib: betterSqlite } },
    );
    let otherResult: Promise<string> | undefined;
    let ours = "ok";
    try {
      await db.transaction().execute(async (tx) => {
        await tx.selectFrom("settings").select("key").execute(); // read first
        otherResult = new Promise<string>((r) => other.once("message", (m) => r(String(m))));
        other.postMessage("write");
        await new Promise((r) => setTimeout(r, 300)); // the other process writes meanwhile
        await tx.insertInto("settings").values({ key: "ours", value: "y" }).execute();
      });
    } catch (e) {
      ours = String((e as { code?: string }).code ?? (e as Error).message);
    }
    const theirs = await otherResult!;
    await other.terminate();
    const keys = (await db.selectFrom("settings").select("key").execute()).map((r) => r.key);
    await db.destroy();
    expect(ours).toBe("ok"); // a deferred BEGIN fails here with SQLITE_BUSY_SNAPSHOT
    expect(theirs).toBe("ok"); // it waited for our commit instead
    expect(keys).toEqual(expect.arrayContaining(["ours", "other"]));
  });
});
