import { type Insertable, PostgresAdapter, type Selectable, sql } from "kysely";
import { isDecimal } from "../../data/decimal.ts";
import type { TradeOff } from "../../elicit/adaptive/phase-three.ts";
import type { BinaryPoint } from "../../elicit/binary/point.ts";
import type { ReplayState } from "../../elicit/session.ts";
import { type ParticipantState, Phase } from "../api-schemas.ts";
import { isUniqueViolation } from "../db/connect.ts";
import type { AnswersTable, Db, ParticipantsTable } from "../db/schema.ts";
import { ApiError, notFound } from "../errors.ts";
import { studyKindOf } from "../kinds/registry.ts";
import { looksLikeToken, newCompletionCode, sha256 } from "../security/tokens.ts";
import type { Field, StudyConfig } from "../study/config.ts";
import { partLabels } from "../study/page-label-defaults.ts";
import { anyStudyData, type StudyData } from "../study/population.ts";
import { loadConfig } from "../study/store.ts";
import { labelsOf } from "../study/texts.ts";
import { nowIso } from "../time.ts";
import { shownOptions } from "./comprehension-order.ts";
import { consistencyOf, type LearnedPerson } from "./consistency.ts";
import { answerOf, placementOf } from "./elicitation.ts";
import {
  type AgreementReport,
  agreementFields,
  isRetest,
  type PhaseThreePair,
} from "./evaluation-pairs.ts";
import type { AdaptiveKindPoint } from "./phase-three.ts";

export type ParticipantRow = Selectable<ParticipantsTable>;
export type AnswerRow = Selectable<AnswersTable>;

/** The columns of the answer log that replay needs (the shown points are loaded on demand). */
export const LOG_COLUMNS = [
  "id",
  "phase",
  "question_index",
  "answer",
  "answered_at",
  "undone_at",
] as const;
export type LogRow = Pick<AnswerRow, (typeof LOG_COLUMNS)[number]>;

/** Everything a participant's state is derived from (loaded fresh on every request). */
export interface Context {
  readonly participant: ParticipantRow;
  readonly studyId: number;
  readonly studyStatus: string;
  readonly configHash: string;
  readonly config: StudyConfig;
  /** The study's pool: binary, or multiclass for a multiclass study (`config.kind`). */
  readonly data: StudyData;
  /** Every answer-log row, undone ones included, in insertion order. */
  readonly rows: LogRow[];
}

/** A Phase III question of any kind: a pair of the study's points, or a repeat. */
export type AnyPhaseThreePair = PhaseThreePair<TradeOff<BinaryPoint> | TradeOff<AdaptiveKindPoint>>;

/** Phase II's replayed state: the kind's points and result (only its kind reads them). */
export type ElicitationState = ReplayState<unknown, unknown>;

/**
 * The elicitation of a participant who has not reached it (an early page, or withdrawn before
 * answering): nothing is replayed for them, so a dashboard of a thousand invitations does not
 * run the engine a thousand times.
 */
export const NOT_STARTED = { status: "not-started" } as const;

/** Where the participant stands, derived from the context. */
export interface Position {
  readonly phase: Phase;
  readonly elicitation: ElicitationState | typeof NOT_STARTED;
  readonly estimatedRemaining: number;
  /** `adaptive`: the most Phase II questions there can be (the budget); null otherwise. */
  readonly atMost: number | null;
  /** The papers' searches: the share of the search done (see `ElicitationReplay`). */
  readonly searchDone?: number;
  /** The papers' searches: at most this many questions are left (see `ElicitationReplay`). */
  readonly remainingAtMost?: number;
  readonly elicitationRows: LogRow[];
  readonly evaluationRows: LogRow[];
  /** Phase III pairs (empty until Phase II is done, or for a study without Phase III). */
  readonly pairs: AnyPhaseThreePair[];
}

/**
 * Effective (not undone) rows of a phase: the answers to questions 0, 1, 2, ... in order, each
 * stored after the one before it (a larger id). A live row stored before the answer to an
 * earlier question answered a question computed from a log that has since changed (an undo
 * racing an answer, possible only in logs written before answers and undos were serialised):
 * it is stale and skipped, so the participant's later answers still count.
 */
export function effectiveRows<R extends LogRow>(rows: readonly R[], phase: LogRow["phase"]): R[] {
  const live = rows
    .filter((r) => r.phase === phase && r.undone_at === null)
    .sort((a, b) => a.question_index - b.question_index || a.id - b.id);
  const out: R[] = [];
  for (const r of live) {
    if (r.question_index > out.length) break; // a gap: nothing after it can be current
    if (r.question_index < out.length) continue; // a second live answer to a filled question
    if (out.length > 0 && r.id < out[out.length - 1]!.id) continue; // stale
    out.push(r);
  }
  return out;
}

/** The answer-log columns (`LOG_COLUMNS`) as `readParticipant` selects them beside the participant's. */
const LOG_ALIASES = [
  "answers.id as log_id",
  "answers.phase as log_phase",
  "answers.question_index as log_question_index",
  "answers.answer as log_answer",
  "answers.answered_at as log_answered_at",
  "answers.undone_at as log_undone_at",
] as const;

/**
 * A participant (by link-token hash or id), their study's hash and status, and their whole
 * answer log, in ONE statement: one round trip and one consistent snapshot of the database
 * (issue 28 items 1 and 4: read in two statements, an answer committed between them gave a
 * log newer than the participant row). Null when there is no such participant.
 */
async function readParticipant(
  db: Db,
  by: { readonly tokenHash: string } | { readonly id: number },
) {
  const found = await db
    .selectFrom("participants")
    .innerJoin("studies", "studies.id", "participants.study_id")
    .leftJoin("answers", "answers.participant_id", "participants.id")
    .selectAll("participants")
    .select(["studies.config_hash as study_hash", "studies.status as study_status"])
    .select(LOG_ALIASES)
    .where(
      "tokenHash" in by
        ? (eb) => eb("participants.token_hash", "=", by.tokenHash)
        : (eb) => eb("participants.id", "=", by.id),
    )
    .orderBy("answers.id")
    .execute();
  const head = found[0];
  if (!head) return null;
  const {
    study_hash,
    study_status,
    log_id: _id,
    log_phase: _phase,
    log_question_index: _index,
    log_answer: _answer,
    log_answered_at: _at,
    log_undone_at: _undone,
    ...participant
  } = head;
  const rows: LogRow[] = [];
  for (const r of found) {
    // A participant without answers comes back as one row whose answer columns are null.
    if (r.log_id === null) continue;
    rows.push({
      id: r.log_id,
      phase: r.log_phase!,
      question_index: r.log_question_index!,
      answer: r.log_answer!,
      answered_at: r.log_answered_at!,
      undone_at: r.log_undone_at,
    });
  }
  return { participant, study_hash, study_status, rows };
}

/**
 * What a participant whose link matches no one reads (the page shows the API's message): what
 * to check and whom to ask, since "not valid" alone leaves them nowhere to go.
 */
export const INVALID_LINK =
  "This link is not valid. Check that you opened the whole link from your invitation, or ask the researcher who invited you for a new one.";

/** Load a participant by link token; unknown and malformed tokens are both 404. */
export async function loadContext(db: Db, token: string): Promise<Context> {
  if (!looksLikeToken(token)) throw notFound(INVALID_LINK);
  const found = await readParticipant(db, { tokenHash: sha256(token) });
  if (!found) throw notFound(INVALID_LINK);
  const { participant, study_hash, study_status, rows } = found;
  const config = await loadConfig(db, participant.study_id, study_hash);
  return {
    participant,
    studyId: participant.study_id,
    studyStatus: study_status,
    configHash: study_hash,
    config,
    data: anyStudyData(study_hash, config),
    rows,
  };
}

/**
 * The context read again from the database (its participant row and answer log), for a reply
 * that found a write committed between two of its reads.
 */
async function refreshContext(db: Db, ctx: Context): Promise<Context> {
  const found = await readParticipant(db, { id: ctx.participant.id });
  if (!found) throw notFound(INVALID_LINK);
  return { ...ctx, participant: found.participant, rows: found.rows };
}

/** The phase of a participant who has not reached Phase II yet (or withdrew); else null. */
function earlyPhase(ctx: Context): Phase | null {
  const p = ctx.participant;
  if (p.status === "withdrawn") return "withdrawn";
  if (!p.consented_at) return "consent";
  if (!p.questionnaire_at) return "questionnaire";
  if (!p.story_at) return "story";
  if (!p.comprehension_at && ctx.config.comprehension.questions.length > 0) {
    return "comprehension";
  }
  if (ctx.config.guessPrompt !== null && !p.guess_at) return "guess";
  return null;
}

/** Derive the phase and the pending question of either search phase. */
export function position(ctx: Context): Position {
  const p = ctx.participant;
  const elicitationRows = effectiveRows(ctx.rows, "elicitation");
  const evaluationRows = effectiveRows(ctx.rows, "evaluation");
  const early = earlyPhase(ctx);
  if (early !== null && elicitationRows.length === 0) {
    return {
      phase: early,
      elicitation: NOT_STARTED,
      estimatedRemaining: 0,
      atMost: null,
      elicitationRows,
      evaluationRows,
      pairs: [],
    };
  }
  const answers = elicitationRows.map((r) => r.answer);
  const kind = studyKindOf(ctx.config);
  const replayed = kind.replay(ctx, answers);
  const elicitation = replayed.state;
  // Phase III: the random pairs, with the study's repeats of Phase II pairs among them
  // (test-retest); each kind draws its own pairs.
  const pairs: AnyPhaseThreePair[] =
    elicitation.status !== "done" ? [] : kind.phaseThree(ctx, elicitationRows);
  let phase: Phase;
  if (early !== null) phase = early;
  else if (elicitation.status === "pending") phase = "elicitation";
  else if (evaluationRows.length < pairs.length) phase = "evaluation";
  else if (!p.post_at) phase = "post";
  else phase = "debrief";
  return {
    phase,
    elicitation,
    estimatedRemaining: replayed.estimatedRemaining,
    atMost: replayed.atMost,
    ...(replayed.searchDone !== undefined ? { searchDone: replayed.searchDone } : {}),
    ...(replayed.remainingAtMost !== undefined
      ? { remainingAtMost: replayed.remainingAtMost }
      : {}),
    elicitationRows,
    evaluationRows,
    pairs,
  };
}

/** Comprehension progress: the first question not yet answered right nor out of attempts. */
export async function comprehensionProgress(db: Db, ctx: Context) {
  const attempts = await db
    .selectFrom("comprehension")
    .select(["question_id", "attempt", "correct"])
    .where("participant_id", "=", ctx.participant.id)
    .execute();
  const { questions, maxAttempts } = ctx.config.comprehension;
  for (let i = 0; i < questions.length; i++) {
    const q = questions[i]!;
    const mine = attempts.filter((a) => a.question_id === q.id);
    const solved = mine.some((a) => a.correct === 1);
    if (!solved && mine.length < maxAttempts) {
      return { index: i, question: q, attempts: mine.length, done: false as const };
    }
  }
  return { index: questions.length, question: null, attempts: 0, done: true as const };
}

/** The participant's state as the browser sees it. */
export async function renderState(
  db: Db,
  ctx: Context,
  pos = position(ctx),
  reread = false,
): Promise<ParticipantState> {
  const c = ctx.config;
  const kind = studyKindOf(c);
  const state: ParticipantState = {
    phase: pos.phase,
    study: {
      title: c.title,
      words: { ...c.words },
      // Without Part 3 the default part lines count two parts (a study's own stay as written).
      labels: partLabels(labelsOf(c), c.evaluationPairs > 0),
      ...(kind.tag !== undefined ? { kind: kind.tag } : {}),
      ...(c.evaluationPairs === 0 ? { phaseThree: false as const } : {}),
    },
  };
  switch (pos.phase) {
    case "consent":
      state.consent = { text: c.consentText };
      break;
    case "questionnaire":
      state.questionnaire = { fields: c.questionnaire.map(copyField) };
      break;
    case "story":
      state.story = { paragraphs: [...c.story.paragraphs], costs: { ...c.story.costs } };
      break;
    case "comprehension": {
      const prog = await comprehensionProgress(db, ctx);
      if (prog.question) {
        state.comprehension = {
          question: {
            id: prog.question.id,
            prompt: prog.question.prompt,
            // In the participant's own order: the right answer is not always the first shown.
            options: shownOptions(ctx.participant.seed, prog.question),
          },
          index: prog.index,
          total: c.comprehension.questions.length,
          ...kind.comprehensionSystems(ctx),
          attemptsLeft: c.comprehension.maxAttempts - prog.attempts,
        };
      } else if (!reread) {
        // Every question done, yet the participant row read before said Part 1 was not: the
        // last answer committed in between (another server; issue 28 item 4). Read again, so
        // the reply is one consistent state, never the phase without its question.
        const fresh = await refreshContext(db, ctx);
        return renderState(db, fresh, position(fresh), true);
      }
      break;
    }
    case "guess":
      state.guess = { prompt: c.guessPrompt ?? "" };
      break;
    case "elicitation": {
      const e = pos.elicitation;
      if (e.status === "pending") Object.assign(state, kind.elicitationState(ctx, pos, e.question));
      break;
    }
    case "evaluation": {
      const i = pos.evaluationRows.length;
      const pair = await pairPoints(db, ctx, pos.pairs[i]!);
      const progress = { answered: i, total: pos.pairs.length };
      Object.assign(state, kind.evaluationState(ctx, i, pair, progress));
      break;
    }
    case "post":
      state.post = { fields: c.post.map(copyField) };
      break;
    case "debrief":
      Object.assign(state, await kind.debriefState(db, ctx, pos));
      break;
    case "withdrawn":
      break;
  }
  return state;
}

/**
 * A binary participant's Phase III rows split: the random pairs' rows (M is over these) and,
 * for each repeated Phase II pair answered, its original and repeated answer.
 * @example phaseThree(pos, rows).retests // [{ original: "first", repeat: "first" }]
 */
export function phaseThree<R extends Pick<LogRow, "answer">>(
  pos: Pick<Position, "pairs" | "elicitationRows">,
  evaluationRows: readonly R[],
): { random: R[]; retests: { original: string; repeat: string }[] } {
  const random: R[] = [];
  const retests: { original: string; repeat: string }[] = [];
  for (const [i, row] of evaluationRows.entries()) {
    const pair = pos.pairs[i];
    if (pair && isRetest(pair)) {
      retests.push({ original: pos.elicitationRows[pair.retestOf]!.answer, repeat: row.answer });
    } else random.push(row);
  }
  return { random, retests };
}

/**
 * The agreement fields of a binary participant with their consistency (M over the random
 * Phase III pairs; the repeats are the retest part of `consistency`; `person`, an adaptive
 * result's learned answer model, the side they lean to).
 */
export function phaseThreeFields(
  pos: Pick<Position, "pairs" | "elicitationRows" | "evaluationRows">,
  report: AgreementReport,
  person?: LearnedPerson,
) {
  return {
    ...agreementFields(report),
    consistency: consistencyOf(report, phaseThree(pos, pos.evaluationRows).retests, person),
  };
}

/** The answer-log stage of a Phase III question that repeats a Phase II pair. */
export const RETEST_STAGE = "retest";

/**
 * The two points of a Phase III question: a random pair's own, or for a repeat the points of
 * the Phase II answer row it repeats (in the same procedure order, so "first" is the same
 * system both times; the sides shown are drawn afresh).
 */
async function pairPoints(
  db: Db,
  ctx: Context,
  pair: AnyPhaseThreePair,
): Promise<{ first: unknown; second: unknown }> {
  if (!isRetest(pair)) return pair;
  const row = await db
    .selectFrom("answers")
    .select(["first_point", "second_point"])
    .where("id", "=", pair.rowId)
    .executeTakeFirstOrThrow();
  const kind = studyKindOf(ctx.config);
  return { first: kind.storedPoint(row.first_point), second: kind.storedPoint(row.second_point) };
}

/** The stored points and answers of some log rows (for the agreement at the debrief). */
export async function shownPoints(db: Db, rows: readonly LogRow[]) {
  if (rows.length === 0) return [];
  return db
    .selectFrom("answers")
    .select(["answer", "first_point", "second_point"])
    .where(
      "id",
      "in",
      rows.map((r) => r.id),
    )
    .execute();
}

function copyField(f: Field) {
  return { ...f, options: f.options ? [...f.options] : undefined };
}

/**
 * Refuse a step other than the participant's current one, saying whether it is behind them or
 * not reached yet (the phases' order is `Phase`'s; "withdrawn" ends every step).
 */
function requirePhase(pos: Position, phase: Phase): void {
  if (pos.phase === phase) return;
  refuseAhead(pos, phase);
  throw new ApiError(409, "wrong_phase", `this step is over; the current step is "${pos.phase}"`);
}

/**
 * A step the participant has not reached yet is refused (409, "not open yet"): no retry of a
 * lost reply can ask for it, only a client out of step (a step behind them is a retry, and
 * gets the current state).
 */
function refuseAhead(pos: Position, phase: Phase): void {
  const order = Phase.options;
  if (pos.phase !== "withdrawn" && order.indexOf(phase) > order.indexOf(pos.phase))
    throw new ApiError(
      409,
      "wrong_phase",
      `this step is not open yet; the current step is "${pos.phase}"`,
    );
}

async function touch(db: Db, ctx: Context, set: Partial<ParticipantRow>): Promise<void> {
  await db.updateTable("participants").set(set).where("id", "=", ctx.participant.id).execute();
  Object.assign(ctx.participant, set);
}

export async function consent(db: Db, ctx: Context, agree: boolean): Promise<ParticipantState> {
  const pos = position(ctx);
  if (pos.phase !== "consent") return { ...(await renderState(db, ctx, pos)), duplicate: true };
  const now = nowIso();
  await touch(
    db,
    ctx,
    agree
      ? { consented_at: now, started_at: now, status: "started" }
      : { withdrawn_at: now, status: "withdrawn" },
  );
  return renderState(db, ctx);
}

/** Withdraw at any point before the debrief; everything stored so far is kept (and marked). */
export async function withdraw(db: Db, ctx: Context): Promise<ParticipantState> {
  const pos = position(ctx);
  if (pos.phase === "withdrawn" || pos.phase === "debrief") {
    return { ...(await renderState(db, ctx, pos)), duplicate: true };
  }
  await touch(db, ctx, { withdrawn_at: nowIso(), status: "withdrawn" });
  return renderState(db, ctx);
}

/** Validate form answers against the fields; a clear message per problem. */
export function validateForm(
  fields: readonly Field[],
  answers: Record<string, string>,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of fields) {
    const v = (answers[f.id] ?? "").trim();
    if (v === "") {
      if (f.required) throw new ApiError(400, "invalid_answers", `please answer "${f.label}"`);
      continue;
    }
    if (f.kind === "single" && f.options && !f.options.includes(v)) {
      throw new ApiError(400, "invalid_answers", `"${v}" is not an option of "${f.label}"`);
    }
    if (f.kind === "number" && !isDecimal(v)) {
      throw new ApiError(400, "invalid_answers", `"${f.label}" needs a number, such as 42 or 3.5`);
    }
    out.set(f.id, v);
  }
  const known = new Set(fields.map((f) => f.id));
  for (const k of Object.keys(answers)) {
    if (!known.has(k)) throw new ApiError(400, "invalid_answers", `unknown question "${k}"`);
  }
  return out;
}

/**
 * Run `write` in one transaction that holds the participant: a row lock on PostgreSQL (other
 * requests for this participant, on any server, wait), and on SQLite the transaction holds the
 * database's one connection. (The answer log has its own version check: `appendAnswer`.)
 */
async function lockedWrite<T>(
  db: Db,
  participantId: number,
  write: (tx: Db) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (tx) => {
    if (tx.getExecutor().adapter instanceof PostgresAdapter)
      await sql`select id from participants where id = ${participantId} for update`.execute(tx);
    return write(tx);
  });
}

/**
 * Read the participant's answer log and its version again into `ctx`, after a write found
 * that another one had committed first.
 */
async function reloadLog(db: Db, ctx: Context): Promise<void> {
  const fresh = await readParticipant(db, { id: ctx.participant.id });
  if (!fresh) throw notFound(INVALID_LINK);
  ctx.rows.splice(0, ctx.rows.length, ...fresh.rows);
  Object.assign(ctx.participant, fresh.participant);
}

async function saveForm(
  db: Db,
  ctx: Context,
  form: "questionnaire" | "post",
  values: Map<string, string>,
  set: Partial<ParticipantRow>,
): Promise<void> {
  const now = nowIso();
  await db.transaction().execute(async (tx) => {
    if (values.size > 0) {
      await tx
        .insertInto("responses")
        .values(
          [...values].map(([field_id, value]) => ({
            participant_id: ctx.participant.id,
            form,
            field_id,
            value,
            created_at: now,
          })),
        )
        .execute();
    }
    await tx.updateTable("participants").set(set).where("id", "=", ctx.participant.id).execute();
  });
  Object.assign(ctx.participant, set);
}

async function once(
  db: Db,
  ctx: Context,
  phase: Phase,
  run: () => Promise<void>,
): Promise<ParticipantState> {
  const pos = position(ctx);
  refuseAhead(pos, phase);
  if (pos.phase !== phase) return { ...(await renderState(db, ctx, pos)), duplicate: true };
  try {
    await run();
  } catch (e) {
    if (isUniqueViolation(e)) return { ...(await renderState(db, ctx)), duplicate: true };
    throw e;
  }
  return renderState(db, ctx);
}

export function questionnaire(db: Db, ctx: Context, answers: Record<string, string>) {
  return once(db, ctx, "questionnaire", async () => {
    const values = validateForm(ctx.config.questionnaire, answers);
    await saveForm(db, ctx, "questionnaire", values, { questionnaire_at: nowIso() });
  });
}

export function story(db: Db, ctx: Context) {
  return once(db, ctx, "story", () => touch(db, ctx, { story_at: nowIso() }));
}

export function guess(db: Db, ctx: Context, ratio: number | null) {
  return once(db, ctx, "guess", async () => {
    const now = nowIso();
    await db.transaction().execute(async (tx) => {
      await tx
        .insertInto("guesses")
        .values({ participant_id: ctx.participant.id, ratio, created_at: now })
        .execute();
      await tx
        .updateTable("participants")
        .set({ guess_at: now })
        .where("id", "=", ctx.participant.id)
        .execute();
    });
    ctx.participant.guess_at = now;
  });
}

export function post(db: Db, ctx: Context, answers: Record<string, string>) {
  return once(db, ctx, "post", async () => {
    const values = validateForm(ctx.config.post, answers);
    const now = nowIso();
    await saveForm(db, ctx, "post", values, {
      post_at: now,
      finished_at: now,
      status: "done",
      completion_code: newCompletionCode(),
    });
  });
}

export async function comprehension(
  db: Db,
  ctx: Context,
  questionId: string,
  answer: string,
): Promise<{ correct: boolean; feedback: string; state: ParticipantState }> {
  const pos = position(ctx);
  // A retried answer to a question of a Part 1 already passed (its first try committed, the
  // reply lost): the current state, marked duplicate, not an error (issue 28 item 4).
  if (
    pos.phase !== "comprehension" &&
    ctx.participant.comprehension_at !== null &&
    ctx.config.comprehension.questions.some((q) => q.id === questionId)
  )
    return {
      correct: false,
      feedback: "That answer was already recorded.",
      state: { ...(await renderState(db, ctx, pos)), duplicate: true },
    };
  requirePhase(pos, "comprehension");
  const prog = await comprehensionProgress(db, ctx);
  const q = prog.question;
  if (!q || q.id !== questionId) {
    return {
      correct: false,
      feedback: "That question was already answered; here is the current one.",
      state: { ...(await renderState(db, ctx, pos)), duplicate: true },
    };
  }
  if (!q.options.includes(answer)) {
    throw new ApiError(400, "invalid_answer", `"${answer}" is not one of the options`);
  }
  const correct = answer === q.correct;
  const attempt = prog.attempts + 1;
  const now = nowIso();
  // The attempt and, when it completes the check, `comprehension_at` commit together: a crash
  // between them would leave a participant with every answer right and no next step.
  try {
    await lockedWrite(db, ctx.participant.id, async (tx) => {
      await tx
        .insertInto("comprehension")
        .values({
          participant_id: ctx.participant.id,
          question_id: q.id,
          attempt,
          answer,
          correct: correct ? 1 : 0,
          created_at: now,
        })
        .execute();
      const after = await comprehensionProgress(tx, ctx);
      if (after.done) {
        await tx
          .updateTable("participants")
          .set({ comprehension_at: now })
          .where("id", "=", ctx.participant.id)
          .execute();
      }
    });
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    return {
      correct: false,
      feedback: "That answer was already recorded.",
      state: { ...(await renderState(db, ctx, pos)), duplicate: true },
    };
  }
  const after = await comprehensionProgress(db, ctx);
  if (after.done) ctx.participant.comprehension_at = now;
  const left = ctx.config.comprehension.maxAttempts - attempt;
  const feedback = correct
    ? `Correct. ${q.explanation}`
    : left > 0
      ? `Not quite; please try again (${left} ${left === 1 ? "try" : "tries"} left). ${hint(q.explanation)}`
      : `Not quite. The answer is "${q.correct}". ${q.explanation}`;
  return { correct, feedback, state: await renderState(db, ctx) };
}

/** On a wrong answer with tries left, give the reading instruction without the number. */
function hint(explanation: string): string {
  const first = explanation.split(":")[0] ?? explanation;
  return first.endsWith(".") ? first : `${first}.`;
}

/** The time the current question of a phase was first shown: the last step before it. */
function shownAt(ctx: Context, phase: "elicitation" | "evaluation"): string {
  const p = ctx.participant;
  let t =
    phase === "elicitation"
      ? (p.guess_at ?? p.comprehension_at ?? p.story_at ?? nowIso())
      : (p.comprehension_at ?? "");
  const later = (x: string | null) => {
    if (x !== null && x > t) t = x;
  };
  for (const r of ctx.rows) {
    if (phase === "evaluation" && r.phase === "elicitation") later(r.answered_at);
    if (r.phase !== phase) continue;
    later(r.answered_at);
    later(r.undone_at);
  }
  return t;
}

/**
 * Append `row` to the participant's answer log if the log is still at the version the
 * request read (`participant.log_version`), adding one to the version with it; the new row's
 * id, or null when another answer or an undo committed first. On PostgreSQL one statement (an
 * UPDATE of the version, whose row lock orders concurrent writers and whose condition is
 * checked again on the row as it stands after the wait, feeding the INSERT): one round trip
 * instead of a transaction's five (issue 28 item 1). On SQLite, whose one connection orders
 * every write, the same two writes in a transaction. A double submit of one question still
 * collides on the answers' unique key.
 */
async function appendAnswer(
  db: Db,
  participant: Pick<ParticipantRow, "id" | "log_version">,
  row: Insertable<AnswersTable>,
): Promise<number | null> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const columns = Object.keys(row) as (keyof typeof row)[];
    const typed = (v: unknown) =>
      typeof v === "number" ? sql`${v}::integer` : sql`${v as string | null}::text`;
    const inserted = await sql<{ id: number }>`with bumped as (
        update participants set log_version = log_version + 1
        where id = ${participant.id} and log_version = ${participant.log_version}
        returning id
      )
      insert into answers (${sql.join(columns.map((c) => sql.ref(c)))})
      select ${sql.join(columns.map((c) => (c === "participant_id" ? sql.ref("bumped.id") : typed(row[c]))))}
      from bumped
      returning id`.execute(db);
    return inserted.rows[0]?.id ?? null;
  }
  return db.transaction().execute(async (tx) => {
    if (!(await bumpLogVersion(tx, participant))) return null;
    const inserted = await tx
      .insertInto("answers")
      .values(row)
      .returning("id")
      .executeTakeFirstOrThrow();
    return inserted.id;
  });
}

/** Add one to the participant's log version if it is still `log_version`; whether it was. */
async function bumpLogVersion(
  tx: Db,
  participant: Pick<ParticipantRow, "id" | "log_version">,
): Promise<boolean> {
  const bumped = await tx
    .updateTable("participants")
    .set((eb) => ({ log_version: eb("log_version", "+", 1) }))
    .where("id", "=", participant.id)
    .where("log_version", "=", participant.log_version)
    .executeTakeFirst();
  return Number(bumped.numUpdatedRows) === 1;
}

/**
 * Store one Phase II or Phase III answer. The row is committed before the next question is
 * computed; a stale or repeated question id stores nothing and returns the current state
 * with `duplicate: true` (a concurrent double submit collides on the unique key). A phase the
 * participant has not reached yet is refused (409, "not open yet").
 */
export async function answer(
  db: Db,
  ctx: Context,
  phase: "elicitation" | "evaluation",
  questionId: number,
  choice: "left" | "right" | "same",
): Promise<ParticipantState> {
  const pos = position(ctx);
  // The kind's own points: only the kind reads or stores them.
  let first: unknown;
  let second: unknown;
  let stage: string;
  // The side the question showed its first point on, when the engine placed it.
  let firstSide: "first" | "second" | undefined;
  // A phase not reached yet is no retry (409, as the other steps); one behind them is.
  refuseAhead(pos, phase);
  if (pos.phase !== phase) return { ...(await renderState(db, ctx, pos)), duplicate: true };
  if (phase === "elicitation") {
    if (pos.elicitation.status !== "pending") throw new Error("unreachable");
    const q = pos.elicitation.question;
    if (q.index !== questionId) return { ...(await renderState(db, ctx, pos)), duplicate: true };
    first = q.first;
    second = q.second;
    stage = q.stage;
    firstSide = q.left;
  } else {
    const i = pos.evaluationRows.length;
    if (i !== questionId) return { ...(await renderState(db, ctx, pos)), duplicate: true };
    const pair = pos.pairs[i]!;
    ({ first, second } = await pairPoints(db, ctx, pair));
    stage = isRetest(pair) ? RETEST_STAGE : "evaluation";
  }
  const placement = placementOf(ctx.participant.seed, phase, questionId, firstSide);
  const revision = ctx.rows.filter(
    (r) => r.phase === phase && r.question_index === questionId,
  ).length;
  const now = nowIso();
  const row = {
    participant_id: ctx.participant.id,
    phase,
    question_index: questionId,
    revision,
    stage,
    first_point: studyKindOf(ctx.config).pointJson(first),
    second_point: studyKindOf(ctx.config).pointJson(second),
    placement,
    choice,
    answer: answerOf(choice, placement),
    config_hash: ctx.configHash,
    shown_at: shownAt(ctx, phase),
    answered_at: now,
    undone_at: null,
  } as const;
  // Store the answer only if the log is still the one this question was computed from (an
  // undo or another answer may have committed meanwhile): `appendAnswer` checks the log's
  // version and adds one to it with the insert.
  let stored: boolean;
  try {
    const id = await appendAnswer(db, ctx.participant, row);
    stored = id !== null;
    if (id !== null) {
      ctx.rows.push({ ...row, id });
      ctx.participant.log_version += 1;
    }
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    stored = false;
  }
  if (!stored) await reloadLog(db, ctx);
  return stored ? renderState(db, ctx) : { ...(await renderState(db, ctx)), duplicate: true };
}

/**
 * Undo the Phase II answer before the question currently shown (`questionId`). The row is
 * kept and marked `undone_at`; replay then asks that question again.
 */
export async function undo(db: Db, ctx: Context, questionId: number): Promise<ParticipantState> {
  const pos = position(ctx);
  if (
    pos.phase !== "elicitation" ||
    pos.elicitation.status !== "pending" ||
    pos.elicitation.question.index !== questionId ||
    questionId === 0
  ) {
    return { ...(await renderState(db, ctx, pos)), duplicate: true };
  }
  const target = pos.elicitationRows[questionId - 1]!;
  const now = nowIso();
  // Only if no answer or undo committed since this request computed its position (the log's
  // version, whose row lock the transaction then holds): an answer racing the undo is either
  // before it (the undo finds a newer version and stores nothing) or after it (the answer
  // does).
  const done = await db.transaction().execute(async (tx) => {
    if (!(await bumpLogVersion(tx, ctx.participant))) return false;
    await tx
      .updateTable("answers")
      .set({ undone_at: now })
      .where("participant_id", "=", ctx.participant.id)
      .where("phase", "=", "elicitation")
      .where("question_index", ">=", target.question_index)
      .where("undone_at", "is", null)
      .execute();
    return true;
  });
  if (done) {
    ctx.participant.log_version += 1;
    for (const x of ctx.rows) {
      if (x.phase === "elicitation" && x.question_index >= target.question_index && !x.undone_at)
        x.undone_at = now;
    }
  } else await reloadLog(db, ctx);
  return done ? renderState(db, ctx) : { ...(await renderState(db, ctx)), duplicate: true };
}
