import { describe, expect, it } from "vitest";
import { buildApp, isCanonicalPath } from "../../src/server/app.ts";
import { ensureTemplateStudy } from "../../src/server/bootstrap.ts";
import { openDb } from "../../src/server/db/connect.ts";
import { redactUrl, serverLogger } from "../../src/server/log-redaction.ts";
import { createParticipants } from "../../src/server/routes/researcher.ts";
import { serve } from "../../src/server/serve.ts";
import { capturedStderr } from "../capture-stderr.ts";
import { tempDir } from "../temp-dir.ts";

describe("the server log", () => {
  it("redactUrl replaces participant tokens and query values", () => {
    expect(redactUrl("/p/abcDEF_123")).toBe("/p/[token]");
    expect(redactUrl("/api/p/abc/answer")).toBe("/api/p/[token]/answer");
    expect(redactUrl("/api/p/abc?x=1&y")).toBe("/api/p/[token]?x=[redacted]&y=[redacted]");
    expect(redactUrl("/api/studies/3/export.json")).toBe("/api/studies/3/export.json");
    expect(redactUrl("/app/p/x")).toBe("/app/p/[token]");
  });

  it("holds no participant token or cookie after a participant's requests", async () => {
    const lines: string[] = [];
    const { db, kind } = await openDb({ dataDir: tempDir("elicit-log-") });
    const study = await ensureTemplateStudy(db);
    const [token] = await createParticipants(db, study!, 1, true);
    const app = await buildApp({
      db,
      kind,
      logger: serverLogger("info", { write: (l) => lines.push(l) }),
    });
    try {
      const cookie = "elicit_session=s3cr3t-cookie-value";
      await app.inject({ url: `/api/p/${token}`, headers: { cookie } });
      await app.inject({
        method: "POST",
        url: `/api/p/${token}/consent`,
        payload: {},
        headers: { cookie },
      });
      await app.inject({ url: `/p/${token}?ref=${token}` });
      await app.inject({ url: `/api/p/${"x".repeat(43)}` });
      const log = lines.join("");
      // The requests were logged (so the check below means something) ...
      expect(log).toMatch(/"url":"\/api\/p\/\[token\]"/);
      expect(log).toMatch(/"url":"\/api\/p\/\[token\]\/consent"/);
      // ... without the token or the cookie anywhere.
      expect(log).not.toContain(token!);
      expect(log).not.toContain("x".repeat(43));
      expect(log).not.toContain("s3cr3t-cookie-value");
    } finally {
      await app.close();
      await db.destroy();
    }
  });
});

describe("issue 28 item 5: redaction by any spelling, and one spelling per address", () => {
  it("defect: /api/%70/TOKEN, /P/TOKEN, /api/P/TOKEN and /api/p//TOKEN reached the participant API or logged the token", async () => {
    const lines: string[] = [];
    const { db, kind } = await openDb({ dataDir: tempDir("elicit-log-") });
    const study = await ensureTemplateStudy(db);
    const [token] = await createParticipants(db, study!, 1, true);
    const app = await buildApp({
      db,
      kind,
      webDist: null,
      logger: serverLogger("info", { write: (l) => lines.push(l) }),
    });
    try {
      // The plain spelling works (so the others failing means something) ...
      expect((await app.inject({ url: `/api/p/${token}` })).statusCode).toBe(200);
      // ... the others do not reach the participant API.
      for (const url of [
        `/api/%70/${token}`,
        `/api/p//${token}`,
        `/api/%70/${token}/answer`,
        `/api/p/%${token!.charCodeAt(0).toString(16)}${token!.slice(1)}`,
      ]) {
        const r = await app.inject({ url });
        expect(r.statusCode, url).toBe(400);
        expect(r.json().error.code).toBe("bad_url");
      }
      // A capital P: no route of the API (404); the page address is the browser app's, whose
      // own router knows only /p/ (no participant state is sent).
      expect((await app.inject({ url: `/api/P/${token}` })).statusCode).toBe(404);
      const page = await app.inject({ url: `/P/${token}` });
      expect(page.headers["content-type"]).not.toMatch(/json/);
      expect(page.body).not.toContain('"phase"');
      const log = lines.join("");
      expect(log).toMatch(/"url":"\/api\/p\/\[token\]"/);
      expect(log).not.toContain(token!);
      expect(log).not.toContain(token!.slice(1));
    } finally {
      await app.close();
      await db.destroy();
    }
  });

  it("redactUrl hides a token whatever its spelling; isCanonicalPath tells the plain one", () => {
    const t = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcd";
    for (const url of [`/api/%70/${t}`, `/P/${t}`, `/api/P/${t}/answer`, `/api/p//${t}`, `/x/${t}`])
      expect(redactUrl(url), url).not.toContain(t.slice(2));
    expect(redactUrl(`/api/P/${t}/answer`)).toBe("/api/p/[token]/answer");
    expect(redactUrl("/assets/index-AbC123xyz.js")).toBe("/assets/index-AbC123xyz.js");
    expect(isCanonicalPath("/api/p/abc?q=%70")).toBe(true);
    expect(isCanonicalPath("/api/%70/abc")).toBe(false);
    expect(isCanonicalPath("/api/p//abc")).toBe(false);
    expect(isCanonicalPath("/api/p/a%2Db")).toBe(false);
    expect(isCanonicalPath("/api/studies/3/export/a%20b")).toBe(true);
  });

  it("defect: the start-up banner wrote a live test-run link to the log on first start", async () => {
    const dataDir = tempDir("elicit-banner-");
    const { value: app, text: banner } = await capturedStderr(() =>
      serve({ port: 0, host: "127.0.0.1", dataDir, log: false, interactive: false }),
    );
    await app.close();
    expect(banner).toContain('created the built-in study "Cancer diagnosis"');
    expect(banner).toContain("press Test run");
    expect(banner).not.toMatch(/\/p\/[A-Za-z0-9_-]{20,}/);
  });
});
