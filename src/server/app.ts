import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyCookie from "@fastify/cookie";
import fastifyStatic from "@fastify/static";
import fastifySwagger from "@fastify/swagger";
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from "fastify";
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { z } from "zod";
import { DataError } from "../data/errors.ts";
import { VERSION } from "../version.ts";
import { requireResearcher } from "./auth.ts";
import { isPoolTimeout } from "./db/connect.ts";
import type { Db, DbKind } from "./db/schema.ts";
import { ApiError } from "./errors.ts";
import { participantRoutes } from "./routes/participant.ts";
import { researcherRoutes } from "./routes/researcher.ts";
import { jsonTooDeep } from "./security/json-depth.ts";
import { createRateLimiter, type RateLimiter } from "./security/rate-limit.ts";
import { newToken } from "./security/tokens.ts";
import { missingUiPage } from "./ui-missing.ts";

export interface AppOptions {
  readonly db: Db;
  readonly kind: DbKind;
  /** Fastify's logger option (false in tests; pino JSON lines when serving). */
  readonly logger?: FastifyServerOptions["logger"];
  /** The built browser UI (default `web/dist` of this package); null disables it. */
  readonly webDist?: string | null;
  /** Mark the session cookie Secure even on plain HTTP (behind a TLS proxy without --trust-proxy). */
  readonly secureCookies?: boolean;
  /**
   * Behind reverse proxies: how many (a number of hops; true is 1) to trust for
   * X-Forwarded-For / -Proto. The client's address (the rate limits' key) is then the right-
   * most address no trusted proxy added, so a client cannot choose it by writing the header
   * itself (issue 28 item 2); https from the proxy marks cookies Secure. Off by default: a
   * direct client could forge them.
   */
  readonly trustProxy?: boolean | number;
  /**
   * The address participants reach the app at (e.g. "https://study.example.org"): invite links
   * are built on it. Without it links are relative ("/p/TOKEN"): the Host header a client
   * sends is never trusted to build them.
   */
  readonly publicUrl?: string;
  /**
   * Where new participants' seeds come from (default cryptographically random, `newSeed`).
   * A participant's seed draws their sides of the screen and Phase III's pairs; tests pass a
   * fixed sequence so that every run asks the same pairs.
   */
  readonly participantSeed?: () => number;
  /** Override the rate limits (tests and benchmarks). */
  readonly limits?: {
    readonly login?: RateLimiter;
    readonly answers?: RateLimiter;
    readonly misses?: RateLimiter;
  };
}

/** The default location of the built UI. */
export const DEFAULT_WEB_DIST = fileURLToPath(new URL("../../web/dist", import.meta.url));

/** The secret that signs researcher cookies: stored in the database, created once. */
async function cookieSecret(db: Db): Promise<string> {
  const get = () =>
    db.selectFrom("settings").select("value").where("key", "=", "cookie_secret").executeTakeFirst();
  const found = await get();
  if (found) return found.value;
  await db
    .insertInto("settings")
    .values({ key: "cookie_secret", value: newToken() })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
  return (await get())!.value;
}

function errorMessageOf(err: unknown): string {
  const issues = (err as { validation?: { message?: string; instancePath?: string }[] }).validation;
  if (Array.isArray(issues) && issues.length > 0) {
    return issues
      .map((i) => {
        // fastify-type-provider-zod puts the zod path in instancePath ("/budget", "/words/x").
        const where = (i.instancePath ?? "").split("/").filter((x) => x !== "");
        const path = where.length > 0 ? `${where.join(".")}: ` : "";
        return `${path}${i.message ?? "invalid"}`;
      })
      .join("; ");
  }
  return (err as Error).message;
}

/**
 * A public base URL without its trailing slash; refuses anything but an http(s) origin and path.
 * @example normalizePublicUrl("https://study.example.org/") // "https://study.example.org"
 */
export function normalizePublicUrl(text: string): string {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new RangeError(`the public URL "${text}" is not a URL`);
  }
  if (!(u.protocol === "https:" || u.protocol === "http:") || u.search || u.hash || u.username)
    throw new RangeError(`the public URL "${text}" must be http(s)://host[/path], nothing more`);
  return u.href.replace(/\/+$/, "");
}

/**
 * Whether a browser's Origin header names this server: the public URL's origin, or the host
 * the request was sent to (the scheme is not compared: behind a TLS proxy the app sees http).
 */
function sameOrigin(origin: string, host: string, publicUrl?: string): boolean {
  if (publicUrl !== undefined && origin === new URL(publicUrl).origin) return true;
  try {
    return new URL(origin).host === host;
  } catch {
    return false; // "null" (sandboxed pages, file:) or garbage
  }
}

/** Longest request address (path and query) answered; longer ones are 414. */
const MAX_URL_LENGTH = 8192;

/**
 * A route's path (`/api/p/:token/answer`) as a regular expression matching concrete paths
 * (a parameter is one non-empty path segment; `*` anything).
 * @example routePattern("/api/studies/:id").test("/api/studies/3") // true
 */
export function routePattern(url: string): RegExp {
  const body = url
    .split("/")
    .map((seg) =>
      seg === "*"
        ? ".*"
        : seg.startsWith(":")
          ? "[^/]+"
          : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\\\*/g, ".*"),
    )
    .join("/");
  return new RegExp(`^${body}/?$`);
}

/**
 * The raw HTTP response for a request Node's parser refused (`clientError`), in the API's
 * error format: 431 for headers (or an address) over the size limit, 408 for a request that
 * timed out, else 400. The connection is closed after it.
 * @example clientErrorResponse("HPE_HEADER_OVERFLOW") // "HTTP/1.1 431 Request Header Fields Too Large\r\n..."
 */
export function clientErrorResponse(code: string | undefined): string {
  const [status, reason, error] =
    code === "HPE_HEADER_OVERFLOW"
      ? [
          431,
          "Request Header Fields Too Large",
          { code: "headers_too_large", message: "the address or headers are too large" },
        ]
      : code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", { code: "timeout", message: "the request took too long" }]
        : [400, "Bad Request", { code: "bad_http", message: "the request is not valid HTTP" }];
  const body = JSON.stringify({ error });
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`;
}

/** Whether any string in a parsed JSON value contains a NUL character. */
function hasNul(v: unknown, depth = 0): boolean {
  if (typeof v === "string") return v.includes("\u0000");
  if (v === null || typeof v !== "object" || depth > 64) return false;
  for (const [k, x] of Object.entries(v))
    if (k.includes("\u0000") || hasNul(x, depth + 1)) return true;
  return false;
}

/** The largest body a participant's request may have (their answers are short). */
export const PARTICIPANT_BODY_LIMIT = 256 * 1024;
/** The largest sign-in body. */
export const LOGIN_BODY_LIMIT = 16 * 1024;
/** How deep a JSON body may nest (a study's create request nests about 6 levels). */
export const MAX_JSON_DEPTH = 32;
/** Researcher routes with a body that need no session. */
const PUBLIC_BODY_ROUTES = new Set(["/api/auth/login", "/api/auth/logout"]);

/**
 * Whether a request URL's path is spelled plainly: no empty segment ("//") and no percent
 * escape of a character that needs none (a letter, a digit, "-", ".", "_" or "~").
 * @example isCanonicalPath("/api/%70/abc") // false
 */
export function isCanonicalPath(url: string): boolean {
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  return (
    !path.includes("//") &&
    !/%(?:[46][1-9A-Fa-f]|[57][0-9Aa]|3[0-9]|2[DdEe]|5[Ff]|7[Ee])/.test(path)
  );
}

/**
 * The number of proxies to trust from `AppOptions.trustProxy` (false: none).
 * @example trustedHops(true) // 1
 */
export function trustedHops(trust: boolean | number | undefined): number | false {
  if (trust === undefined || trust === false) return false;
  if (trust === true) return 1;
  if (!Number.isInteger(trust) || trust < 1 || trust > 10)
    throw new RangeError(`trust-proxy: ${trust} is not a number of proxies from 1 to 10`);
  return trust;
}

/**
 * Build the web app (not listening): participant and researcher APIs, `/healthz`,
 * `/openapi.json` and the browser UI. Call `app.close()` to release it (the database stays
 * open; the caller owns it).
 * @example const app = await buildApp({ db, kind: "sqlite", logger: false }); await app.inject("/healthz");
 */
export async function buildApp(o: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: o.logger ?? false,
    bodyLimit: 1024 * 1024,
    // The first n hops back from the socket are the trusted proxies (the socket's peer is hop
    // 0): the client is the address before them, the right-most one they did not add. Never
    // `true`, which takes the left-most address, the one a client writes itself.
    ...(trustedHops(o.trustProxy) === false
      ? {}
      : {
          trustProxy: (_address: string, hop: number) =>
            hop < (trustedHops(o.trustProxy) as number),
        }),
    // The router's own errors (a path segment over 100 characters, a malformed URL) in our
    // error format, without echoing the URL (it may hold a token).
    frameworkErrors: (err, _req, reply) => {
      const long = err.code === "FST_ERR_MAX_PARAM_LENGTH";
      const body = {
        error: long
          ? { code: "uri_too_long", message: "the address is too long" }
          : { code: "bad_url", message: "the address is not a valid URL" },
      };
      (reply as FastifyReply).code(long ? 414 : 400).send(body);
    },
    // What Node's HTTP parser refuses before any route runs (headers or address over 16 KB,
    // malformed HTTP, a request that never finishes) in our error format too.
    clientErrorHandler: (err, socket) => {
      if ((err as { code?: string }).code === "ECONNRESET" || socket.destroyed) return;
      if (socket.writable) socket.write(clientErrorResponse((err as { code?: string }).code));
      socket.destroy(err);
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof ApiError) {
      return reply.code(err.status).send({ error: { code: err.code, message: err.message } });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      return reply
        .code(400)
        .send({ error: { code: "invalid_request", message: errorMessageOf(err) } });
    }
    if (err instanceof DataError) {
      return reply.code(400).send({ error: { code: "invalid_data", message: err.message } });
    }
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    if (status === 413) {
      // Only creating a study or replacing a draft's takes an upload (a CSV of at most 5 MB);
      // elsewhere it is the body.
      const path = req.url.split("?")[0] ?? "";
      const upload =
        (req.method === "POST" && path === "/api/studies") ||
        (req.method === "PUT" && /^\/api\/studies\/[^/]+$/.test(path));
      return reply.code(413).send({
        error: {
          code: "too_large",
          message: upload
            ? "the upload is too large (at most 5 MB of CSV)"
            : "the request body is too large (at most 1 MB)",
        },
      });
    }
    if (status >= 400 && status < 500) {
      return reply
        .code(status)
        .send({ error: { code: "bad_request", message: (err as Error).message } });
    }
    if (isPoolTimeout(err)) {
      // Overloaded, not broken: the request can be sent again (a participant's answer that was
      // stored before the wait comes back as a duplicate, never stored twice).
      req.log.warn({ err }, "request waited too long for a database connection");
      return reply
        .code(503)
        .header("retry-after", "5")
        .send({ error: { code: "busy", message: "the server is busy: try again in a moment" } });
    }
    req.log.error({ err }, "request failed");
    return reply
      .code(500)
      .send({ error: { code: "internal", message: "something went wrong on the server" } });
  });

  // Security headers on every response. Participant tokens travel in the URL path, so no
  // Referer may carry them to another site; the UI loads only its own files.
  // CSRF: a cross-site form or fetch can send text/plain or form bodies without a preflight,
  // but not application/json, which needs CORS we never grant; and a browser's Origin must be
  // ours. So every state-changing API request must be JSON from our own origin.
  // Every route's method and path pattern, to tell a wrong method (405) from no route (404).
  const routes: { method: string; pattern: RegExp }[] = [];
  app.addHook("onRoute", (r) => {
    for (const method of Array.isArray(r.method) ? r.method : [r.method])
      routes.push({ method, pattern: routePattern(r.url ?? r.path) });
    // What anyone may send without signing in is small (issue 28 item 3): a participant's
    // answers, a sign-in.
    const url = r.url ?? r.path;
    if (url.startsWith("/api/p/"))
      r.bodyLimit = Math.min(r.bodyLimit ?? Infinity, PARTICIPANT_BODY_LIMIT);
    if (url === "/api/auth/login")
      r.bodyLimit = Math.min(r.bodyLimit ?? Infinity, LOGIN_BODY_LIMIT);
  });

  // JSON no deeper than MAX_JSON_DEPTH, checked on the text before it is parsed.
  const json = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
    if (jsonTooDeep(body as string, MAX_JSON_DEPTH)) {
      done(
        new ApiError(400, "too_deep", `the body nests deeper than ${MAX_JSON_DEPTH} levels`),
        undefined,
      );
      return;
    }
    json(req, body as string, done);
  });

  // A researcher's request with a body is signed in before the body is read: nobody may make
  // the server parse megabytes without an account (issue 28 item 3). The handler's own check
  // then finds the same researcher without another query (auth.ts remembers it).
  app.addHook("preParsing", async (req) => {
    const route = req.routeOptions.url;
    if (route === undefined || !route.startsWith("/api/") || route.startsWith("/api/p/")) return;
    if (req.method === "GET" || req.method === "HEAD" || PUBLIC_BODY_ROUTES.has(route)) return;
    await requireResearcher(o.db, req);
  });

  app.addHook("onRequest", async (req) => {
    if (req.url.length > MAX_URL_LENGTH)
      throw new ApiError(414, "uri_too_long", "the address is too long");
    // One spelling per address (issue 28 item 5): an escaped letter, digit or -._~ ("%70"
    // for "p") or an empty segment would reach a route under a name the log's redaction and
    // the rate limits do not know.
    if (!isCanonicalPath(req.url))
      throw new ApiError(400, "bad_url", "the address is not in its plain spelling");
    // No route: the not-found handler answers 404 or 405, whatever the body.
    if (req.routeOptions.url === undefined) return;
    if (req.method === "GET" || req.method === "HEAD" || !req.url.startsWith("/api/")) return;
    // Every POST, a body-less one (sign out) included: a cross-site form cannot send JSON.
    const type = String(req.headers["content-type"] ?? "").toLowerCase();
    if (!type.startsWith("application/json"))
      throw new ApiError(
        415,
        "unsupported_media_type",
        "send the request as application/json (the body {} when there is nothing to send)",
      );
    const origin = req.headers.origin;
    if (origin !== undefined && !sameOrigin(origin, req.host, o.publicUrl))
      throw new ApiError(403, "cross_origin", "cross-origin requests are refused");
  });

  // PostgreSQL text cannot hold NUL (0x00): refuse it at the edge, in any string of the body,
  // the path or the query, instead of failing inside the database with a 500.
  app.addHook("preValidation", async (req) => {
    if (hasNul(req.body) || hasNul(req.params) || hasNul(req.query) || req.url.includes("%00")) {
      throw new ApiError(400, "invalid_request", "text must not contain NUL (0x00) characters");
    }
  });

  app.addHook("onSend", async (req, reply, payload) => {
    // API answers and exports hold participants' data and tokens: no cache may keep them.
    if (req.url.startsWith("/api/") || req.url.startsWith("/p/"))
      reply.header("cache-control", "no-store");
    reply.header("x-content-type-options", "nosniff");
    reply.header("referrer-policy", "no-referrer");
    reply.header("x-frame-options", "DENY");
    reply.header(
      "content-security-policy",
      "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
    return payload;
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: "metric-elicitation web app",
        description: "The HTTP API of `elicit serve` (see docs/web-api.md).",
        version: VERSION,
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifyCookie, { secret: await cookieSecret(o.db) });

  app.get(
    "/healthz",
    {
      schema: {
        response: { 200: z.object({ ok: z.boolean(), db: z.enum(["sqlite", "postgres"]) }) },
      },
    },
    async () => ({ ok: true, db: o.kind }),
  );
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());

  await app.register(participantRoutes, {
    db: o.db,
    answerLimiter: o.limits?.answers ?? createRateLimiter(30, 10),
    missLimiter: o.limits?.misses ?? createRateLimiter(30, 0.5),
  });
  await app.register(researcherRoutes, {
    db: o.db,
    loginLimiter: o.limits?.login ?? createRateLimiter(10, 10 / 60),
    secureCookies: o.secureCookies ?? false,
    publicUrl: o.publicUrl === undefined ? undefined : normalizePublicUrl(o.publicUrl),
    ...(o.participantSeed ? { participantSeed: o.participantSeed } : {}),
  });

  const dist = o.webDist === undefined ? DEFAULT_WEB_DIST : o.webDist;
  const index = dist ? join(dist, "index.html") : null;
  const hasUi = index !== null && existsSync(index);
  if (hasUi) {
    await app.register(fastifyStatic, { root: dist!, prefix: "/", wildcard: false, index: false });
  }
  const page = () => (hasUi ? readFileSync(index!, "utf8") : missingUiPage());
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split("?")[0] ?? "";
    if (req.method === "GET" && !path.startsWith("/api/")) {
      return reply
        .code(200)
        .header("content-type", "text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .send(page());
    }
    const allowed = [
      ...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method)),
    ].sort();
    if (allowed.length > 0) {
      return reply
        .code(405)
        .header("allow", allowed.join(", "))
        .send({
          error: {
            code: "method_not_allowed",
            message: `${req.method} is not allowed here (${allowed.join(", ")})`,
          },
        });
    }
    return reply
      .code(404)
      .send({ error: { code: "not_found", message: `no route ${req.method} ${path}` } });
  });
  return app;
}
