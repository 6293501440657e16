import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ParticipantState } from "../../src/server/api-schemas.ts";
import { chooser, storedStudy, walkToElicitation } from "./driver.ts";
import { call, freshStore, signIn, startApp, type TestApp, tokenOf } from "./helpers.ts";

// Every query a pooled pg.Client sends (a transaction's BEGIN and COMMIT are queries too): a
// request's database round trips.
let queries = 0;
const query = pg.Client.prototype.query;
beforeAll(() => {
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    queries++;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
});
afterAll(() => {
  pg.Client.prototype.query = query;
});

// Issue 28 item 1: "no more than 3 database round trips per answer". A Phase II answer reads
// the participant, their study and their answer log in one statement, and checks the log's
// version and appends the answer in another (was 7: two reads, then BEGIN, a row lock, the
// log read again, the insert and COMMIT).
/**
 * A participant seed with which the chooser below answers at least six Phase II questions
 * (of seeds 1-20, 11 and 17 end Phase II sooner; a CI run drew such a seed at random).
 */
const SEED = 1;

describe.skipIf(!process.env.TEST_DATABASE_URL)("answer round trips (postgres)", () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startApp(await freshStore("postgres"));
  });
  afterEach(async () => {
    await t.close();
  });

  it("answers a Phase II question in at most 3 database round trips, a stale one in at most 3 too", async () => {
    const cookie = await signIn(t);
    const r = await call<{ links: string[] }>(
      t,
      "POST",
      "/api/studies/1/invites",
      { count: 1 },
      cookie,
    );
    const token = tokenOf(r.body.links[0]!);
    // A participant's seed is drawn at random (the placement and the engine's draws follow
    // it), and with some seeds the engine pins this person down in fewer than six answers:
    // fixed here, so that six Phase II answers are measured on every run.
    await t.db.updateTable("participants").set({ seed: SEED }).execute();
    const { pool } = await storedStudy(t, 1);
    const choose = chooser(pool, 0.4);
    let s: ParticipantState = await walkToElicitation(t, token);
    const perAnswer: number[] = [];
    let last: { questionId: number; choice: "left" | "right" | "same" } | undefined;
    while (s.phase === "elicitation" && perAnswer.length < 6) {
      const q = s.elicitation!.question;
      const before = queries;
      last = { questionId: q.id, choice: choose(q.left, q.right) };
      const res = await call<ParticipantState>(t, "POST", `/api/p/${token}/answer`, last);
      perAnswer.push(queries - before);
      expect(res.status).toBe(200);
      expect(res.body.duplicate).toBeUndefined();
      s = res.body;
    }
    expect(perAnswer.length).toBe(6);
    for (const n of perAnswer) expect(n).toBeLessThanOrEqual(3);
    // The last answer again (a double submit): nothing stored, the state as it stands. (The
    // sixth answer may have ended Phase II: the engine can pin this person down in six.)
    const stored = await t.db.selectFrom("answers").select("id").execute();
    const before = queries;
    const again = await call<ParticipantState>(t, "POST", `/api/p/${token}/answer`, last);
    expect(queries - before).toBeLessThanOrEqual(3);
    expect(again.body.duplicate).toBe(true);
    expect(await t.db.selectFrom("answers").select("id").execute()).toEqual(stored);
  });
});
