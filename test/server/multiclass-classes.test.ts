import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareMulticlassStudyData } from "../../src/server/kinds/multiclass/data.ts";
import type { StudyConfig } from "../../src/server/study/config.ts";
import { onlyClasses } from "../../src/server/study/population.ts";
import { call, freshStore, signIn, startApp, type TestApp } from "./helpers.ts";
import { createMulticlass } from "./multiclass-driver.ts";

// A multiclass study over a subset of a dataset's classes (k = 5 of glass's 6), so a study
// can have any k from 3 to 6 on the bundled data.

describe("onlyClasses", () => {
  it("keeps the header and the rows of the named classes, quoting as CSV", () => {
    expect(onlyClasses('x,y\n1,a\n2,b\n"3,5",c\n', "y", ["a", "c"])).toBe('x,y\n1,a\n"3,5",c\n');
    expect(() => onlyClasses("x,y\n1,a\n", "y", ["a", "z"])).toThrow(/class "z" does not occur/);
  });
});

describe("a multiclass study of some classes (sqlite)", () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await startApp(await freshStore("sqlite"));
    cookie = await signIn(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it("glass without class 6: k = 5, only those rows, the classes stored with the source", async () => {
    const { config, data } = await createMulticlass(t, cookie, {
      dataset: "glass",
      classes: ["1", "2", "3", "5", "7"],
    });
    expect(data.pool.k).toBe(5);
    // The classes are chosen by their labels and shown in words (glass's labels are codes).
    expect(data.classNames).toEqual([
      "building windows (float glass)",
      "building windows (other glass)",
      "vehicle windows",
      "containers",
      "headlamps",
    ]);
    expect(config.source).toMatchObject({
      kind: "multiclass-dataset",
      classes: ["1", "2", "3", "5", "7"],
    });
    // 214 rows less class 6's 9: the held-out half of 205.
    expect(data.model.trainSize + data.model.testSize).toBe(205);
    const all = await createMulticlass(t, cookie, { dataset: "glass" });
    expect(all.data.pool.k).toBe(6);
    expect(all.config.source).not.toHaveProperty("classes");
  });

  it("defect: bundled labels that are codes are shown in words; a study stored before keeps its codes", async () => {
    const wine = await createMulticlass(t, cookie, { dataset: "wine" });
    expect(wine.data.classNames).toEqual(["cultivar 1", "cultivar 2", "cultivar 3"]);
    expect(wine.config.source).toMatchObject({ classLabels: { class_0: "cultivar 1" } });
    const iris = await createMulticlass(t, cookie, { dataset: "iris" });
    expect(iris.data.classNames).toEqual(["setosa", "versicolor", "virginica"]);
    expect(iris.config.source).not.toHaveProperty("classLabels");
    // A configuration without classLabels (a study made before them) shows the data's codes,
    // as its participants saw them.
    const { classLabels: _, ...old } = wine.config.source as { classLabels?: unknown };
    const before = prepareMulticlassStudyData({ ...wine.config, source: old } as StudyConfig);
    expect(before.classNames).toEqual(["class_0", "class_1", "class_2"]);
  });

  it.each([
    [
      { kind: "multiclass", dataset: "glass", classes: ["1", "2", "4"] },
      /class "4" does not occur/,
    ],
    [{ kind: "multiclass", dataset: "glass", classes: ["1", "2"] }, /classes/],
    [{ template: "cancer-diagnosis", classes: ["a", "b", "c"] }, /only to multiclass/],
  ])("refuses %j and creates nothing", async (body, message) => {
    const before = (await t.db.selectFrom("studies").select("id").execute()).length;
    const r = await call(t, "POST", "/api/studies", { name: "bad", ...body }, cookie);
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(message);
    expect(await t.db.selectFrom("studies").select("id").execute()).toHaveLength(before);
  });
});
