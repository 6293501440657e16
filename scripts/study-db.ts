/**
 * What the load bench (bench/server.ts) and the chaos suite (scripts/chaos.ts) share: a fresh
 * database holding the built-in study with N invited participants (SQLite in a data dir, or a
 * fresh PostgreSQL schema), optionally a multiclass and a fairness study with their own
 * invited participants (the load bench's `--mix`), the schema's removal afterwards, and the
 * audit of the stored answers against what the clients were told. Dev tools only: nothing in
 * src/ imports this.
 */
import pg from "pg";
import { CreateStudyBody } from "../src/server/api-schemas.ts";
import { ensureTemplateStudy } from "../src/server/bootstrap.ts";
import { openDb } from "../src/server/db/connect.ts";
import { createParticipants, insertStudy } from "../src/server/routes/researcher.ts";
import { sha256 } from "../src/server/security/tokens.ts";
import type { StudyConfig } from "../src/server/study/config.ts";
import { buildStudyConfig } from "../src/server/study/create.ts";

/** A database ready for a run: where it is, its study and the participants' tokens. */
export interface StudyDb {
  /** PostgreSQL URL with the fresh schema on its search path; undefined for SQLite. */
  readonly databaseUrl: string | undefined;
  /** The fresh PostgreSQL schema (drop it with dropSchema); undefined for SQLite. */
  readonly schema: string | undefined;
  readonly studyId: number;
  readonly tokens: string[];
  /** The studies of other kinds asked for with `kinds`, in the order multiclass, fair. */
  readonly kindStudies: KindStudy[];
}

/** The study kinds prepareStudyDb can add beside the built-in (binary) study. */
export type ExtraKind = "multiclass" | "fair";

/**
 * The create requests of the added studies, as a researcher would POST them to /api/studies:
 * multiclass on the bundled iris data (k = 3, diagonal-linear, adaptive defaults), fair on
 * the bundled arrests data by colour (the trade-off lambda, adaptive defaults).
 */
export const KIND_STUDY_REQUESTS: Readonly<Record<ExtraKind, Record<string, unknown>>> = {
  multiclass: { name: "Flowers", kind: "multiclass", dataset: "iris" },
  fair: { name: "Release decisions", kind: "fair" },
};

/** A study of another kind made by prepareStudyDb: its id, stored config, hash and tokens. */
export interface KindStudy {
  readonly kind: ExtraKind;
  readonly studyId: number;
  readonly config: StudyConfig;
  readonly configHash: string;
  readonly tokens: string[];
}

/**
 * Creates the built-in study and invites `participants` people: on SQLite in `dataDir`, or,
 * with `baseUrl`, in a new PostgreSQL schema named `${schemaPrefix}_${pid}_${time}`. With
 * `kinds` it also creates, live, a multiclass and/or a fairness study from
 * `KIND_STUDY_REQUESTS` (built as POST /api/studies builds them) and invites that many
 * participants to each (`kindStudies`).
 * @example const db = await prepareStudyDb({ dataDir: dir, baseUrl: undefined, schemaPrefix: "bench", participants: 205 });
 */
export async function prepareStudyDb(o: {
  dataDir: string;
  baseUrl: string | undefined;
  schemaPrefix: string;
  participants: number;
  kinds?: Partial<Record<ExtraKind, number>>;
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
  const kindStudies: KindStudy[] = [];
  for (const kind of ["multiclass", "fair"] as const) {
    const n = o.kinds?.[kind];
    if (n === undefined) continue;
    const request = CreateStudyBody.parse(KIND_STUDY_REQUESTS[kind]);
    const built = buildStudyConfig(request);
    const studyId = await insertStudy(setup.db, request.name, null, built, "live");
    kindStudies.push({
      kind,
      studyId,
      config: built.config,
      configHash: built.hash,
      tokens: await createParticipants(setup.db, studyId, n, false),
    });
  }
  await setup.db.destroy();
  return { databaseUrl, schema, studyId: study.id, tokens, kindStudies };
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
 * `studyId` may list several studies (the clients of all of them); `stored` counts the
 * answers of the whole database.
 * @example const { lost, duplicated, stuck } = await auditAnswers({ dataDir, databaseUrl, studyId, clients });
 */
export async function auditAnswers(o: {
  dataDir: string;
  databaseUrl: string | undefined;
  studyId: number | readonly number[];
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
    .where("study_id", "in", typeof o.studyId === "number" ? [o.studyId] : [...o.studyId])
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
