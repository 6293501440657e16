import { expect } from "vitest";
import { type FairMetric, fairCost } from "../../src/elicit/fair/metric.ts";
import { createRng } from "../../src/math/rng.ts";
import type { Answer } from "../../src/search/question.ts";
import type { FairView, ParticipantState } from "../../src/server/api-schemas.ts";
import { placementOf } from "../../src/server/participant/elicitation.ts";
import type { FairLambdaSpec, StudyConfig } from "../../src/server/study/config.ts";
import { fairStudyData } from "../../src/server/study/fair.ts";
import { call, type TestApp } from "./helpers.ts";

/**
 * A simulated participant of a fairness study: the study's known costs `a` and violation
 * weights `B` with a true trade-off `lambda`, reading each system off the screen (every
 * group's correct counts out of 100, so rates `counts / 100`) and preferring the lower fair
 * cost; each answer flipped with probability `flips` (a seeded coin).
 */
export function fairReader(
  spec: FairLambdaSpec,
  tau: readonly (readonly number[])[],
  lambda: number,
  flips: number,
  seed: number,
) {
  const rng = createRng(`flips:${seed}`);
  const truth: FairMetric = {
    a: [...spec.known.a],
    B: Object.fromEntries(Object.entries(spec.known.B).map(([k, M]) => [k, M.map((r) => [...r])])),
    lambda,
  };
  const cost = (v: FairView) =>
    fairCost(
      truth,
      tau,
      v.counts.map((row) => row.map((c) => c / 100)),
    );
  return {
    cost,
    answer(first: FairView, second: FairView): Answer {
      const d = cost(second) - cost(first);
      let a: Answer = Math.abs(d) < 1e-12 ? "tie" : d > 0 ? "first" : "second";
      if (a !== "tie" && rng.next() < flips) a = a === "first" ? "second" : "first";
      return a;
    },
  };
}

/** A random true lambda in [0.05, 0.95] (seeded). */
export function randomLambda(seed: number): number {
  return 0.05 + 0.9 * createRng(`lambda:${seed}`).next();
}

/** Create a fairness study (arrests by colour unless `extra` says otherwise). */
export async function createFair(t: TestApp, cookie: string, extra: Record<string, unknown> = {}) {
  const r = await call(
    t,
    "POST",
    "/api/studies",
    { name: "Release decisions", kind: "fair", ...extra },
    cookie,
  );
  if (r.status !== 200)
    throw new Error(`creating the study: ${r.status} ${JSON.stringify(r.body)}`);
  const study = r.body.study as { id: number; configHash: string } & Record<string, unknown>;
  const row = await t.db
    .selectFrom("studies")
    .select(["config", "config_hash"])
    .where("id", "=", study.id)
    .executeTakeFirstOrThrow();
  const config = JSON.parse(row.config) as StudyConfig<FairLambdaSpec>;
  const data = fairStudyData(row.config_hash, config);
  return { study, config, data };
}

/** Answer Phase II of a fairness study over HTTP as `reader` (left/right by the placement). */
export async function answerFair(
  t: TestApp,
  token: string,
  seed: number,
  s: ParticipantState,
  reader: ReturnType<typeof fairReader>,
  stopAfter = Number.POSITIVE_INFINITY,
) {
  let asked = 0;
  const shown: [FairView, FairView][] = [];
  while (s.phase === "elicitation" && asked < stopAfter) {
    const q = s.fairElicitation!.question;
    shown.push([q.left, q.right]);
    const placement = placementOf(seed, "elicitation", q.id);
    const [first, second] = placement === "first-left" ? [q.left, q.right] : [q.right, q.left];
    const a = reader.answer(first, second);
    const choice =
      a === "tie" ? "same" : (a === "first") === (placement === "first-left") ? "left" : "right";
    const r = await call<ParticipantState>(t, "POST", `/api/p/${token}/answer`, {
      questionId: q.id,
      choice,
    });
    expect(r.status).toBe(200);
    expect(r.body.duplicate).toBeUndefined();
    s = r.body;
    asked++;
  }
  return { asked, shown, state: s };
}
