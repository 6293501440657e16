// Phase III of the adaptive study kinds (multiclass and fairness): the study's random
// trade-offs with repeats of Phase II pairs among them, the points of a stored answer, and the
// agreement M of the elicited result with the participant's own Phase III answers.

import type { AdaptiveResult } from "../../elicit/adaptive/engine.ts";
import type { AdaptiveFamily } from "../../elicit/adaptive/family.ts";
import { judgePair, randomTradeOffs, type TradeOff } from "../../elicit/adaptive/phase-three.ts";
import { modelConsistency } from "./consistency.ts";
import {
  type AgreementReport,
  countAgreement,
  isRetest,
  type JudgedAnswer,
  type PhaseThreePair,
  withRetests,
} from "./evaluation-pairs.ts";
import { type Context, type LogRow, type Position, phaseThreeFields } from "./service.ts";

/** A point of a study kind run by the adaptive engine (only its kind reads it). */
export type AdaptiveKindPoint = object;

export type KindFamily = AdaptiveFamily<AdaptiveKindPoint, unknown>;

const families = new Map<string, KindFamily>();

/**
 * The adaptive family a multiclass or fairness study's engine runs on, built once per study
 * configuration by `build` (the kind's own).
 * @example cachedFamily(ctx, () => multiclassStudyFamily(spec, pool)).features(point)
 */
export function cachedFamily<P extends AdaptiveKindPoint, M>(
  ctx: Pick<Context, "configHash">,
  build: () => AdaptiveFamily<P, M>,
): KindFamily {
  let f = families.get(ctx.configHash);
  if (!f) {
    f = build() as unknown as KindFamily;
    if (families.size > 64) families.clear();
    families.set(ctx.configHash, f);
  }
  return f;
}

const pairCache = new Map<string, TradeOff<AdaptiveKindPoint>[]>();

/**
 * A participant's Phase III of a multiclass or fairness study: the study's `evaluationPairs`
 * random trade-offs drawn with the participant's seed (`randomTradeOffs`), with
 * `retestPairs` of their Phase II pairs repeated among them (`withRetests`).
 * @example adaptivePhaseThree(ctx, family, elicitationRows).length // 12
 */
export function adaptivePhaseThree(
  ctx: Pick<Context, "config" | "configHash" | "participant">,
  family: KindFamily,
  elicitationRows: readonly Pick<LogRow, "id" | "answer">[],
): PhaseThreePair<TradeOff<AdaptiveKindPoint>>[] {
  const count = ctx.config.evaluationPairs;
  if (count <= 0) return [];
  const seed = ctx.participant.seed;
  const key = `${ctx.configHash}|${count}|${seed}`;
  let pairs = pairCache.get(key);
  if (!pairs) {
    pairs = randomTradeOffs(family, count, seed);
    if (pairCache.size > 10_000) pairCache.clear();
    pairCache.set(key, pairs);
  }
  return withRetests(pairs, elicitationRows, ctx.config.retestPairs ?? 0, seed);
}

/**
 * Agreement M both ways of a multiclass or fairness participant (see `AgreementReport`): each
 * answered random pair judged by the result's belief (`judgePair`: the elicited metric's
 * preference, and whether the Phase II answers already decide it); the repeats of Phase II
 * pairs are left out (they are the retest part of the consistency). `rows` are the effective
 * Phase III rows in order, `pairs` the participant's Phase III.
 * @example adaptiveAgreement(family, result, pos.pairs, pos.evaluationRows).all // 0.9
 */
export function adaptiveAgreement(
  family: KindFamily,
  result: Pick<AdaptiveResult<AdaptiveKindPoint, unknown>, "posterior" | "credible">,
  pairs: readonly PhaseThreePair<TradeOff<AdaptiveKindPoint>>[],
  rows: readonly Pick<LogRow, "answer">[],
): AgreementReport {
  const judged: JudgedAnswer[] = [];
  for (const [i, row] of rows.entries()) {
    const pair = pairs[i];
    if (!pair || isRetest(pair)) continue;
    const j = judgePair(family, result, pair.first, pair.second);
    judged.push({ answer: row.answer, metric: j.metric, decided: j.decided });
  }
  return countAgreement(judged);
}

/**
 * The consistency and agreement of a multiclass or fairness participant: from Phase III (M
 * both ways over its random pairs, the repeats' sameness) once it is answered, else from the
 * learned answer model (null: a fixed model; no agreement).
 * @example adaptiveKindFields(family, pos, result).consistency?.errorRate
 */
export function adaptiveKindFields(
  family: KindFamily,
  pos: Pick<Position, "pairs" | "elicitationRows" | "evaluationRows">,
  result: Pick<AdaptiveResult<AdaptiveKindPoint, unknown>, "posterior" | "credible" | "person">,
) {
  if (pos.pairs.length === 0 || pos.evaluationRows.length === 0)
    return { consistency: modelConsistency(result.person) };
  return phaseThreeFields(
    pos,
    adaptiveAgreement(
      family,
      result,
      pos.pairs as PhaseThreePair<TradeOff<AdaptiveKindPoint>>[],
      pos.evaluationRows,
    ),
    result.person,
  );
}
