// A draft study's own routes (issue 27 defect 8: drafts could be neither edited nor deleted):
// read the create request it was made from, replace its configuration, delete it. Only the
// owner may, and only while it is a draft nobody has taken part in (test runs included): the
// answers of anyone who did are replayed against the configuration they were given.

import { type Expression, type SqlBool, sql } from "kysely";
import type { Db } from "../db/schema.ts";
import { ApiError, notFound } from "../errors.ts";

/** Why a study cannot be edited or deleted as a draft now, or null when it can. */
async function notEditable(db: Db, id: number): Promise<string | null> {
  const s = await db
    .selectFrom("studies")
    .select(["status", "owner_id"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!s) return "the study no longer exists";
  if (s.owner_id === null)
    return "the built-in study belongs to everyone and cannot be edited or deleted";
  if (s.status !== "draft")
    return `the study is ${s.status}: its configuration is frozen and its data are kept`;
  const n = await db
    .selectFrom("participants")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("study_id", "=", id)
    .executeTakeFirstOrThrow();
  const count = Number(n.n);
  if (count > 0)
    return `${count} ${count === 1 ? "person has" : "people have"} taken part already (test runs included), and their answers belong to this configuration`;
  return null;
}

/**
 * Refuse (409 `not_draft`, saying why) unless study `id` is a draft of an owner that nobody
 * has taken part in; `what` is "edited" or "deleted".
 */
export async function requireEditableDraft(db: Db, id: number, what: string): Promise<void> {
  const why = await notEditable(db, id);
  if (why !== null)
    throw new ApiError(
      409,
      "not_draft",
      `only a draft nobody has taken part in can be ${what}: ${why}`,
    );
}

/**
 * The condition, checked in the same statement as the change, that study `id` is still an
 * owned draft with no participant: a test run or an open racing the edit or the deletion
 * makes it change nothing (then answered 409 as above).
 */
function stillDraft(id: number): Expression<SqlBool> {
  return sql<SqlBool>`id = ${id} and status = 'draft' and opened_at is null and owner_id is not null and not exists (select 1 from participants where participants.study_id = ${id})`;
}

/**
 * Replace a draft's name, configuration and stored create request; false when it is no
 * longer an editable draft.
 */
export async function replaceDraft(
  db: Db,
  id: number,
  name: string,
  built: { config: unknown; hash: string },
  request: unknown,
): Promise<boolean> {
  const r = await db
    .updateTable("studies")
    .set({
      name,
      config: JSON.stringify(built.config),
      config_hash: built.hash,
      draft_request: JSON.stringify(request),
    })
    .where(stillDraft(id))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Delete a draft; false when it is no longer an editable draft. */
export async function deleteDraft(db: Db, id: number): Promise<boolean> {
  const r = await db.deleteFrom("studies").where(stillDraft(id)).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/**
 * The create request a draft was made from (or last edited with), to open it in the create
 * form; 409 when the study is not an editable draft or was made before requests were kept.
 */
export async function draftRequest(db: Db, id: number): Promise<unknown> {
  await requireEditableDraft(db, id, "edited");
  const row = await db
    .selectFrom("studies")
    .select("draft_request")
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) throw notFound("study not found");
  if (row.draft_request === null)
    throw new ApiError(
      409,
      "not_draft",
      "this draft was made before drafts could be edited, so its create request was not kept: delete it and create the study again",
    );
  return JSON.parse(row.draft_request);
}
