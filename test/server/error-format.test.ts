import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { z } from "zod";
import { routePattern } from "../../src/server/app.ts";
import { studyWithTestRun } from "./driver.ts";
import { freshStore, SLOW_BACKENDS, signIn, startApp, type TestApp, tiers } from "./helpers.ts";

/**
 * Every 4xx the server sends, whatever produced it (our routes, zod, Fastify's body parser and
 * router, Node's HTTP parser), is one format (docs/web-api.md, "Errors"):
 * `{ "error": { "code": "snake_case", "message": "..." } }` as JSON, nothing else in it.
 * The sweep sends every route of /openapi.json the ways clients get it wrong and checks each
 * reply; it also checks that every status the docs list actually occurs.
 */
const ErrorFormat = z
  .object({
    error: z
      .object({ code: z.string().regex(/^[a-z][a-z_]*$/), message: z.string().min(1) })
      .strict(),
  })
  .strict();

interface Reply {
  readonly status: number;
  readonly type: string;
  readonly body: string;
  readonly allow: string | null;
}

describe.each(SLOW_BACKENDS)("one error format for every 4xx (%s)", (kind) => {
  // npm test runs this block on SQLite; on PostgreSQL it runs in the sweep
  // test/sweeps/postgres/error-format.sweep.ts.
  const { it } = tiers(kind);
  let t: TestApp;
  let base: string;
  let port: number;
  let cookie: string;
  let token: string;
  let studyId: number;
  const seen = new Map<number, number>();
  const bad: string[] = [];

  /** Record a reply: every 4xx must be in the format; no 5xx at all. */
  const check = (what: string, r: Reply) => {
    seen.set(r.status, (seen.get(r.status) ?? 0) + 1);
    if (r.status >= 500) bad.push(`${what}: ${r.status} ${r.body.slice(0, 120)}`);
    if (r.status < 400 || r.status >= 500) return;
    let json: unknown;
    try {
      json = JSON.parse(r.body);
    } catch {
      json = undefined;
    }
    if (!r.type.startsWith("application/json") || !ErrorFormat.safeParse(json).success)
      bad.push(`${what}: ${r.status} ${r.type} ${r.body.slice(0, 120)}`);
  };

  const request = async (
    method: string,
    path: string,
    o: { body?: string; type?: string; cookie?: string; headers?: Record<string, string> } = {},
  ): Promise<Reply> => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.type) headers["content-type"] = o.type;
    if (o.cookie) headers.cookie = o.cookie;
    const res = await fetch(base + path, { method, headers, body: o.body });
    const r = {
      status: res.status,
      type: res.headers.get("content-type") ?? "",
      body: await res.text(),
      allow: res.headers.get("allow"),
    };
    check(`${method} ${path.slice(0, 80)}`, r);
    return r;
  };

  /** A raw HTTP exchange, for what fetch will not send (malformed requests). */
  const raw = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const s = connect(port, "127.0.0.1", () => s.end(text));
      let out = "";
      s.on("data", (d) => {
        out += d;
      });
      s.on("close", () => resolve(out));
      s.on("error", reject);
    });
  const rawReply = (text: string): Reply => {
    const [head = "", body = ""] = text.split("\r\n\r\n");
    const status = Number(head.split(" ")[1]);
    const type = /content-type: ([^\r\n]+)/i.exec(head)?.[1] ?? "";
    return { status, type, body, allow: null };
  };

  beforeAll(async () => {
    // The production rate limits, so 429 is reached as a client would reach it.
    t = await startApp(await freshStore(kind), { strictLimits: true });
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    const a = t.app.server.address();
    port = typeof a === "object" && a ? a.port : 0;
    base = `http://127.0.0.1:${port}`;
    cookie = await signIn(t);
    ({ id: studyId, token } = await studyWithTestRun(t, cookie, { strategy: "paper" }));
  });
  afterAll(async () => {
    await t.close();
  });

  it("every route, sent wrong in every way, answers 4xx as { error: { code, message } }", async () => {
    const spec = JSON.parse((await request("GET", "/openapi.json")).body) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = Object.entries(spec.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => ({ method: m.toUpperCase(), path })),
    );
    expect(routes.length).toBeGreaterThan(20);
    // What the participant state machine refuses (409: a comprehension answer on the consent
    // page), first, while the token's answer allowance lasts.
    const early = await request("POST", `/api/p/${token}/comprehension`, {
      body: JSON.stringify({ questionId: "count-missed", answer: "3" }),
      type: "application/json",
    });
    expect(early.status).toBe(409);
    const fill = (path: string, v: { token: string; id: string }) =>
      path.replace("{token}", v.token).replace("{id}", v.id).replace("{participantId}", v.id);
    const variants = [
      { token, id: String(studyId) },
      { token: "x".repeat(43), id: "999999" },
      { token: "short", id: "abc" },
      { token: "x".repeat(300), id: "3000000000" },
      { token: "%E0%A4%A", id: "-1" },
    ];
    const json = "application/json";
    for (const route of routes) {
      const bodyless = route.method === "GET";
      for (const v of variants) {
        const path = fill(route.path, v);
        for (const who of [undefined, cookie]) {
          await request(
            route.method,
            path,
            bodyless ? { cookie: who } : { body: "{}", type: json, cookie: who },
          );
          if (bodyless) continue;
          await request(route.method, path, { body: "{", type: json, cookie: who });
          await request(route.method, path, { body: "", type: json, cookie: who });
          await request(route.method, path, { body: '{"a":1}', type: "text/plain", cookie: who });
          await request(route.method, path, {
            body: "{}",
            type: json,
            cookie: who,
            headers: { origin: "https://evil.example" },
          });
        }
      }
      const path = fill(route.path, variants[0]!);
      if (route.method === "POST")
        await request(route.method, path, {
          body: JSON.stringify({ x: "y".repeat(1_100_000) }),
          type: json,
          cookie,
        });
      // A method the path does not take: 405 naming the ones it does (a draft's PUT and
      // DELETE share /api/studies/{id} with its GET).
      const taken = Object.keys(spec.paths[route.path]!).map((m) => m.toUpperCase());
      for (const method of ["PUT", "DELETE", "PATCH", "OPTIONS"].filter(
        (m) => !taken.includes(m),
      )) {
        const r = await request(method, path, { body: "{}", type: json, cookie });
        expect(r.status, `${method} ${route.path}`).toBe(405);
        expect(r.allow?.split(", "), `${method} ${route.path}`).toContain(route.method);
      }
      // Addresses too long for the server: a long query (414), longer than the parser takes (431).
      await request(route.method, `${path}?q=${"a".repeat(10_000)}`, { cookie });
      await request(route.method, path, { cookie, headers: { "x-filler": "a".repeat(20_000) } });
    }
    // Unknown routes.
    await request("GET", "/api/nothing-here");
    await request("POST", "/api/nothing-here", { body: "{}", type: json });
    // Malformed HTTP, answered by Node's parser through our handler.
    for (const text of [
      "GARBAGE\r\n\r\n",
      "POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}",
      `GET /api/studies?${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    ]) {
      check(`raw ${text.slice(0, 30)}`, rawReply(await raw(text)));
    }
    // Rate limits: guessed tokens from one address, then sign-in attempts.
    for (let i = 0; i < 40; i++) await request("GET", `/api/p/${"g".repeat(40)}${i}`);
    for (let i = 0; i < 15; i++)
      await request("POST", "/api/auth/login", {
        body: JSON.stringify({ email: "nobody@example.org", password: "wrong password" }),
        type: json,
      });

    expect(bad).toEqual([]);
    // Every status docs/web-api.md lists under "Errors" happened at least once.
    for (const status of [400, 401, 403, 404, 405, 409, 413, 414, 415, 429, 431])
      expect(seen.get(status) ?? 0, `status ${status}`).toBeGreaterThan(0);
  });

  it("routePattern matches a route's concrete paths and nothing else", () => {
    const p = routePattern("/api/studies/:id/export/answers.csv");
    expect(p.test("/api/studies/3/export/answers.csv")).toBe(true);
    expect(p.test("/api/studies/3/export/answersXcsv")).toBe(false);
    expect(p.test("/api/studies//export/answers.csv")).toBe(false);
    expect(p.test("/api/studies/3/4/export/answers.csv")).toBe(false);
    expect(routePattern("/api/p/:token").test("/api/p/abc/answer")).toBe(false);
  });
});
