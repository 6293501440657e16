import { h } from "preact";
import { render } from "preact-render-to-string";
import { describe, expect, it, test } from "vitest";
import { STUDY_GRID_POINTS } from "../../src/elicit/adaptive/binary-study.ts";
import {
  adaptiveProcedure,
  adaptiveSteps,
  GRID_POINTS,
  runBytes,
} from "../../src/elicit/adaptive/engine.ts";
import { lambdaFamily } from "../../src/elicit/adaptive/families/fair.ts";
import type { FairPoint } from "../../src/elicit/fair/metric.ts";
import { dominatedFair } from "../../src/elicit/fair/metric.ts";
import { liveRun, runProcedure } from "../../src/elicit/session.ts";
import type { CreateStudyBody, FairView, ParticipantState } from "../../src/server/api-schemas.ts";
import {
  accuracyForGap,
  fairDebriefSentence,
  fairStudyFamily,
  fairStudySteps,
  fairView,
  lambdaRecord,
  morePeopleIn100,
  shownOfRates,
  shownRatesOf,
} from "../../src/server/kinds/fair/participant.ts";
import { defaultKnown, fairStudyConfig, fairStudyData } from "../../src/server/kinds/fair/study.ts";
import type { FairLambdaSpec } from "../../src/server/study/config.ts";
import { PhasePage } from "../../web/src/participant/ParticipantApp.tsx";
import { answerFair, createFair, fairReader } from "./fair-driver.ts";
import { call, describeOnce, SLOW_BACKENDS, tiers } from "./helpers.ts";
import { appPerTest, csvRows } from "./kind-driver.ts";
import { finishMulticlass, seededParticipant, walkToMulticlass } from "./multiclass-driver.ts";

// The HTTP recovery check over 50 participants with 5% flipped answers (and the k = 3
// multiclass one beside it) is test/sweeps/noisy-http-study.sweep.ts; its quick version
// (a few participants) is test/server/noisy-http-study.test.ts.

describeOnce("fairness study pieces", () => {
  it("a lambda study's engine runs its spec's grid (4096 in new studies); an older spec, without one, the engine's 16384, as it ran", () => {
    const config = fairStudyConfig({ name: "R", kind: "fair" } as CreateStudyBody).config;
    const spec = config.spec as FairLambdaSpec;
    expect(spec.gridPoints).toBe(STUDY_GRID_POINTS);
    const data = fairStudyData("h", config);
    const older: FairLambdaSpec = { ...spec };
    delete (older as { gridPoints?: number }).gridPoints;
    const answers = ["first", "second", "first", "tie", "second"] as const;
    const bytes: number[] = [];
    for (const [s, grid] of [
      [spec, STUDY_GRID_POINTS],
      [older, GRID_POINTS],
    ] as const) {
      const steps = fairStudySteps(s, data, 9);
      const run = liveRun(steps, answers);
      const options = { tolerance: s.tolerance, budget: s.budget, credibility: s.credibility };
      const engine = adaptiveSteps(fairStudyFamily(s, data), {
        ...options,
        model: s.model,
        seed: 9,
        gridPoints: grid,
      });
      expect(JSON.stringify(run.state)).toBe(JSON.stringify(liveRun(engine, answers).state));
      bytes.push(runBytes(steps)!);
    }
    // A server keeps a quarter of the memory for a new study's participant.
    expect(bytes[1]! / bytes[0]!).toBeGreaterThan(3.5);
  });

  it("defect: the bundled data's story says what the system decides and what the groups are, in words", () => {
    const story = (b: Partial<CreateStudyBody>) =>
      fairStudyConfig({
        name: "R",
        kind: "fair",
        ...b,
      } as CreateStudyBody).config.story.paragraphs.join(" ");
    const arrests = story({});
    expect(arrests).toContain("whether they are released with a summons (“Yes”) or not (“No”)");
    expect(arrests).toContain("People belong to groups (skin colour: “Black”, “White”)");
    expect(arrests).not.toMatch(/column of the|"released"|\(colour:/);
    const titanic = story({ dataset: "titanic", groups: "passengerClass" });
    expect(titanic).toContain("whether they survived (“yes”) or not (“no”)");
    expect(titanic).toContain("(passenger class: “1st”, “2nd”, “3rd”)");
  });

  it("lambda's record: the estimate and its credible range rounded outward, clipped to [0, 1]", () => {
    expect(lambdaRecord({ metric: { lambda: 0.62 }, credible: { radius: 0.031 } })).toEqual({
      lambda: 0.62,
      low: 0.58,
      high: 0.66,
    });
    expect(lambdaRecord({ metric: { lambda: 0.97 }, credible: { radius: 0.05 } })).toMatchObject({
      low: 0.92,
      high: 1,
    });
    expect(lambdaRecord({ metric: { lambda: 0.01 }, credible: { radius: 0.05 } }).low).toBe(0);
  });
  it("what closing a 10-point gap is worth: lambda / (1 - lambda) points with uniform a, identity B", () => {
    const { a, B } = defaultKnown(2, 2);
    expect(accuracyForGap(0.5, a, B)).toBeCloseTo(1, 9);
    expect(accuracyForGap(0.8, a, B)).toBeCloseTo(4, 9);
    expect(accuracyForGap(1, a, B)).toBe(Number.POSITIVE_INFINITY);
  });
  it("the debrief names lambda, its range and which side it leans to", () => {
    const s = fairDebriefSentence({ lambda: 0.72, low: 0.66, high: 0.79 }, 2.6, ["A", "B"]);
    expect(s).toContain("Your trade-off lambda is 0.72, between 0.66 and 0.79");
    expect(s).toContain("Treating the groups alike matters more to you");
    expect(s).toContain(
      "gap between “A” and “B” 10 points smaller in every class is worth about 3 more people in 100",
    );
    expect(fairDebriefSentence({ lambda: 0.3, low: 0.2, high: 0.4 }, 0.4, ["A", "B"])).toContain(
      "Being right overall matters more",
    );
    expect(fairDebriefSentence({ lambda: 0.5, low: 0.4, high: 0.6 }, 1, ["A", "B"])).toContain(
      "about evenly",
    );
    // Three groups: the worth is of the first two's gap, and the sentence says it is one pair.
    expect(
      fairDebriefSentence({ lambda: 0.5, low: 0.4, high: 0.6 }, 1, ["1st", "2nd", "3rd"]),
    ).toContain("gap between “1st” and “2nd” (one of the 3 pairs of groups) 10 points smaller");
  });
  it("defect: the debrief counts whole people in 100 (no 'about 0.4 more people'), one person singular", () => {
    const say = (worth: number) =>
      fairDebriefSentence({ lambda: 0.3, low: 0.2, high: 0.4 }, worth, ["A", "B"]);
    expect(say(0.4)).toContain("is worth fewer than 1 more person in 100 decided wrongly");
    expect(say(1)).toContain("is worth about 1 more person in 100 decided wrongly");
    expect(say(1.4)).toContain("is worth about 1 more person in 100");
    expect(say(2.6)).toContain("is worth about 3 more people in 100");
    for (const w of [0.4, 1, 2.6, 12.35]) expect(say(w)).not.toMatch(/worth about \d+\.\d/);
    expect(say(Number.POSITIVE_INFINITY)).toContain("is worth any loss of accuracy");
    expect(morePeopleIn100(0.49)).toBe("fewer than 1 more person in 100");
    expect(morePeopleIn100(0.5)).toBe("about 1 more person in 100");
  });
  it("shown counts: whole people out of 100, overall from the counts with tau, gaps between groups", () => {
    const v = shownOfRates(
      [
        [0.714, 0.5],
        [0.6, 0.555],
      ],
      [
        [0.25, 0.5],
        [0.75, 0.5],
      ],
    );
    expect(v.counts).toEqual([
      [71, 50],
      [60, 56],
    ]);
    expect(v.overall).toEqual([62.8, 53]);
    expect(v.gaps).toEqual([11, 6]);
  });
});

/** Every number of a shown system is whole (or, overall, one decimal) and agrees with the rest. */
function expectHonest(v: FairView, tau: readonly (readonly number[])[], k: number) {
  for (const row of v.counts) {
    expect(row).toHaveLength(k);
    for (const c of row) expect(Number.isInteger(c) && c >= 0 && c <= 100).toBe(true);
  }
  for (let i = 0; i < k; i++) {
    const col = v.counts.map((r) => r[i]!);
    expect(v.gaps[i]).toBe(Math.max(...col) - Math.min(...col));
    const overall = col.reduce((s, c, g) => s + tau[g]![i]! * c, 0);
    expect(Math.abs(v.overall[i]! - overall)).toBeLessThanOrEqual(0.05 + 1e-9);
  }
}

describe.each(SLOW_BACKENDS)("fairness study (%s)", (kind) => {
  // npm test on PostgreSQL runs only this block's `test(...)` cases (a smoke); the sweep
  // test/sweeps/postgres/fair-study.sweep.ts runs every case there.
  const { it } = tiers(kind);
  const app = appPerTest(kind);

  it("creates a lambda study on arrests by colour with adaptive defaults", async () => {
    const { t, cookie } = app;
    const { study, config, data } = await createFair(t, cookie);
    expect(study).toMatchObject({
      family: "fair-lambda",
      strategy: "adaptive",
      budget: 25,
      tolerance: 0.05,
      data: "arrests.csv",
    });
    expect(config.kind).toBe("fair");
    expect(config.source).toMatchObject({
      kind: "fair-dataset",
      target: "released",
      groups: "colour",
    });
    expect(config.spec).toMatchObject({
      family: "fair-lambda",
      tolerance: 0.05,
      budget: 25,
      credibility: 0.9,
      model: "learned-blunt-lean",
      displayStep: 0.01,
      asShown: true,
      gridPoints: STUDY_GRID_POINTS,
    });
    expect(config.spec.known).toEqual(defaultKnown(2, 2));
    expect(data.groupNames).toEqual(["Black", "White"]);
    expect(data.space.sphere.rho).toBeGreaterThan(0.1);
    const titanic = await createFair(t, cookie, { dataset: "titanic", groups: "passengerClass" });
    expect(titanic.data.groupNames).toHaveLength(3);
    expect(Object.keys(titanic.config.spec.known.B)).toEqual(["0-1", "0-2", "1-2"]);
  });

  it.each([
    [{ kind: "fair", dataset: "iris" }, /arrests or titanic/],
    [{ kind: "fair", groups: "age" }, /group columns are/],
    [{ kind: "fair", strategy: "paper" }, /adaptive strategy/],
    [{ kind: "fair", family: "diagonal-linear" }, /trade-off lambda/],
    [{ kind: "fair", template: "cancer-diagnosis" }, /bundled dataset/],
    [{ kind: "multiclass", dataset: "arrests" }, /for fair studies/],
    [{ groups: "sex", template: "cancer-diagnosis" }, /only to fair/],
    [{ family: "fair-lambda", template: "cancer-diagnosis" }, /needs kind: fair/],
  ])("rejects %j and creates nothing", async (body, message) => {
    const { t, cookie } = app;
    const r = await call(t, "POST", "/api/studies", { name: "bad", ...body }, cookie);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body.error)).toMatch(message);
    expect(await t.db.selectFrom("studies").select("id").execute()).toHaveLength(1);
  });

  test("asks like the CLI's engine, survives a restart and an undo, and the debrief, dashboard and exports agree on lambda", async () => {
    let { t } = app;
    const { cookie } = app;
    const { study, config, data } = await createFair(t, cookie);
    const { token, id, seed } = await seededParticipant(t, cookie, study.id, 777);
    const lambda = 0.7;
    let s = await walkToMulticlass(t, token);
    expect(s.phase).toBe("elicitation");
    expect(s.study.kind).toBe("fair");
    const e = s.fairElicitation!;
    expect(e.progress).toEqual({ answered: 0, estimatedRemaining: 25, atMost: 25 });
    expect(e.question.groups).toEqual(data.groupNames);
    expect(e.question.classes).toEqual(data.classNames);

    const reader = fairReader(config.spec, data.tau, lambda, 0, seed);
    const part = await answerFair(t, token, seed, s, reader, 3);
    const pending = part.state.fairElicitation!;
    expect(pending.progress.answered).toBe(3);
    t = await app.restart();
    expect((await call(t, "GET", `/api/p/${token}`)).body.fairElicitation).toEqual(pending);
    const undone = await call<ParticipantState>(t, "POST", `/api/p/${token}/undo`, {
      questionId: 3,
    });
    expect(undone.body.fairElicitation!.progress.answered).toBe(2);
    const rest = await answerFair(t, token, seed, undone.body, reader);
    s = rest.state;
    // Issue 26: never a pair one of which is no worse on both parts of the cost as shown
    // (every lambda would prefer it, so it says nothing about the trade-off).
    const known = {
      a: [...config.spec.known.a],
      B: { "0-1": config.spec.known.B["0-1"]!.map((r) => [...r]) },
      lambda,
    };
    const rates = (v: FairView) => v.counts.map((row) => row.map((c) => c / 100));
    for (const [l, r] of [...part.shown, ...rest.shown]) {
      expectHonest(l, data.tau, 2);
      expectHonest(r, data.tau, 2);
      expect(JSON.stringify(l.counts)).not.toBe(JSON.stringify(r.counts));
      expect(dominatedFair(known, data.tau, rates(l), rates(r))).toBe(false);
    }
    expect(s.phase).toBe("evaluation");
    expect(s.fairEvaluation!.progress).toEqual({ answered: 0, total: 17 });

    // The engine built as `elicit simulate --lambda-only` builds it, on the counts shown as
    // a study's engine computes (`asShown`), answered by the same reader off the same screen,
    // gives the same questions and result.
    expect(config.spec.asShown).toBe(true);
    const family = lambdaFamily(
      2,
      data.tau,
      { a: [...config.spec.known.a], B: { "0-1": config.spec.known.B["0-1"]!.map((r) => [...r]) } },
      {
        rho: data.space.sphere.rho,
        displayStep: config.spec.displayStep,
        shown: (p) => shownRatesOf(data, p),
      },
    );
    let shownCount = 0;
    const key = (v: FairView) => JSON.stringify(v.counts);
    const expected = runProcedure(
      adaptiveProcedure(family, {
        tolerance: 0.05,
        budget: 25,
        credibility: 0.9,
        model: config.spec.model,
        seed,
        gridPoints: STUDY_GRID_POINTS,
      }),
      (q: { first: FairPoint; second: FairPoint }) => {
        const f = fairView(data, q.first);
        const g = fairView(data, q.second);
        if (key(f) === key(g)) return "tie";
        shownCount++;
        return reader.answer(f, g);
      },
    );
    const stored = await t.db
      .selectFrom("answers")
      .select(["undone_at"])
      .where("participant_id", "=", id)
      .where("phase", "=", "elicitation")
      .execute();
    expect(stored.filter((r) => r.undone_at === null)).toHaveLength(shownCount);

    const asked: [FairView, FairView][] = [];
    const recording = {
      answer: (f: FairView, g: FairView) => {
        asked.push([f, g]);
        return reader.answer(f, g);
      },
    };
    s = await finishMulticlass(t, token, s, { seed, reader: recording });
    expect(s.phase).toBe("debrief");
    const d = s.fairDebrief!;
    // A noise-free reader of the screen disagrees with their own elicited lambda on Phase III
    // only where their lambda and the elicited one order a pair differently (within the
    // tolerance, a random pair may fall between them).
    expect(d.agreementDetail!.pairs).toBe(15);
    expect(asked).toHaveLength(17);
    const elicitedReader = fairReader(config.spec, data.tau, d.metric.lambda, 0, seed);
    const differ = asked.filter(([f, g]) => elicitedReader.answer(f, g) !== reader.answer(f, g));
    expect(Math.round((1 - d.agreement!) * 15)).toBeLessThanOrEqual(differ.length);
    expect(differ.length).toBeLessThanOrEqual(2);
    expect(d.consistency).toMatchObject({ basis: "phase-three", retestPairs: 2, retestSame: 2 });
    expect(d.metric.lambda).toBe(expected.result.metric.lambda);
    expect(d.metric).toEqual(lambdaRecord(expected.result));
    expect(d.metric.low).toBeLessThanOrEqual(d.metric.lambda);
    expect(d.metric.high).toBeGreaterThanOrEqual(d.metric.lambda);
    expect(Math.abs(d.metric.lambda - lambda)).toBeLessThanOrEqual(0.1);
    // The range the debrief states holds the participant's own lambda (issue 26).
    expect(d.metric.low).toBeLessThanOrEqual(lambda);
    expect(d.metric.high).toBeGreaterThanOrEqual(lambda);
    expect(d.summary).toContain(`Your trade-off lambda is ${d.metric.lambda.toFixed(2)}`);
    expect(d.summary).toContain(
      `between ${d.metric.low.toFixed(2)} and ${d.metric.high.toFixed(2)}`,
    );
    expect(d.groups).toEqual(data.groupNames);

    // The dashboard, study.json and participants.csv state the same record.
    const parts = await call(t, "GET", `/api/studies/${study.id}/participants`, undefined, cookie);
    const row = parts.body.participants.find((p: { id: number }) => p.id === id);
    expect(row.metric).toEqual(d.metric);
    expect(row.adaptive.questions).toBe(shownCount);
    const exported = async (file: string) =>
      (
        await t.app.inject({
          method: "GET",
          url: `/api/studies/${study.id}/export/${file}`,
          headers: { cookie },
        })
      ).body;
    const json = JSON.parse(await exported("study.json"));
    const mine = json.participants.find((p: { id: number }) => p.id === id);
    expect(mine.summary.metric).toEqual(d.metric);
    expect(json.codebook.fair).toContain("lambda");
    const wide = (await exported("participants.csv")).trim().split("\n");
    const header = wide[0]!.split(",");
    const cells = wide.find((l) => l.startsWith(`${id},`))!.split(",");
    const col = (name: string) => Number(cells[header.indexOf(name)]);
    expect(col("elicited_lambda")).toBe(d.metric.lambda);
    expect(col("lambda_low")).toBe(d.metric.low);
    expect(col("lambda_high")).toBe(d.metric.high);
    // answers.csv: every stored answer (the undone one included) with the counts shown.
    const csv = (await exported("answers.csv")).trim().split("\n");
    expect(csv[0]).toContain("classes,groups,first_counts,second_counts");
    expect(csv).toHaveLength(1 + stored.length + 17);

    // Issue 26 item 4 and issue 27 item 2: the consistency measured by Phase III (its random
    // pairs against the participant's own result, and the two repeats) is on the debrief (its
    // sentence), the dashboard and both CSVs, equal; so is the agreement M.
    const c = d.consistency!;
    // Answers against the result: only the pairs the elicited lambda orders otherwise.
    const against = Math.round((1 - d.agreement!) * 15);
    expect(c).toMatchObject({
      basis: "phase-three",
      counted: 15,
      against,
      errorRate: against / 15,
    });
    expect(c.coinLike).toBe(false);
    expect(c.errorHigh!).toBeLessThan(against === 0 ? 0.2 : 0.3);
    console.log(
      `fair study: lambda ${lambda}, elicited ${d.metric.lambda} after ${expected.result.questions} questions; ${against} of 15 Phase III answers against it, ${differ.length} pairs ordered otherwise by the two`,
    );
    expect(row.consistency).toEqual(c);
    expect(row.agreementDetail).toEqual(d.agreementDetail);
    const wideRow = csvRows(await exported("participants.csv")).find(
      (r) => r.participant_id === String(id),
    )!;
    expect(Number(wideRow.error_rate)).toBeCloseTo(c.errorRate!, 12);
    expect(Number(wideRow.error_rate_low)).toBeCloseTo(c.errorLow!, 12);
    expect(Number(wideRow.error_rate_high)).toBeCloseTo(c.errorHigh!, 12);
    expect(wideRow.coin_like).toBe("0");
    const long = csvRows(await exported("answers.csv")).filter(
      (r) => r.participant_id === String(id),
    );
    expect(new Set(long.map((r) => r.participant_error_rate))).toEqual(
      new Set([wideRow.error_rate]),
    );
    expect(new Set(long.map((r) => r.participant_coin_like))).toEqual(new Set(["0"]));
    const pct = (x: number) => `${Math.round(x * 100)}%`;
    const page = render(h(PhasePage, { state: s, busy: false, post: async () => undefined }));
    const text = page.replace(/<[^>]+>/g, "");
    expect(text).toContain(
      `${against} of your 15 choices went against your own result (${pct(Number(wideRow.error_rate))}; from ${pct(Number(wideRow.error_rate_low))} to ${pct(Number(wideRow.error_rate_high))} is likely)`,
    );
    expect(text).toContain("You saw 2 of the pairs twice and chose the same way both times on 2");
    expect(text).toContain(
      `Your result agrees with ${pct(Number(wideRow.agreement))} of your own choices in the last part (${15 - against} of 15 pairs)`,
    );
  }, 180_000);
});
