// The multiclass study kind (NeurIPS 2019): pairs of classifiers over k classes shown as people
// per class, the adaptive engine on the diagonal-linear or the linear metric, weights per
// case with their ranges, Phase III judged by the engine's belief.

import type { MulticlassPoint } from "../../../elicit/multiclass/point.ts";
import type { PreparedMulticlass } from "../../../population/multiclass.ts";
import type { MulticlassComparison, ParticipantState } from "../../api-schemas.ts";
import { placementOf } from "../../participant/elicitation.ts";
import {
  adaptivePhaseThree,
  cachedFamily,
  type KindFamily,
  statedKind,
  unmeasuredSummary,
} from "../../participant/phase-three.ts";
import type { Context, Position } from "../../participant/service.ts";
import type { MulticlassAdaptiveSpec } from "../../study/config.ts";
import { consensusFigures, weightsConsensus } from "../../study/consensus.ts";
import { longCsv, numbered } from "../../study/export.ts";
import { adaptiveOutcome } from "../../study/results.ts";
import type { FigureColumns, StudyKindModule } from "../kind.ts";
import { multiclassStudyConfig } from "./create.ts";
import { multiclassStudyData } from "./data.ts";
import {
  debriefSentence,
  linearDebrief,
  type MulticlassStudyResult,
  multiclassFigures,
  multiclassStudyFamily,
  multiclassView,
  replayMulticlass,
  uncertaintySentence,
} from "./participant.ts";
import { multiclassRules } from "./rules.ts";
import { isMulticlassSpec } from "./spec.ts";

/** The pool and spec of a multiclass study. */
function multiclassOf(ctx: Pick<Context, "config" | "data">): {
  data: PreparedMulticlass;
  spec: MulticlassAdaptiveSpec;
} {
  const spec = ctx.config.spec;
  if (!isMulticlassSpec(spec)) throw new Error("not a multiclass study");
  return { data: ctx.data as PreparedMulticlass, spec };
}

/** The adaptive family the study's engine runs on (built once per configuration). */
function familyOf(ctx: Pick<Context, "config" | "data" | "configHash">): KindFamily {
  const { data, spec } = multiclassOf(ctx);
  return cachedFamily(ctx, () => multiclassStudyFamily(spec, data.pool));
}

/**
 * The study's parameter vectors as its metric (the weights of `result.metric`), for the
 * ranges over the belief's draws.
 */
function metricOfDraw(ctx: Context): (w: readonly number[]) => number[] {
  const family = familyOf(ctx);
  return (w) => family.toMetric(Float64Array.from(w)) as number[];
}

/**
 * Phase II's and Phase III's parts of the participant state of a kind whose pairs are shown
 * as multiclass tables (multiclass and quadratic studies); `comparison` draws one pair.
 * @example multiclassQuestionStates(comparison).evaluationState(ctx, 0, pair, { answered: 0, total: 15 }) // { multiclassEvaluation: ... }
 */
export function multiclassQuestionStates<P>(
  comparison: (
    ctx: Context,
    phase: "elicitation" | "evaluation",
    index: number,
    first: P,
    second: P,
    firstSide?: "first" | "second",
  ) => MulticlassComparison,
): Pick<StudyKindModule<P>, "elicitationState" | "evaluationState"> {
  return {
    elicitationState(ctx, pos, q) {
      return {
        multiclassElicitation: {
          question: comparison(ctx, "elicitation", q.index, q.first, q.second, q.left),
          progress: {
            answered: q.index,
            estimatedRemaining: pos.estimatedRemaining,
            atMost: pos.atMost ?? pos.estimatedRemaining + q.index,
          },
          canUndo: q.index > 0,
        },
      };
    },
    evaluationState(ctx, index, pair, progress) {
      return {
        multiclassEvaluation: {
          question: comparison(ctx, "evaluation", index, pair.first, pair.second),
          progress,
        },
      };
    },
  };
}

/** A multiclass pair as the browser sees it: left and right by the participant's seed. */
function comparison(
  ctx: Context,
  phase: "elicitation" | "evaluation",
  index: number,
  first: MulticlassPoint,
  second: MulticlassPoint,
  /** The engine's placement of an adaptive question (else the seed's). */
  firstSide?: "first" | "second",
) {
  const placement = placementOf(ctx.participant.seed, phase, index, firstSide);
  const { data } = multiclassOf(ctx);
  const [left, right] = placement === "first-left" ? [first, second] : [second, first];
  return {
    kind: "multiclass" as const,
    id: index,
    classes: [...data.classNames],
    left: multiclassView(data.pool, left.classifier),
    right: multiclassView(data.pool, right.classifier),
  };
}

/** A participant's weights per case and their ranges, as their debrief states them. */
function classFigures(ctx: Context, result: MulticlassStudyResult) {
  const { data, spec } = multiclassOf(ctx);
  const f = multiclassFigures(data, spec.family, result, metricOfDraw(ctx));
  return {
    classWeights: f.classWeights,
    classHalfWidths: f.halfWidths,
    ...(f.classRanges ? { classRanges: f.classRanges } : {}),
  };
}

/**
 * A participant's result as every page and file states it, with their Phase III fields (from
 * the engine's result): the engine's, or nothing measured when their answers could have come
 * from a coin (`statedAdaptive`).
 */
function stated(ctx: Context, pos: Position, engine: MulticlassStudyResult) {
  return statedKind(familyOf(ctx), pos, engine, ctx.participant.seed);
}

/** The multiclass debrief: the weights per case in words with what the answers left open. */
function debriefOf(
  ctx: Context,
  result: MulticlassStudyResult,
): NonNullable<ParticipantState["multiclassDebrief"]> {
  const { data, spec } = multiclassOf(ctx);
  const completionCode = ctx.participant.completion_code ?? "";
  if (spec.family === "linear")
    return linearDebrief(data, result, completionCode, metricOfDraw(ctx));
  const f = multiclassFigures(data, "diagonal-linear", result, metricOfDraw(ctx));
  const uncertain = uncertaintySentence(f.halfWidths, data.classNames);
  return {
    summary: `${debriefSentence(f.classWeights, data.classNames, f.classRanges)}${uncertain ? ` ${uncertain}` : ""}`,
    metric: { weights: [...result.metric] },
    halfWidths: f.halfWidths,
    classes: [...data.classNames],
    classWeights: f.classWeights,
    ...(f.classRanges ? { classRanges: f.classRanges } : {}),
    completionCode,
  };
}

/**
 * The weights-per-case columns of participants.csv a study over classes states (`k` classes):
 * `class_weight_N` with its range `_low` / `_high` and `_uncertain` (the debrief's weights per
 * case, their ranges and its "(uncertain)" marks), from the dashboard row's figures.
 * @example classWeightColumns(3).header[3] // "class_weight_1_low"
 */
export function classWeightColumns(k: number): Omit<FigureColumns, "docs"> {
  const each = <T>(f: (i: number) => T) => Array.from({ length: k }, (_, i) => f(i));
  return {
    header: [
      ...numbered("class_weight_", k),
      ...numbered("class_weight_", k, "_low"),
      ...numbered("class_weight_", k, "_high"),
      ...numbered("class_weight_", k, "_uncertain"),
    ],
    values: (s) => [
      ...each((i) => s.classWeights?.[i]),
      ...each((i) => s.classRanges?.[i]?.low),
      ...each((i) => s.classRanges?.[i]?.high),
      ...each((i) =>
        s.classHalfWidths === undefined ? undefined : s.classHalfWidths[i] === null ? 0 : 1,
      ),
    ],
  };
}

/** The multiclass kind. */
export const multiclassKind: StudyKindModule<MulticlassPoint> = {
  id: "multiclass",
  tag: "multiclass",
  create: multiclassRules,
  data: multiclassStudyData,
  dataLabel(config) {
    const s = config.source;
    return "file" in s ? s.file : "uploaded predictions";
  },
  buildConfig: multiclassStudyConfig,
  replay(ctx, answers) {
    // The same replay of the same answer log as a binary study, over the multiclass engine.
    const { data, spec } = multiclassOf(ctx);
    const state = replayMulticlass(ctx.configHash, spec, data.pool, ctx.participant.seed, answers);
    return {
      state,
      estimatedRemaining: state.status === "done" ? 0 : spec.budget - answers.length,
      atMost: spec.budget,
    };
  },
  phaseThree: (ctx, rows) => adaptivePhaseThree(ctx, familyOf(ctx), rows),
  pointJson: (p) => JSON.stringify({ point: Array.from(p.point), classifier: p.classifier }),
  storedPoint(json) {
    const raw = JSON.parse(json) as { point: number[]; classifier: MulticlassPoint["classifier"] };
    return { point: Float64Array.from(raw.point), classifier: raw.classifier };
  },
  comprehensionSystems(ctx) {
    const views = ctx.config.comprehension.views;
    if (views?.kind !== "multiclass") return {};
    return { kindSystems: { ...views, classes: [...multiclassOf(ctx).data.classNames] } };
  },
  ...multiclassQuestionStates(comparison),
  async debriefState(_db, ctx, pos) {
    if (pos.elicitation.status !== "done") return {};
    const { result, fields } = stated(ctx, pos, pos.elicitation.result as MulticlassStudyResult);
    const debrief = debriefOf(ctx, result);
    return {
      multiclassDebrief: {
        ...debrief,
        summary: unmeasuredSummary(debrief.summary, fields.consistency),
        ...fields,
      },
    };
  },
  summary(ctx, pos) {
    const none = { agreement: null, agreementDetail: null, range: null, rangeA: null };
    if (pos.elicitation.status !== "done")
      return { ...none, metric: null, ratio: null, consistency: null };
    // Phase III's figures once answered, else the learned answer model's estimate.
    const { result, fields } = stated(ctx, pos, pos.elicitation.result as MulticlassStudyResult);
    return {
      ...none,
      metric: { weights: [...result.metric] },
      ratio: null,
      ...fields,
      adaptive: adaptiveOutcome(result),
      ...classFigures(ctx, result),
      beliefDraws: (result.posterior?.draws ?? []).map((w) => ({ weights: metricOfDraw(ctx)(w) })),
    };
  },
  consensus(rec, finished) {
    const mc = multiclassStudyData(rec.study.hash, rec.config);
    const metrics = finished.flatMap((f) =>
      "weights" in f.metric ? [{ id: f.id, metric: { weights: f.metric.weights } }] : [],
    );
    const spec = rec.config.spec;
    const family = isMulticlassSpec(spec) ? spec.family : "diagonal-linear";
    return weightsConsensus(
      metrics,
      mc.classNames,
      mc.pool,
      family,
      consensusFigures(family, mc.pool.priors),
    );
  },
  answersCsv(rec) {
    // Each shown system as its counts (JSON, `counts[i][j]` of 100 cases of true class i put
    // in class j, the classes in `classes` order).
    const data = multiclassStudyData(rec.study.hash, rec.config);
    const counts = (json: string) => {
      const pt = multiclassKind.storedPoint(json);
      return JSON.stringify(multiclassView(data.pool, pt.classifier).counts);
    };
    return longCsv(rec, {
      header: ["classes", "first_counts", "second_counts"],
      cells: (a: { first_point: string; second_point: string }) => [
        JSON.stringify(data.classNames),
        counts(a.first_point),
        counts(a.second_point),
      ],
    });
  },
  figureColumns(rec) {
    // The weights per case (classWeightColumns) and `metric_weight_N`, the engine's weights as
    // stored in `summary.metric.weights`.
    const data = multiclassStudyData(rec.study.hash, rec.config);
    const k = data.classNames.length;
    const spec = rec.config.spec;
    const m = isMulticlassSpec(spec) && spec.family === "linear" ? k * (k - 1) : k;
    const perCase = classWeightColumns(k);
    return {
      header: [...perCase.header, ...numbered("metric_weight_", m)],
      values: (s) => {
        const w = (s.metric as { weights?: number[] } | null)?.weights;
        return [...perCase.values(s), ...Array.from({ length: m }, (_, i) => w?.[i])];
      },
    };
  },
  labels: (rec) => ({ classes: [...multiclassStudyData(rec.study.hash, rec.config).classNames] }),
};
