import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { ParticipantState, SystemView } from "../../src/server/api-schemas.ts";
import {
  formatMetric,
  formatRange,
  metricWeights,
  percent,
} from "../../web/src/researcher/metric.ts";
import {
  answerElicitation,
  answerEvaluation,
  chooser,
  finePredictionsCsv,
  postAnswers,
  storedStudy,
  walkToElicitation,
} from "./driver.ts";
import {
  call,
  freshStore,
  SLOW_BACKENDS,
  signIn,
  startApp,
  type TestApp,
  tiers,
  tokenOf,
} from "./helpers.ts";

/** A CSV reader for the exports (quoted fields with doubled quotes): header and rows. */
function parseCsv(text: string): { header: string[]; rows: Record<string, string>[] } {
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
    } else if (c === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  const [header, ...body] = rows;
  return {
    header: header!,
    rows: body.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ""]))),
  };
}

/** Does a non-empty cell hold a value of the codebook type? */
function ofType(type: string, cell: string): boolean {
  switch (type) {
    case "integer":
      return /^-?\d+$/.test(cell);
    case "number":
      return /^-?(\d+(\.\d+)?|\.\d+)(e[-+]?\d+)?$/i.test(cell);
    case "boolean01":
      return cell === "0" || cell === "1";
    case "datetime":
      return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(cell);
    case "json":
      try {
        JSON.parse(cell);
        return true;
      } catch {
        return false;
      }
    case "text":
      return true;
    default:
      return false;
  }
}

const num = (cell: string | undefined) => (cell === undefined || cell === "" ? null : Number(cell));

/**
 * Issue 11 items 5 and 7: for every participant of a small study, the dashboard's text, the
 * debrief, the wide CSV and the JSON export give the same metric, cost ratio, range and
 * agreement (both ways, with the "about the same" answers counted); every column of both CSVs
 * is in the codebook file with one type, and every cell is empty (NA) or of that type.
 */
describe.each(SLOW_BACKENDS)(
  "exports, dashboard and debrief agree per participant (%s)",
  (kind) => {
    // npm test on PostgreSQL runs only this block's `test(...)` cases (a smoke); the sweep
    // test/sweeps/postgres/exports-agreement.sweep.ts runs every case there.
    const { it } = tiers(kind);
    let t: TestApp;
    let cookie: string;
    beforeEach(async () => {
      t = await startApp(await freshStore(kind));
      cookie = await signIn(t);
    });
    afterEach(async () => {
      await t.close();
    });

    test("three participants: metric, range, M both ways and ties in every place; a typed codebook", async () => {
      const created = await call(
        t,
        "POST",
        "/api/studies",
        {
          name: "Loans",
          predictionsCsv: finePredictionsCsv(),
          positive: "yes",
          family: "binary-threshold",
          strategy: "bisect",
          evaluationPairs: 8,
        },
        cookie,
      );
      expect(created.status).toBe(200);
      const id = created.body.study.id as number;
      const { pool } = await storedStudy(t, id);
      expect(
        (await call(t, "POST", `/api/studies/${id}/open`, { mode: "live" }, cookie)).status,
      ).toBe(200);
      const links = (await call(t, "POST", `/api/studies/${id}/invites`, { count: 3 }, cookie)).body
        .links as string[];

      const debriefs = new Map<number, NonNullable<ParticipantState["debrief"]>>();
      let said = 0;
      const truths = [0.1, 0.2, 0.35];
      for (const [i, link] of links.entries()) {
        const token = tokenOf(link);
        const choose = chooser(pool, truths[i]!);
        let s: ParticipantState = await walkToElicitation(t, token);
        s = (await answerElicitation(t, token, s, choose)).state;
        expect(s.phase).toBe("evaluation");
        // The second participant says "about the same" on every other Phase III pair.
        let n = 0;
        const answer =
          i === 1
            ? (l: SystemView, r: SystemView) => (n++ % 2 === 0 ? "same" : choose(l, r))
            : choose;
        // Counted as given: a participant's own metric can also rank a random pair level.
        const phase3 = (l: SystemView, r: SystemView) => {
          const a = answer(l, r);
          if (a === "same") said++;
          return a;
        };
        s = await answerEvaluation(t, token, s, phase3);
        s = (await call(t, "POST", `/api/p/${token}/post`, { answers: postAnswers })).body;
        expect(s.phase).toBe("debrief");
        const me = await t.db
          .selectFrom("participants")
          .select("id")
          .where("study_id", "=", id)
          .where("status", "=", "done")
          .orderBy("finished_at", "desc")
          .orderBy("id", "desc")
          .executeTakeFirstOrThrow();
        debriefs.set(me.id, s.debrief!);
      }
      expect(debriefs.size).toBe(3);

      const dashboard = (await call(t, "GET", `/api/studies/${id}/participants`, undefined, cookie))
        .body.participants as {
        id: number;
        metric: unknown;
        ratio: number | null;
        range: { low: number; high: number | null } | null;
        agreement: number | null;
        agreementDetail: Record<string, number | null> | null;
      }[];
      const wide = parseCsv(
        (await call(t, "GET", `/api/studies/${id}/export/participants.csv`, undefined, cookie))
          .body as string,
      );
      const jsonBody = (
        await call(t, "GET", `/api/studies/${id}/export/study.json`, undefined, cookie)
      ).body;
      const json = typeof jsonBody === "string" ? JSON.parse(jsonBody) : jsonBody;

      let ties = 0;
      for (const [pid, d] of debriefs) {
        const dash = dashboard.find((r) => r.id === pid)!;
        const csv = wide.rows.find((r) => r.participant_id === String(pid))!;
        const exported = json.participants.find((p: { id: number }) => p.id === pid).summary;
        const w = metricWeights(d.metric)!;
        // Metric: dashboard text, wide CSV (both ways: weights and costs), JSON.
        expect(formatMetric(dash.metric)).toBe(formatMetric(d.metric));
        expect(Number(csv.elicited_tp)).toBeCloseTo(w.tp, 12);
        expect(Number(csv.elicited_tn)).toBeCloseTo(w.tn, 12);
        expect(Number(csv.elicited_fn_cost)).toBeCloseTo(w.tp, 12);
        expect(Number(csv.elicited_fp_cost)).toBeCloseTo(w.tn, 12);
        expect(csv.elicitation_family).toBe("binary-threshold");
        expect(csv.elicitation_strategy).toBe("bisect");
        expect(exported.metric).toEqual(d.metric);
        // Ratio and the debrief's range.
        expect(num(csv.elicited_ratio)).toBeCloseTo(d.ratio!, 12);
        expect(dash.range).toEqual(d.range);
        expect(exported.range).toEqual(d.range);
        expect(formatRange(dash.range)).toBe(formatRange(d.range));
        expect(num(csv.ratio_low)).toBe(d.range.low);
        expect(num(csv.ratio_high)).toBe(d.range.high);
        expect(csv.ratio_high_unbounded).toBe(d.range.high === null ? "1" : "0");
        expect(d.range.low).toBeLessThanOrEqual(d.ratio!);
        if (d.range.high !== null) expect(d.range.high).toBeGreaterThanOrEqual(d.ratio!);
        // The range of a (unrounded) holds the elicited a0, and the printed range follows it.
        const aLo = Number(csv.range_a_low);
        const aHi = Number(csv.range_a_high);
        expect(exported.rangeA).toEqual({ lo: aLo, hi: aHi });
        expect(aLo).toBeLessThanOrEqual(w.tn + 1e-9);
        expect(aHi).toBeGreaterThanOrEqual(w.tn - 1e-9);
        // Agreement both ways, with the "about the same" answers.
        expect(dash.agreementDetail).toEqual(d.agreementDetail);
        expect(exported.agreementDetail).toEqual(d.agreementDetail);
        expect(dash.agreement).toBe(d.agreement);
        expect(percent(dash.agreement)).toBe(percent(d.agreement));
        const detail = d.agreementDetail;
        expect(detail.pairs).toBe(8);
        expect(num(csv.agreement)).toBe(detail.all);
        expect(num(csv.agreement_undecided)).toBe(detail.undecided);
        expect(num(csv.evaluation_pairs)).toBe(detail.pairs);
        expect(num(csv.evaluation_ties)).toBe(detail.ties);
        expect(num(csv.undecided_pairs)).toBe(detail.undecidedPairs);
        expect(num(csv.undecided_ties)).toBe(detail.undecidedTies);
        expect(num(csv.metric_ties)).toBe(detail.metricTies);
        expect(detail.undecidedPairs).toBeLessThanOrEqual(detail.pairs);
        ties += detail.ties;
      }
      // The "about the same" answers are kept and reported (4 of the second participant's 8,
      // and any pair a participant's own metric ranks level).
      expect(said).toBeGreaterThanOrEqual(4);
      expect(ties).toBe(said);

      // The codebook file: every column of both CSVs once, with one type; every cell fits it.
      const book = parseCsv(
        (await call(t, "GET", `/api/studies/${id}/export/codebook.csv`, undefined, cookie))
          .body as string,
      );
      expect(book.header).toEqual(["file", "column", "type", "description"]);
      const answers = parseCsv(
        (await call(t, "GET", `/api/studies/${id}/export/answers.csv`, undefined, cookie))
          .body as string,
      );
      const bad: string[] = [];
      for (const [file, data] of [
        ["answers.csv", answers],
        ["participants.csv", wide],
      ] as const) {
        const entries = book.rows.filter((r) => r.file === file);
        expect(entries.map((e) => e.column)).toEqual(data.header);
        for (const e of entries) {
          if (e.description === "" || e.description === "(not documented)")
            bad.push(`${file} ${e.column}: no description`);
          for (const r of data.rows) {
            const cell = r[e.column]!;
            if (cell !== "" && !ofType(e.type!, cell))
              bad.push(`${file} ${e.column} (${e.type}): ${cell}`);
          }
        }
      }
      expect(bad).toEqual([]);
      // The types are not all "text": the numbers are declared as numbers.
      const typeOf = (c: string) =>
        book.rows.find((r) => r.file === "participants.csv" && r.column === c)?.type;
      expect(typeOf("agreement")).toBe("number");
      expect(typeOf("evaluation_ties")).toBe("integer");
      expect(typeOf("test")).toBe("boolean01");
      expect(typeOf("started_at")).toBe("datetime");
      // The JSON export carries the same codebook.
      expect(json.codebook.columns.map((c: { column: string }) => c.column)).toEqual(
        book.rows.map((r) => r.column),
      );
    });

    it("every kind's exports are documented: the codebook of a multiclass and a fair study", async () => {
      for (const body of [
        { name: "Flowers", kind: "multiclass", dataset: "iris" },
        { name: "Releases", kind: "fair", dataset: "arrests", groups: "colour" },
      ]) {
        const created = await call(t, "POST", "/api/studies", body, cookie);
        expect(created.status).toBe(200);
        const id = created.body.study.id as number;
        const res = await call(
          t,
          "GET",
          `/api/studies/${id}/export/codebook.csv`,
          undefined,
          cookie,
        );
        expect(res.status).toBe(200);
        const book = parseCsv(res.body as string);
        const undocumented = book.rows
          .filter((r) => r.description === "(not documented)")
          .map((r) => `${body.kind} ${r.file} ${r.column}`);
        expect(undocumented).toEqual([]);
        for (const file of ["answers.csv", "participants.csv"]) {
          const csv = await call(t, "GET", `/api/studies/${id}/export/${file}`, undefined, cookie);
          expect(book.rows.filter((r) => r.file === file).map((r) => r.column)).toEqual(
            parseCsv(csv.body as string).header,
          );
        }
        const json = await call(
          t,
          "GET",
          `/api/studies/${id}/export/study.json`,
          undefined,
          cookie,
        );
        expect(json.status).toBe(200);
      }
    });

    it("unused invite links are listed after a reload and can be re-issued; the old link stops working", async () => {
      const created = await call(
        t,
        "POST",
        "/api/studies",
        { name: "Loans", predictionsCsv: finePredictionsCsv(), positive: "yes" },
        cookie,
      );
      const id = created.body.study.id as number;
      await call(t, "POST", `/api/studies/${id}/open`, { mode: "pilot" }, cookie);
      const links = (await call(t, "POST", `/api/studies/${id}/invites`, { count: 2 }, cookie)).body
        .links as string[];
      // A test run is not an invite.
      await call(t, "POST", `/api/studies/${id}/test-run`, {}, cookie);
      // "After a reload": a fresh request lists both unused links by participant.
      const listed = (await call(t, "GET", `/api/studies/${id}/invites`, undefined, cookie)).body
        .invites as { participantId: number; pilot: boolean }[];
      expect(listed).toHaveLength(2);
      expect(listed.every((v) => v.pilot)).toBe(true);
      // The stored value is a hash: no listed field holds a link's token.
      const body = JSON.stringify(listed);
      for (const l of links) expect(body).not.toContain(tokenOf(l));

      const [first, second] = listed as [(typeof listed)[0], (typeof listed)[0]];
      const again = await call(
        t,
        "POST",
        `/api/studies/${id}/invites/${first.participantId}/reissue`,
        {},
        cookie,
      );
      expect(again.status).toBe(200);
      const fresh = tokenOf(again.body.link);
      expect(fresh).toHaveLength(tokenOf(links[0]!).length);
      // Which old link belonged to the first participant: exactly one of the two stops working.
      const olds = await Promise.all(links.map((l) => call(t, "GET", `/api/p/${tokenOf(l)}`)));
      expect(olds.map((r) => r.status).sort()).toEqual([200, 404]);
      expect((await call(t, "GET", `/api/p/${fresh}`)).status).toBe(200);
      expect((await call(t, "POST", `/api/p/${fresh}/consent`, { agree: true })).status).toBe(200);
      // Once the participant has consented the link is in use: no re-issue, not listed.
      const refused = await call(
        t,
        "POST",
        `/api/studies/${id}/invites/${first.participantId}/reissue`,
        {},
        cookie,
      );
      expect(refused.status).toBe(409);
      const after = (await call(t, "GET", `/api/studies/${id}/invites`, undefined, cookie)).body
        .invites as { participantId: number }[];
      expect(after.map((v) => v.participantId)).toEqual([second.participantId]);
      // Another researcher sees neither the list nor can re-issue.
      const other = await signIn(t, "other@example.org");
      expect((await call(t, "GET", `/api/studies/${id}/invites`, undefined, other)).status).toBe(
        404,
      );
      expect(
        (
          await call(
            t,
            "POST",
            `/api/studies/${id}/invites/${second.participantId}/reissue`,
            {},
            other,
          )
        ).status,
      ).toBe(404);
    });
  },
);
