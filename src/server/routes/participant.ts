import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  AnswerBody,
  ComprehensionBody,
  ComprehensionReply,
  ConsentBody,
  FormBody,
  GuessBody,
  ParticipantState,
  UndoBody,
} from "../api-schemas.ts";
import type { Db } from "../db/schema.ts";
import * as participant from "../participant/service.ts";
import type { RateLimiter } from "../security/rate-limit.ts";
import { participantLoader, tokenBodyRoute, tokenRoute } from "./participant-helpers.ts";

export interface ParticipantRouteOptions {
  readonly db: Db;
  /** Per-token limit on answer-like routes. */
  readonly answerLimiter: RateLimiter;
  /** Per-IP limit on unknown tokens (stops token guessing). */
  readonly missLimiter: RateLimiter;
}

/** The participant API: the token in the path is the only credential. */
export const participantRoutes: FastifyPluginAsyncZod<ParticipantRouteOptions> = async (
  app,
  { db, answerLimiter, missLimiter },
) => {
  const context = participantLoader(db, answerLimiter, missLimiter);
  // Phase II and Phase III answers differ only in the phase they are logged under.
  const answerRoute = (path: string, phase: "elicitation" | "evaluation") =>
    app.post(path, tokenBodyRoute(AnswerBody, ParticipantState), async (req) =>
      participant.answer(
        db,
        await context(req, "step"),
        phase,
        req.body.questionId,
        req.body.choice,
      ),
    );

  app.get("/api/p/:token", tokenRoute(ParticipantState), async (req) =>
    participant.renderState(db, await context(req, "read")),
  );
  app.post("/api/p/:token/consent", tokenBodyRoute(ConsentBody, ParticipantState), async (req) =>
    participant.consent(db, await context(req, "step"), req.body.agree),
  );
  app.post("/api/p/:token/questionnaire", tokenBodyRoute(FormBody, ParticipantState), async (req) =>
    participant.questionnaire(db, await context(req, "step"), req.body.answers),
  );
  app.post("/api/p/:token/story", tokenRoute(ParticipantState), async (req) =>
    participant.story(db, await context(req, "step")),
  );
  app.post(
    "/api/p/:token/comprehension",
    tokenBodyRoute(ComprehensionBody, ComprehensionReply),
    async (req) =>
      participant.comprehension(
        db,
        await context(req, "step"),
        req.body.questionId,
        req.body.answer,
      ),
  );
  app.post("/api/p/:token/guess", tokenBodyRoute(GuessBody, ParticipantState), async (req) =>
    participant.guess(db, await context(req, "step"), req.body.ratio),
  );
  answerRoute("/api/p/:token/answer", "elicitation");
  app.post("/api/p/:token/undo", tokenBodyRoute(UndoBody, ParticipantState), async (req) =>
    participant.undo(db, await context(req, "step"), req.body.questionId),
  );
  answerRoute("/api/p/:token/evaluation", "evaluation");
  app.post("/api/p/:token/withdraw", tokenRoute(ParticipantState), async (req) =>
    participant.withdraw(db, await context(req, "step")),
  );
  app.post("/api/p/:token/post", tokenBodyRoute(FormBody, ParticipantState), async (req) =>
    participant.post(db, await context(req, "step"), req.body.answers),
  );
};
