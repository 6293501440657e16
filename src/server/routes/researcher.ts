import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  Consensus,
  CreateStudyBody,
  ErrorBody,
  IdParams,
  InvitesBody,
  LoginBody,
  OpenBody,
  ParticipantRow,
  ResearcherReply,
  StudySummary,
} from "../api-schemas.ts";
import { endSession, requireResearcher, startSession } from "../auth.ts";
import type { Db } from "../db/schema.ts";
import { ApiError, notFound } from "../errors.ts";
import { studyKindOf } from "../kinds/registry.ts";
import { normalizeEmail } from "../researchers.ts";
import { verifyPassword } from "../security/password.ts";
import type { RateLimiter } from "../security/rate-limit.ts";
import { newSeed, newToken, sha256 } from "../security/tokens.ts";
import { buildStudyConfigOffThread } from "../study/build-off-thread.ts";
import { isAdaptiveSpec, type StudyConfig, studyKind } from "../study/config.ts";
import { studyConsensus } from "../study/consensus.ts";
import { answersCsv, codebookFile, participantsCsv, studyJson } from "../study/export.ts";
import { builtInTextsRefusal } from "../study/general-texts.ts";
import { loadStudyRecords, participantSummary } from "../study/results.ts";
import { loadConfig } from "../study/store.ts";
import {
  GENERAL_CONSENT,
  GENERAL_POST_QUESTIONS,
  GENERAL_QUESTIONNAIRE,
  PHASE1_SYSTEMS,
} from "../study/template.ts";
import { builtInTextsOf, defaultStudyTexts, StudyDefaultsReply } from "../study/texts.ts";
import { nowIso } from "../time.ts";
import { deleteDraft, draftRequest, replaceDraft, requireEditableDraft } from "./drafts.ts";

export interface ResearcherRouteOptions {
  readonly db: Db;
  readonly loginLimiter: RateLimiter;
  /** Set the cookie's Secure flag (behind HTTPS). */
  readonly secureCookies: boolean;
  /** Base of invite links (normalised, no trailing slash); relative links without it. */
  readonly publicUrl?: string;
  /** Where new participants' seeds come from (default `newSeed`, cryptographically random). */
  readonly participantSeed?: () => number;
}

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody };

/** A draft's stored create request (the body of POST /api/studies) as the API returns it. */
const DraftRequest = z
  .looseObject({ name: z.string() })
  .describe("the create request of POST /api/studies the draft was made from");

/** A password hash to compare against when the e-mail is unknown (same timing). */
const DUMMY_HASH =
  "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

export async function studySummary(db: Db, id: number): Promise<StudySummary> {
  // Not the stored create request of a draft (it may hold a 5 MB upload).
  const s = await db
    .selectFrom("studies")
    .select(["id", "name", "status", "config_hash", "created_at", "opened_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!s) throw notFound("study not found");
  const config: StudyConfig = await loadConfig(db, s.id, s.config_hash);
  const rows = await db
    .selectFrom("participants")
    .select(["status", "test"])
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("study_id", "=", id)
    .groupBy(["status", "test"])
    .execute();
  // Test runs are counted apart: a researcher's own try is not a participant who finished.
  const counts = { invited: 0, started: 0, done: 0, withdrawn: 0, testRuns: 0 };
  for (const r of rows) {
    if (Number(r.test) === 1) counts.testRuns += Number(r.n);
    else counts[r.status] += Number(r.n);
  }
  return {
    id: s.id,
    name: s.name,
    status: s.status,
    template: config.template,
    kind: studyKind(config),
    family: config.spec.family,
    tolerance: config.spec.tolerance,
    strategy: config.spec.strategy,
    ...(isAdaptiveSpec(config.spec)
      ? { budget: config.spec.budget, credibility: config.spec.credibility }
      : {}),
    evaluationPairs: config.evaluationPairs,
    configHash: s.config_hash,
    createdAt: s.created_at,
    openedAt: s.opened_at,
    participants:
      counts.invited + counts.started + counts.done + counts.withdrawn + counts.testRuns,
    counts,
    data: studyKindOf(config).dataLabel(config),
    words: { ...config.words },
  };
}

/**
 * Insert a study row from a validated configuration; a draft keeps the create `request` it
 * was made from, so that the create form can open it for editing.
 */
export async function insertStudy(
  db: Db,
  name: string,
  ownerId: number | null,
  built: { config: StudyConfig; hash: string },
  status: "draft" | "pilot" | "live" = "draft",
  request?: unknown,
): Promise<number> {
  const now = nowIso();
  const row = await db
    .insertInto("studies")
    .values({
      name,
      owner_id: ownerId,
      status,
      config: JSON.stringify(built.config),
      config_hash: built.hash,
      created_at: now,
      opened_at: status === "draft" ? null : now,
      draft_request: status === "draft" && request !== undefined ? JSON.stringify(request) : null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Create participants with fresh tokens and seeds (`seed`, default `newSeed`); returns the
 * tokens (only ever shown here).
 * @example const [token] = await createParticipants(db, studyId, 1, true);
 */
export async function createParticipants(
  db: Db,
  studyId: number,
  count: number,
  test: boolean,
  pilot = false,
  seed: () => number = newSeed,
): Promise<string[]> {
  const tokens = Array.from({ length: count }, () => newToken());
  const now = nowIso();
  await db
    .insertInto("participants")
    .values(
      tokens.map((t) => ({
        study_id: studyId,
        token_hash: sha256(t),
        status: "invited" as const,
        seed: seed(),
        test: test ? 1 : 0,
        pilot: pilot ? 1 : 0,
        created_at: now,
        started_at: null,
        consented_at: null,
        questionnaire_at: null,
        story_at: null,
        comprehension_at: null,
        guess_at: null,
        post_at: null,
        finished_at: null,
        withdrawn_at: null,
        completion_code: null,
      })),
    )
    .execute();
  return tokens;
}

/** Researcher routes: sign-in, studies, invites, results and exports. */
export const researcherRoutes: FastifyPluginAsyncZod<ResearcherRouteOptions> = async (
  app,
  { db, loginLimiter, secureCookies, publicUrl, participantSeed = newSeed },
) => {
  const auth = (req: Parameters<typeof requireResearcher>[1]) => requireResearcher(db, req);
  /**
   * The signed-in researcher, who must own the study (studies without an owner, such as the
   * built-in one, are everyone's). Another researcher's study is a 404, as if it did not exist.
   */
  const authStudy = async (req: Parameters<typeof requireResearcher>[1], id: number) => {
    const me = await auth(req);
    const row = await db
      .selectFrom("studies")
      .select("owner_id")
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row || (row.owner_id !== null && row.owner_id !== me.id))
      throw notFound("study not found");
    return me;
  };
  /**
   * Refuse to run a binary study of other data whose texts are still the built-in study's (one
   * stored before creation refused them, issue 27 defect 1): 409 naming what to change.
   */
  const refuseBuiltInTexts = async (id: number) => {
    const row = await db
      .selectFrom("studies")
      .select("config_hash")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const refusal = builtInTextsRefusal(
      builtInTextsOf(await loadConfig(db, id, row.config_hash)),
      "Write this study's own texts: edit the draft (the study page's Edit button, PUT /api/studies/:id), or create a new study if this one was opened already.",
    );
    if (refusal !== null) throw new ApiError(409, "texts_of_other_data", refusal);
  };
  // Never from the request's Host header (a client can send any): the configured public URL,
  // or a relative link the researcher's browser resolves against its own address.
  const linkBase = () => publicUrl ?? "";

  app.post(
    "/api/auth/login",
    { schema: { tags: ["auth"], body: LoginBody, response: { 200: ResearcherReply, ...errors } } },
    async (req, reply) => {
      if (!loginLimiter.take(req.ip)) {
        throw new ApiError(429, "rate_limited", "too many sign-in attempts; wait a minute");
      }
      const email = normalizeEmail(req.body.email);
      const r = await db
        .selectFrom("researchers")
        .select(["id", "email", "password_hash"])
        .where("email", "=", email)
        .executeTakeFirst();
      const ok = await verifyPassword(req.body.password, r?.password_hash ?? DUMMY_HASH);
      if (!r || !ok) throw new ApiError(401, "bad_credentials", "wrong e-mail or password");
      await startSession(db, reply, r.id, secureCookies || req.protocol === "https");
      return { researcher: { id: r.id, email: r.email } };
    },
  );
  app.post(
    "/api/auth/logout",
    { schema: { tags: ["auth"], response: { 200: z.object({ ok: z.boolean() }) } } },
    async (req, reply) => {
      await endSession(db, req, reply);
      return { ok: true };
    },
  );
  app.get(
    "/api/auth/me",
    { schema: { tags: ["auth"], response: { 200: ResearcherReply, ...errors } } },
    async (req) => ({ researcher: await auth(req) }),
  );

  app.get(
    "/api/studies",
    {
      schema: {
        tags: ["studies"],
        response: { 200: z.object({ studies: z.array(StudySummary) }), ...errors },
      },
    },
    async (req) => {
      const me = await auth(req);
      const ids = await db
        .selectFrom("studies")
        .select("id")
        .where((eb) => eb.or([eb("owner_id", "is", null), eb("owner_id", "=", me.id)]))
        .orderBy("id")
        .execute();
      return { studies: await Promise.all(ids.map((r) => studySummary(db, r.id))) };
    },
  );
  app.get(
    "/api/study-defaults",
    { schema: { tags: ["studies"], response: { 200: StudyDefaultsReply, ...errors } } },
    async (req) => {
      await auth(req);
      return StudyDefaultsReply.parse({
        comprehensionSystems: PHASE1_SYSTEMS,
        texts: defaultStudyTexts(),
        kindTexts: {
          consentText: GENERAL_CONSENT,
          questionnaire: GENERAL_QUESTIONNAIRE,
          post: GENERAL_POST_QUESTIONS,
        },
      });
    },
  );
  app.post(
    "/api/studies",
    {
      bodyLimit: 8 * 1024 * 1024,
      schema: {
        tags: ["studies"],
        body: CreateStudyBody,
        response: { 200: z.object({ study: StudySummary }), ...errors },
      },
    },
    async (req) => {
      const me = await auth(req);
      // Parsing an upload and fitting its model happen in a worker: /healthz and every
      // participant keep being answered meanwhile.
      const built = await buildStudyConfigOffThread(req.body);
      const id = await insertStudy(db, req.body.name, me.id, built, "draft", req.body);
      return { study: await studySummary(db, id) };
    },
  );
  app.get(
    "/api/studies/:id/draft",
    {
      schema: {
        tags: ["studies"],
        description:
          "A draft's create request, as POST /api/studies took it (or PUT last replaced it), to edit it in the create form. 409 not_draft once the study is opened, when anyone has taken part (test runs included), for the built-in study, and for drafts made before requests were kept.",
        params: IdParams,
        response: { 200: z.object({ request: DraftRequest }), ...errors },
      },
    },
    async (req) => {
      await authStudy(req, req.params.id);
      return { request: DraftRequest.parse(await draftRequest(db, req.params.id)) };
    },
  );
  app.put(
    "/api/studies/:id",
    {
      bodyLimit: 8 * 1024 * 1024,
      schema: {
        tags: ["studies"],
        description:
          "Replace a draft's configuration: the body is a whole create request, validated and built as POST /api/studies does (a bad one changes nothing). Only the owner's drafts nobody has taken part in (test runs included); otherwise 409 not_draft.",
        params: IdParams,
        body: CreateStudyBody,
        response: { 200: z.object({ study: StudySummary }), ...errors },
      },
    },
    async (req) => {
      await authStudy(req, req.params.id);
      // Refused before the (possibly slow) build; checked again in the update itself.
      await requireEditableDraft(db, req.params.id, "edited");
      const built = await buildStudyConfigOffThread(req.body);
      if (!(await replaceDraft(db, req.params.id, req.body.name, built, req.body)))
        await requireEditableDraft(db, req.params.id, "edited");
      return { study: await studySummary(db, req.params.id) };
    },
  );
  app.delete(
    "/api/studies/:id",
    {
      schema: {
        tags: ["studies"],
        description:
          "Delete a draft (send {} as its JSON body). Only the owner's drafts nobody has taken part in (test runs included); otherwise 409 not_draft.",
        params: IdParams,
        response: { 200: z.object({ deleted: z.number().int() }), ...errors },
      },
    },
    async (req) => {
      await authStudy(req, req.params.id);
      await requireEditableDraft(db, req.params.id, "deleted");
      if (!(await deleteDraft(db, req.params.id)))
        await requireEditableDraft(db, req.params.id, "deleted");
      return { deleted: req.params.id };
    },
  );
  app.get(
    "/api/studies/:id",
    {
      schema: {
        tags: ["studies"],
        params: IdParams,
        response: { 200: z.object({ study: StudySummary }), ...errors },
      },
    },
    async (req) => {
      await authStudy(req, req.params.id);
      return { study: await studySummary(db, req.params.id) };
    },
  );
  app.post(
    "/api/studies/:id/open",
    {
      schema: {
        tags: ["studies"],
        params: IdParams,
        body: OpenBody,
        response: { 200: z.object({ study: StudySummary }), ...errors },
      },
    },
    async (req) => {
      await authStudy(req, req.params.id);
      const s = await studySummary(db, req.params.id);
      // Live is final: participants of a live study are the study's data, not a pilot's.
      if (s.status === "live" && req.body.mode === "pilot")
        throw new ApiError(409, "study_live", "a live study cannot go back to pilot");
      await refuseBuiltInTexts(req.params.id);
      // Opening freezes the configuration: the draft's create request is no longer needed.
      await db
        .updateTable("studies")
        .set({ status: req.body.mode, opened_at: s.openedAt ?? nowIso(), draft_request: null })
        .where("id", "=", req.params.id)
        .execute();
      return { study: await studySummary(db, req.params.id) };
    },
  );
  app.post(
    "/api/studies/:id/invites",
    {
      schema: {
        tags: ["studies"],
        params: IdParams,
        body: InvitesBody,
        response: { 200: z.object({ links: z.array(z.string()) }), ...errors },
      },
    },
    async (req) => {
      await authStudy(req, req.params.id);
      const s = await studySummary(db, req.params.id);
      if (s.status === "draft") {
        throw new ApiError(409, "study_not_open", "open the study (pilot or live) before inviting");
      }
      await refuseBuiltInTexts(req.params.id);
      const tokens = await createParticipants(
        db,
        s.id,
        req.body.count,
        false,
        s.status === "pilot",
        participantSeed,
      );
      return { links: tokens.map((t) => `${linkBase()}/p/${t}`) };
    },
  );
  app.post(
    "/api/studies/:id/test-run",
    {
      schema: {
        tags: ["studies"],
        params: IdParams,
        response: { 200: z.object({ link: z.string() }), ...errors },
      },
    },
    async (req) => {
      await authStudy(req, req.params.id);
      const s = await studySummary(db, req.params.id);
      await refuseBuiltInTexts(req.params.id);
      const [t] = await createParticipants(db, s.id, 1, true, false, participantSeed);
      return { link: `${linkBase()}/p/${t}` };
    },
  );
  app.get(
    "/api/studies/:id/participants",
    {
      schema: {
        tags: ["studies"],
        params: IdParams,
        response: { 200: z.object({ participants: z.array(ParticipantRow) }), ...errors },
      },
    },
    async (req) => {
      await authStudy(req, req.params.id);
      const rec = await loadStudyRecords(db, req.params.id);
      if (!rec) throw notFound("study not found");
      return {
        participants: rec.participants.map((p) => {
          const { questions: _q, rangeA: _r, ...row } = participantSummary(rec, p);
          return row;
        }),
      };
    },
  );

  app.get(
    "/api/studies/:id/consensus",
    {
      schema: {
        tags: ["studies"],
        description:
          "Every kind: the finished participants' metrics aggregated (test runs and pilot participants left out), with their spread; null before anyone finished. Participants whose answers cannot be told apart from a coin's (by the study's Phase III; a multiclass, fairness or quadratic study without one by the learned answer model) are left out unless coinLike=include, and listed in coinLike. study.json's consensus is the same (without them).",
        params: IdParams,
        querystring: z.object({ coinLike: z.enum(["exclude", "include"]).optional() }),
        response: { 200: z.object({ consensus: Consensus.nullable() }), ...errors },
      },
    },
    async (req) => {
      await authStudy(req, req.params.id);
      const rec = await loadStudyRecords(db, req.params.id);
      if (!rec) throw notFound("study not found");
      return {
        consensus: studyConsensus(rec, { includeCoinLike: req.query.coinLike === "include" }),
      };
    },
  );

  /** Unused invite links of a study (the links themselves cannot be shown again). */
  const InviteRow = z.object({
    participantId: z.number().int(),
    createdAt: z.string(),
    pilot: z.boolean(),
  });
  app.get(
    "/api/studies/:id/invites",
    {
      schema: {
        tags: ["studies"],
        params: IdParams,
        response: { 200: z.object({ invites: z.array(InviteRow) }), ...errors },
      },
    },
    async (req) => {
      await authStudy(req, req.params.id);
      // Tokens are stored only as SHA-256 hashes (a leaked database gives no working link),
      // so a link cannot be shown again: the list names the unused ones, and each can be
      // re-issued (a new token; the old link stops working).
      const rows = await db
        .selectFrom("participants")
        .select(["id", "created_at", "pilot"])
        .where("study_id", "=", req.params.id)
        .where("status", "=", "invited")
        .where("test", "=", 0)
        .orderBy("id")
        .execute();
      return {
        invites: rows.map((r) => ({
          participantId: r.id,
          createdAt: r.created_at,
          pilot: r.pilot === 1,
        })),
      };
    },
  );
  app.post(
    "/api/studies/:id/invites/:participantId/reissue",
    {
      schema: {
        tags: ["studies"],
        params: IdParams.extend({ participantId: IdParams.shape.id }),
        response: { 200: z.object({ link: z.string() }), ...errors },
      },
    },
    async (req) => {
      await authStudy(req, req.params.id);
      const token = newToken();
      const r = await db
        .updateTable("participants")
        .set({ token_hash: sha256(token) })
        .where("id", "=", req.params.participantId)
        .where("study_id", "=", req.params.id)
        .where("status", "=", "invited")
        .where("test", "=", 0)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) {
        throw new ApiError(
          409,
          "not_reissuable",
          "only an unused invite link (the participant has not consented yet) can be re-issued",
        );
      }
      return { link: `${linkBase()}/p/${token}` };
    },
  );

  const exportRoute = (
    file: string,
    type: string,
    render: (rec: NonNullable<Awaited<ReturnType<typeof loadStudyRecords>>>) => string,
  ) =>
    app.get(
      `/api/studies/:id/export/${file}`,
      { schema: { tags: ["exports"], params: IdParams } },
      async (req, reply) => {
        await authStudy(req, req.params.id);
        const rec = await loadStudyRecords(db, req.params.id);
        if (!rec) throw notFound("study not found");
        reply
          .header("content-type", type)
          .header("content-disposition", `attachment; filename="study-${rec.study.id}-${file}"`);
        return render(rec);
      },
    );
  exportRoute("answers.csv", "text/csv; charset=utf-8", answersCsv);
  exportRoute("participants.csv", "text/csv; charset=utf-8", participantsCsv);
  exportRoute("study.json", "application/json; charset=utf-8", (rec) =>
    JSON.stringify(studyJson(rec), null, 2),
  );
  exportRoute("codebook.csv", "text/csv; charset=utf-8", codebookFile);
};
