// Issue 12 item 3: multiclass and fairness studies from a predictions CSV (label, one
// probability per class, and for fairness a group column): the user's own model, nothing
// fitted by the server. The pool is the rows' probabilities; every malformed upload is refused
// with a message naming what is wrong, and nothing is created.

import { describe, expect, it } from "vitest";
import type { ParticipantState } from "../../src/server/api-schemas.ts";
import { fairStudyData } from "../../src/server/kinds/fair/study.ts";
import { multiclassStudyData } from "../../src/server/kinds/multiclass/data.ts";
import type {
  FairLambdaSpec,
  MulticlassAdaptiveSpec,
  StudyConfig,
} from "../../src/server/study/config.ts";
import { answerFair, fairReader } from "./fair-driver.ts";
import { call } from "./helpers.ts";
import { appPerTest, createStudyOfKind } from "./kind-driver.ts";
import {
  answerMulticlass,
  finishMulticlass,
  screenReader,
  seededParticipant,
  walkToMulticlass,
} from "./multiclass-driver.ts";
import { predictionsCsv } from "./predictions-fixture.ts";

describe("studies from a predictions CSV (sqlite)", () => {
  const app = appPerTest("sqlite");

  it("multiclass: the rows' probabilities are the pool; a participant's weights are recovered", async () => {
    const { t, cookie } = app;
    const csv = predictionsCsv(600, 3, ["setosa", "versicolor", "virginica"]);
    const { study, config, configHash } = await createStudyOfKind<
      StudyConfig<MulticlassAdaptiveSpec>
    >(t, cookie, { name: "Own model", kind: "multiclass", predictionsCsv: csv });
    expect(study).toMatchObject({ family: "diagonal-linear", data: "uploaded predictions" });
    expect(config.source).toMatchObject({ kind: "multiclass-predictions", csv });
    const data = multiclassStudyData(configHash, config);
    expect(data.classNames).toEqual(["setosa", "versicolor", "virginica"]);
    expect(data.pool.n).toBe(600);
    expect(data.model.trainSize).toBe(0);
    // The pool's priors are the probability columns' means.
    const rows = csv.trim().split("\n").slice(1);
    const mean = (i: number) => rows.reduce((s, l) => s + Number(l.split(",")[i + 1]), 0) / 600;
    for (let i = 0; i < 3; i++) expect(data.pool.priors[i]).toBeCloseTo(mean(i), 12);

    const { token, seed } = await seededParticipant(t, cookie, study.id, 31);
    const truth = [0.5, 0.3, 0.2];
    let s: ParticipantState = await walkToMulticlass(t, token);
    const reader = screenReader(truth, data.pool.priors, 0, seed);
    s = (await answerMulticlass(t, token, seed, s, reader)).state;
    s = await finishMulticlass(t, token, s, { seed, reader });
    const d = s.multiclassDebrief!;
    const err = Math.max(...truth.map((x, i) => Math.abs(x - d.classWeights[i]!)));
    console.log(
      `predictions multiclass: truth ${truth.join(", ")}, elicited ${d.classWeights.map((x) => x.toFixed(3)).join(", ")}, error ${err.toFixed(4)}`,
    );
    d.classWeights.forEach((w, i) => {
      expect(Math.abs(w - truth[i]!)).toBeLessThanOrEqual(d.halfWidths[i] ?? config.spec.tolerance);
    });
  }, 180_000);

  it("fair: each group's rows are its pool, tau from their probability mass; lambda is recovered", async () => {
    const { t, cookie } = app;
    const csv = predictionsCsv(800, 2, ["kept", "released"], ["north", "south"]);
    const { study, config, configHash } = await createStudyOfKind<StudyConfig<FairLambdaSpec>>(
      t,
      cookie,
      { name: "Own model, fair", kind: "fair", predictionsCsv: csv, groups: "group" },
    );
    expect(study).toMatchObject({ family: "fair-lambda", data: "uploaded predictions" });
    expect(config.source).toMatchObject({ kind: "fair-predictions", groups: "group" });
    expect(config.story.paragraphs[0]).toContain(
      '(the "label" column of the uploaded predictions)',
    );
    const data = fairStudyData(configHash, config);
    expect(data.groupNames).toEqual(["north", "south"]);
    expect(data.classNames).toEqual(["kept", "released"]);
    expect(data.groupRows.reduce((a, b) => a + b, 0)).toBe(800);
    // tau: each group's share of a class's probability mass, from the file's own numbers.
    const lines = csv.trim().split("\n").slice(1);
    const mass = (g: string, i: number) =>
      lines
        .filter((l) => l.startsWith(`${g},`))
        .reduce((s, l) => s + Number(l.split(",")[i + 2]), 0);
    for (let i = 0; i < 2; i++) {
      const all = mass("north", i) + mass("south", i);
      expect(data.tau[0]![i]).toBeCloseTo(mass("north", i) / all, 12);
    }

    const { token, seed } = await seededParticipant(t, cookie, study.id, 12);
    let s: ParticipantState = await walkToMulticlass(t, token);
    const lambda = 0.6;
    const reader = fairReader(config.spec, data.tau, lambda, 0, seed);
    s = (await answerFair(t, token, seed, s, reader)).state;
    s = await finishMulticlass(t, token, s, { seed, reader });
    const m = s.fairDebrief!.metric;
    console.log(
      `predictions fair: lambda ${lambda}, elicited ${m.lambda.toFixed(3)} (${m.low}–${m.high})`,
    );
    expect(m.low).toBeLessThanOrEqual(lambda);
    expect(m.high).toBeGreaterThanOrEqual(lambda);
  }, 180_000);

  const bad = (k: number, text: (csv: string) => string) =>
    text(predictionsCsv(60, k, k === 2 ? ["a", "b"] : ["a", "b", "c"]));
  it.each([
    [
      "multiclass, two classes",
      { kind: "multiclass", predictionsCsv: bad(2, (c) => c) },
      /at least 3 — use a binary study/,
    ],
    [
      "multiclass, a row not summing to 1",
      { kind: "multiclass", predictionsCsv: bad(3, (c) => c.replace(/\n([abc]),0\./, "\n$1,0.9")) },
      /predictions CSV: line 2: probabilities sum to/,
    ],
    [
      "multiclass, empty",
      { kind: "multiclass", predictionsCsv: " \n" },
      /predictions CSV is empty/,
    ],
    [
      "multiclass, classes with predictions",
      { kind: "multiclass", predictionsCsv: bad(3, (c) => c), classes: ["a", "b", "c"] },
      /a predictions CSV's classes are its p_<class> columns/,
    ],
    [
      "multiclass, predictions beside a bundled dataset",
      { kind: "multiclass", predictionsCsv: bad(3, (c) => c), dataset: "iris" },
      /give one source of data/,
    ],
    [
      "fair, no group named",
      { kind: "fair", predictionsCsv: bad(2, (c) => c) },
      /group column of the predictions CSV/,
    ],
    [
      "fair, the group column missing",
      { kind: "fair", predictionsCsv: bad(2, (c) => c), groups: "region" },
      /predictions file needs the columns label, region, p_<class>/,
    ],
    [
      "fair, one group",
      {
        kind: "fair",
        predictionsCsv: bad(2, (c) =>
          c.replace(/\n/g, "\nx,").replace(/^/, "g,").replace(/\nx,$/, "\n"),
        ),
        groups: "g",
      },
      /has a single value \(x\)/,
    ],
    [
      "fair, a missing group",
      {
        kind: "fair",
        predictionsCsv: bad(2, (c) => {
          const l = c.trim().split("\n");
          return `${["g", ...l.slice(1).map((_, i) => (i === 4 ? "" : i % 2 ? "u" : "v"))].map((g, i) => `${g},${l[i]}`).join("\n")}\n`;
        }),
        groups: "g",
      },
      /line 6: g \(the group\) is missing/,
    ],
    [
      "fair, positive",
      { kind: "fair", predictionsCsv: bad(2, (c) => c), groups: "g", positive: "a" },
      /positive applies only to binary/,
    ],
  ])("refuses %s with a clear message and creates nothing", async (_, body, message) => {
    const { t, cookie } = app;
    const before = (await t.db.selectFrom("studies").select("id").execute()).length;
    const r = await call(t, "POST", "/api/studies", { name: "bad", ...body }, cookie);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body.error)).toMatch(message);
    expect(await t.db.selectFrom("studies").select("id").execute()).toHaveLength(before);
  });
});
