import { type FairMetric, fairCost } from "../../src/elicit/fair/metric.ts";
import { createRng } from "../../src/math/rng.ts";
import type { Answer } from "../../src/search/question.ts";
import type { FairView, ParticipantState } from "../../src/server/api-schemas.ts";
import { fairStudyData } from "../../src/server/kinds/fair/study.ts";
import type { FairLambdaSpec, StudyConfig } from "../../src/server/study/config.ts";
import type { TestApp } from "./helpers.ts";
import { answerPairs, createStudyOfKind, flippedAnswer } from "./kind-driver.ts";

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
  const truth: FairMetric = {
    a: [...spec.known.a],
    B: Object.fromEntries(Object.entries(spec.known.B).map(([k, M]) => [k, M.map((r) => [...r])])),
    lambda,
  };
  return fairMetricReader(truth, tau, flips, seed);
}

/**
 * A simulated participant with a whole fair metric `truth` (a fair-quadratic study's): reads
 * each system off the screen as `fairReader` does and prefers the lower fair cost.
 */
export function fairMetricReader(
  truth: FairMetric,
  tau: readonly (readonly number[])[],
  flips: number,
  seed: number,
) {
  const rng = createRng(`flips:${seed}`);
  const cost = (v: FairView) =>
    fairCost(
      truth,
      tau,
      v.counts.map((row) => row.map((c) => c / 100)),
    );
  return {
    cost,
    answer(first: FairView, second: FairView): Answer {
      return flippedAnswer(cost(second) - cost(first), rng, flips);
    },
  };
}

/** A random true lambda in [0.05, 0.95] (seeded). */
export function randomLambda(seed: number): number {
  return 0.05 + 0.9 * createRng(`lambda:${seed}`).next();
}

/** Create a fairness study (arrests by colour unless `extra` says otherwise). */
export async function createFair(t: TestApp, cookie: string, extra: Record<string, unknown> = {}) {
  const { study, config, configHash } = await createStudyOfKind<StudyConfig<FairLambdaSpec>>(
    t,
    cookie,
    { name: "Release decisions", kind: "fair", ...extra },
  );
  const data = fairStudyData(configHash, config);
  return { study, config, data };
}

/** Answer Phase II of a fairness study over HTTP as `reader` (left/right by the placement). */
export function answerFair(
  t: TestApp,
  token: string,
  seed: number,
  s: ParticipantState,
  reader: ReturnType<typeof fairReader>,
  stopAfter = Number.POSITIVE_INFINITY,
) {
  return answerPairs(t, token, seed, s, (s) => s.fairElicitation!.question, reader, stopAfter);
}
