import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { jsonTooDeep } from "../../src/server/security/json-depth.ts";
import { call, freshStore, signIn, startApp, type TestApp, tokenOf } from "./helpers.ts";

// Issue 28 item 3: anonymous deeply nested JSON stalled the event loop, because bodies were
// parsed before the token or session check. Now a researcher route with a body checks the
// session before reading it, a participant's or a sign-in body is small, and no body nests
// deeper than 32 levels (checked on the text, before parsing).

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

describe("issue 28 item 3: body limits before parsing (sqlite)", () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startApp(await freshStore("sqlite"));
  });
  afterEach(async () => {
    await t.close();
  });

  const post = (url: string, payload: string, cookie?: string) =>
    t.app.inject({
      method: "POST",
      url,
      payload,
      headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    });

  it("defect: a researcher route's anonymous 2 MB of nested arrays is refused unread (401)", async () => {
    const r = await post("/api/studies", nested(1024 * 1024));
    expect(r.statusCode).toBe(401);
    expect(r.json().error.code).toBe("unauthorized");
    // Signed in, the same body is read and refused for its depth (not parsed).
    const cookie = await signIn(t);
    const deep = await post("/api/studies", nested(1024 * 1024), cookie);
    expect(deep.statusCode).toBe(400);
    expect(deep.json().error.code).toBe("too_deep");
    // A real request of a signed-in researcher still goes through.
    const ok = await post(
      "/api/studies",
      JSON.stringify({ name: "Flowers", kind: "multiclass", dataset: "iris" }),
      cookie,
    );
    expect(ok.statusCode).toBe(200);
  });

  it("defect: participants' and sign-in bodies are small, and never nest deep", async () => {
    const cookie = await signIn(t);
    const id = (await call(t, "GET", "/api/studies", undefined, cookie)).body.studies[0].id;
    const token = tokenOf(
      (await call(t, "POST", `/api/studies/${id}/test-run`, {}, cookie)).body.link,
    );
    const deep = await post(`/api/p/${token}/consent`, nested(100));
    expect(deep.statusCode).toBe(400);
    expect(deep.json().error.code).toBe("too_deep");
    const big = await post(
      `/api/p/${token}/questionnaire`,
      JSON.stringify({ answers: { a: "x".repeat(300 * 1024) } }),
    );
    expect(big.statusCode).toBe(413);
    const login = await post(
      "/api/auth/login",
      JSON.stringify({ email: "r@example.org", password: "x".repeat(20 * 1024) }),
    );
    expect(login.statusCode).toBe(413);
    // The participant carries on with a plain answer.
    const ok = await post(`/api/p/${token}/consent`, JSON.stringify({ agree: true }));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().phase).toBe("questionnaire");
  });

  it("jsonTooDeep counts nesting outside strings only", () => {
    expect(jsonTooDeep(nested(32), 32)).toBe(false);
    expect(jsonTooDeep(nested(33), 32)).toBe(true);
    expect(jsonTooDeep(JSON.stringify({ s: "[[[[[[[[[[" }), 2)).toBe(false);
    expect(jsonTooDeep(JSON.stringify({ s: 'a\\"[[[[' }), 2)).toBe(false);
    expect(jsonTooDeep('{"a":{"b":{"c":[1]}}}', 3)).toBe(true);
  });
});
