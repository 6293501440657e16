import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { prepareBinaryFromPredictions } from "../../src/population/binary.ts";
import { buildApp } from "../../src/server/app.ts";
import { openDb } from "../../src/server/db/connect.ts";
import { createRateLimiter } from "../../src/server/security/rate-limit.ts";
import { tempDir } from "../temp-dir.ts";
import { chooser, finePredictionsCsv, finish, walkToElicitation } from "./driver.ts";
import { BACKENDS, call, freshStore, signIn, startApp, type TestApp, tokenOf } from "./helpers.ts";

describe("serving the browser UI", () => {
  const apps: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    for (const a of apps.splice(0)) await a.close();
  });

  it("serves a page saying the bundle is missing when web/dist is absent", async () => {
    const { db, kind } = await openDb({ dataDir: tempDir("elicit-ui-") });
    const app = await buildApp({ db, kind, webDist: join(tmpdir(), "no-such-dist") });
    apps.push(app, { close: () => db.destroy() });
    for (const url of ["/", "/p/abc"]) {
      const r = await app.inject(url);
      expect(r.statusCode).toBe(200);
      expect(r.headers["content-type"]).toMatch(/text\/html/);
      expect(r.body).toMatch(/has not been built/);
    }
    const api = await app.inject("/api/nothing");
    expect(api.statusCode).toBe(404);
    expect(api.json().error.code).toBe("not_found");
  });

  it("serves the built bundle and its index.html for client-side routes", async () => {
    const dist = tempDir("elicit-dist-");
    writeFileSync(join(dist, "index.html"), "<!doctype html><title>app</title>");
    writeFileSync(join(dist, "app.js"), "console.log(1)");
    const { db, kind } = await openDb({ dataDir: tempDir("elicit-ui-") });
    const app = await buildApp({ db, kind, webDist: dist });
    apps.push(app, { close: () => db.destroy() });
    expect((await app.inject("/app.js")).body).toBe("console.log(1)");
    for (const url of ["/", "/p/some-token", "/studies/3"]) {
      expect((await app.inject(url)).body).toMatch(/<title>app<\/title>/);
    }
  });
});

describe.each(BACKENDS)("limits and other families (%s)", (kind) => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  it("rate-limits a participant's answers", async () => {
    // burst 30 and (almost) no refill, so the test does not depend on the machine's speed
    t = await startApp(await freshStore(kind), {
      limits: { answers: createRateLimiter(30, 1e-6) },
    });
    const cookie = await signIn(t);
    const link = (await call(t, "POST", "/api/studies/1/invites", { count: 1 }, cookie)).body
      .links[0];
    const token = tokenOf(link);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      statuses.push(
        (await call(t, "POST", `/api/p/${token}/answer`, { questionId: 0, choice: "left" })).status,
      );
    }
    // The burst reaches the handler (at the consent page Phase II is not open yet: 409), the
    // rest is refused before it.
    expect(statuses.slice(0, 30).every((s) => s === 409)).toBe(true);
    expect(statuses.slice(30).every((s) => s === 429)).toBe(true);
  });

  it("runs a binary-linear study and reports tp/tn weights", async () => {
    t = await startApp(await freshStore(kind), { template: false });
    const cookie = await signIn(t);
    const csv = finePredictionsCsv();
    const created = await call(
      t,
      "POST",
      "/api/studies",
      {
        name: "linear",
        predictionsCsv: csv,
        positive: "yes",
        family: "binary-linear",
        evaluationPairs: 6,
      },
      cookie,
    );
    expect(created.body.study).toMatchObject({ family: "binary-linear", tolerance: 0.02 });
    await call(t, "POST", `/api/studies/${created.body.study.id}/open`, { mode: "live" }, cookie);
    const link = (
      await call(t, "POST", `/api/studies/${created.body.study.id}/invites`, { count: 1 }, cookie)
    ).body.links[0];
    const token = tokenOf(link);
    const pool = prepareBinaryFromPredictions(csv, { positive: "yes" }).pool;
    // a0 = 0.25 is the linear metric 0.75 TP + 0.25 TN; the linear search's points are
    // Bayes classifiers with thresholds on the same scale, so the same chooser applies
    const choose = chooser(pool, 0.25, 0);
    let s = await walkToElicitation(t, token);
    while (s.phase === "elicitation") {
      const q = s.elicitation!.question;
      s = (
        await call(t, "POST", `/api/p/${token}/answer`, {
          questionId: q.id,
          choice: choose(q.left, q.right),
        })
      ).body;
    }
    s = await finish(t, token, s, choose);
    const m = s.debrief!.metric as { tp: number; tn: number };
    expect(Math.hypot(m.tp, m.tn)).toBeCloseTo(1, 10);
    expect(m.tn / (m.tp + m.tn)).toBeCloseTo(0.25, 1);
    expect(s.debrief!.ratio).toBeCloseTo(m.tp / m.tn, 10);
  });
});

describe.each(BACKENDS)("withdrawal (%s)", (kind) => {
  it("lets a participant withdraw mid-way and keeps their answers", async () => {
    const t = await startApp(await freshStore(kind));
    try {
      const cookie = await signIn(t);
      const link = (await call(t, "POST", "/api/studies/1/invites", { count: 1 }, cookie)).body
        .links[0];
      const token = tokenOf(link);
      const s = await walkToElicitation(t, token);
      await call(t, "POST", `/api/p/${token}/answer`, {
        questionId: s.elicitation!.question.id,
        choice: "same",
      });
      const w = await call(t, "POST", `/api/p/${token}/withdraw`, {});
      expect(w.body.phase).toBe("withdrawn");
      const again = await call(t, "POST", `/api/p/${token}/answer`, {
        questionId: 1,
        choice: "left",
      });
      expect(again.body).toMatchObject({ phase: "withdrawn", duplicate: true });
      expect(await t.db.selectFrom("answers").select("id").execute()).toHaveLength(1);
      const list = await call(t, "GET", "/api/studies/1/participants", undefined, cookie);
      expect(list.body.participants[0]).toMatchObject({ status: "withdrawn", answered: 1 });
    } finally {
      await t.close();
    }
  });
});

describe("the answer log", () => {
  it("ignores an answer that raced an undo (stored before the re-answer of an earlier question)", async () => {
    const { effectiveRows } = await import("../../src/server/participant/service.ts");
    const row = (id: number, question_index: number, undone: boolean) =>
      ({
        id,
        question_index,
        phase: "elicitation",
        undone_at: undone ? "t" : null,
      }) as Parameters<typeof effectiveRows>[0][number];
    // q0 answered (1), undone; q1 answered concurrently (2); q0 answered again (3)
    const rows = [row(1, 0, true), row(2, 1, false), row(3, 0, false)];
    expect(effectiveRows(rows, "elicitation").map((r) => r.id)).toEqual([3]);
    expect(effectiveRows([row(1, 0, false), row(2, 1, false)], "elicitation")).toHaveLength(2);
    // Issue 14: the participant then answers q1 again (4): the stale row 2 must not block it,
    // nor the answer after (5): a stuck participant's answers were acknowledged and ignored.
    const later = [...rows, row(4, 1, false), row(5, 2, false)];
    expect(effectiveRows(later, "elicitation").map((r) => r.id)).toEqual([3, 4, 5]);
  });
});

describe("security headers", () => {
  it("sends no-referrer, nosniff, a content security policy, and cache-control no-store on API answers and exports", async () => {
    const { db, kind } = await openDb({ dataDir: tempDir("elicit-h-") });
    const app = await buildApp({ db, kind, webDist: null });
    try {
      for (const url of ["/", "/healthz", "/api/p/x"]) {
        const r = await app.inject(url);
        expect(r.headers["referrer-policy"]).toBe("no-referrer");
        expect(r.headers["x-content-type-options"]).toBe("nosniff");
        expect(String(r.headers["content-security-policy"])).toMatch(/default-src 'self'/);
      }
      // API answers, exports and participant pages are never cached; static files may be.
      for (const url of ["/api/p/x", "/api/studies/1/export/participants.csv", "/p/abc"])
        expect((await app.inject(url)).headers["cache-control"]).toBe("no-store");
      expect((await app.inject("/healthz")).headers["cache-control"]).toBeUndefined();
    } finally {
      await app.close();
      await db.destroy();
    }
  });
});

describe("over-long requests", () => {
  it("answer 414 in the API's error format (not Fastify's) without echoing the address, and 413 on a participant route without speaking of CSV", async () => {
    const { db, kind } = await openDb({ dataDir: tempDir("elicit-long-") });
    const app = await buildApp({ db, kind, webDist: null });
    try {
      const token = "x".repeat(300);
      const long = await app.inject(`/api/p/${token}`);
      expect(long.statusCode).toBe(414);
      expect(long.json()).toEqual({
        error: { code: "uri_too_long", message: "the address is too long" },
      });
      expect(long.body).not.toContain(token);
      const big = await app.inject({
        method: "POST",
        url: "/api/p/abc/post",
        payload: JSON.stringify({ answers: { q1: "x".repeat(2_000_000) } }),
        headers: { "content-type": "application/json" },
      });
      expect(big.statusCode).toBe(413);
      expect(big.json().error.message).toBe("the request body is too large (at most 1 MB)");
    } finally {
      await app.close();
      await db.destroy();
    }
  });
});

describe("SQLite durability", () => {
  it("commits with synchronous = FULL (an acknowledged answer survives an OS crash)", async () => {
    const { db } = await openDb({ dataDir: tempDir("elicit-sync-") });
    try {
      const r = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
      expect(r.rows[0]!.synchronous).toBe(2); // 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA
    } finally {
      await db.destroy();
    }
  });
});
