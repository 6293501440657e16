import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, freshStore, startApp, type TestApp } from "./helpers.ts";

// Issue 12: `/openapi.json` describes the multiclass and fairness study kinds: how to create
// each (kind, dataset, groups, family), what a participant of each is shown (their questions
// and debriefs) and how the dashboard reports each kind's metric.

type Schema = {
  type?: string;
  enum?: string[];
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
};

describe("/openapi.json and the study kinds", () => {
  let t: TestApp;
  // biome-ignore lint/suspicious/noExplicitAny: the generated document is walked by path below
  let spec: { paths: Record<string, Record<string, any>> };
  beforeAll(async () => {
    t = await startApp(await freshStore("sqlite"));
    spec = (await call(t, "GET", "/openapi.json")).body;
  });
  afterAll(async () => {
    await t.close();
  });

  it("the create request names every kind, its datasets, the group column and the families", () => {
    const body: Schema =
      spec.paths["/api/studies"]!.post.requestBody.content["application/json"].schema;
    const p = body.properties!;
    expect(p.kind!.enum).toEqual(["binary", "multiclass", "fair", "quadratic"]);
    expect(p.kind!.description).toMatch(/multiclass: k = 3\.\.6 classes/);
    expect(p.kind!.description).toMatch(/fair: .*trade-off lambda/);
    expect(p.dataset!.enum).toEqual(["iris", "wine", "vehicle", "glass", "arrests", "titanic"]);
    expect(p.groups!.type).toBe("string");
    expect(p.family!.enum).toEqual(
      expect.arrayContaining([
        "diagonal-linear",
        "fair-lambda",
        "fair-quadratic",
        "binary-threshold",
      ]),
    );
    expect(p.family!.description).toMatch(/fair-quadratic \(the whole fair metric/);
  });

  it("a participant's state has each kind's question and debrief, with their numbers", () => {
    const state: Schema =
      spec.paths["/api/p/{token}"]!.get.responses["200"].content["application/json"].schema;
    const p = state.properties!;
    expect(p.study!.properties!.kind!.enum).toEqual(["multiclass", "fair"]);
    const mc = p.multiclassElicitation!;
    expect(mc.description).toMatch(/multiclass/);
    expect(Object.keys(mc.properties!.question!.properties!.left!.properties!)).toEqual([
      "counts",
      "rates",
    ]);
    const fair = p.fairElicitation!;
    expect(fair.description).toMatch(/fair studies/);
    const q = fair.properties!.question!.properties!;
    expect(q.kind!.enum ?? [(q.kind as { const?: string }).const]).toEqual(["fair"]);
    expect(Object.keys(q)).toEqual(
      expect.arrayContaining(["id", "classes", "groups", "left", "right"]),
    );
    expect(Object.keys(q.left!.properties!)).toEqual(["counts", "overall", "gaps"]);
    expect(Object.keys(p.multiclassDebrief!.properties!)).toEqual(
      expect.arrayContaining(["summary", "classWeights", "classes"]),
    );
    const fd = p.fairDebrief!;
    expect(fd.description).toMatch(/lambda/);
    expect(Object.keys(fd.properties!.metric!.properties!)).toEqual(["lambda", "low", "high"]);
    // fair-quadratic: the elicited costs and gap weights, and what the answers left open.
    expect(Object.keys(fd.properties!.full!.properties!)).toEqual(["a", "B", "unidentified"]);
  });

  it("the dashboard's participant rows carry each kind's metric", () => {
    const text = JSON.stringify(spec.paths["/api/studies/{id}/participants"]!.get.responses["200"]);
    // The metric is one of { a0 }, { tp, tn }, { weights } (multiclass), { lambda, low, high } (fair).
    expect(text).toContain('"weights"');
    expect(text).toMatch(/"lambda":\{"type":"number"\},"low":\{"type":"number"\},"high"/);
  });
});
