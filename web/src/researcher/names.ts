import type { StudySummary } from "../api/types.ts";

/** A study's display name (the contract leaves StudySummary open: name, title or id). */
export function studyName(s: StudySummary): string {
  const n = s.name ?? s.title;
  return typeof n === "string" && n !== "" ? n : `Study ${s.id}`;
}
