import type { FairPoint } from "../../../elicit/fair/metric.ts";
import type { ParticipantState } from "../../api-schemas.ts";
import { placementOf } from "../../participant/elicitation.ts";
import type { Context } from "../../participant/service.ts";
import type { FairSpec } from "../../study/config.ts";
import {
  accuracyForGap,
  type FairStudyResult,
  fairDebriefSentence,
  fairMetricRecord,
  fairView,
  fullFairSentence,
  replayFair,
} from "./participant.ts";
import { isFairSpec } from "./spec.ts";
import type { FairStudyData } from "./study.ts";

/** The pool and spec of a fairness study. */
export function fairOf(ctx: Pick<Context, "config" | "data">): {
  data: FairStudyData;
  spec: FairSpec;
} {
  const spec = ctx.config.spec;
  if (!isFairSpec(spec)) throw new Error("not a fairness study");
  return { data: ctx.data as FairStudyData, spec };
}

/** Phase II of a fairness study: the replayed state and the budget left (as multiclass). */
export function fairPosition(ctx: Context, answers: Parameters<typeof replayFair>[4]) {
  const { data, spec } = fairOf(ctx);
  const state = replayFair(ctx.configHash, spec, data, ctx.participant.seed, answers);
  return {
    state,
    estimatedRemaining: state.status === "done" ? 0 : spec.budget - answers.length,
    atMost: spec.budget,
  };
}

/** The pending fairness question as the browser sees it (left/right by the seed). */
export function fairElicitation(
  ctx: Context,
  q: { index: number; first: FairPoint; second: FairPoint; left?: "first" | "second" },
  estimatedRemaining: number,
  atMost: number,
): NonNullable<ParticipantState["fairElicitation"]> {
  return {
    question: fairComparison(ctx, "elicitation", q.index, q.first, q.second, q.left),
    progress: { answered: q.index, estimatedRemaining, atMost },
    canUndo: q.index > 0,
  };
}

/**
 * A fairness pair as the browser sees it: each system's view, left and right by the
 * participant's seed for the phase and question.
 * @example fairComparison(ctx, "evaluation", 3, first, second).left.counts
 */
export function fairComparison(
  ctx: Pick<Context, "config" | "data" | "participant">,
  phase: "elicitation" | "evaluation",
  index: number,
  first: FairPoint,
  second: FairPoint,
  /** The engine's placement of an adaptive question (else the seed's). */
  firstSide?: "first" | "second",
): NonNullable<ParticipantState["fairElicitation"]>["question"] {
  const { data } = fairOf(ctx);
  const placement = placementOf(ctx.participant.seed, phase, index, firstSide);
  const [left, right] = placement === "first-left" ? [first, second] : [second, first];
  return {
    kind: "fair",
    id: index,
    classes: [...data.classNames],
    groups: [...data.groupNames],
    left: fairView(data, left),
    right: fairView(data, right),
  };
}

/**
 * The fairness debrief: lambda as a range, and in words; for the whole metric also which
 * mistakes and which gaps matter most (with the costs and gap weights the engine found and
 * what it left open).
 */
export function fairDebrief(
  ctx: Context,
  result: FairStudyResult,
): NonNullable<ParticipantState["fairDebrief"]> {
  const { data, spec } = fairOf(ctx);
  const rec = fairMetricRecord(result, spec);
  const { lambda, low, high } = rec;
  const full = spec.family === "fair-quadratic";
  // The lambda family states the study's known a and B; the whole metric the elicited ones.
  const { a, B } = full ? result.metric : spec.known;
  const worth = accuracyForGap(lambda, a, B);
  const lambdaText = fairDebriefSentence(rec, worth, data.groupNames);
  return {
    summary: full
      ? `${lambdaText} ${fullFairSentence(result.metric, result.unidentified, data.classNames)}`
      : lambdaText,
    metric: { lambda, low, high },
    groups: [...data.groupNames],
    classes: [...data.classNames],
    gapWorth: Number.isFinite(worth) ? worth : null,
    ...(full
      ? {
          full: {
            a: rec.a!,
            B: rec.B!,
            unidentified: result.unidentified.map((u) => ({ ...u })),
          },
        }
      : {}),
    completionCode: ctx.participant.completion_code ?? "",
  };
}
