import type { Db } from "../db/schema.ts";
import { notFound } from "../errors.ts";
import type { StudyConfig } from "./config.ts";

/** A study's immutable configuration, parsed once per hash. */
const configs = new Map<string, StudyConfig>();

/**
 * The configuration of study `id` whose stored hash is `hash` (cached: configurations never
 * change once created, so the hash identifies them).
 */
export async function loadConfig(db: Db, id: number, hash: string): Promise<StudyConfig> {
  const cached = configs.get(hash);
  if (cached) return cached;
  const row = await db
    .selectFrom("studies")
    .select(["config", "config_hash"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) throw notFound("study not found");
  const config = JSON.parse(row.config) as StudyConfig;
  if (configs.size > 256) configs.clear();
  configs.set(row.config_hash, config);
  return config;
}
