/**
 * What the load bench (bench/server.ts) and the chaos suite (scripts/chaos.ts) share: a fresh
 * database holding the built-in study with N invited participants (SQLite in a data dir, or a
 * fresh PostgreSQL schema), the schema's removal afterwards, and the audit of the stored
 * answers against what the clients were told. Dev tools only: nothing in src/ imports this.
 */
import pg from "pg";
import { ensureTemplateStudy } from "../src/server/bootstrap.ts";
import { openDb } from "../src/server/db/connect.ts";
import { createParticipants } from "../src/server/routes/researcher.ts";
import { sha256 } from "../src/server/security/tokens.ts";

/** A database ready for a run: where it is, its study and the participants' tokens. */
export interface StudyDb {
  /** PostgreSQL URL with the fresh schema on its search path; undefined for SQLite. */
  readonly databaseUrl: string | undefined;
  /** The fresh PostgreSQL schema (drop it with dropSchema); undefined for SQLite. */
  readonly schema: string | undefined;
  readonly studyId: number;
  readonly tokens: string[];
}

/**
 * Creates the built-in study and invites `participants` people: on SQLite in `dataDir`, or,
 * with `baseUrl`, in a new PostgreSQL schema named `${schemaPrefix}_${pid}_${time}`.
 * @example const db = await prepareStudyDb({ dataDir: dir, baseUrl: undefined, schemaPrefix: "bench", participants: 205 });
 */
export async function prepareStudyDb(o: {
  dataDir: string;
  baseUrl: string | undefined;
  schemaPrefix: string;
  participants: number;
}): Promise<StudyDb> {
  let databaseUrl: string | undefined;
  let schema: string | undefined;
  if (o.baseUrl) {
    schema = `${o.schemaPrefix}_${process.pid}_${Date.now()}`;
    const c = new pg.Client({ connectionString: o.baseUrl });
    await c.connect();
    await c.query(`create schema ${schema}`);
    await c.end();
    const url = new URL(o.baseUrl);
    url.searchParams.set("options", `-c search_path=${schema}`);
    databaseUrl = url.toString();
  }
  const setup = await openDb({ dataDir: o.dataDir, databaseUrl });
  await ensureTemplateStudy(setup.db);
  const study = await setup.db
    .selectFrom("studies")
    .select("id")
    .orderBy("id")
    .executeTakeFirstOrThrow();
  const tokens = await createParticipants(setup.db, study.id, o.participants, false);
  await setup.db.destroy();
  return { databaseUrl, schema, studyId: study.id, tokens };
}

/**
 * Drops the schema prepareStudyDb made on PostgreSQL.
 * @example await dropSchema(baseUrl, db.schema);
 */
export async function dropSchema(baseUrl: string, schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: baseUrl });
  await c.connect();
  await c.query(`drop schema ${schema} cascade`);
  await c.end();
}

/** An answer a client was told was stored (200, not `duplicate`). */
export interface Ack {
  readonly phase: "elicitation" | "evaluation";
  readonly question: number;
  readonly choice: string;
}

/** What one participant's client saw: its acknowledged answers and whether it reached the debrief. */
export interface ClientRecord {
  readonly token: string;
  readonly acks: readonly Ack[];
  readonly done: boolean;
}

/** The audit's counts; see auditAnswers. */
export interface Audit {
  /** Answer rows stored (live and undone). */
  readonly stored: number;
  readonly lost: number;
  readonly duplicated: number;
  readonly stuck: number;
}

/**
 * Audits the study's stored answers against what the clients were told:
 * - lost: an acknowledged answer with no stored row for it;
 * - duplicated: per participant and phase, live (not undone) answers that are not exactly
 *   questions 0, 1, 2, ... (one each, no gap);
 * - stuck: a participant whose client did not reach the debrief or whose status is not done.
 * @example const { lost, duplicated, stuck } = await auditAnswers({ dataDir, databaseUrl, studyId, clients });
 */
export async function auditAnswers(o: {
  dataDir: string;
  databaseUrl: string | undefined;
  studyId: number;
  clients: readonly ClientRecord[];
}): Promise<Audit> {
  const audit = await openDb({ dataDir: o.dataDir, databaseUrl: o.databaseUrl });
  const rows = await audit.db
    .selectFrom("answers")
    .select(["participant_id", "phase", "question_index", "choice", "undone_at"])
    .orderBy("id")
    .execute();
  const participantRows = await audit.db
    .selectFrom("participants")
    .select(["id", "token_hash", "status"])
    .where("study_id", "=", o.studyId)
    .execute();
  await audit.db.destroy();

  const byHash = new Map(participantRows.map((r) => [r.token_hash, r]));
  const rowsOf = new Map<number, typeof rows>();
  for (const r of rows) {
    const list = rowsOf.get(r.participant_id) ?? [];
    list.push(r);
    rowsOf.set(r.participant_id, list);
  }
  let lost = 0;
  let duplicated = 0;
  let stuck = 0;
  for (const p of o.clients) {
    const row = byHash.get(sha256(p.token))!;
    if (!p.done || row.status !== "done") stuck++;
    const stored = [...(rowsOf.get(row.id) ?? [])];
    for (const a of p.acks) {
      const i = stored.findIndex(
        (r) => r.phase === a.phase && r.question_index === a.question && r.choice === a.choice,
      );
      if (i < 0) lost++;
      else stored.splice(i, 1);
    }
    for (const phase of ["elicitation", "evaluation"] as const) {
      const live = (rowsOf.get(row.id) ?? [])
        .filter((r) => r.phase === phase && r.undone_at === null)
        .map((r) => r.question_index)
        .sort((a, b) => a - b);
      // Live answers must be exactly questions 0, 1, 2, ...: one each, no gap.
      if (live.some((q, i) => q !== i)) duplicated++;
    }
  }
  return { stored: rows.length, lost, duplicated, stuck };
}
