import { afterEach, describe, expect, it } from "vitest";
import { trustProxyOf } from "../../src/cli/commands/serve.ts";
import { normalizePublicUrl, trustedHops } from "../../src/server/app.ts";
import { call, freshStore, PASSWORD, signIn, startApp, type TestApp } from "./helpers.ts";

/** Issue 14 item 6: links never built from the Host header; running behind an HTTPS proxy. */
describe("invite links and proxies", () => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    for (const a of apps.splice(0)) await a.close();
  });
  async function app(o: Parameters<typeof startApp>[1] = {}) {
    const t = await startApp(await freshStore("sqlite"), o);
    apps.push(t);
    return t;
  }
  async function invite(t: TestApp, headers: Record<string, string> = {}) {
    const cookie = await signIn(t);
    const studies = (await call(t, "GET", "/api/studies", undefined, cookie)).body.studies;
    const r = await t.app.inject({
      method: "POST",
      url: `/api/studies/${studies[0].id}/invites`,
      payload: { count: 1 },
      headers: { cookie, ...headers },
    });
    expect(r.statusCode).toBe(200);
    return r.json().links[0] as string;
  }

  it("a forged Host header never reaches an invite link", async () => {
    const t = await app();
    const link = await invite(t, { host: "evil.example" });
    expect(link).toMatch(/^\/p\/[A-Za-z0-9_-]{43}$/);
    expect(link).not.toContain("evil");
  });

  it("with a public URL, links are built on it whatever the Host", async () => {
    const t = await app({ publicUrl: "https://study.example.org/lab/" });
    const link = await invite(t, { host: "evil.example" });
    expect(link).toMatch(/^https:\/\/study\.example\.org\/lab\/p\/[A-Za-z0-9_-]{43}$/);
    expect(() => normalizePublicUrl("javascript:alert(1)")).toThrow(RangeError);
    expect(() => normalizePublicUrl("https://x.org/?a=1")).toThrow(RangeError);
  });

  it("behind a trusted proxy, clients get their own sign-in rate limit and Secure cookies", async () => {
    const t = await app({ strictLimits: true, trustProxy: true });
    await signIn(t); // creates the researcher
    const login = (ip: string, password = "wrong password!") =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email: "r@example.org", password },
        headers: { "x-forwarded-for": ip, "x-forwarded-proto": "https" },
      });
    // One client exhausts its bucket ...
    let limited = false;
    for (let i = 0; i < 30 && !limited; i++)
      limited = (await login("203.0.113.7")).statusCode === 429;
    expect(limited).toBe(true);
    // ... another client behind the same proxy still signs in, over https: a Secure cookie.
    const ok = await login("203.0.113.8", PASSWORD);
    expect(ok.statusCode).toBe(200);
    expect(String(ok.headers["set-cookie"])).toMatch(/;\s*Secure/i);
  });

  it("issue 28 item 2: a client's own X-Forwarded-For cannot reset the per-IP limits behind a trusted proxy", async () => {
    const t = await app({ strictLimits: true, trustProxy: 1 });
    await signIn(t);
    // The client writes a new address in front each time; the proxy appends the address it
    // saw (always the same client): the limit keys on that, the right-most untrusted hop.
    let limited = false;
    let tries = 0;
    for (; tries < 40 && !limited; tries++) {
      const r = await t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email: "r@example.org", password: "wrong password!" },
        headers: { "x-forwarded-for": `198.51.100.${tries}, 203.0.113.9` },
      });
      limited = r.statusCode === 429;
    }
    expect(limited).toBe(true);
    expect(tries).toBeLessThan(40);
    // Two proxies trusted: the address the first one saw is the client's.
    const two = await app({ strictLimits: true, trustProxy: 2 });
    await signIn(two);
    let limitedTwo = false;
    for (let i = 0; i < 40 && !limitedTwo; i++) {
      const r = await two.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email: "r@example.org", password: "wrong password!" },
        headers: { "x-forwarded-for": `198.51.100.${i}, 203.0.113.9, 10.0.0.2` },
      });
      limitedTwo = r.statusCode === 429;
    }
    expect(limitedTwo).toBe(true);
    expect(trustedHops(true)).toBe(1);
    expect(() => trustedHops(0.5)).toThrow(RangeError);
    expect(trustProxyOf(undefined)).toBe(false);
    expect(trustProxyOf(true)).toBe(1);
    expect(trustProxyOf("2")).toBe(2);
    expect(() => trustProxyOf("yes")).toThrow(/not a number of proxies/);
  });

  it("without --trust-proxy, X-Forwarded-For is ignored (one bucket for the direct client)", async () => {
    const t = await app({ strictLimits: true });
    await signIn(t);
    let limited = false;
    for (let i = 0; i < 30 && !limited; i++) {
      const r = await t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email: "r@example.org", password: "wrong password!" },
        headers: { "x-forwarded-for": `198.51.100.${i}` },
      });
      limited = r.statusCode === 429;
    }
    expect(limited).toBe(true);
  });
});

describe("cross-site requests (CSRF)", () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  it("refuses non-JSON and foreign-origin POSTs, accepts JSON from our own origin", async () => {
    t = await startApp(await freshStore("sqlite"));
    const cookie = await signIn(t);
    const id = (await call(t, "GET", "/api/studies", undefined, cookie)).body.studies[0].id;
    const url = `/api/studies/${id}/test-run`;
    // The attack from the issue: a cross-origin text/plain POST riding the session cookie.
    const plain = await t.app.inject({
      method: "POST",
      url,
      payload: "{}",
      headers: { cookie, "content-type": "text/plain", origin: "https://evil.example" },
    });
    expect(plain.statusCode).toBe(415);
    const form = await t.app.inject({
      method: "POST",
      url,
      payload: "a=1",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.statusCode).toBe(415);
    const foreign = await t.app.inject({
      method: "POST",
      url,
      payload: {},
      headers: { cookie, origin: "https://evil.example", host: "localhost:8080" },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error.code).toBe("cross_origin");
    const ours = await t.app.inject({
      method: "POST",
      url,
      payload: {},
      headers: { cookie, origin: "https://localhost:8080", host: "localhost:8080" },
    });
    expect(ours.statusCode).toBe(200);
    // No Origin at all (curl, scripts): JSON is still required, then allowed.
    expect(
      (await t.app.inject({ method: "POST", url, payload: {}, headers: { cookie } })).statusCode,
    ).toBe(200);
    // Nothing was created by the refused requests: two test runs, from the two accepted.
    const rows = (await call(t, "GET", `/api/studies/${id}/participants`, undefined, cookie)).body
      .participants;
    expect(rows.filter((r: { test: boolean }) => r.test)).toHaveLength(2);
    // Signing out has no body, and is JSON all the same (a forged form cannot sign anyone
    // out); the refusal says what to send.
    const bare = await t.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { cookie },
    });
    expect(bare.statusCode).toBe(415);
    expect(bare.json().error.message).toBe(
      "send the request as application/json (the body {} when there is nothing to send)",
    );
    expect((await call(t, "GET", "/api/auth/me", undefined, cookie)).status).toBe(200);
    const out = await t.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      payload: {},
      headers: { cookie },
    });
    expect(out.statusCode).toBe(200);
    expect((await call(t, "GET", "/api/auth/me", undefined, cookie)).status).toBe(401);
  });
});

describe("researcher sessions", () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  it("expired sessions are deleted when anyone signs in (issue 14 item 10)", async () => {
    t = await startApp(await freshStore("sqlite"));
    await signIn(t);
    const researcher = await t.db.selectFrom("researchers").select("id").executeTakeFirstOrThrow();
    await t.db
      .insertInto("sessions")
      .values({
        id: "expired-session-hash",
        researcher_id: researcher.id,
        created_at: "2020-01-01T00:00:00.000Z",
        expires_at: "2020-01-08T00:00:00.000Z",
      })
      .execute();
    await signIn(t, "second@example.org");
    const ids = (await t.db.selectFrom("sessions").select("id").execute()).map((r) => r.id);
    expect(ids).not.toContain("expired-session-hash");
    expect(ids.length).toBeGreaterThanOrEqual(1);
  });
});
