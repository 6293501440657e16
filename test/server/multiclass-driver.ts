import { expect } from "vitest";
import { adaptiveProcedure } from "../../src/elicit/adaptive/engine.ts";
import { multiclassLinearFamily } from "../../src/elicit/adaptive/families/multiclass.ts";
import type { MulticlassPoint } from "../../src/elicit/multiclass/point.ts";
import { runProcedure } from "../../src/elicit/session.ts";
import type { MulticlassPool } from "../../src/geometry/multiclass/pool.ts";
import { createRng } from "../../src/math/rng.ts";
import type { Answer } from "../../src/search/question.ts";
import type { MulticlassView, ParticipantState } from "../../src/server/api-schemas.ts";
import { multiclassStudyData } from "../../src/server/kinds/multiclass/data.ts";
import { multiclassView, shownConfusion } from "../../src/server/kinds/multiclass/participant.ts";
import { sha256 } from "../../src/server/security/tokens.ts";
import type { MulticlassAdaptiveSpec, StudyConfig } from "../../src/server/study/config.ts";
import { answersFor } from "./driver.ts";
import { call, type TestApp, tokenOf } from "./helpers.ts";
import { answerPairs, answerPhase, createStudyOfKind, flippedAnswer } from "./kind-driver.ts";

/**
 * A simulated participant of a multiclass study: a true diagonal-linear metric `a` (the
 * engine's normalisation, weights on the joint diagonal confusions summing to 1) read off
 * the screen. Each row of a chart shows 100 people of a class, so the participant values a
 * system at `sum_i a_i p_i counts[i][i] / 100` (p_i the class's share of the pool), and
 * flips each answer with probability `flips` (a seeded coin).
 */
export function screenReader(
  truth: readonly number[],
  priors: ArrayLike<number>,
  flips: number,
  seed: number,
) {
  const rng = createRng(`flips:${seed}`);
  const value = (v: MulticlassView) =>
    truth.reduce((s, a, i) => s + (a * priors[i]! * v.counts[i]![i]!) / 100, 0);
  return {
    value,
    /** The engine's answer for (first, second) as the participant gives it. */
    answer(first: MulticlassView, second: MulticlassView): Answer {
      return flippedAnswer(value(first) - value(second), rng, flips);
    },
  };
}

/** A random true metric (uniform weights normalised to sum 1, as the CLI draws them). */
export function randomTruth(k: number, seed: number): number[] {
  const rng = createRng(`truth:${seed}`);
  const a = Array.from({ length: k }, () => rng.next() + 1e-3);
  const s = a.reduce((x, y) => x + y, 0);
  return a.map((x) => x / s);
}

/** Create a multiclass study over a bundled dataset; its id, stored config and pool. */
export async function createMulticlass(
  t: TestApp,
  cookie: string,
  extra: Record<string, unknown> = {},
) {
  const { study, config, configHash } = await createStudyOfKind<
    StudyConfig<MulticlassAdaptiveSpec>
  >(t, cookie, { name: "Flowers", kind: "multiclass", dataset: "iris", ...extra });
  const data = multiclassStudyData(configHash, config);
  return { study, config, data };
}

/** A test-run participant with its random seed replaced by `seed` (a repeatable test). */
export async function seededParticipant(t: TestApp, cookie: string, studyId: number, seed: number) {
  const link = await call(t, "POST", `/api/studies/${studyId}/test-run`, {}, cookie);
  if (link.status !== 200) throw new Error(`test run: ${link.status}`);
  const token = tokenOf(link.body.link);
  await t.db
    .updateTable("participants")
    .set({ seed })
    .where("token_hash", "=", sha256(token))
    .execute();
  const p = await t.db
    .selectFrom("participants")
    .select(["id"])
    .where("token_hash", "=", sha256(token))
    .executeTakeFirstOrThrow();
  return { token, id: p.id, seed };
}

/**
 * Consent, questionnaire, story and Part 1 (each comprehension question answered with its
 * options in turn until right or out of tries): a multiclass or fairness study then is at
 * Phase II.
 */
export async function walkToMulticlass(t: TestApp, token: string): Promise<ParticipantState> {
  const base = `/api/p/${token}`;
  let s = (await call<ParticipantState>(t, "GET", base)).body;
  expect(s.phase).toBe("consent");
  s = (await call(t, "POST", `${base}/consent`, { agree: true })).body;
  s = (
    await call(t, "POST", `${base}/questionnaire`, { answers: answersFor(s.questionnaire!.fields) })
  ).body;
  s = (await call(t, "POST", `${base}/story`, {})).body;
  for (let tries = 0; s.phase === "comprehension" && tries < 50; tries++) {
    const c = s.comprehension!;
    const r = await call(t, "POST", `${base}/comprehension`, {
      questionId: c.question.id,
      // The study allows 3 tries: the first, second and third option in turn.
      answer: c.question.options[(3 - c.attemptsLeft) % c.question.options.length]!,
    });
    expect(r.status).toBe(200);
    s = r.body.state;
  }
  return s;
}

/** Answer Phase II over HTTP as `reader`, mapping left/right back with the placement. */
export function answerMulticlass(
  t: TestApp,
  token: string,
  seed: number,
  s: ParticipantState,
  reader: ReturnType<typeof screenReader>,
  stopAfter = Number.POSITIVE_INFINITY,
) {
  return answerPairs(
    t,
    token,
    seed,
    s,
    (s) => s.multiclassElicitation!.question,
    reader,
    stopAfter,
  );
}

/**
 * Finish a multiclass or fairness participant: Phase III answered by `reader` (placement
 * by `seed`) when the study has one, then the post-task questions, then the debrief.
 */
export async function finishMulticlass(
  t: TestApp,
  token: string,
  s: ParticipantState,
  // A multiclass reader reads MulticlassViews, a fairness one FairViews: each gets its kind's.
  // biome-ignore lint/suspicious/noExplicitAny: either kind's view
  phaseThree?: { seed: number; reader: { answer(a: any, b: any): Answer } },
) {
  if (phaseThree && s.phase === "evaluation") {
    s = (
      await answerPhase(
        "evaluation",
        t,
        token,
        phaseThree.seed,
        s,
        (x) => (x.multiclassEvaluation ?? x.fairEvaluation)!.question,
        phaseThree.reader,
      )
    ).state;
  }
  expect(s.phase).toBe("post");
  return (
    await call<ParticipantState>(t, "POST", `/api/p/${token}/post`, {
      answers: answersFor(s.post!.fields),
    })
  ).body;
}

/**
 * The engine run the study should reproduce, built here as `elicit simulate` builds it (the
 * family over the pool with the stored options, on the counts shown as the study's engine
 * computes, and the participant's seed), with the
 * screen's rule applied by the oracle: a pair with the same correct counts is a tie, unshown.
 */
export function engineRun(
  pool: MulticlassPool,
  spec: MulticlassAdaptiveSpec,
  seed: number,
  reader: ReturnType<typeof screenReader>,
) {
  const family = multiclassLinearFamily("diagonal-linear", pool, {
    displayStep: spec.displayStep,
    ...(spec.asShown ? { shown: (p: MulticlassPoint) => shownConfusion(pool, p) } : {}),
  });
  const procedure = adaptiveProcedure(family, {
    tolerance: spec.tolerance,
    budget: spec.budget,
    credibility: spec.credibility,
    model: spec.model,
    seed,
  });
  let shown = 0;
  const diag = (v: MulticlassView) => v.counts.map((r, i) => r[i]).join(",");
  const transcript = runProcedure(
    procedure,
    (q: { first: MulticlassPoint; second: MulticlassPoint }) => {
      const f = multiclassView(pool, q.first.classifier);
      const g = multiclassView(pool, q.second.classifier);
      if (diag(f) === diag(g)) return "tie";
      shown++;
      return reader.answer(f, g);
    },
  );
  return { transcript, shown };
}

/** The honest-number rules of a shown pair: whole counts, 100 per row, rates of the counts. */
export function expectHonestPair(left: MulticlassView, right: MulticlassView, k: number) {
  for (const v of [left, right]) {
    expect(v.counts).toHaveLength(k);
    v.counts.forEach((row, i) => {
      expect(row).toHaveLength(k);
      for (const c of row) expect(Number.isInteger(c) && c >= 0).toBe(true);
      expect(row.reduce((x, y) => x + y, 0)).toBe(100);
      expect(v.rates[i]).toBe(row[i]! / 100);
    });
  }
  const diag = (v: MulticlassView) => v.counts.map((r, i) => r[i]).join(",");
  expect(diag(left)).not.toBe(diag(right));
}
