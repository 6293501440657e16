// A new study's configuration from a create request: each kind builds its own.

import type { CreateStudyBody } from "../api-schemas.ts";
import { studyKindOf } from "../kinds/registry.ts";
import type { StudyConfig } from "./config.ts";

/**
 * Build and validate a study configuration from a create request. The data are prepared once
 * here, so a bad upload fails with the parser's message before anything is stored.
 */
export function buildStudyConfig(body: CreateStudyBody): { config: StudyConfig; hash: string } {
  return studyKindOf(body).buildConfig(body);
}

/**
 * The request's fields that are set (an absent optional field is not an override).
 * @example stripUndefined({ a: 1, b: undefined }) // { a: 1 }
 */
export function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
