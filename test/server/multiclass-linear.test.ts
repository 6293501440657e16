// Issue 12 item 1: "diagonal-linear and linear metrics" — a multiclass study of the linear
// family (a cost for every kind of mistake, true class i taken for j) over HTTP: the view
// shows every count, the engine asks pairs that differ somewhere on screen, and the debrief,
// the dashboard, study.json and the consensus state one metric.

import { describe, expect, it } from "vitest";
import { createRng } from "../../src/math/rng.ts";
import type { MulticlassView, ParticipantState } from "../../src/server/api-schemas.ts";
import {
  linearDebriefSentence,
  linearMistakes,
} from "../../src/server/kinds/multiclass/participant.ts";
import { call, describeOnce } from "./helpers.ts";
import { appPerTest, flippedAnswer, studyJson } from "./kind-driver.ts";
import {
  answerMulticlass,
  createMulticlass,
  finishMulticlass,
  seededParticipant,
  walkToMulticlass,
} from "./multiclass-driver.ts";

describeOnce("linear multiclass pieces", () => {
  it("mistakes: row by row without the diagonal, shares of |a_ij|, half-widths by name", () => {
    const m = linearMistakes(
      [-0.6, -0.1, -0.2, -0.4, -0.4, -0.2],
      [{ name: "a12", halfWidth: 0.11 }],
      ["a", "b", "c"],
    );
    expect(m.map((x) => `${x.from}${x.to}`)).toEqual(["ab", "ac", "ba", "bc", "ca", "cb"]);
    expect(m[0]!.share).toBeCloseTo(0.6 / 1.9, 12);
    expect(m[3]).toMatchObject({ from: "b", to: "c", halfWidth: 0.11 });
    const s = linearDebriefSentence(m);
    expect(s).toContain("The mistake you mind most is calling a true “a” a “b”");
    expect(s).toContain("about 6.0 times as much as calling a true “a” a “c”");
    expect(s).toContain("do not settle 1 of the 6 weights");
  });
});

describe("linear multiclass study (sqlite)", () => {
  const app = appPerTest("sqlite");

  it("recovers every mistake's cost within the tolerance or its flagged half-width; debrief = dashboard = export", async () => {
    const { t, cookie } = app;
    const { study, config, data } = await createMulticlass(t, cookie, { family: "linear" });
    expect(config.spec).toMatchObject({
      family: "linear",
      tolerance: 0.1,
      budget: 45,
      // LPM keeps learned-lean (DLPM runs learned-tiring: multiclassAnswerModel).
      model: "learned-lean",
    });
    expect(study.family).toBe("linear");
    const k = data.pool.k;
    const rng = createRng("linear-truth");
    let truth = Array.from({ length: k * (k - 1) }, () => -(0.1 + rng.next()));
    const norm = Math.sqrt(truth.reduce((s, x) => s + x * x, 0));
    truth = truth.map((x) => x / norm);
    // The participant's value of a system: every count of 100 per true class, weighed by the
    // class's share of the pool (the metric is on the joint confusions).
    const value = (v: MulticlassView) => {
      let s = 0;
      let a = 0;
      for (let i = 0; i < k; i++)
        for (let j = 0; j < k; j++) {
          if (i === j) continue;
          s += (truth[a]! * data.pool.priors[i]! * v.counts[i]![j]!) / 100;
          a++;
        }
      return s;
    };
    const coin = createRng("no flips");
    const reader = {
      value,
      answer: (f: MulticlassView, g: MulticlassView) => flippedAnswer(value(f) - value(g), coin, 0),
    };
    const { token, id, seed } = await seededParticipant(t, cookie, study.id, 21);
    let s: ParticipantState = await walkToMulticlass(t, token);
    const run = await answerMulticlass(t, token, seed, s, reader);
    // Every pair shown differs somewhere on screen (the linear metric reads every count).
    for (const [l, r] of run.shown)
      expect(JSON.stringify(l.counts)).not.toBe(JSON.stringify(r.counts));
    s = await finishMulticlass(t, token, run.state, { seed, reader });
    const d = s.multiclassDebrief!;
    const w = d.metric.weights;
    const open = new Map(d.mistakes!.map((m, a) => [a, m.halfWidth]));
    const errors = w.map((x, a) => Math.abs(x - truth[a]!));
    console.log(
      `linear k=3 (iris): ${run.asked} questions, errors ${errors.map((e) => e.toFixed(3)).join(", ")}, half-widths ${[...open.values()].map((h) => (h === null ? "-" : h.toFixed(3))).join(", ")}`,
    );
    errors.forEach((e, a) => {
      expect(e, `weight ${a}`).toBeLessThanOrEqual(open.get(a) ?? config.spec.tolerance);
    });
    expect(d.summary).toBe(linearDebriefSentence(d.mistakes!));
    expect(d.classWeights.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 12);

    const parts = await call(t, "GET", `/api/studies/${study.id}/participants`, undefined, cookie);
    const row = parts.body.participants.find((p: { id: number }) => p.id === id);
    expect(row.metric).toEqual(d.metric);
    const flagged = row.adaptive.unidentified.map((u: { name: string }) => u.name).sort();
    expect(flagged).toEqual(
      d
        .mistakes!.flatMap((m) =>
          m.halfWidth === null
            ? []
            : [`a${data.classNames.indexOf(m.from)}${data.classNames.indexOf(m.to)}`],
        )
        .sort(),
    );
    const json = await studyJson(t, cookie, study.id);
    expect(json.participants.find((p: { id: number }) => p.id === id).summary.metric).toEqual(
      d.metric,
    );
  }, 180_000);

  it("refuses linear outside a multiclass study, and creates nothing", async () => {
    const { t, cookie } = app;
    const before = (await t.db.selectFrom("studies").select("id").execute()).length;
    const r = await call(t, "POST", "/api/studies", { name: "x", family: "linear" }, cookie);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body.error)).toContain("linear needs a multiclass study");
    expect(await t.db.selectFrom("studies").select("id").execute()).toHaveLength(before);
  });
});
