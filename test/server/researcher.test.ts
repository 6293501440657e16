import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { prepareBinaryFromPredictions } from "../../src/population/binary.ts";
import {
  answerElicitation,
  chooser,
  finePredictionsCsv,
  finish,
  walkToElicitation,
} from "./driver.ts";
import {
  call,
  freshStore,
  PASSWORD,
  SLOW_BACKENDS,
  signIn,
  startApp,
  type TestApp,
  tiers,
  tokenOf,
} from "./helpers.ts";

const RESEARCHER_ROUTES: ["GET" | "POST", string, unknown?][] = [
  ["GET", "/api/auth/me"],
  ["GET", "/api/studies"],
  ["POST", "/api/studies", { name: "x", template: "cancer-diagnosis" }],
  ["GET", "/api/studies/1"],
  ["POST", "/api/studies/1/open", { mode: "live" }],
  ["POST", "/api/studies/1/invites", { count: 1 }],
  ["POST", "/api/studies/1/test-run", {}],
  ["GET", "/api/studies/1/participants"],
  ["GET", "/api/studies/1/export/answers.csv"],
  ["GET", "/api/studies/1/export/participants.csv"],
  ["GET", "/api/studies/1/export/study.json"],
];

describe.each(SLOW_BACKENDS)("researcher API (%s)", (kind) => {
  // npm test on PostgreSQL runs only this block's `test(...)` cases (a smoke); the sweep
  // test/sweeps/postgres/researcher.sweep.ts runs every case there.
  const { it } = tiers(kind);
  let t: TestApp;

  beforeEach(async () => {
    t = await startApp(await freshStore(kind));
  });
  afterEach(async () => {
    await t.close();
  });

  it("requires a signed session cookie on every researcher route", async () => {
    await signIn(t);
    for (const [method, url, body] of RESEARCHER_ROUTES) {
      for (const cookie of [undefined, "elicit_session=forged", "elicit_session=abc.def"]) {
        const r = await call(t, method, url, body, cookie);
        expect(r.status, `${method} ${url}`).toBe(401);
        expect(r.body.error.code).toBe("unauthorized");
      }
    }
  });

  test("signs in, reports the researcher and signs out", async () => {
    const bad = await call(t, "POST", "/api/auth/login", {
      email: "nobody@x.org",
      password: "wrong password",
    });
    expect(bad.status).toBe(401);
    const cookie = await signIn(t);
    const wrong = await call(t, "POST", "/api/auth/login", {
      email: "r@example.org",
      password: "not it",
    });
    expect(wrong.status).toBe(401);
    const me = await call(t, "GET", "/api/auth/me", undefined, cookie);
    expect(me.body.researcher.email).toBe("r@example.org");
    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: "R@Example.org", password: PASSWORD },
    });
    const setCookie = String(login.headers["set-cookie"]);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    await call(t, "POST", "/api/auth/logout", {}, cookie);
    expect((await call(t, "GET", "/api/auth/me", undefined, cookie)).status).toBe(401);
  });

  it("rate-limits sign-in attempts", async () => {
    // the production limit (burst 10, one per 6 s) on a fresh app
    const strict = await startApp(await freshStore(kind), { strictLimits: true });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        statuses.push(
          (
            await call(strict, "POST", "/api/auth/login", {
              email: "a@b.org",
              password: `guess${i}`,
            })
          ).status,
        );
      }
      expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(10)).toEqual([429, 429]);
    } finally {
      await strict.close();
    }
  });

  it("lists the built-in live study", async () => {
    const cookie = await signIn(t);
    const r = await call(t, "GET", "/api/studies", undefined, cookie);
    expect(r.body.studies).toHaveLength(1);
    expect(r.body.studies[0]).toMatchObject({
      id: 1,
      name: "Cancer diagnosis",
      status: "live",
      template: "cancer-diagnosis",
      family: "binary-threshold",
      tolerance: 0.05,
      evaluationPairs: 15,
      participants: 0,
    });
    expect(r.body.studies[0].configHash).toMatch(/^[0-9a-f]{64}$/);
  });

  test("creates a study from an uploaded predictions CSV, invites, and exports results", async () => {
    const testStart = Date.now();
    const cookie = await signIn(t);
    const csv = finePredictionsCsv();
    const created = await call(
      t,
      "POST",
      "/api/studies",
      {
        name: "Loan defaults",
        predictionsCsv: csv,
        positive: "yes",
        words: { positive: "defaulted", missed: "missed defaults" },
        tolerance: 0.1,
        strategy: "lazy",
        evaluationPairs: 5,
        consentText: "Please agree <b>now</b>",
      },
      cookie,
    );
    expect(created.status).toBe(200);
    const study = created.body.study;
    expect(study).toMatchObject({
      status: "draft",
      template: null,
      tolerance: 0.1,
      strategy: "lazy",
    });
    expect(study.words.positive).toBe("defaulted");
    expect(study.words.falseAlarm).toBe("false alarms");
    // no invites before the study is open
    const early = await call(t, "POST", `/api/studies/${study.id}/invites`, { count: 2 }, cookie);
    expect(early.status).toBe(409);
    // a test run works in draft
    const test = await call(t, "POST", `/api/studies/${study.id}/test-run`, {}, cookie);
    expect(test.body.link).toMatch(/\/p\/[A-Za-z0-9_-]{43}$/);
    const opened = await call(
      t,
      "POST",
      `/api/studies/${study.id}/open`,
      { mode: "pilot" },
      cookie,
    );
    expect(opened.body.study.status).toBe("pilot");
    expect(opened.body.study.configHash).toBe(study.configHash);
    const inv = await call(t, "POST", `/api/studies/${study.id}/invites`, { count: 3 }, cookie);
    expect(inv.body.links).toHaveLength(3);
    expect(new Set(inv.body.links).size).toBe(3);

    // one participant finishes, one is mid-way
    const pool = prepareBinaryFromPredictions(csv, { positive: "yes" }).pool;
    const [t1, t2] = inv.body.links.map(tokenOf);
    const consent = (await call(t, "GET", `/api/p/${t1}`)).body.consent.text;
    expect(consent).toBe("Please agree <b>now</b>"); // plain text; the UI escapes it
    let s = await walkToElicitation(t, t1);
    s = (await answerElicitation(t, t1, s, chooser(pool, 0.4))).state;
    s = await finish(t, t1, s, chooser(pool, 0.4));
    expect(s.phase).toBe("debrief");
    s = await walkToElicitation(t, t2);
    await answerElicitation(t, t2, s, chooser(pool, 0.6), 3);

    const list = await call(t, "GET", `/api/studies/${study.id}/participants`, undefined, cookie);
    const ps = list.body.participants;
    expect(ps.map((p: { status: string }) => p.status).sort()).toEqual([
      "done",
      "invited",
      "invited",
      "started",
    ]);
    const done = ps.find((p: { status: string }) => p.status === "done");
    expect(Math.abs(done.metric.a0 - 0.4)).toBeLessThanOrEqual(0.1);
    expect(done.guess).toBe(4);
    // Whole seconds from start to finish, all of it within this test.
    expect(Number.isInteger(done.seconds)).toBe(true);
    expect(done.seconds).toBeGreaterThanOrEqual(0);
    expect(done.seconds).toBeLessThanOrEqual(Math.ceil((Date.now() - testStart) / 1000));
    expect(ps.find((p: { test: boolean }) => p.test)).toMatchObject({
      status: "invited",
      pilot: false,
    });
    expect(ps.filter((p: { pilot: boolean }) => p.pilot)).toHaveLength(3); // invited in pilot mode
    const started = ps.find((p: { status: string }) => p.status === "started");
    expect(started).toMatchObject({ phase: "elicitation", answered: 3, metric: null });

    const answers = await call(
      t,
      "GET",
      `/api/studies/${study.id}/export/answers.csv`,
      undefined,
      cookie,
    );
    expect(answers.status).toBe(200);
    const lines = (answers.body as string).trim().split("\n");
    expect(lines[0]).toMatch(
      /^study_id,config_hash,participant_id,test,pilot,phase,question_index/,
    );
    const stored = await t.db.selectFrom("answers").select("id").execute();
    expect(lines).toHaveLength(stored.length + 1);

    const wide = await call(
      t,
      "GET",
      `/api/studies/${study.id}/export/participants.csv`,
      undefined,
      cookie,
    );
    const rows = (wide.body as string).trim().split("\n");
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatch(/questionnaire_age/);
    expect(rows[0]).toMatch(/post_q6/);

    const json = await call(
      t,
      "GET",
      `/api/studies/${study.id}/export/study.json`,
      undefined,
      cookie,
    );
    expect(json.body.software.name).toBe("metric-elicitation");
    expect(json.body.study.configHash ?? json.body.study.hash).toBe(study.configHash);
    expect(json.body.study.config.spec).toEqual({
      family: "binary-threshold",
      tolerance: 0.1,
      strategy: "lazy",
      grid: 1e-4,
    });
    expect(json.body.participants).toHaveLength(4);
    expect(typeof json.body.participants[0].seed).toBe("number");
  });

  it.each([
    ["missing column", "label,score\n1,0.2\n0,0.4\n", /probabilit|column/i],
    ["probability outside [0, 1]", "label,probability\n1,0.2\n0,1.4\n", /1\.4|\[0, 1\]|range/i],
    ["a single class", "label,probability\n1,0.2\n1,0.4\n", /class|two|both|single/i],
    ["non-numeric value", "label,probability\n1,0.2\n0,high\n", /high|number|numeric/i],
    ["empty file", "", /empty/i],
    // Issue 14 item 7: uploads whose systems would all look alike.
    [
      "two rows",
      "label,probability\n1,0.8\n0,0.3\n",
      /2 distinct probabilities.*identical systems/,
    ],
    [
      "every probability equal",
      `label,probability\n${Array.from({ length: 50 }, (_, i) => `${i % 2},0.5`).join("\n")}\n`,
      /1 distinct probability.*identical systems/,
    ],
  ])("rejects a bad CSV (%s) and creates nothing", async (_what, csv, message) => {
    const cookie = await signIn(t);
    const r = await call(t, "POST", "/api/studies", { name: "bad", predictionsCsv: csv }, cookie);
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(message);
    const studies = await t.db.selectFrom("studies").select("id").execute();
    expect(studies).toHaveLength(1);
  });

  it("rejects an upload over 5 MB with a clear message", async () => {
    const cookie = await signIn(t);
    const big = `label,probability\n${"1,0.5\n".repeat(900_000)}`;
    const r = await call(t, "POST", "/api/studies", { name: "big", predictionsCsv: big }, cookie);
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/5 MB/);
    expect(await t.db.selectFrom("studies").select("id").execute()).toHaveLength(1);
  });

  it("defect: a 6 MB dataset CSV is refused naming the 5 MB limit; a body past the server's limit too (413)", async () => {
    const cookie = await signIn(t);
    const six = `a,label\n${"1,yes\n2,no\n".repeat(550_000)}`;
    expect(six.length).toBeGreaterThan(5_900_000);
    const r = await call(
      t,
      "POST",
      "/api/studies",
      { name: "big", datasetCsv: six, target: "label" },
      cookie,
    );
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain("datasetCsv: the dataset CSV is larger than 5 MB");
    const nine = `a,label\n${"1,yes\n2,no\n".repeat(800_000)}`;
    const r2 = await call(t, "POST", "/api/studies", { name: "big", predictionsCsv: nine }, cookie);
    expect(r2.status).toBe(413);
    expect(r2.body.error).toEqual({
      code: "too_large",
      message: "the upload is too large (at most 5 MB of CSV)",
    });
    expect(await t.db.selectFrom("studies").select("id").execute()).toHaveLength(1);
  });

  it.each([
    ["an empty dataset CSV", { datasetCsv: "", target: "label" }, "the dataset CSV is empty"],
    [
      "a dataset CSV with a header only",
      { datasetCsv: "a,b,label\n", target: "label" },
      "header but no data rows",
    ],
    ["an empty predictions CSV", { predictionsCsv: "" }, "the predictions CSV is empty"],
    [
      "a predictions CSV with a header only",
      { predictionsCsv: "label,probability\n" },
      "header but no data rows",
    ],
  ])(
    "defect: %s is refused with a clear message, nothing created",
    async (_what, body, message) => {
      const cookie = await signIn(t);
      const r = await call(t, "POST", "/api/studies", { name: "empty", ...body }, cookie);
      expect(r.status).toBe(400);
      expect(r.body.error.message).toContain(message);
      expect(await t.db.selectFrom("studies").select("id").execute()).toHaveLength(1);
    },
  );

  it("serves /openapi.json describing the routes", async () => {
    const r = await call(t, "GET", "/openapi.json");
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.paths)).toEqual(
      expect.arrayContaining(["/api/p/{token}/answer", "/api/studies/{id}/invites", "/healthz"]),
    );
  });
});
