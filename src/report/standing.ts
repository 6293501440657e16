// Where a participant stands in the consensus: counted, or left out as a test run, a pilot
// participant or one whose answers a coin could have given (src/server/study/consensus.ts).

import type { Consensus } from "../server/api-schemas.ts";
import type { ExportParticipant } from "./schema.ts";

/** counted: in the consensus; the others are left out of it (or have no result yet). */
export type Standing = "counted" | "test" | "pilot" | "coin" | "no-result";

/**
 * A participant's standing: no result yet (no metric), a test run, a pilot participant, one
 * whose answers a coin could have given and the consensus leaves out, or counted.
 * @example standingOf(p, exp.consensus) // "counted"
 */
export function standingOf(p: ExportParticipant, consensus: Consensus | null): Standing {
  if (p.summary.metric === null) return "no-result";
  if (p.test) return "test";
  if (p.pilot) return "pilot";
  if (consensus?.participants.includes(p.id)) return "counted";
  return p.summary.consistency?.coinLike === true ? "coin" : "counted";
}

/** The standing in a few words, for the participants table. */
export const STANDING_TEXT: Readonly<Record<Standing, string>> = {
  counted: "counted",
  test: "test run, left out",
  pilot: "pilot, left out",
  coin: "like a coin, left out",
  "no-result": "no result yet",
};

/**
 * A participant's short label in plots: their id, and why they are left out.
 * @example participantLabel(p, "test") // "#5 test"
 */
export function participantLabel(p: ExportParticipant, standing: Standing): string {
  const why = { counted: "", test: " test", pilot: " pilot", coin: " coin", "no-result": "" };
  return `#${p.id}${why[standing]}`;
}
