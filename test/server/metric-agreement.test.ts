import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ParticipantState } from "../../src/server/api-schemas.ts";
import { formatMetric } from "../../web/src/researcher/metric.ts";
import {
  answerElicitation,
  chooser,
  finePredictionsCsv,
  finish,
  storedStudy,
  walkToElicitation,
} from "./driver.ts";
import { BACKENDS, call, freshStore, signIn, startApp, type TestApp, tokenOf } from "./helpers.ts";

/** The "x TP + y TN" the dashboard table shows, read back as numbers. */
function shownWeights(text: string): { tp: number; tn: number } {
  const m = /^([\d.]+) TP \+ ([\d.]+) TN$/.exec(text);
  if (!m) throw new Error(`unexpected dashboard metric "${text}"`);
  return { tp: Number(m[1]), tn: Number(m[2]) };
}

/** A minimal CSV reader for the export (quoted fields with doubled quotes). */
function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  const [header, ...body] = rows;
  return body.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ""])));
}

/**
 * Issue 11: what a researcher sees must be what was stored and what the participant was told.
 * A participant for whom a missed positive is 4 times as bad as a false alarm (a0 = 0.2 in
 * a0 TN + (1 - a0) TP) must appear as about 0.8 TP + 0.2 TN on the dashboard, in the wide CSV
 * and in the JSON export, with the debrief's ratio (about 4) equal to tp / tn everywhere.
 */
describe.each(BACKENDS)("dashboard, debrief and exports agree (%s)", (kind) => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await startApp(await freshStore(kind));
    cookie = await signIn(t);
  });
  afterEach(async () => {
    await t.close();
  });

  for (const family of ["binary-threshold", "binary-linear"] as const) {
    it(`${family}: the same metric on every screen and file`, async () => {
      const created = await call(
        t,
        "POST",
        "/api/studies",
        {
          name: `Loans (${family})`,
          predictionsCsv: finePredictionsCsv(),
          positive: "yes",
          family,
          strategy: "bisect",
          evaluationPairs: 3,
        },
        cookie,
      );
      expect(created.status).toBe(200);
      const id = created.body.study.id as number;
      const { pool } = await storedStudy(t, id);
      const link = await call(t, "POST", `/api/studies/${id}/test-run`, {}, cookie);
      const token = tokenOf(link.body.link);
      const a0 = 0.2;
      const choose = chooser(pool, a0);
      let s: ParticipantState = await walkToElicitation(t, token);
      s = (await answerElicitation(t, token, s, choose)).state;
      s = await finish(t, token, s, choose);
      expect(s.phase).toBe("debrief");
      const debrief = s.debrief!;
      // The participant is told missed positives are worse, about 4 times (the pool's
      // staircase and the tolerance allow some slack).
      expect(debrief.ratio).toBeGreaterThan(2.5);
      expect(debrief.ratio).toBeLessThan(6.5);
      expect(debrief.summary).toMatch(/times as bad as/);

      // A researcher's test run is not a participant who finished (issue 11).
      const summary = (await call(t, "GET", `/api/studies/${id}`, undefined, cookie)).body.study;
      expect(summary.counts).toMatchObject({ done: 0, started: 0, testRuns: 1 });
      expect(summary.participants).toBe(1);

      // Dashboard: the participants table as the browser renders it.
      const rows = (await call(t, "GET", `/api/studies/${id}/participants`, undefined, cookie)).body
        .participants as { id: number; metric: unknown; ratio: number | null }[];
      expect(rows).toHaveLength(1);
      const screen = shownWeights(formatMetric(rows[0]!.metric));
      expect(screen.tp).toBeGreaterThan(0.5);
      expect(screen.tp / screen.tn).toBeCloseTo(debrief.ratio!, 1);
      expect(rows[0]!.ratio).toBeCloseTo(debrief.ratio!, 9);

      // Wide CSV.
      const csv = await call(
        t,
        "GET",
        `/api/studies/${id}/export/participants.csv`,
        undefined,
        cookie,
      );
      const [wide] = parseCsv(csv.body as string);
      expect(Number(wide!.elicited_tp)).toBeCloseTo(screen.tp, 3);
      expect(Number(wide!.elicited_tn)).toBeCloseTo(screen.tn, 3);
      expect(Number(wide!.elicited_ratio)).toBeCloseTo(debrief.ratio!, 9);
      if (family === "binary-threshold")
        expect(Number(wide!.elicited_a0)).toBeCloseTo(screen.tn, 3);
      else expect(wide!.elicited_a0).toBe("");

      // JSON export: the stored metric, read with the documented convention.
      const json = await call(t, "GET", `/api/studies/${id}/export/study.json`, undefined, cookie);
      const exported = (typeof json.body === "string" ? JSON.parse(json.body) : json.body)
        .participants[0].summary.metric;
      expect(exported).toEqual(rows[0]!.metric);
      expect(exported).toEqual(debrief.metric);
      expect(shownWeights(formatMetric(exported))).toEqual(screen);
    });
  }
});
