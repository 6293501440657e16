import { describe, expect, it, test } from "vitest";
import type { ParticipantState } from "../../src/server/api-schemas.ts";
import { debriefSentence, rateWeights } from "../../src/server/kinds/multiclass/participant.ts";
import { formatMetric } from "../../web/src/researcher/metric.ts";
import { call, describeOnce, SLOW_BACKENDS, tiers } from "./helpers.ts";
import { appPerTest, csvRows } from "./kind-driver.ts";
import {
  answerMulticlass,
  createMulticlass,
  engineRun,
  expectHonestPair,
  finishMulticlass,
  screenReader,
  seededParticipant,
  walkToMulticlass,
} from "./multiclass-driver.ts";

// The HTTP recovery check (50 participants with 5% flipped answers) is (a) of
// test/sweeps/noisy-http-study.sweep.ts, which `npm run test:sweeps` and `.ci/run` run; its
// quick version is test/server/noisy-http-study.test.ts.

describeOnce("multiclass debrief in words", () => {
  it("names the class whose mistakes weigh most and least, with the ratio", () => {
    const s = debriefSentence([0.6, 0.3, 0.1], ["setosa", "versicolor", "virginica"]);
    expect(s).toContain("The mistake you mind most is calling a true “setosa” something else");
    expect(s).toContain("about 6.0 times as much as the same mistake for “virginica”");
    expect(s).toContain("“setosa” (60%), “versicolor” (30%), “virginica” (10%)");
    expect(debriefSentence([0.34, 0.33, 0.33], ["a", "b", "c"])).toMatch(/about equally/);
    expect(debriefSentence([0.98, 0.02, 0], ["a", "b", "c"])).toMatch(/far more than/);
  });
  it("defect: no ratio where the ranges the answers leave overlap (the order is not settled)", () => {
    const w = [0.23, 0.69, 0.08];
    const classes = ["1", "2", "5"];
    // The audit's glass study after 6 questions: "about 2.9 times as much" beside ranges of
    // 1-51% and 0-27%.
    const wide = [
      { low: 0.01, high: 0.51 },
      { low: 0.25, high: 0.9 },
      { low: 0, high: 0.27 },
    ];
    const open = debriefSentence(w, classes, wide);
    expect(open).not.toMatch(/times as much|far more than/);
    expect(open).toContain("do not settle it");
    expect(open).toContain(
      "the weight of “2” could be anywhere from 25% to 90%, that of “5” from 0% to 27%",
    );
    // Ranges apart: the ratio stands.
    const narrow = [
      { low: 0.2, high: 0.26 },
      { low: 0.65, high: 0.72 },
      { low: 0.05, high: 0.1 },
    ];
    expect(debriefSentence(w, classes, narrow)).toContain("about 8.6 times as much as");
  });
  it("weighs each shown rate by the class's share (a_i p_i, normalised)", () => {
    expect(rateWeights([0.5, 0.5], [0.25, 0.75])).toEqual([0.25, 0.75]);
  });
});

describe.each(SLOW_BACKENDS)("multiclass study (%s)", (kind) => {
  // npm test on PostgreSQL runs only this block's `test(...)` cases (a smoke); the sweep
  // test/sweeps/postgres/multiclass-study.sweep.ts runs every case there.
  const { it } = tiers(kind);
  const app = appPerTest(kind);

  it("creates a k = 3 diagonal-linear study with adaptive defaults; binary stays the default", async () => {
    const { t, cookie } = app;
    const { study, config, data } = await createMulticlass(t, cookie);
    expect(study).toMatchObject({
      family: "diagonal-linear",
      strategy: "adaptive",
      budget: 25,
      tolerance: 0.05,
    });
    expect(study.data).toBe("iris.csv");
    expect(config.kind).toBe("multiclass");
    expect(config.spec).toEqual({
      family: "diagonal-linear",
      tolerance: 0.05,
      strategy: "adaptive",
      budget: 25,
      credibility: 0.9,
      model: "learned-tiring",
      displayStep: 0.001,
      asShown: true,
    });
    expect(data.pool.k).toBe(3);
    // A binary study's stored configuration has no kind (so its hash is unchanged).
    const builtIn = await t.db
      .selectFrom("studies")
      .select("config")
      .where("id", "=", 1)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(builtIn.config).kind).toBeUndefined();
    for (const [dataset, k] of [
      ["wine", 3],
      ["vehicle", 4],
      ["glass", 6],
    ] as const) {
      const made = await createMulticlass(t, cookie, { dataset });
      expect(made.data.pool.k).toBe(k);
    }
  });

  it.each([
    [{ kind: "multiclass" }, /a multiclass study needs a dataset/],
    [{ kind: "multiclass", dataset: "iris", strategy: "paper" }, /adaptive strategy/],
    [
      { kind: "multiclass", dataset: "iris", family: "binary-linear" },
      /the diagonal-linear or the linear family/,
    ],
    [{ kind: "multiclass", dataset: "iris", template: "cancer-diagnosis" }, /bundled dataset/],
    [{ family: "diagonal-linear", template: "cancer-diagnosis" }, /needs a multiclass study/],
    [{ dataset: "iris", template: "cancer-diagnosis" }, /only to multiclass/],
    [{ kind: "multiclass", dataset: "mnist" }, /dataset/],
  ])("rejects %j and creates nothing", async (body, message) => {
    const { t, cookie } = app;
    const r = await call(t, "POST", "/api/studies", { name: "bad", ...body }, cookie);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body.error)).toMatch(message);
    expect(await t.db.selectFrom("studies").select("id").execute()).toHaveLength(1);
  });

  test("shows whole counts out of 100 per true class, never a pair the same on screen, and replays the log like the CLI's engine", async () => {
    let { t } = app;
    const { cookie } = app;
    const { study, config, data } = await createMulticlass(t, cookie);
    const { token, id, seed } = await seededParticipant(t, cookie, study.id, 424242);
    const truth = [0.2, 0.5, 0.3];
    let s = await walkToMulticlass(t, token);
    expect(s.phase).toBe("elicitation");
    expect(s.elicitation).toBeUndefined();
    expect(s.study.kind).toBe("multiclass");
    const e = s.multiclassElicitation!;
    expect(e.progress).toEqual({ answered: 0, estimatedRemaining: 25, atMost: 25 });
    expect(e.canUndo).toBe(false);
    expect(e.question.classes).toEqual(data.classNames);

    // Noise-free here, so an answer given again after an undo is the same answer.
    const reader = screenReader(truth, data.pool.priors, 0, seed);
    // Part way: a refresh, a restart with nothing remembered and an undo serve the pending
    // question again, computed from the stored log alone.
    const part = await answerMulticlass(t, token, seed, s, reader, 3);
    const pending = part.state.multiclassElicitation!;
    expect(pending.progress.answered).toBe(3);
    expect(pending.canUndo).toBe(true);
    expect((await call(t, "GET", `/api/p/${token}`)).body.multiclassElicitation).toEqual(pending);
    t = await app.restart();
    expect((await call(t, "GET", `/api/p/${token}`)).body.multiclassElicitation).toEqual(pending);
    const undone = await call<ParticipantState>(t, "POST", `/api/p/${token}/undo`, {
      questionId: 3,
    });
    expect(undone.body.multiclassElicitation!.progress.answered).toBe(2);
    const rest = await answerMulticlass(t, token, seed, undone.body, reader);
    s = rest.state;
    for (const [l, r] of [...part.shown, ...rest.shown]) expectHonestPair(l, r, 3);
    // Phase III follows (the study's 15 random pairs and 2 repeats).
    expect(s.phase).toBe("evaluation");
    expect(s.multiclassEvaluation!.progress).toEqual({ answered: 0, total: 17 });

    const stored = await t.db
      .selectFrom("answers")
      .select(["question_index", "first_point", "second_point", "answer", "undone_at"])
      .where("participant_id", "=", id)
      .where("phase", "=", "elicitation")
      .orderBy("id")
      .execute();
    const live = stored.filter((r) => r.undone_at === null);
    expect(stored.length - live.length).toBe(1);
    expect(live.length).toBeLessThanOrEqual(25);

    const expected = engineRun(
      data.pool,
      config.spec,
      seed,
      screenReader(truth, data.pool.priors, 0, seed),
    );
    expect(live).toHaveLength(expected.shown);
    s = await finishMulticlass(t, token, s, { seed, reader });
    expect(s.phase).toBe("debrief");
    const d = s.multiclassDebrief!;
    // A noise-free reader agrees with their own elicited metric on every Phase III pair.
    expect(d.agreementDetail!.pairs).toBe(15);
    expect(d.agreement).toBe(1);
    expect(d.consistency).toMatchObject({ basis: "phase-three", retestPairs: 2, retestSame: 2 });
    // The server's result is the engine's, built independently (CLI parity).
    expect(d.metric.weights).toEqual(expected.transcript.result.metric);
    expect(d.classes).toEqual(data.classNames);
    expect(d.classWeights.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 9);
    const most = d.classWeights.indexOf(Math.max(...d.classWeights));
    expect(d.summary).toContain(`calling a true “${data.classNames[most]}” something else`);
    expect(d.completionCode).not.toBe("");

    // The dashboard shows the same weights.
    const parts = await call(t, "GET", `/api/studies/${study.id}/participants`, undefined, cookie);
    const row = parts.body.participants.find((p: { id: number }) => p.id === id);
    expect(row.metric).toEqual({ weights: d.metric.weights });
    expect(row.adaptive.questions).toBeLessThanOrEqual(25);

    // The exports: every stored answer with the counts shown, and the same weights.
    const exported = async (file: string) =>
      (
        await t.app.inject({
          method: "GET",
          url: `/api/studies/${study.id}/export/${file}`,
          headers: { cookie },
        })
      ).body;
    const csv = (await exported("answers.csv")).trim().split("\n");
    expect(csv[0]).toContain("classes,first_counts,second_counts");
    const all = await t.db
      .selectFrom("answers")
      .select("id")
      .where("participant_id", "=", id)
      .execute();
    expect(all).toHaveLength(stored.length + 17);
    expect(csv).toHaveLength(1 + all.length);
    const json = JSON.parse(await exported("study.json"));
    const mine = json.participants.find((p: { id: number }) => p.id === id);
    expect(mine.summary.metric).toEqual({ weights: d.metric.weights });
    expect((await exported("participants.csv")).split("\n")).toHaveLength(2 + 1);
    // Issue 27 item 4: one normalisation per figure. The weights per case the debrief states
    // are the dashboard's, study.json's and participants.csv's; the metric's own weights (on
    // the joint confusion) are there too, under their own name.
    expect(row.classWeights).toEqual(d.classWeights);
    expect(row.classHalfWidths).toEqual(d.halfWidths);
    expect(mine.summary.classWeights).toEqual(d.classWeights);
    const wide = csvRows(await exported("participants.csv")).find(
      (r) => r.participant_id === String(id),
    )!;
    // Each weight's range over the belief the answers left: on the debrief, the dashboard and
    // the CSV, holding the weight.
    expect(d.classRanges).toHaveLength(d.classWeights.length);
    expect(row.classRanges).toEqual(d.classRanges);
    d.classWeights.forEach((w, i) => {
      const r = d.classRanges![i]!;
      expect(r.low).toBeLessThanOrEqual(w);
      expect(r.high).toBeGreaterThanOrEqual(w);
      expect(Number(wide[`class_weight_${i + 1}_low`])).toBeCloseTo(r.low, 12);
      expect(Number(wide[`class_weight_${i + 1}_high`])).toBeCloseTo(r.high, 12);
      expect(Number(wide[`class_weight_${i + 1}`])).toBeCloseTo(w, 12);
      expect(wide[`class_weight_${i + 1}_uncertain`]).toBe(d.halfWidths[i] === null ? "0" : "1");
      expect(Number(wide[`metric_weight_${i + 1}`])).toBeCloseTo(d.metric.weights[i]!, 12);
    });
    expect(formatMetric(row.metric, row.adaptive.unidentified, row)).toBe(
      `weights per case ${d.classWeights.map((w, i) => `${Math.round(w * 100)}% (${Math.round(d.classRanges![i]!.low * 100)}–${Math.round(d.classRanges![i]!.high * 100)}%)${d.halfWidths[i] !== null ? " (uncertain)" : ""}`).join(", ")}`,
    );
  }, 180_000);
});
