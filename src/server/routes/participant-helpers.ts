import type { z } from "zod";
import { ErrorBody, TokenParams } from "../api-schemas.ts";
import type { Db } from "../db/schema.ts";
import { ApiError } from "../errors.ts";
import { type Context, loadContext } from "../participant/service.ts";
import type { RateLimiter } from "../security/rate-limit.ts";

const tags = ["participant"];
const errors = { 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody };

/**
 * Route options for `/api/p/:token...` without a body: the token is validated, the 200 reply
 * is `reply` and the 4xx replies are the error body (also what `/openapi.json` documents).
 * A fresh object each call, so no two routes share one schema object.
 * @example app.get("/api/p/:token", tokenRoute(ParticipantState), async (req) => ...)
 */
export function tokenRoute<R extends z.ZodType>(reply: R) {
  return { schema: { tags, params: TokenParams, response: { 200: reply, ...errors } } };
}

/**
 * As `tokenRoute`, with a JSON body validated by `body` (its parsed value is `req.body`).
 * @example app.post("/api/p/:token/guess", tokenBodyRoute(GuessBody, ParticipantState), ...)
 */
export function tokenBodyRoute<B extends z.ZodType, R extends z.ZodType>(body: B, reply: R) {
  return { schema: { tags, params: TokenParams, body, response: { 200: reply, ...errors } } };
}

/** The part of a request that names a participant and where the request came from. */
export interface TokenRequest {
  readonly params: { readonly token: string };
  readonly ip: string;
}

/**
 * Loads the participant a request's token names, under the two rate limits: a step (`"step"`)
 * spends one of the token's answer allowance (429 when it is used up), a read does not; an
 * unknown token spends one of the IP's miss allowance, so guessing tokens soon answers 429
 * instead of 404.
 * @example const context = participantLoader(db, answerLimiter, missLimiter);
 *   await context(req, "step")
 */
export function participantLoader(db: Db, answerLimiter: RateLimiter, missLimiter: RateLimiter) {
  return async (req: TokenRequest, request: "read" | "step"): Promise<Context> => {
    if (request === "step" && !answerLimiter.take(req.params.token)) {
      throw new ApiError(429, "rate_limited", "too many answers at once; please slow down");
    }
    try {
      return await loadContext(db, req.params.token);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404 && !missLimiter.take(req.ip)) {
        throw new ApiError(429, "rate_limited", "too many invalid links; try again later");
      }
      throw e;
    }
  };
}
