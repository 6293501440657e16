import type { Db } from "./db/schema.ts";
import { hashPassword } from "./security/password.ts";
import { isEmailAddress, passwordProblem } from "./security/password-policy.ts";
import { nowIso } from "./time.ts";

/** Normalise an e-mail address for storage and lookup. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Create a researcher account (the first one comes from `elicit admin create-user`).
 * Throws when the address is not one or is taken, or the password breaks the password policy
 * (`passwordProblem`: at least 10 characters, not a common password, ...).
 * @example await createResearcher(db, "r@example.org", "correct horse battery")
 */
export async function createResearcher(db: Db, email: string, password: string): Promise<number> {
  const e = normalizeEmail(email);
  if (!isEmailAddress(e)) throw new Error(`"${email}" is not an e-mail address`);
  const problem = passwordProblem(password, e);
  if (problem !== null) throw new Error(problem);
  const taken = await db
    .selectFrom("researchers")
    .select("id")
    .where("email", "=", e)
    .executeTakeFirst();
  if (taken) throw new Error(`a researcher with e-mail ${e} already exists`);
  const row = await db
    .insertInto("researchers")
    .values({ email: e, password_hash: await hashPassword(password), created_at: nowIso() })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function researcherCount(db: Db): Promise<number> {
  const r = await db
    .selectFrom("researchers")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
