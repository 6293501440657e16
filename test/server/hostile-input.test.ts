import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ParticipantState } from "../../src/server/api-schemas.ts";
import {
  answerElicitation,
  answerEvaluation,
  finePredictionsCsv,
  studyWithTestRun,
  walkToElicitation,
} from "./driver.ts";
import { BACKENDS, call, freshStore, signIn, startApp, type TestApp } from "./helpers.ts";

/** Issue 14 item 4: input PostgreSQL cannot store is refused with a 400, never a 500. */
describe.each(BACKENDS)("NUL bytes and out-of-range ids (%s)", (kind) => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await startApp(await freshStore(kind));
    cookie = await signIn(t);
  });
  afterEach(async () => {
    await t.close();
  });

  it("refuses NUL in a login email, a study name and post-task text; ids beyond 32 bits are 400", async () => {
    const login = await call(t, "POST", "/api/auth/login", {
      email: "a\u0000@example.org",
      password: "x",
    });
    expect(login.status).toBe(400);
    expect(login.body.error.message).toMatch(/NUL/);

    const before = (await call(t, "GET", "/api/studies", undefined, cookie)).body.studies.length;
    const named = await call(
      t,
      "POST",
      "/api/studies",
      { name: "Loans\u0000", predictionsCsv: finePredictionsCsv(), positive: "yes" },
      cookie,
    );
    expect(named.status).toBe(400);
    expect((await call(t, "GET", "/api/studies", undefined, cookie)).body.studies).toHaveLength(
      before,
    );

    for (const id of ["3000000000", "9007199254740991"]) {
      const r = await call(t, "GET", `/api/studies/${id}`, undefined, cookie);
      expect(r.status).toBe(400);
    }
    expect((await call(t, "GET", "/api/studies/2147483647", undefined, cookie)).status).toBe(404);

    const { token } = await studyWithTestRun(t, cookie, { evaluationPairs: 0 });
    let s: ParticipantState = await walkToElicitation(t, token);
    s = (await answerElicitation(t, token, s, () => "left")).state;
    s = await answerEvaluation(t, token, s, () => "left");
    const bad = await call(t, "POST", `/api/p/${token}/post`, {
      answers: { q1: "fine\u0000", q2: "x", q3: "y" },
    });
    expect(bad.status).toBe(400);
    // Nothing was stored: the participant is still at the post-task questions and can answer.
    const again = await call(t, "GET", `/api/p/${token}`);
    expect(again.body.phase).toBe("post");
    const ok = await call(t, "POST", `/api/p/${token}/post`, {
      answers: { q1: "fine", q2: "x", q3: "y" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.phase).toBe("debrief");
  });
});
