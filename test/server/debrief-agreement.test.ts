// Issue 11 item 5: the debrief states the agreement M both over all Phase III pairs and over
// the pairs the participant's result does not decide in advance, in one plain paragraph; the
// numbers on the rendered debrief are the wide CSV export's, participant by participant.

import { h } from "preact";
import { render } from "preact-render-to-string";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ParticipantState, SystemView } from "../../src/server/api-schemas.ts";
import { type MetricRecord, metricWeights } from "../../src/server/participant/metric.ts";
import { agreementSentence } from "../../web/src/participant/agreement.ts";
import { Debrief } from "../../web/src/participant/ParticipantApp.tsx";
import {
  answerElicitation,
  answerEvaluation,
  chooser,
  finePredictionsCsv,
  postAnswers,
  storedStudy,
  walkToElicitation,
} from "./driver.ts";
import { call, freshStore, signIn, startApp, type TestApp, tokenOf } from "./helpers.ts";

const base = { pairs: 10, ties: 0, undecidedPairs: 4, undecidedTies: 0, metricTies: 0 };

describe("agreementSentence", () => {
  it("states both shares with what each is out of", () => {
    expect(agreementSentence({ ...base, all: 0.8, undecided: 0.5 })).toBe(
      "Your result agrees with 80% of your own choices in the last part (8 of 10 pairs). " +
        "On the 4 pairs your earlier answers did not already settle, it agrees with 50% (2 of 4).",
    );
  });
  it("leaves the 'about the same' answers and the metric's own ties out of both counts", () => {
    const s = agreementSentence({
      all: 5 / 6,
      undecided: 1 / 2,
      pairs: 9,
      ties: 2,
      undecidedPairs: 4,
      undecidedTies: 1,
      metricTies: 1,
    });
    expect(s).toContain("83% of your own choices in the last part (5 of 6 pairs)");
    expect(s).toContain("On the 2 pairs your earlier answers did not already settle");
    expect(s).toContain("50% (1 of 2)");
  });
  it("speaks the study's own words, templates and plural included", () => {
    const labels = {
      debriefAgreement: "Uw uitkomst klopt met {share} van uw keuzes ({agree} van {pairs}).",
      debriefAgreementOpen: "Bij de {pairs} die nog open waren: {share} ({agree} van {count}).",
      debriefAgreementSettled: "Alle paren lagen al vast.",
      pairOne: "paar",
      pairMany: "paren",
    };
    expect(agreementSentence({ ...base, all: 0.8, undecided: 0.5 }, labels)).toBe(
      "Uw uitkomst klopt met 80% van uw keuzes (8 van 10 paren). " +
        "Bij de 4 paren die nog open waren: 50% (2 van 4).",
    );
    expect(
      agreementSentence({ ...base, all: 1, undecided: 1, undecidedPairs: 1 }, labels),
    ).toContain("Bij de 1 paar die nog open waren");
    expect(agreementSentence({ ...base, all: 1, undecided: null, undecidedPairs: 0 }, labels)).toBe(
      "Uw uitkomst klopt met 100% van uw keuzes (10 van 10 paren). Alle paren lagen al vast.",
    );
  });
  it("says so when the earlier answers settled every pair, and is null with no answer to count", () => {
    const settled = agreementSentence({ ...base, all: 1, undecided: null, undecidedPairs: 0 });
    expect(settled).toMatch(/\(10 of 10 pairs\)\. Your earlier answers already settled every one/);
    expect(agreementSentence({ ...base, all: null, undecided: null, ties: 10 })).toBeNull();
    expect(
      agreementSentence({ ...base, all: 1, undecided: null, undecidedPairs: 1, undecidedTies: 1 }),
    ).toMatch(/already settled every one/);
  });
});

/** The wide CSV's header and rows (quoted fields with doubled quotes). */
function rowsOf(text: string): Record<string, string>[] {
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
    } else if (c !== "\r") field += c;
  }
  const [head, ...body] = rows;
  return body.map((r) => Object.fromEntries(head!.map((c, i) => [c, r[i] ?? ""])));
}

const pct = (x: string) => `${Math.round(Number(x) * 100)}%`;

describe("the debrief's agreement is the export's (sqlite)", () => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await startApp(await freshStore("sqlite"));
    cookie = await signIn(t);
  });
  afterEach(async () => {
    await t.close();
  });

  it("three participants, one of them noisy: both shares on screen match the CSV", async () => {
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
        evaluationPairs: 12,
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

    const shown: { state: ParticipantState; html: string }[] = [];
    for (const [i, link] of links.entries()) {
      const token = tokenOf(link);
      const choose = chooser(pool, [0.15, 0.3, 0.5][i]!);
      let s = await walkToElicitation(t, token);
      s = (await answerElicitation(t, token, s, choose)).state;
      // The third participant answers every third Phase III pair against their own rule (the
      // other system), so their M over all pairs is under 100%.
      let n = 0;
      const flip = { left: "right", right: "left", same: "same" } as const;
      const phase3 =
        i === 2
          ? (l: SystemView, r: SystemView) => {
              const c = choose(l, r);
              return n++ % 3 === 0 ? flip[c] : c;
            }
          : choose;
      s = await answerEvaluation(t, token, s, phase3);
      s = (await call(t, "POST", `/api/p/${token}/post`, { answers: postAnswers })).body;
      expect(s.phase).toBe("debrief");
      shown.push({ state: s, html: render(h(Debrief, { state: s })) });
    }

    const csv = rowsOf(
      (await call(t, "GET", `/api/studies/${id}/export/participants.csv`, undefined, cookie))
        .body as string,
    );
    const done = csv.filter((r) => r.status === "done");
    const answers = rowsOf(
      (await call(t, "GET", `/api/studies/${id}/export/answers.csv`, undefined, cookie))
        .body as string,
    );
    expect(done).toHaveLength(3);
    let belowFull = 0;
    for (const { state, html } of shown) {
      const code = state.debrief!.completionCode;
      const r = done.find((x) => x.completion_code === code);
      expect(r, `no CSV row with completion code ${code}`).toBeDefined();
      const text = html.replace(/<[^>]+>/g, "");
      const m = text.match(
        /agrees with (\d+)% of your own choices in the last part \((\d+) of (\d+) pairs?\)\. (?:On the (\d+) pairs? your earlier answers did not already settle, it agrees with (\d+)% \((\d+) of (\d+)\)|Your earlier answers already settled every one)/,
      );
      expect(m, text).not.toBeNull();
      expect(`${m![1]}%`).toBe(pct(r!.agreement!));
      const counted =
        Number(r!.evaluation_pairs) - Number(r!.evaluation_ties) - Number(r!.metric_ties);
      expect(Number(m![3])).toBe(counted);
      expect(Number(m![2]) / counted).toBeCloseTo(Number(r!.agreement), 12);
      if (r!.agreement_undecided === "") {
        expect(m![4]).toBeUndefined();
      } else {
        expect(`${m![5]}%`).toBe(pct(r!.agreement_undecided!));
        const open =
          Number(r!.undecided_pairs) - Number(r!.undecided_ties) - Number(r!.metric_ties);
        expect(Number(m![4])).toBe(open);
        expect(Number(m![7])).toBe(open);
        expect(Number(m![6]) / open).toBeCloseTo(Number(r!.agreement_undecided), 12);
      }
      if (Number(r!.agreement) < 1 || Number(r!.agreement_undecided || 1) < 1) belowFull++;
      // M against the answers: the debrief's metric (tp TP + tn TN) judges each random Phase
      // III pair on the counts the participant saw, as answers.csv holds them (first_shown_tp
      // ...); its share of agreement with the choices ("about the same" and metric ties left
      // out) is the debrief's.
      const { tp, tn } = metricWeights(state.debrief!.metric as MetricRecord);
      let agree = 0;
      let judged = 0;
      for (const a of answers) {
        if (a.participant_id !== r!.participant_id || a.phase !== "evaluation") continue;
        if (a.stage !== "evaluation" || a.answer === "tie") continue;
        const d =
          tp * (Number(a.first_shown_tp) - Number(a.second_shown_tp)) +
          tn * (Number(a.first_shown_tn) - Number(a.second_shown_tn));
        if (Math.abs(d) < 1e-12) continue;
        judged++;
        if (d > 0 === (a.answer === "first")) agree++;
      }
      expect(judged).toBe(counted);
      expect(state.debrief!.agreement).toBeCloseTo(agree / judged, 12);
    }
    expect(belowFull).toBeGreaterThan(0);
  });
});
