// Phase III of the adaptive study kinds (multiclass and fairness): the study's random
// trade-offs with repeats of Phase II pairs among them, the points of a stored answer, and the
// agreement M of the elicited result with the participant's own Phase III answers.

import type { AdaptiveResult } from "../../elicit/adaptive/engine.ts";
import type { AdaptiveFamily } from "../../elicit/adaptive/family.ts";
import {
  judgePair,
  randomTradeOffs,
  type TradeOff,
  unmeasuredReading,
} from "../../elicit/adaptive/phase-three.ts";
import { type Consistency, modelConsistency } from "./consistency.ts";
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

/**
 * What the debrief says first when a participant's answers could have come from a coin (their
 * result is then `unmeasuredReading`: every value in range).
 */
export const UNMEASURED_SENTENCE =
  "Your answers could have come from tossing a coin, so this study could not measure your view: every value is in your range, and the figures shown are only where your first answers point.";

/**
 * The result every page and file states for an adaptive participant: the engine's, or, when
 * their answers could have come from a coin (`consistency.coinLike`), nothing measured
 * (`unmeasuredReading`: the whole space around the same estimate, from prior draws seeded by
 * the participant's seed).
 * @example statedAdaptive(family, result, consistency, ctx.participant.seed).credible.level // 1 for a coin
 */
export function statedAdaptive<R extends AdaptiveResult<AdaptiveKindPoint, unknown>>(
  family: KindFamily,
  result: R,
  consistency: Pick<Consistency, "coinLike"> | null | undefined,
  seed: number,
): R {
  return consistency?.coinLike ? unmeasuredReading(result, family, seed) : result;
}

/**
 * A debrief's summary in words, with `UNMEASURED_SENTENCE` first when the answers could have
 * come from a coin.
 * @example unmeasuredSummary("You weigh ...", { coinLike: true }) // "Your answers could have come from tossing a coin, ... You weigh ..."
 */
export function unmeasuredSummary(
  summary: string,
  consistency: Pick<Consistency, "coinLike"> | null | undefined,
): string {
  return consistency?.coinLike ? `${UNMEASURED_SENTENCE} ${summary}` : summary;
}

/**
 * A multiclass, fairness or quadratic participant's result as every page and file states it,
 * with their Phase III fields (`adaptiveKindFields`, from the engine's result): the engine's,
 * or nothing measured when their answers could have come from a coin (`statedAdaptive`).
 * @example statedKind(family, pos, engine, ctx.participant.seed).fields.consistency
 */
export function statedKind<R extends AdaptiveResult<AdaptiveKindPoint, unknown>>(
  family: KindFamily,
  pos: Pick<Position, "pairs" | "elicitationRows" | "evaluationRows">,
  engine: R,
  seed: number,
) {
  const fields = adaptiveKindFields(family, pos, engine);
  return { result: statedAdaptive(family, engine, fields.consistency, seed), fields };
}
