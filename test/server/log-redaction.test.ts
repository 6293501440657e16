import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/server/app.ts";
import { ensureTemplateStudy } from "../../src/server/bootstrap.ts";
import { openDb } from "../../src/server/db/connect.ts";
import { redactUrl, serverLogger } from "../../src/server/log-redaction.ts";
import { createParticipants } from "../../src/server/routes/researcher.ts";

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
    const { db, kind } = await openDb({ dataDir: mkdtempSync(join(tmpdir(), "elicit-log-")) });
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
