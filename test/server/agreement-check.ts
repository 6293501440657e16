import { expect } from "vitest";
import type { BinaryPoint } from "../../src/elicit/binary/point.ts";
import type { ParticipantState } from "../../src/server/api-schemas.ts";
import { studyData } from "../../src/server/kinds/binary/data.ts";
import { shownOnScreen } from "../../src/server/participant/evaluation-pairs.ts";
import { studyFrame } from "../../src/server/participant/views.ts";
import { sha256 } from "../../src/server/security/tokens.ts";
import type { StudyConfig } from "../../src/server/study/config.ts";
import type { TestApp } from "./helpers.ts";

/**
 * What a noiseless participant's agreement M must be now that Phase III pairs are random
 * (issue 11 item 5): they answer every pair with their own metric `a0 TN + (1 - a0) TP`, so
 * they disagree with the elicited metric exactly on the pairs the two metrics rank differently,
 * those whose flip point `dTP / (dTP + dTN)` lies between the two metrics' `a` (the old pairs
 * avoided them, which made M = 1 by construction), or, since the server judges each pair on
 * the counts shown (issue 26) while this participant reads the exact rates, those whose shown
 * counts the elicited metric ranks the other way from the exact rates. Checks, from the stored
 * Phase III rows, that every disagreement is such a pair (within 0.005: the simulated
 * participant reads thresholds on a 1e-4 grid), that the debrief's M is the share the rows
 * give on the counts shown and its tie count
 * the rows' "about the same" answers (the simulated participant says so when the two systems it
 * reads are worth exactly the same to it), and returns the number of pairs where the two
 * metrics differ.
 * @example await expectHonestAgreement(t, token, 0.3, state.debrief!)
 */
export async function expectHonestAgreement(
  t: TestApp,
  token: string,
  a0: number,
  debrief: NonNullable<ParticipantState["debrief"]>,
): Promise<number> {
  const m = debrief.metric as { a0?: number; tp?: number; tn?: number };
  const elicited = m.a0 ?? m.tn! / (m.tp! + m.tn!);
  const p = await t.db
    .selectFrom("participants")
    .select(["id", "study_id"])
    .where("token_hash", "=", sha256(token))
    .executeTakeFirstOrThrow();
  const study = await t.db
    .selectFrom("studies")
    .select(["config", "config_hash"])
    .where("id", "=", p.study_id)
    .executeTakeFirstOrThrow();
  const config = JSON.parse(study.config) as StudyConfig;
  const frame = studyFrame(config, studyData(study.config_hash, config).pool.zeta);
  const all = await t.db
    .selectFrom("answers")
    .select(["answer", "first_point", "second_point", "stage"])
    .where("participant_id", "=", p.id)
    .where("phase", "=", "evaluation")
    .where("undone_at", "is", null)
    .execute();
  // The Phase II pairs shown again (test-retest) are not in M; a noiseless participant
  // answers each the same way both times.
  const rows = all.filter((r) => r.stage !== "retest");
  const repeats = all.length - rows.length;
  if (debrief.consistency) {
    expect(debrief.consistency.retestPairs).toBe(repeats);
    expect(debrief.consistency.retestSame).toBe(repeats);
  } else expect(repeats).toBe(0);
  const lo = Math.min(a0, elicited) - 0.005;
  const hi = Math.max(a0, elicited) + 0.005;
  let counted = 0;
  let matches = 0;
  let between = 0;
  let ties = 0;
  for (const r of rows) {
    if (r.answer === "tie") {
      ties++;
      continue;
    }
    const f = (JSON.parse(r.first_point) as BinaryPoint).confusion;
    const s = (JSON.parse(r.second_point) as BinaryPoint).confusion;
    const flip = (f.tp - s.tp) / (f.tp - s.tp - (f.tn - s.tn));
    if (flip >= lo && flip <= hi) between++;
    const exact = (1 - elicited) * (f.tp - s.tp) + elicited * (f.tn - s.tn);
    const [fs, ss] = [shownOnScreen(f, frame), shownOnScreen(s, frame)];
    const d = (1 - elicited) * (fs.tp - ss.tp) + elicited * (fs.tn - ss.tn);
    if (Math.abs(d) < 1e-12) continue;
    counted++;
    if (d > 0 === (r.answer === "first")) matches++;
    else if (exact > 0 === d > 0) {
      // A disagreement where the rounding does not reorder the pair: only where the
      // participant's metric and the elicited one differ.
      expect(flip).toBeGreaterThanOrEqual(lo);
      expect(flip).toBeLessThanOrEqual(hi);
    }
  }
  expect(rows.length).toBeGreaterThan(0);
  if (counted === 0) expect(debrief.agreement).toBeNull();
  else expect(debrief.agreement).toBeCloseTo(matches / counted, 12);
  expect(debrief.agreementDetail).toMatchObject({ pairs: rows.length, ties });
  return between;
}
