import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ParticipantState } from "../../src/server/api-schemas.ts";
import { studyWithTestRun, walkToElicitation } from "./driver.ts";
import { BACKENDS, call, freshStore, signIn, startApp, type TestApp } from "./helpers.ts";

/**
 * Issue 14 item 1: an undo racing an answer must never leave a participant stuck (every later
 * answer acknowledged and ignored). Answers and undos are serialised per participant, so after
 * any race the next answer moves the participant on by exactly one question.
 */
describe.each(BACKENDS)("undo racing an answer (%s)", (kind) => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await startApp(await freshStore(kind));
    cookie = await signIn(t);
  });
  afterEach(async () => {
    await t.close();
  });

  it("30 races: each ends in a consistent state and the next answer always counts", async () => {
    const { token } = await studyWithTestRun(t, cookie, { strategy: "paper", evaluationPairs: 0 });
    let s: ParticipantState = await walkToElicitation(t, token);
    const answer = (q: number, choice: "left" | "right" = "left") =>
      call<ParticipantState>(t, "POST", `/api/p/${token}/answer`, { questionId: q, choice });
    // A few plain answers first, so there is something to undo.
    for (let i = 0; i < 3; i++) s = (await answer(s.elicitation!.question.id)).body;
    let bothAccepted = 0;
    for (let race = 0; race < 30 && s.phase === "elicitation"; race++) {
      const q = s.elicitation!.question.id;
      const [u, a] = await Promise.all([
        call<ParticipantState>(t, "POST", `/api/p/${token}/undo`, { questionId: q }),
        answer(q, race % 2 === 0 ? "left" : "right"),
      ]);
      expect(u.status).toBe(200);
      expect(a.status).toBe(200);
      if (!u.body.duplicate && !a.body.duplicate) bothAccepted++;
      s = (await call<ParticipantState>(t, "GET", `/api/p/${token}`)).body;
      if (s.phase !== "elicitation") break;
      // Not stuck: answering the question shown now moves on by exactly one.
      const before = s.elicitation!.question.id;
      const next = (await answer(before)).body;
      expect(next.duplicate ?? false).toBe(false);
      if (next.phase === "elicitation") expect(next.elicitation!.question.id).toBe(before + 1);
      s = next;
    }
    // Serialised: an undo and an answer to the same question cannot both take effect
    // (one of them was computed from a log the other changed).
    expect(bothAccepted).toBe(0);
  });
});
