import { h } from "preact";
import { render } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import { wToQuadratic } from "../../src/elicit/adaptive/families/quadratic.ts";
import { evaluateQuadratic, type QuadraticMetric } from "../../src/elicit/quadratic/metric.ts";
import { createRng } from "../../src/math/rng.ts";
import type { MulticlassView, ParticipantState } from "../../src/server/api-schemas.ts";
import { quadraticStudyData } from "../../src/server/kinds/quadratic/data.ts";
import {
  imbalanceSentence,
  quadraticFigures,
} from "../../src/server/kinds/quadratic/participant.ts";
import { UNMEASURED_SENTENCE } from "../../src/server/participant/phase-three.ts";
import type { StudyConfig } from "../../src/server/study/config.ts";
import { PhasePage } from "../../web/src/participant/ParticipantApp.tsx";
import { call } from "./helpers.ts";
import {
  answerPairs,
  appPerTest,
  createStudyOfKind,
  flippedAnswer,
  researcherViews,
} from "./kind-driver.ts";
import { finishMulticlass, seededParticipant, walkToMulticlass } from "./multiclass-driver.ts";

/**
 * Issue 27 item 3: quadratic studies in the browser (the UAI 2022 quadratic metric of the
 * class rates), added as a kind through the registry. A participant who values what the
 * screen shows with a quadratic metric walks consent to debrief over HTTP (Phases I, II and
 * III); the debrief says which classes matter and what uneven results cost, and the same
 * figures are on the debrief page, the dashboard, participants.csv and study.json.
 */

/** A person who values a chart by a quadratic metric of its rates as shown (counts of 100). */
function quadraticReader(truth: QuadraticMetric, flips: number, seed: number) {
  const rng = createRng(`flips:${seed}`);
  const value = (v: MulticlassView) => evaluateQuadratic(truth, v.rates);
  return {
    value,
    answer: (first: MulticlassView, second: MulticlassView) =>
      flippedAnswer(value(first) - value(second), rng, flips),
  };
}

// Classes matter unequally (the second most) and an imbalance between the first two costs
// several people (not the truths and seeds the kind was tried on while it was built).
const TRUTH: QuadraticMetric = {
  a: [0.5, 0.7, 0.3],
  B: [
    [-2, 1.2, 0],
    [1.2, -2, 0],
    [0, 0, -0.3],
  ],
};

const pct = (x: number) => `${Math.round(x * 100)}%`;

describe("a quadratic metric's figures and words", () => {
  it("weights per case from the gradient at the centre, the costliest imbalance in whole people", () => {
    const o = [0.5, 0.5, 0.5];
    const even = quadraticFigures(
      {
        a: [1, 1, 1],
        B: [
          [-1, 0, 0],
          [0, -1, 0],
          [0, 0, -1],
        ],
      },
      o,
    );
    expect(even.classWeights.map((w) => w * 3)).toEqual(
      [1, 1, 1].map((x) => expect.closeTo(x, 12)),
    );
    // d = 0.1 (e_i - e_j): -1/2 d^T B d = 0.01, over the value of one more right in every
    // class, sum(a + B o) = 1.5: 0.667 people of 100.
    expect(even.imbalance).toMatchObject({ people: expect.closeTo(2 / 3, 12), even: true });
    expect(imbalanceSentence(even.imbalance, null, ["a", "b", "c"])).toMatch(
      /^Uneven results between classes cost you about the same between any two classes: 10 more right of 100 in one and 10 fewer in the other is as bad as 1 person fewer right of 100 in every class\.$/,
    );
    const strong = quadraticFigures(
      {
        a: [1, 1, 1],
        B: [
          [-8, 4, 0],
          [4, -8, 0],
          [0, 0, -1],
        ],
      },
      o,
    );
    // Pair (0, 1): -1/2 0.01 (-8 - 8 - 8) = 0.12 over sum(a + B o) = (1 - 2) * 2 + 0.5 < 0:
    // one more right everywhere has no positive value here, so nothing is stated.
    expect(strong.imbalance).toBeNull();
    const costly = quadraticFigures(
      {
        a: [4, 4, 4],
        B: [
          [-8, 4, 0],
          [4, -8, 0],
          [0, 0, -1],
        ],
      },
      o,
    );
    expect(costly.imbalance).toMatchObject({ first: 0, second: 1, even: false });
    expect(costly.imbalance!.people).toBeCloseTo((100 * 0.12) / (2 * 2 + 3.5), 12);
    expect(imbalanceSentence(costly.imbalance, { low: 1.1, high: 2.4 }, ["a", "b", "c"])).toBe(
      "Uneven results between classes cost you most between “a” and “b”: 10 more right of 100 in one and 10 fewer in the other is as bad as 2 people fewer right of 100 in every class (your answers allow between 1 and 2 people).",
    );
  });
});

describe("a quadratic study (sqlite)", () => {
  const app = appPerTest("sqlite");

  it("is refused with what to change: too many classes, another kind's family, a template", async () => {
    const { t, cookie } = app;
    const post = (body: Record<string, unknown>) => call(t, "POST", "/api/studies", body, cookie);
    const glass = await post({ name: "x", kind: "quadratic", dataset: "glass" });
    expect(glass.status).toBe(400);
    expect(JSON.stringify(glass.body)).toMatch(/a quadratic study shows 3 or 4/);
    const family = await post({ name: "x", kind: "quadratic", dataset: "iris", family: "linear" });
    expect(JSON.stringify(family.body)).toMatch(/a quadratic study elicits the quadratic family/);
    const other = await post({
      name: "x",
      kind: "multiclass",
      dataset: "iris",
      family: "quadratic",
    });
    expect(JSON.stringify(other.body)).toMatch(/quadratic needs kind: quadratic/);
    const template = await post({ name: "x", kind: "quadratic", template: "cancer-diagnosis" });
    expect(JSON.stringify(template.body)).toMatch(
      /a quadratic study is made from a bundled dataset/,
    );
    const groups = await post({ name: "x", kind: "quadratic", dataset: "iris", groups: "sex" });
    expect(JSON.stringify(groups.body)).toMatch(/groups applies only to fair studies/);
  });

  it("consent to debrief through Phases I, II and III: the figures equal on the debrief, dashboard, participants.csv and study.json", async () => {
    const { t, cookie } = app;
    const { study, config, configHash } = await createStudyOfKind<StudyConfig>(t, cookie, {
      name: "Flowers, evenly",
      kind: "quadratic",
      dataset: "iris",
    });
    expect(config.kind).toBe("quadratic");
    expect(config.spec.family).toBe("quadratic");
    expect(config.comprehension.views?.kind).toBe("multiclass");
    const data = quadraticStudyData(configHash, config);
    const { token, seed } = await seededParticipant(t, cookie, study.id, 7301);
    const reader = quadraticReader(TRUTH, 0, seed);

    // Phase I: the study's own two systems and questions about reading them.
    const first = (await call<ParticipantState>(t, "GET", `/api/p/${token}`)).body;
    expect(first.study.kind).toBe("multiclass");
    let s = await walkToMulticlass(t, token);
    expect(s.phase).toBe("elicitation");
    // Phase II: people per class, never a pair identical on screen.
    const run = await answerPairs(
      t,
      token,
      seed,
      s,
      (x) => x.multiclassElicitation!.question,
      reader,
    );
    for (const [l, r] of run.shown)
      expect(JSON.stringify(l.rates)).not.toBe(JSON.stringify(r.rates));
    s = run.state;
    expect(s.phase).toBe("evaluation");
    // Phase III by the same person, who now slips on about 1 answer in 5 (so M is below 1
    // and checking it against the answers means something).
    s = await finishMulticlass(t, token, s, {
      seed,
      reader: quadraticReader(TRUTH, 0.2, seed + 1),
    });
    expect(s.phase).toBe("debrief");
    const d = s.multiclassDebrief!;

    // Phase III measured: 15 random pairs and 2 repeats.
    expect(d.consistency?.basis).toBe("phase-three");
    expect(d.consistency?.retestPairs).toBe(2);
    expect(d.agreementDetail!.pairs).toBe(15);
    expect(d.agreement!).toBeLessThan(1);
    expect(d.agreement!).toBeGreaterThan(0.5);

    // The figures: the debrief's, the dashboard's, participants.csv's and study.json's.
    const { participants, dashboard, answers } = await researcherViews(t, cookie, study.id);

    // M against the answers: the elicited metric (study.json's weights) judges each random
    // Phase III pair on the counts shown (answers.csv); its share of agreement with the
    // person's own choices ("about the same" and metric ties left out) is the debrief's.
    const csvRow = participants.find((r) => r.completion_code === d.completionCode)!;
    const elicited = wToQuadratic(d.metric.weights, data.classNames.length);
    const rates = (json: string) => (JSON.parse(json) as number[][]).map((row, i) => row[i]! / 100);
    let counted = 0;
    let agree = 0;
    for (const a of answers) {
      if (a.participant_id !== csvRow.participant_id || a.phase !== "evaluation") continue;
      if (a.stage !== "evaluation" || a.answer === "tie") continue;
      const v =
        evaluateQuadratic(elicited, rates(a.first_counts!)) -
        evaluateQuadratic(elicited, rates(a.second_counts!));
      if (Math.abs(v) < 1e-12) continue;
      counted++;
      if (v > 0 === (a.answer === "first")) agree++;
    }
    expect(counted).toBeGreaterThan(10);
    expect(d.agreement).toBeCloseTo(agree / counted, 12);
    const csv = participants.find((r) => r.completion_code === d.completionCode)!;
    const row = dashboard.find((r) => r.completionCode === d.completionCode)! as unknown as {
      classWeights: number[];
      classRanges: { low: number; high: number }[];
      kindFigures: { values: Record<string, number>; text: string };
    };
    const json = (
      await call(t, "GET", `/api/studies/${study.id}/export/study.json`, undefined, cookie)
    ).body as {
      participants: {
        summary: { completionCode: string; classWeights: number[]; kindFigures: unknown };
      }[];
    };
    const mine = json.participants.find((p) => p.summary.completionCode === d.completionCode)!;
    expect(row.classWeights).toEqual(d.classWeights);
    expect(row.classRanges).toEqual(d.classRanges);
    expect(row.kindFigures).toEqual(d.kindFigures);
    expect(mine.summary.classWeights).toEqual(d.classWeights);
    expect(mine.summary.kindFigures).toEqual(d.kindFigures);
    for (const [i, w] of d.classWeights.entries()) {
      expect(Number(csv[`class_weight_${i + 1}`])).toBeCloseTo(w, 12);
      expect(Number(csv[`class_weight_${i + 1}_low`])).toBeCloseTo(d.classRanges![i]!.low, 12);
      expect(Number(csv[`class_weight_${i + 1}_high`])).toBeCloseTo(d.classRanges![i]!.high, 12);
    }
    const v = d.kindFigures!.values;
    expect(Number(csv.imbalance_cost)).toBeCloseTo(v.imbalanceCost!, 12);
    expect(Number(csv.imbalance_first)).toBe(v.imbalanceFirst);
    expect(Number(csv.imbalance_second)).toBe(v.imbalanceSecond);
    // The page states them: each class's share, the pair and the whole people it costs.
    const page = render(
      h(PhasePage, { state: s, busy: false, post: async () => undefined }),
    ).replace(/<[^>]+>/g, "");
    for (const [i, w] of d.classWeights.entries())
      expect(page).toContain(`“${data.classNames[i]}” (${pct(w)})`);
    const names = [v.imbalanceFirst!, v.imbalanceSecond!].map((c) => `“${data.classNames[c - 1]}”`);
    expect(page).toContain(`between ${names[0]} and ${names[1]}`);
    expect(page).toContain(d.kindFigures!.text);

    // Right for the person who answered by it: the truth's own figures lie in the ranges
    // stated, and uneven results cost most between the truth's pair.
    const own = quadraticFigures(TRUTH, data.sphere.centre);
    for (const [i, w] of own.classWeights.entries()) {
      expect(w).toBeGreaterThanOrEqual(d.classRanges![i]!.low);
      expect(w).toBeLessThanOrEqual(d.classRanges![i]!.high);
    }
    expect([v.imbalanceFirst! - 1, v.imbalanceSecond! - 1]).toEqual([
      own.imbalance!.first,
      own.imbalance!.second,
    ]);
    expect(own.imbalance!.people).toBeGreaterThanOrEqual(v.imbalanceLow!);
    expect(own.imbalance!.people).toBeLessThanOrEqual(v.imbalanceHigh!);
  }, 240_000);

  it("a coin: nothing measured, every range the whole of it, equal on the debrief, dashboard and participants.csv", async () => {
    const { t, cookie } = app;
    const { study } = await createStudyOfKind<StudyConfig>(t, cookie, {
      name: "Flowers, a coin",
      kind: "quadratic",
      dataset: "iris",
    });
    // Seed fixed so the test repeats; this coin's Phase III is taken for a coin's (checked).
    const { token, seed } = await seededParticipant(t, cookie, study.id, 7302);
    const rng = createRng(`coin:${seed}`);
    const coin = { answer: (): "first" | "second" => (rng.next() < 0.5 ? "first" : "second") };
    let s = await walkToMulticlass(t, token);
    s = (await answerPairs(t, token, seed, s, (x) => x.multiclassElicitation!.question, coin))
      .state;
    s = await finishMulticlass(t, token, s, { seed, reader: coin });
    const d = s.multiclassDebrief!;
    expect(d.consistency!.coinLike).toBe(true);
    expect(d.summary.startsWith(UNMEASURED_SENTENCE)).toBe(true);
    // Every class's range is finite and wide: the prior's draws and corners, not the belief.
    for (const r of d.classRanges!) {
      expect(Number.isFinite(r.low) && Number.isFinite(r.high)).toBe(true);
      expect(r.low).toBeGreaterThanOrEqual(0);
      expect(r.high).toBeLessThanOrEqual(1);
      expect(r.high - r.low).toBeGreaterThan(0.5);
    }
    expect(d.halfWidths.every((h) => h !== null)).toBe(true);
    const { participants, dashboard } = await researcherViews(t, cookie, study.id);
    const csv = participants.find((r) => r.completion_code === d.completionCode)!;
    const row = dashboard.find((r) => r.completionCode === d.completionCode)! as unknown as {
      classRanges: { low: number; high: number }[];
      kindFigures: unknown;
    };
    expect(row.classRanges).toEqual(d.classRanges);
    expect(row.kindFigures).toEqual(d.kindFigures);
    for (const [i, r] of d.classRanges!.entries()) {
      expect(Number(csv[`class_weight_${i + 1}_low`])).toBeCloseTo(r.low, 12);
      expect(Number(csv[`class_weight_${i + 1}_high`])).toBeCloseTo(r.high, 12);
    }
    expect(csv.coin_like).toBe("1");
    expect(csv.credible_level).toBe("1");
    expect(Number.isFinite(Number(csv.credible_radius))).toBe(true);
    const page = render(
      h(PhasePage, { state: s, busy: false, post: async () => undefined }),
    ).replace(/<[^>]+>/g, "");
    expect(page).toContain(UNMEASURED_SENTENCE);
  }, 240_000);
});
