// Issue 27 defect 8: drafts could be neither edited nor deleted. The owner of a draft nobody
// has taken part in may now read its create request, replace its configuration and delete it;
// nobody else may (404, as for every route of another researcher's study), and a study that
// was opened or that anyone took part in (a test run too) is refused with 409 not_draft.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { finePredictionsCsv } from "./driver.ts";
import { BACKENDS, call, freshStore, signIn, startApp, type TestApp } from "./helpers.ts";

describe.each(BACKENDS)("editing and deleting a draft (%s)", (kind) => {
  let t: TestApp;
  let alice: string;
  beforeEach(async () => {
    t = await startApp(await freshStore(kind));
    alice = await signIn(t, "alice@example.org");
  });
  afterEach(async () => {
    await t.close();
  });

  const body = (extra: Record<string, unknown> = {}) => ({
    name: "Loans",
    predictionsCsv: finePredictionsCsv(),
    positive: "yes",
    evaluationPairs: 5,
    ...extra,
  });
  const create = async (extra: Record<string, unknown> = {}) => {
    const r = await call(t, "POST", "/api/studies", body(extra), alice);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.study.id as number;
  };
  const ids = async () =>
    (await t.db.selectFrom("studies").select("id").orderBy("id").execute()).map((r) => r.id);

  it("defect: the owner reads a draft's create request and replaces its configuration", async () => {
    const id = await create();
    const stored = await call(t, "GET", `/api/studies/${id}/draft`, undefined, alice);
    expect(stored.status).toBe(200);
    expect(stored.body.request).toEqual(body());
    const before = (await call(t, "GET", `/api/studies/${id}`, undefined, alice)).body.study;
    const edited = await call(
      t,
      "PUT",
      `/api/studies/${id}`,
      body({ name: "Loans, second try", evaluationPairs: 9, words: { missed: "missed defaults" } }),
      alice,
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const s = edited.body.study;
    expect(s).toMatchObject({ id, name: "Loans, second try", status: "draft", evaluationPairs: 9 });
    expect(s.words.missed).toBe("missed defaults");
    expect(s.configHash).not.toBe(before.configHash);
    expect(s.createdAt).toBe(before.createdAt);
    // The export carries the new configuration; the stored request is the new one.
    const json = (await call(t, "GET", `/api/studies/${id}/export/study.json`, undefined, alice))
      .body;
    expect(json.study.config.evaluationPairs).toBe(9);
    expect(
      (await call(t, "GET", `/api/studies/${id}/draft`, undefined, alice)).body.request.name,
    ).toBe("Loans, second try");
    expect(await ids()).toEqual([1, id]);
  });

  it("defect: an edit is validated as a new study is: a bad one changes nothing", async () => {
    const id = await create();
    const hash = (await call(t, "GET", `/api/studies/${id}`, undefined, alice)).body.study
      .configHash;
    for (const [bad, message] of [
      [{ name: "" }, /name/],
      [{ tolerance: 2 }, /tolerance/],
      [{ predictionsCsv: "label,probability\n" }, /header but no data rows/],
      [{ texts: { story: { paragraphs: ["A story about {population}."] } } }, /placeholder/],
    ] as const) {
      const r = await call(t, "PUT", `/api/studies/${id}`, body(bad), alice);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.error.message).toMatch(message);
    }
    const after = (await call(t, "GET", `/api/studies/${id}`, undefined, alice)).body.study;
    expect(after.configHash).toBe(hash);
    expect(after.name).toBe("Loans");
  });

  it("defect: the owner deletes a draft", async () => {
    const keep = await create();
    const id = await create({ name: "To delete" });
    const r = await call(t, "DELETE", `/api/studies/${id}`, {}, alice);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ deleted: id });
    expect(await ids()).toEqual([1, keep]);
    expect((await call(t, "GET", `/api/studies/${id}`, undefined, alice)).status).toBe(404);
    expect((await call(t, "DELETE", `/api/studies/${id}`, {}, alice)).status).toBe(404);
  });

  it("defect: another researcher can neither read, edit nor delete the draft (404)", async () => {
    const id = await create();
    const bob = await signIn(t, "bob@example.org");
    for (const r of [
      await call(t, "GET", `/api/studies/${id}/draft`, undefined, bob),
      await call(t, "PUT", `/api/studies/${id}`, body({ name: "Bob's now" }), bob),
      await call(t, "DELETE", `/api/studies/${id}`, {}, bob),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe("not_found");
    }
    // Without a session: 401.
    expect((await call(t, "DELETE", `/api/studies/${id}`, {})).status).toBe(401);
    expect((await call(t, "PUT", `/api/studies/${id}`, body())).status).toBe(401);
    expect((await call(t, "GET", `/api/studies/${id}`, undefined, alice)).body.study.name).toBe(
      "Loans",
    );
  });

  it("defect: a study that was opened or that anyone took part in is neither edited nor deleted (409)", async () => {
    const opened = await create({ name: "Opened" });
    expect(
      (await call(t, "POST", `/api/studies/${opened}/open`, { mode: "pilot" }, alice)).status,
    ).toBe(200);
    const tried = await create({ name: "Tried" });
    expect((await call(t, "POST", `/api/studies/${tried}/test-run`, {}, alice)).status).toBe(200);
    const cases = [
      [opened, "the study is pilot: its configuration is frozen"],
      [tried, "1 person has taken part already (test runs included)"],
      [1, "the built-in study belongs to everyone"],
    ] as const;
    for (const [id, why] of cases) {
      for (const r of [
        await call(t, "GET", `/api/studies/${id}/draft`, undefined, alice),
        await call(t, "PUT", `/api/studies/${id}`, body({ name: "Changed" }), alice),
        await call(t, "DELETE", `/api/studies/${id}`, {}, alice),
      ]) {
        expect(r.status, `${id}`).toBe(409);
        expect(r.body.error.code).toBe("not_draft");
        expect(r.body.error.message).toContain(why);
      }
    }
    expect(await ids()).toEqual([1, opened, tried]);
    const names = (await call(t, "GET", "/api/studies", undefined, alice)).body.studies.map(
      (s: { name: string }) => s.name,
    );
    expect(names).toEqual(["Cancer diagnosis", "Opened", "Tried"]);
    // Opening dropped the stored request (an upload is not kept twice once frozen).
    const row = await t.db
      .selectFrom("studies")
      .select("draft_request")
      .where("id", "=", opened)
      .executeTakeFirstOrThrow();
    expect(row.draft_request).toBeNull();
  });

  it("defect: /openapi.json lists the draft routes", async () => {
    const spec = (await call(t, "GET", "/openapi.json")).body;
    expect(Object.keys(spec.paths["/api/studies/{id}"]).sort()).toEqual(["delete", "get", "put"]);
    expect(Object.keys(spec.paths["/api/studies/{id}/draft"])).toEqual(["get"]);
    expect(spec.paths["/api/studies/{id}"].put.description).toMatch(/409 not_draft/);
  });
});
