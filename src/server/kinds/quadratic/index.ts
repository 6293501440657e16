// The quadratic study kind (UAI 2022, QPME, in the browser): a multiclass study whose metric
// is quadratic in the class rates, so it says both which classes matter and how much uneven
// results between classes cost. Its pages are a multiclass study's (people per class).

import { quadraticToW, wToQuadratic } from "../../../elicit/adaptive/families/quadratic.ts";
import type { RatePoint } from "../../../elicit/quadratic/lpme.ts";
import { createSpace } from "../../../geometry/multiclass/space.ts";
import { findSphere } from "../../../geometry/multiclass/sphere.ts";
import type { KindFigures, ParticipantState } from "../../api-schemas.ts";
import { ApiError } from "../../errors.ts";
import { placementOf } from "../../participant/elicitation.ts";
import {
  adaptivePhaseThree,
  cachedFamily,
  type KindFamily,
  statedKind,
  unmeasuredSummary,
} from "../../participant/phase-three.ts";
import type { Context, Position } from "../../participant/service.ts";
import { weightsConsensus } from "../../study/consensus.ts";
import { longCsv, numbered } from "../../study/export.ts";
import { comprehensionPair } from "../../study/kind-comprehension.ts";
import { adaptiveOutcome } from "../../study/results.ts";
import type { StudyKindModule } from "../kind.ts";
import { classStudyConfig } from "../multiclass/create.ts";
import { classWeightColumns, multiclassQuestionStates } from "../multiclass/index.ts";
import { debriefSentence, uncertaintySentence } from "../multiclass/participant.ts";
import { checkParameterBudget } from "../parameter-budget.ts";
import { type QuadraticStudyData, quadraticStudyData } from "./data.ts";
import {
  imbalanceSentence,
  imbalanceShort,
  type QuadraticStudyResult,
  quadraticFigures,
  quadraticRanges,
  quadraticStudyFamily,
  quadraticView,
  replayQuadratic,
} from "./participant.ts";
import { quadraticRules } from "./rules.ts";
import {
  isQuadraticSpec,
  QUADRATIC_DEFAULTS,
  QUADRATIC_MAX_CLASSES,
  type QuadraticStudySpec,
} from "./spec.ts";

/** The data and spec of a quadratic study. */
function quadraticOf(ctx: Pick<Context, "config" | "data">): {
  data: QuadraticStudyData;
  spec: QuadraticStudySpec;
} {
  const spec = ctx.config.spec;
  if (!isQuadraticSpec(spec)) throw new Error("not a quadratic study");
  return { data: ctx.data as QuadraticStudyData, spec };
}

/** The adaptive family the study's engine runs on (built once per configuration). */
function familyOf(ctx: Pick<Context, "config" | "data" | "configHash">): KindFamily {
  const { data, spec } = quadraticOf(ctx);
  return cachedFamily(ctx, () => quadraticStudyFamily(spec, data));
}

/**
 * A participant's result as every page and file states it, with their Phase III fields (from
 * the engine's result): the engine's, or nothing measured when their answers could have come
 * from a coin (`statedAdaptive`).
 */
function stated(ctx: Context, pos: Position, engine: QuadraticStudyResult) {
  return statedKind(familyOf(ctx), pos, engine, ctx.participant.seed);
}

/** A class's weight is marked uncertain when its range is wider than this either side. */
const UNCERTAIN_HALF_WIDTH = 0.05;

/**
 * A participant's figures as every page and file states them: the weights per case with their
 * ranges and "(uncertain)" marks, the imbalance with its range, and the sentences.
 */
function figuresOf(ctx: Context, result: QuadraticStudyResult) {
  const { data } = quadraticOf(ctx);
  const o = data.sphere.centre;
  const k = data.classNames.length;
  const stated = quadraticFigures(result.metric, o);
  const draws = (result.posterior?.draws ?? []).map((w) => wToQuadratic(w, k));
  const ranges = quadraticRanges(stated, draws, o, result.credible.level);
  const halfWidths = stated.classWeights.map((_, i) => {
    const r = ranges?.classRanges[i];
    const h = r ? (r.high - r.low) / 2 : 0;
    return h > UNCERTAIN_HALF_WIDTH ? h : null;
  });
  const imbalance = imbalanceSentence(stated.imbalance, ranges?.imbalance ?? null, data.classNames);
  const uncertain = uncertaintySentence(halfWidths, data.classNames);
  const i = stated.imbalance;
  const kindFigures: KindFigures = {
    values: {
      ...(i
        ? {
            imbalanceCost: i.people,
            imbalanceFirst: i.first + 1,
            imbalanceSecond: i.second + 1,
            ...(ranges?.imbalance
              ? { imbalanceLow: ranges.imbalance.low, imbalanceHigh: ranges.imbalance.high }
              : {}),
          }
        : {}),
    },
    text: imbalance,
    short: imbalanceShort(stated.imbalance, ranges?.imbalance ?? null, data.classNames),
  };
  return {
    summary: `${debriefSentence(stated.classWeights, data.classNames, ranges?.classRanges)}${uncertain ? ` ${uncertain}` : ""} ${imbalance}`,
    classWeights: stated.classWeights,
    halfWidths,
    ...(ranges ? { classRanges: ranges.classRanges } : {}),
    kindFigures,
  };
}

/** A quadratic pair as the browser sees it: a multiclass comparison, sides by the seed. */
function comparison(
  ctx: Context,
  phase: "elicitation" | "evaluation",
  index: number,
  first: RatePoint,
  second: RatePoint,
  /** The engine's placement of an adaptive question (else the seed's). */
  firstSide?: "first" | "second",
) {
  const { data } = quadraticOf(ctx);
  const placement = placementOf(ctx.participant.seed, phase, index, firstSide);
  const [left, right] = placement === "first-left" ? [first, second] : [second, first];
  return {
    kind: "multiclass" as const,
    id: index,
    classes: [...data.classNames],
    left: quadraticView(data, left),
    right: quadraticView(data, right),
  };
}

/** The quadratic kind. */
export const quadraticKind: StudyKindModule<RatePoint> = {
  id: "quadratic",
  tag: "multiclass",
  create: quadraticRules,
  data: quadraticStudyData,
  dataLabel(config) {
    const s = config.source;
    return "file" in s ? s.file : "uploaded predictions";
  },
  buildConfig(body) {
    const spec: QuadraticStudySpec = {
      family: "quadratic",
      tolerance: body.tolerance ?? QUADRATIC_DEFAULTS.tolerance,
      strategy: "adaptive",
      budget: body.budget ?? QUADRATIC_DEFAULTS.budget,
      credibility: body.credibility ?? QUADRATIC_DEFAULTS.credibility,
      model: QUADRATIC_DEFAULTS.model,
      displayStep: QUADRATIC_DEFAULTS.displayStep,
    };
    return classStudyConfig(body, {
      kind: "quadratic",
      spec,
      comprehensionPair: (prepared) => {
        if (prepared.pool.k > QUADRATIC_MAX_CLASSES)
          throw new ApiError(
            400,
            "invalid_study",
            `the data have ${prepared.pool.k} classes; a quadratic study shows 3 or ${QUADRATIC_MAX_CLASSES} (it asks about k(k + 3)/2 numbers; keep 3 or ${QUADRATIC_MAX_CLASSES} classes with classes)`,
          );
        const data = {
          ...prepared,
          sphere: findSphere(createSpace("diag-rates", prepared.pool)),
        };
        const family = quadraticStudyFamily(spec, data);
        checkParameterBudget(family.dim, spec.budget, ["keep 3 classes (classes)"]);
        const pair = comprehensionPair(family);
        return [quadraticView(data, pair.first), quadraticView(data, pair.second)];
      },
    });
  },
  replay(ctx, answers) {
    const { data, spec } = quadraticOf(ctx);
    const state = replayQuadratic(ctx.configHash, spec, data, ctx.participant.seed, answers);
    return {
      state,
      estimatedRemaining: state.status === "done" ? 0 : spec.budget - answers.length,
      atMost: spec.budget,
    };
  },
  phaseThree: (ctx, rows) => adaptivePhaseThree(ctx, familyOf(ctx), rows),
  pointJson: (p) => JSON.stringify({ point: Array.from(p.point) }),
  storedPoint(json) {
    const raw = JSON.parse(json) as { point: number[] };
    return { point: Float64Array.from(raw.point) };
  },
  comprehensionSystems(ctx) {
    const views = ctx.config.comprehension.views;
    if (views?.kind !== "multiclass") return {};
    return { kindSystems: { ...views, classes: [...quadraticOf(ctx).data.classNames] } };
  },
  ...multiclassQuestionStates(comparison),
  async debriefState(_db, ctx, pos) {
    if (pos.elicitation.status !== "done") return {};
    const { result, fields } = stated(ctx, pos, pos.elicitation.result as QuadraticStudyResult);
    const f = figuresOf(ctx, result);
    const debrief: NonNullable<ParticipantState["multiclassDebrief"]> = {
      ...f,
      summary: unmeasuredSummary(f.summary, fields.consistency),
      metric: { weights: Array.from(quadraticToW(result.metric)) },
      classes: [...quadraticOf(ctx).data.classNames],
      completionCode: ctx.participant.completion_code ?? "",
      ...fields,
    };
    return { multiclassDebrief: debrief };
  },
  summary(ctx, pos) {
    const none = { agreement: null, agreementDetail: null, range: null, rangeA: null };
    if (pos.elicitation.status !== "done")
      return { ...none, metric: null, ratio: null, consistency: null };
    const { result, fields } = stated(ctx, pos, pos.elicitation.result as QuadraticStudyResult);
    const f = figuresOf(ctx, result);
    return {
      ...none,
      metric: { weights: Array.from(quadraticToW(result.metric)) },
      ratio: null,
      ...fields,
      adaptive: adaptiveOutcome(result),
      classWeights: f.classWeights,
      classHalfWidths: f.halfWidths,
      ...(f.classRanges ? { classRanges: f.classRanges } : {}),
      kindFigures: f.kindFigures,
      beliefDraws: (result.posterior?.draws ?? []).map((w) => ({
        weights: Array.from(quadraticToW(wToQuadratic(w, f.classWeights.length))),
      })),
    };
  },
  consensus(rec, finished) {
    // The mean of the participants' weights per case (the figures their debriefs state).
    const data = quadraticStudyData(rec.study.hash, rec.config);
    const k = data.classNames.length;
    const metrics = finished.flatMap((f) =>
      "weights" in f.metric
        ? [
            {
              id: f.id,
              metric: {
                weights: quadraticFigures(wToQuadratic(f.metric.weights, k), data.sphere.centre)
                  .classWeights,
              },
            },
          ]
        : [],
    );
    return weightsConsensus(metrics, data.classNames);
  },
  answersCsv(rec) {
    // Each shown system as its counts (JSON, `counts[i][j]` of 100 people of true class i put
    // in class j, the classes in `classes` order), as the participant saw it.
    const data = quadraticStudyData(rec.study.hash, rec.config);
    const counts = (json: string) =>
      JSON.stringify(quadraticView(data, quadraticKind.storedPoint(json)).counts);
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
    const data = quadraticStudyData(rec.study.hash, rec.config);
    const k = data.classNames.length;
    const m = 2 * k + (k * (k - 1)) / 2;
    const imbalance = [
      "imbalance_cost",
      "imbalance_low",
      "imbalance_high",
      "imbalance_first",
      "imbalance_second",
    ];
    const keys = [
      "imbalanceCost",
      "imbalanceLow",
      "imbalanceHigh",
      "imbalanceFirst",
      "imbalanceSecond",
    ];
    const docs: Record<string, readonly ["number" | "integer" | "boolean01", string]> = {
      imbalance_cost: [
        "number",
        "quadratic studies: what uneven results cost between the pair of classes where they cost most: 10 more of 100 right in one and 10 fewer in the other is as bad as this many fewer people right of 100 in every class (the debrief states it rounded to whole people; study.json summary.kindFigures)",
      ],
      imbalance_low: [
        "number",
        "quadratic studies: the low end of imbalance_cost over the belief the answers left (the debrief's range)",
      ],
      imbalance_high: [
        "number",
        "quadratic studies: the high end of imbalance_cost over the belief the answers left",
      ],
      imbalance_first: [
        "integer",
        "quadratic studies: the first class of imbalance_cost's pair (study.json classes, from 1)",
      ],
      imbalance_second: [
        "integer",
        "quadratic studies: the second class of imbalance_cost's pair (from 1)",
      ],
    };
    for (let i = 1; i <= k; i++) {
      docs[`class_weight_${i}`] = [
        "number",
        `quadratic studies: class ${i}'s share of the value of one more person right, at the middle of the systems shown (the metric's gradient a + B o at the query ball's centre o, negative parts as 0, the shares summing to 1), as the debrief and the dashboard state it; study.json summary.classWeights`,
      ];
      docs[`class_weight_${i}_uncertain`] = [
        "boolean01",
        `quadratic studies: 1 when class ${i}'s range (class_weight_${i}_low to _high) is wider than ${UNCERTAIN_HALF_WIDTH} either side (the debrief's "(uncertain)")`,
      ];
    }
    for (let i = 1; i <= m; i++)
      docs[`metric_weight_${i}`] = [
        "number",
        `quadratic studies: entry ${i} of the engine's parameter vector w = (a_1..a_k, B_11..B_kk, sqrt(2) B_ij for i < j row by row) of the metric <a, r> + 1/2 r^T B r of the class rates r, unit length (study.json summary.metric.weights)`,
      ];
    const perCase = classWeightColumns(k);
    return {
      header: [...perCase.header, ...numbered("metric_weight_", m), ...imbalance],
      values: (s) => {
        const w = (s.metric as { weights?: number[] } | null)?.weights;
        return [
          ...perCase.values(s),
          ...Array.from({ length: m }, (_, i) => w?.[i]),
          ...keys.map((key) => s.kindFigures?.values[key]),
        ];
      },
      docs,
    };
  },
  labels: (rec) => ({ classes: [...quadraticStudyData(rec.study.hash, rec.config).classNames] }),
};
