// The fairness study kind (UAI 2022): group-wise classifiers shown as people of each group and
// true answer, the accuracy-fairness trade-off lambda (or the whole fair metric) elicited by
// the adaptive engine, Phase III judged by the engine's belief.

import { trustedReading } from "../../../elicit/adaptive/phase-three.ts";
import type { FairMetric, FairPoint } from "../../../elicit/fair/metric.ts";
import {
  adaptiveKindFields,
  adaptivePhaseThree,
  cachedFamily,
  type KindFamily,
  statedAdaptive,
  unmeasuredSummary,
} from "../../participant/phase-three.ts";
import type { Context, Position } from "../../participant/service.ts";
import { lambdaConsensus } from "../../study/consensus.ts";
import { longCsv, numbered } from "../../study/export.ts";
import { adaptiveOutcome } from "../../study/results.ts";
import type { BeliefDraw, StudyKindModule } from "../kind.ts";
import { fairConsensusBest, knownCopy, meanFairMetric } from "./consensus.ts";
import {
  type FairStudyResult,
  fairMetricRecord,
  fairPointJson,
  fairStudyFamily,
  fairView,
  replayFair,
} from "./participant.ts";
import { fairRules } from "./rules.ts";
import { isFairSpec } from "./spec.ts";
import { fairComparison, fairDebrief, fairElicitation, fairOf } from "./state.ts";
import { fairStudyConfig, fairStudyData } from "./study.ts";

/** The adaptive family the study's engine runs on (built once per configuration). */
function familyOf(ctx: Pick<Context, "config" | "data" | "configHash">): KindFamily {
  const { data, spec } = fairOf(ctx);
  return cachedFamily(ctx, () => fairStudyFamily(spec, data));
}

/**
 * A participant's result as the debrief, the dashboard and the exports state it, with their
 * Phase III fields: the engine's result, or its first reading alone once their whole Phase III
 * is answered and bears it out (`trustedReading`: the whole fair metric's checked model); nothing
 * measured when their answers could have come from a coin (`statedAdaptive`).
 */
function stated(ctx: Context, pos: Position, engine: FairStudyResult) {
  const fields = adaptiveKindFields(familyOf(ctx), pos, engine);
  const answered = pos.pairs.length > 0 && pos.evaluationRows.length >= pos.pairs.length;
  const trusted = trustedReading(engine, answered ? fields.consistency : null);
  return {
    result: statedAdaptive(familyOf(ctx), trusted, fields.consistency, ctx.participant.seed),
    fields,
  };
}

/** The fairness kind. */
export const fairKind: StudyKindModule<FairPoint> = {
  id: "fair",
  tag: "fair",
  create: fairRules,
  data: fairStudyData,
  dataLabel(config) {
    const s = config.source;
    return "file" in s ? s.file : "uploaded predictions";
  },
  buildConfig: fairStudyConfig,
  replay(ctx, answers) {
    const { data, spec } = fairOf(ctx);
    const state = replayFair(ctx.configHash, spec, data, ctx.participant.seed, answers);
    return {
      state,
      estimatedRemaining: state.status === "done" ? 0 : spec.budget - answers.length,
      atMost: spec.budget,
    };
  },
  phaseThree: (ctx, rows) => adaptivePhaseThree(ctx, familyOf(ctx), rows),
  pointJson: fairPointJson,
  storedPoint(json) {
    const raw = JSON.parse(json) as { rates: number[][] };
    return { rates: raw.rates.map((r) => Float64Array.from(r)) };
  },
  comprehensionSystems(ctx) {
    const views = ctx.config.comprehension.views;
    if (views?.kind !== "fair") return {};
    const { data } = fairOf(ctx);
    return {
      kindSystems: { ...views, classes: [...data.classNames], groups: [...data.groupNames] },
    };
  },
  elicitationState(ctx, pos, q) {
    return {
      fairElicitation: fairElicitation(
        ctx,
        q,
        pos.estimatedRemaining,
        pos.atMost ?? pos.estimatedRemaining + q.index,
      ),
    };
  },
  evaluationState(ctx, index, pair, progress) {
    return {
      fairEvaluation: {
        question: fairComparison(ctx, "evaluation", index, pair.first, pair.second),
        progress,
      },
    };
  },
  async debriefState(_db, ctx, pos) {
    if (pos.elicitation.status !== "done") return {};
    const { result, fields } = stated(ctx, pos, pos.elicitation.result as FairStudyResult);
    const debrief = fairDebrief(ctx, result);
    return {
      fairDebrief: {
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
    // A fairness result is its trade-off lambda with the range the debrief states.
    const { result, fields } = stated(ctx, pos, pos.elicitation.result as FairStudyResult);
    return {
      ...none,
      metric: fairMetricRecord(result, fairOf(ctx).spec),
      ratio: null,
      ...fields,
      adaptive: adaptiveOutcome(result),
      beliefDraws: fairDraws(ctx, result),
    };
  },
  consensus(rec, finished) {
    const spec = rec.config.spec;
    const data = fairStudyData(rec.study.hash, rec.config);
    const metrics = finished.flatMap((f) =>
      "lambda" in f.metric ? [{ id: f.id, metric: f.metric }] : [],
    );
    const c = lambdaConsensus(metrics.map((f) => ({ id: f.id, lambda: f.metric.lambda })));
    if (c === null || !isFairSpec(spec)) return c;
    // Each participant's whole metric: the study's known a and B with their lambda, or their own.
    const own = metrics.map(({ metric: r }): FairMetric => {
      if ("a" in r) return { a: r.a, B: r.B, lambda: r.lambda };
      return spec.family === "fair-lambda"
        ? { a: [...spec.known.a], B: knownCopy(spec), lambda: r.lambda }
        : { a: [], B: {}, lambda: r.lambda };
    });
    const full = spec.family === "fair-quadratic";
    const consensus = full ? meanFairMetric(own) : { ...own[0]!, lambda: c.lambda!.mean };
    return {
      ...c,
      classes: [...data.classNames],
      ...(full ? { fairMetric: consensus } : {}),
      best: fairConsensusBest(data, spec, consensus, own),
    };
  },
  answersCsv(rec) {
    // Each shown system as its correct counts (JSON, `counts[g][i]` of 100 people of group g
    // and true class i it gets right, groups and classes in `groups` and `classes` order).
    const data = fairStudyData(rec.study.hash, rec.config);
    const counts = (json: string) =>
      JSON.stringify(fairView(data, fairKind.storedPoint(json)).counts);
    return longCsv(rec, {
      header: ["classes", "groups", "first_counts", "second_counts"],
      cells: (a: { first_point: string; second_point: string }) => [
        JSON.stringify(data.classNames),
        JSON.stringify(data.groupNames),
        counts(a.first_point),
        counts(a.second_point),
      ],
    });
  },
  figureColumns(rec) {
    // The whole fair metric: `elicited_a_N` (the cost of a wrong decision) and `gap_weight_N`
    // (the weight of the gap between groups: B's diagonal summed over group pairs), as its
    // debrief table states them; nothing for lambda alone.
    const spec = rec.config.spec;
    if (!isFairSpec(spec) || spec.family !== "fair-quadratic")
      return { header: [], values: () => [] };
    const k = fairStudyData(rec.study.hash, rec.config).classNames.length;
    const each = <T>(f: (i: number) => T) => Array.from({ length: k }, (_, i) => f(i));
    return {
      header: [...numbered("elicited_a_", k), ...numbered("gap_weight_", k)],
      values: (s) => {
        const f = s.metric as { a?: number[]; B?: Record<string, number[][]> } | null;
        const gap = (i: number) =>
          f?.B === undefined
            ? undefined
            : Object.values(f.B).reduce((sum, M) => sum + (M[i]?.[i] ?? 0), 0);
        return [...each((i) => f?.a?.[i]), ...each(gap)];
      },
    };
  },
  labels(rec) {
    const data = fairStudyData(rec.study.hash, rec.config);
    return { classes: [...data.classNames], groups: [...data.groupNames] };
  },
};

/**
 * The engine's draws of its final belief as metrics of the summary's form without the range:
 * `{ lambda }` (the study's known a and B), or `{ lambda, a, B }` for the whole metric.
 */
function fairDraws(ctx: Context, result: FairStudyResult): BeliefDraw[] {
  const family = familyOf(ctx);
  const whole = fairOf(ctx).spec.family === "fair-quadratic";
  return (result.posterior?.draws ?? []).map((w) => {
    const m = family.toMetric(Float64Array.from(w)) as FairMetric;
    return whole
      ? {
          lambda: m.lambda,
          a: [...m.a],
          B: Object.fromEntries(Object.entries(m.B).map(([k, M]) => [k, M.map((r) => [...r])])),
        }
      : { lambda: m.lambda };
  });
}
