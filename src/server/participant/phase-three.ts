// Phase III of the adaptive study kinds (multiclass and fairness): the study's random
// trade-offs with repeats of Phase II pairs among them, the points of a stored answer, and the
// agreement M of the elicited result with the participant's own Phase III answers.

import type { AdaptiveResult } from "../../elicit/adaptive/engine.ts";
import type { AdaptiveFamily } from "../../elicit/adaptive/family.ts";
import { judgePair, randomTradeOffs, type TradeOff } from "../../elicit/adaptive/phase-three.ts";
import type { FairPoint } from "../../elicit/fair/metric.ts";
import type { MulticlassPoint } from "../../elicit/multiclass/point.ts";
import { isMulticlassSpec } from "../study/config.ts";
import {
  type AgreementReport,
  countAgreement,
  isRetest,
  type JudgedAnswer,
  type PhaseThreePair,
  withRetests,
} from "./evaluation-pairs.ts";
import { fairStudyFamily } from "./fair.ts";
import { fairOf, isFair } from "./fair-state.ts";
import { multiclassStudyFamily } from "./multiclass.ts";
import type { Context, LogRow } from "./service.ts";

/** A point of a multiclass or fairness study. */
export type AdaptiveKindPoint = MulticlassPoint | FairPoint;

type KindFamily = AdaptiveFamily<AdaptiveKindPoint, unknown>;

/** Whether a study's Phase III is the adaptive kinds' (multiclass or fairness). */
export function hasAdaptiveKind(ctx: Pick<Context, "config">): boolean {
  return ctx.config.kind === "multiclass" || isFair(ctx);
}

const families = new Map<string, KindFamily>();

/**
 * The adaptive family a multiclass or fairness study's engine runs on (on the values shown,
 * when the study computes on them), built once per study configuration.
 * @example studyFamily(ctx).features(point)
 */
export function studyFamily(ctx: Pick<Context, "config" | "data" | "configHash">): KindFamily {
  let f = families.get(ctx.configHash);
  if (!f) {
    const spec = ctx.config.spec;
    if (isFair(ctx)) {
      const { data, spec: fair } = fairOf(ctx);
      f = fairStudyFamily(fair, data) as KindFamily;
    } else if (ctx.config.kind === "multiclass" && isMulticlassSpec(spec)) {
      const data = ctx.data as { pool: Parameters<typeof multiclassStudyFamily>[1] };
      f = multiclassStudyFamily(spec, data.pool) as KindFamily;
    } else throw new Error(`a ${ctx.config.kind} study has no adaptive family`);
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
 * @example adaptivePhaseThree(ctx, elicitationRows).length // 12
 */
export function adaptivePhaseThree(
  ctx: Pick<Context, "config" | "data" | "configHash" | "participant">,
  elicitationRows: readonly Pick<LogRow, "id" | "answer">[],
): PhaseThreePair<TradeOff<AdaptiveKindPoint>>[] {
  const count = ctx.config.evaluationPairs;
  if (count <= 0) return [];
  const seed = ctx.participant.seed;
  const key = `${ctx.configHash}|${count}|${seed}`;
  let pairs = pairCache.get(key);
  if (!pairs) {
    pairs = randomTradeOffs(studyFamily(ctx), count, seed);
    if (pairCache.size > 10_000) pairCache.clear();
    pairCache.set(key, pairs);
  }
  return withRetests(pairs, elicitationRows, ctx.config.retestPairs ?? 0, seed);
}

/**
 * A point of a multiclass or fairness answer row (`first_point`, `second_point`) as the
 * engine's point, for showing a Phase II pair again.
 * @example storedPoint(ctx, row.first_point)
 */
export function storedPoint(ctx: Pick<Context, "config">, json: string): AdaptiveKindPoint {
  const raw = JSON.parse(json) as Record<string, unknown>;
  if (isFair(ctx)) {
    const rates = raw.rates as number[][];
    return { rates: rates.map((r) => Float64Array.from(r)) };
  }
  return {
    point: Float64Array.from(raw.point as number[]),
    classifier: raw.classifier as MulticlassPoint["classifier"],
  };
}

/**
 * Agreement M both ways of a multiclass or fairness participant (see `AgreementReport`): each
 * answered random pair judged by the result's belief (`judgePair`: the elicited metric's
 * preference, and whether the Phase II answers already decide it); the repeats of Phase II
 * pairs are left out (they are the retest part of the consistency). `rows` are the effective
 * Phase III rows in order, `pairs` the participant's Phase III.
 * @example adaptiveAgreement(ctx, result, pos.pairs, pos.evaluationRows).all // 0.9
 */
export function adaptiveAgreement(
  ctx: Pick<Context, "config" | "data" | "configHash">,
  result: Pick<AdaptiveResult<AdaptiveKindPoint, unknown>, "posterior" | "credible">,
  pairs: readonly PhaseThreePair<TradeOff<AdaptiveKindPoint>>[],
  rows: readonly Pick<LogRow, "answer">[],
): AgreementReport {
  const family = studyFamily(ctx);
  const judged: JudgedAnswer[] = [];
  for (const [i, row] of rows.entries()) {
    const pair = pairs[i];
    if (!pair || isRetest(pair)) continue;
    const j = judgePair(family, result, pair.first, pair.second);
    judged.push({ answer: row.answer, metric: j.metric, decided: j.decided });
  }
  return countAgreement(judged);
}
