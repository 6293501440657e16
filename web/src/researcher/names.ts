import type { StudySummary } from "../api/types.ts";

/** A study's display name (its id when the name is empty). */
export function studyName(s: StudySummary): string {
  return s.name !== "" ? s.name : `Study ${s.id}`;
}
