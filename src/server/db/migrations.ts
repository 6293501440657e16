import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from "kysely";
import type { DbKind } from "./schema.ts";

/**
 * An integer id assigned by the database. Rows are never deleted except draft studies nobody
 * took part in (DELETE /api/studies/:id); SQLite may then give the last such id again.
 */
function idColumn(dialect: DbKind) {
  return dialect === "postgres" ? sql`serial primary key` : sql`integer primary key`;
}

function initial(dialect: DbKind): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("settings")
        .addColumn("key", "text", (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("researchers")
        .addColumn("id", idColumn(dialect))
        .addColumn("email", "text", (c) => c.notNull().unique())
        .addColumn("password_hash", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("sessions")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("researcher_id", "integer", (c) => c.notNull().references("researchers.id"))
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("studies")
        .addColumn("id", idColumn(dialect))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("owner_id", "integer", (c) => c.references("researchers.id"))
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("config", "text", (c) => c.notNull())
        .addColumn("config_hash", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("opened_at", "text")
        .execute();
      let participants = db.schema
        .createTable("participants")
        .addColumn("id", idColumn(dialect))
        .addColumn("study_id", "integer", (c) => c.notNull().references("studies.id"))
        .addColumn("token_hash", "text", (c) => c.notNull().unique())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("seed", "bigint", (c) => c.notNull())
        .addColumn("test", "integer", (c) => c.notNull())
        .addColumn("pilot", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "text", (c) => c.notNull());
      for (const col of [
        "started_at",
        "consented_at",
        "questionnaire_at",
        "story_at",
        "comprehension_at",
        "guess_at",
        "post_at",
        "finished_at",
        "withdrawn_at",
        "completion_code",
      ]) {
        participants = participants.addColumn(col, "text");
      }
      await participants.execute();
      await db.schema
        .createIndex("participants_study")
        .on("participants")
        .column("study_id")
        .execute();
      await db.schema
        .createTable("answers")
        .addColumn("id", idColumn(dialect))
        .addColumn("participant_id", "integer", (c) => c.notNull().references("participants.id"))
        .addColumn("phase", "text", (c) => c.notNull())
        .addColumn("question_index", "integer", (c) => c.notNull())
        .addColumn("revision", "integer", (c) => c.notNull())
        .addColumn("stage", "text", (c) => c.notNull())
        .addColumn("first_point", "text", (c) => c.notNull())
        .addColumn("second_point", "text", (c) => c.notNull())
        .addColumn("placement", "text", (c) => c.notNull())
        .addColumn("choice", "text", (c) => c.notNull())
        .addColumn("answer", "text", (c) => c.notNull())
        .addColumn("config_hash", "text", (c) => c.notNull())
        .addColumn("shown_at", "text", (c) => c.notNull())
        .addColumn("answered_at", "text", (c) => c.notNull())
        .addColumn("undone_at", "text")
        .addUniqueConstraint("answers_unique_revision", [
          "participant_id",
          "phase",
          "question_index",
          "revision",
        ])
        .execute();
      await db.schema
        .createTable("responses")
        .addColumn("id", idColumn(dialect))
        .addColumn("participant_id", "integer", (c) => c.notNull().references("participants.id"))
        .addColumn("form", "text", (c) => c.notNull())
        .addColumn("field_id", "text", (c) => c.notNull())
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addUniqueConstraint("responses_unique_field", ["participant_id", "form", "field_id"])
        .execute();
      await db.schema
        .createTable("comprehension")
        .addColumn("id", idColumn(dialect))
        .addColumn("participant_id", "integer", (c) => c.notNull().references("participants.id"))
        .addColumn("question_id", "text", (c) => c.notNull())
        .addColumn("attempt", "integer", (c) => c.notNull())
        .addColumn("answer", "text", (c) => c.notNull())
        .addColumn("correct", "integer", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addUniqueConstraint("comprehension_unique_attempt", [
          "participant_id",
          "question_id",
          "attempt",
        ])
        .execute();
      await db.schema
        .createTable("guesses")
        .addColumn("participant_id", "integer", (c) => c.primaryKey().references("participants.id"))
        .addColumn("ratio", "double precision")
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
    },
  };
}

/**
 * A draft study's create request (issue 27 defect 8), so the create form can open a draft for
 * editing as it was made (uploads included); cleared when the study is opened.
 */
const draftRequest: Migration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
  async up(db: Kysely<any>) {
    await db.schema.alterTable("studies").addColumn("draft_request", "text").execute();
  },
};

/**
 * A participant's answer-log version (issue 28 item 1): every answer and undo adds one, in the
 * same statement or transaction as its write, and a write states the version it was computed
 * from, so a participant's log is checked and appended in one round trip instead of a locked
 * read of the whole log.
 */
const logVersion: Migration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable("participants")
      .addColumn("log_version", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  },
};

/** All migrations, in order. Never edit one that has shipped; append a new one. */
export function migrations(dialect: DbKind): Record<string, Migration> {
  return {
    "0001-initial": initial(dialect),
    "0002-draft-request": draftRequest,
    "0003-log-version": logVersion,
  };
}

/**
 * Apply every pending migration (called on every start; a no-op when up to date).
 * @example await migrateToLatest(db, "sqlite");
 */
// biome-ignore lint/suspicious/noExplicitAny: any schema can be migrated
export async function migrateToLatest(db: Kysely<any>, dialect: DbKind): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  // On PostgreSQL keep Kysely's bookkeeping tables in the schema the app uses (the first of
  // search_path), so several databases' schemas on one server do not see each other's.
  const schema =
    dialect === "postgres"
      ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s
      : undefined;
  const migrator = new Migrator({
    db,
    provider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new Error(`database migration ${failed} failed: ${(error as Error).message ?? error}`);
  }
}
