import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ParticipantState } from "../../src/server/api-schemas.ts";
import { csvField } from "../../src/server/study/export.ts";
import { PAPER_POST_QUESTIONS } from "../../src/server/study/template.ts";
import {
  answerElicitation,
  answerEvaluation,
  studyWithTestRun,
  walkToElicitation,
} from "./driver.ts";
import { BACKENDS, call, freshStore, signIn, startApp, type TestApp } from "./helpers.ts";

const HOSTILE = [
  '=HYPERLINK("http://evil.example","x")',
  "+cmd|' /C calc'!A0",
  "@SUM(1+1)",
  "-2+3",
  "\t=1",
];

describe("CSV exports defuse spreadsheet formulas (issue 14)", () => {
  it("prefixes text that a spreadsheet would run, and only text", () => {
    for (const h of HOSTILE) expect(csvField(h).replace(/^"|"$/g, "").startsWith(`'`)).toBe(true);
    expect(csvField("=1,2")).toBe(`"'=1,2"`);
    expect(csvField(-3)).toBe("-3");
    expect(csvField("plain text")).toBe("plain text");
    expect(csvField("2026-11-23T10:00:00Z")).toBe("2026-11-23T10:00:00Z");
  });
});

/** Free text is trimmed on the way in, so the leading-tab case is for csvField only. */
const POSTED = HOSTILE.slice(0, 4);

describe.each(BACKENDS)("post-task free text in the exports (%s)", (kind) => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await startApp(await freshStore(kind));
    cookie = await signIn(t);
  });
  afterEach(async () => {
    await t.close();
  });

  it("a participant's =HYPERLINK(...) reaches the CSV as text and the JSON unchanged", async () => {
    const { id, token } = await studyWithTestRun(t, cookie, { evaluationPairs: 0 });
    let s: ParticipantState = await walkToElicitation(t, token);
    s = (await answerElicitation(t, token, s, () => "left")).state;
    s = await answerEvaluation(t, token, s, () => "left");
    const answers = Object.fromEntries(
      PAPER_POST_QUESTIONS.map((f, i) => [f.id, POSTED[i % POSTED.length]!]),
    );
    s = (await call(t, "POST", `/api/p/${token}/post`, { answers })).body;
    expect(s.phase).toBe("debrief");
    const csv = (
      await call(t, "GET", `/api/studies/${id}/export/participants.csv`, undefined, cookie)
    ).body as string;
    for (const h of POSTED) {
      const quoted = csvField(h);
      expect(csv).toContain(quoted);
      expect(quoted).toMatch(/^"?'/);
    }
    // No cell of the file starts a formula.
    for (const line of csv.split("\n"))
      for (const cell of line.split(",")) expect(cell).not.toMatch(/^"?[=+@\t]/);
    const json = (await call(t, "GET", `/api/studies/${id}/export/study.json`, undefined, cookie))
      .body;
    const stored = (typeof json === "string" ? JSON.parse(json) : json).participants[0].responses;
    expect(stored.map((r: { value: string }) => r.value)).toEqual(
      expect.arrayContaining([HOSTILE[0]]),
    );
  });
});
