import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { finePredictionsCsv } from "./driver.ts";
import { BACKENDS, call, freshStore, signIn, startApp, type TestApp } from "./helpers.ts";

/** Issue 14 item 9: a researcher's study is theirs; a live study stays live. */
describe.each(BACKENDS)("who may see and change a study (%s)", (kind) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startApp(await freshStore(kind));
  });
  afterEach(async () => {
    await t.close();
  });

  it("another researcher cannot list, open, invite into, read or export it", async () => {
    const alice = await signIn(t, "alice@example.org");
    const bob = await signIn(t, "bob@example.org");
    const created = await call(
      t,
      "POST",
      "/api/studies",
      { name: "Alice's study", predictionsCsv: finePredictionsCsv(), positive: "yes" },
      alice,
    );
    const id = created.body.study.id as number;
    const names = async (cookie: string) =>
      (await call(t, "GET", "/api/studies", undefined, cookie)).body.studies.map(
        (s: { name: string }) => s.name,
      );
    expect(await names(alice)).toContain("Alice's study");
    expect(await names(bob)).not.toContain("Alice's study");
    // The built-in study has no owner: everyone's.
    expect((await names(bob)).length).toBe(1);
    const attempts = [
      call(t, "GET", `/api/studies/${id}`, undefined, bob),
      call(t, "POST", `/api/studies/${id}/open`, { mode: "live" }, bob),
      call(t, "POST", `/api/studies/${id}/invites`, { count: 1 }, bob),
      call(t, "POST", `/api/studies/${id}/test-run`, {}, bob),
      call(t, "GET", `/api/studies/${id}/participants`, undefined, bob),
      call(t, "GET", `/api/studies/${id}/export/participants.csv`, undefined, bob),
      call(t, "GET", `/api/studies/${id}/export/study.json`, undefined, bob),
    ];
    for (const r of await Promise.all(attempts)) expect(r.status).toBe(404);
    // Bob's attempts changed nothing: still a draft with no participants.
    const mine = (await call(t, "GET", `/api/studies/${id}`, undefined, alice)).body.study;
    expect(mine.status).toBe("draft");
    expect(mine.participants).toBe(0);
  });

  it("a live study cannot be set back to pilot", async () => {
    const alice = await signIn(t, "alice@example.org");
    const created = await call(
      t,
      "POST",
      "/api/studies",
      { name: "Live", predictionsCsv: finePredictionsCsv(), positive: "yes" },
      alice,
    );
    const id = created.body.study.id as number;
    expect(
      (await call(t, "POST", `/api/studies/${id}/open`, { mode: "pilot" }, alice)).status,
    ).toBe(200);
    expect((await call(t, "POST", `/api/studies/${id}/open`, { mode: "live" }, alice)).status).toBe(
      200,
    );
    const back = await call(t, "POST", `/api/studies/${id}/open`, { mode: "pilot" }, alice);
    expect(back.status).toBe(409);
    expect(back.body.error.code).toBe("study_live");
    expect((await call(t, "GET", `/api/studies/${id}`, undefined, alice)).body.study.status).toBe(
      "live",
    );
  });
});
