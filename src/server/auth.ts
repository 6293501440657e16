import type {} from "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "./db/schema.ts";
import { ApiError } from "./errors.ts";
import { newToken, sha256 } from "./security/tokens.ts";
import { nowIso } from "./time.ts";

export const SESSION_COOKIE = "elicit_session";
const SESSION_DAYS = 7;

/** Start a researcher session: a random token in a signed HttpOnly cookie, its hash stored. */
export async function startSession(
  db: Db,
  reply: FastifyReply,
  researcherId: number,
  secure: boolean,
): Promise<void> {
  const token = newToken();
  const now = new Date();
  const expires = new Date(now.getTime() + SESSION_DAYS * 86_400_000);
  // Expired sessions are useless and each one is a stored credential hash: drop them here
  // (every sign-in), so the table holds only live sessions.
  await db.deleteFrom("sessions").where("expires_at", "<", now.toISOString()).execute();
  await db
    .insertInto("sessions")
    .values({
      id: sha256(token),
      researcher_id: researcherId,
      created_at: now.toISOString(),
      expires_at: expires.toISOString(),
    })
    .execute();
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure,
    signed: true,
    expires,
  });
}

function sessionToken(req: FastifyRequest): string | null {
  const raw = req.cookies[SESSION_COOKIE];
  if (!raw) return null;
  const u = req.unsignCookie(raw);
  return u.valid && u.value ? u.value : null;
}

// The researcher each request was found to be (once per request: the app checks before the
// body is read, the handler again).
const signedIn = new WeakMap<FastifyRequest, { id: number; email: string }>();

/** The signed-in researcher, or a 401. */
export async function requireResearcher(
  db: Db,
  req: FastifyRequest,
): Promise<{ id: number; email: string }> {
  const known = signedIn.get(req);
  if (known) return known;
  const token = sessionToken(req);
  if (token) {
    const row = await db
      .selectFrom("sessions")
      .innerJoin("researchers", "researchers.id", "sessions.researcher_id")
      .select(["researchers.id", "researchers.email", "sessions.expires_at"])
      .where("sessions.id", "=", sha256(token))
      .executeTakeFirst();
    if (row && row.expires_at > nowIso()) {
      const who = { id: row.id, email: row.email };
      signedIn.set(req, who);
      return who;
    }
  }
  throw new ApiError(401, "unauthorized", "please sign in");
}

export async function endSession(db: Db, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = sessionToken(req);
  if (token) await db.deleteFrom("sessions").where("id", "=", sha256(token)).execute();
  reply.clearCookie(SESSION_COOKIE, { path: "/" });
}
