import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  AnswerBody,
  ComprehensionBody,
  ComprehensionReply,
  ConsentBody,
  ErrorBody,
  FormBody,
  GuessBody,
  ParticipantState,
  TokenParams,
  UndoBody,
} from "../api-schemas.ts";
import type { Db } from "../db/schema.ts";
import { ApiError } from "../errors.ts";
import * as participant from "../participant/service.ts";
import type { RateLimiter } from "../security/rate-limit.ts";

export interface ParticipantRouteOptions {
  readonly db: Db;
  /** Per-token limit on answer-like routes. */
  readonly answerLimiter: RateLimiter;
  /** Per-IP limit on unknown tokens (stops token guessing). */
  readonly missLimiter: RateLimiter;
}

const errors = { 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody };

/** The participant API: the token in the path is the only credential. */
export const participantRoutes: FastifyPluginAsyncZod<ParticipantRouteOptions> = async (
  app,
  { db, answerLimiter, missLimiter },
) => {
  const load = async (token: string, ip: string, limited: boolean) => {
    if (limited && !answerLimiter.take(token)) {
      throw new ApiError(429, "rate_limited", "too many answers at once; please slow down");
    }
    try {
      return await participant.loadContext(db, token);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404 && !missLimiter.take(ip)) {
        throw new ApiError(429, "rate_limited", "too many invalid links; try again later");
      }
      throw e;
    }
  };
  const tags = ["participant"];

  app.get(
    "/api/p/:token",
    { schema: { tags, params: TokenParams, response: { 200: ParticipantState, ...errors } } },
    async (req) => participant.renderState(db, await load(req.params.token, req.ip, false)),
  );
  app.post(
    "/api/p/:token/consent",
    {
      schema: {
        tags,
        params: TokenParams,
        body: ConsentBody,
        response: { 200: ParticipantState, ...errors },
      },
    },
    async (req) =>
      participant.consent(db, await load(req.params.token, req.ip, true), req.body.agree),
  );
  app.post(
    "/api/p/:token/questionnaire",
    {
      schema: {
        tags,
        params: TokenParams,
        body: FormBody,
        response: { 200: ParticipantState, ...errors },
      },
    },
    async (req) =>
      participant.questionnaire(db, await load(req.params.token, req.ip, true), req.body.answers),
  );
  app.post(
    "/api/p/:token/story",
    { schema: { tags, params: TokenParams, response: { 200: ParticipantState, ...errors } } },
    async (req) => participant.story(db, await load(req.params.token, req.ip, true)),
  );
  app.post(
    "/api/p/:token/comprehension",
    {
      schema: {
        tags,
        params: TokenParams,
        body: ComprehensionBody,
        response: { 200: ComprehensionReply, ...errors },
      },
    },
    async (req) =>
      participant.comprehension(
        db,
        await load(req.params.token, req.ip, true),
        req.body.questionId,
        req.body.answer,
      ),
  );
  app.post(
    "/api/p/:token/guess",
    {
      schema: {
        tags,
        params: TokenParams,
        body: GuessBody,
        response: { 200: ParticipantState, ...errors },
      },
    },
    async (req) =>
      participant.guess(db, await load(req.params.token, req.ip, true), req.body.ratio),
  );
  app.post(
    "/api/p/:token/answer",
    {
      schema: {
        tags,
        params: TokenParams,
        body: AnswerBody,
        response: { 200: ParticipantState, ...errors },
      },
    },
    async (req) =>
      participant.answer(
        db,
        await load(req.params.token, req.ip, true),
        "elicitation",
        req.body.questionId,
        req.body.choice,
      ),
  );
  app.post(
    "/api/p/:token/undo",
    {
      schema: {
        tags,
        params: TokenParams,
        body: UndoBody,
        response: { 200: ParticipantState, ...errors },
      },
    },
    async (req) =>
      participant.undo(db, await load(req.params.token, req.ip, true), req.body.questionId),
  );
  app.post(
    "/api/p/:token/evaluation",
    {
      schema: {
        tags,
        params: TokenParams,
        body: AnswerBody,
        response: { 200: ParticipantState, ...errors },
      },
    },
    async (req) =>
      participant.answer(
        db,
        await load(req.params.token, req.ip, true),
        "evaluation",
        req.body.questionId,
        req.body.choice,
      ),
  );
  app.post(
    "/api/p/:token/withdraw",
    {
      schema: {
        tags,
        params: TokenParams,
        response: { 200: ParticipantState, ...errors },
      },
    },
    async (req) => participant.withdraw(db, await load(req.params.token, req.ip, true)),
  );
  app.post(
    "/api/p/:token/post",
    {
      schema: {
        tags,
        params: TokenParams,
        body: FormBody,
        response: { 200: ParticipantState, ...errors },
      },
    },
    async (req) =>
      participant.post(db, await load(req.params.token, req.ip, true), req.body.answers),
  );
};
