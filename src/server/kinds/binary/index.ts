// The binary study kind (the papers' two-class metrics, the default): pairs of threshold
// classifiers shown as whole people, the papers' searches or the adaptive engine, a cost
// ratio with its range, M over the random Phase III pairs.

import { binaryStudyFamily } from "../../../elicit/adaptive/binary-study.ts";
import type { AdaptiveResult } from "../../../elicit/adaptive/engine.ts";
import type { ThresholdMetric } from "../../../elicit/adaptive/families/binary.ts";
import type { AdaptiveFamily } from "../../../elicit/adaptive/family.ts";
import { unmeasuredReading } from "../../../elicit/adaptive/phase-three.ts";
import type { BinaryPoint } from "../../../elicit/binary/point.ts";
import { fullConfusion } from "../../../metrics/binary-confusion.ts";
import type { BinaryLinearMetric } from "../../../metrics/binary-linear.ts";
import type { PreparedBinary } from "../../../population/binary.ts";
import type { AdaptiveStudyResult } from "../../participant/adaptive.ts";
import { agreement, answerRange } from "../../participant/agreement.ts";
import type { Consistency } from "../../participant/consistency.ts";
import {
  type ElicitationResult,
  isAdaptiveResult,
  learnedPerson,
  placementOf,
  replayElicitation,
} from "../../participant/elicitation.ts";
import { cachedEvaluationPairs, withRetests } from "../../participant/evaluation-pairs.ts";
import type { MetricRecord } from "../../participant/metric.ts";
import { costRatioOf, rangeSummary, ratioRange, reportedMetric } from "../../participant/metric.ts";
import { unmeasuredSummary } from "../../participant/phase-three.ts";
import {
  type AnswerRow,
  type Context,
  effectiveRows,
  phaseThree,
  phaseThreeFields,
  shownPoints,
} from "../../participant/service.ts";
import {
  type DisplayFrame,
  fixedSystemView,
  studyFrame,
  systemView,
} from "../../participant/views.ts";
import { isBinarySpec } from "../../study/config.ts";
import { longCsv } from "../../study/export.ts";
import { adaptiveOutcome } from "../../study/results.ts";
import type { StudyKindModule } from "../kind.ts";
import { binaryConsensus } from "./consensus.ts";
import { binaryStudyConfig } from "./create.ts";
import { studyData } from "./data.ts";
import { binaryRules } from "./rules.ts";

/** The pool of a binary study. */
export function binaryData(ctx: Pick<Context, "data">): PreparedBinary {
  return ctx.data as PreparedBinary;
}

/** How the study shows points (whole people, fixed class totals), or null for an old study. */
export function frameOf(ctx: Pick<Context, "config" | "data">): DisplayFrame | null {
  return studyFrame(ctx.config, binaryData(ctx).pool.zeta);
}

/** A binary pair as the browser sees it: left and right by the participant's seed. */
function comparison(
  ctx: Context,
  phase: "elicitation" | "evaluation",
  index: number,
  first: BinaryPoint,
  second: BinaryPoint,
  /** The engine's placement of an adaptive question (else the seed's). */
  firstSide?: "first" | "second",
) {
  const placement = placementOf(ctx.participant.seed, phase, index, firstSide);
  const zeta = binaryData(ctx).pool.zeta;
  const frame = frameOf(ctx);
  const [left, right] = placement === "first-left" ? [first, second] : [second, first];
  return { id: index, left: systemView(left, zeta, frame), right: systemView(right, zeta, frame) };
}

/** The binary kind. */
export const binaryKind: StudyKindModule<BinaryPoint> = {
  id: "binary",
  create: binaryRules,
  data: studyData,
  dataLabel(config) {
    const s = config.source;
    if (s.kind === "dataset") return s.file;
    return "fittedFrom" in s ? "uploaded dataset" : "uploaded predictions";
  },
  buildConfig: binaryStudyConfig,
  replay(ctx, answers) {
    return replayElicitation(
      ctx.config.spec,
      binaryData(ctx).pool,
      answers,
      { configHash: ctx.configHash, seed: ctx.participant.seed },
      frameOf(ctx),
    );
  },
  phaseThree(ctx, elicitationRows) {
    const seed = ctx.participant.seed;
    const pairs = cachedEvaluationPairs(
      ctx.configHash,
      binaryData(ctx).pool,
      ctx.config.evaluationPairs,
      seed,
      frameOf(ctx),
    );
    return withRetests(pairs, elicitationRows, ctx.config.retestPairs ?? 0, seed);
  },
  pointJson: (p) => JSON.stringify(p),
  storedPoint: (json) => JSON.parse(json) as BinaryPoint,
  comprehensionSystems(ctx) {
    const [a, b] = ctx.config.comprehension.systems;
    return { systems: [fixedSystemView(a, 0.3), fixedSystemView(b, 0.6)] };
  },
  elicitationState(ctx, pos, q) {
    return {
      elicitation: {
        question: comparison(ctx, "elicitation", q.index, q.first, q.second, q.left),
        progress: {
          answered: q.index,
          estimatedRemaining: pos.estimatedRemaining,
          ...(pos.atMost !== null ? { atMost: pos.atMost } : {}),
          ...(pos.searchDone !== undefined ? { searchDone: pos.searchDone } : {}),
          ...(pos.remainingAtMost !== undefined ? { remainingAtMost: pos.remainingAtMost } : {}),
        },
        canUndo: q.index > 0,
      },
    };
  },
  evaluationState(ctx, index, pair, progress) {
    return {
      evaluation: {
        question: comparison(ctx, "evaluation", index, pair.first, pair.second),
        progress,
      },
    };
  },
  async debriefState(db, ctx, pos) {
    if (pos.elicitation.status !== "done") return {};
    const result = pos.elicitation.result as ElicitationResult;
    const phase2 = await shownPoints(db, pos.elicitationRows);
    const fields = phaseThreeFields(
      pos,
      agreement(
        result,
        phase2,
        await shownPoints(db, phaseThree(pos, pos.evaluationRows).random),
        frameOf(ctx),
      ),
      learnedPerson(result),
    );
    const range = statedRange(answerRange(phase2, frameOf(ctx)), fields.consistency);
    const metric = reportedMetric(result, range);
    const guess = await db
      .selectFrom("guesses")
      .select("ratio")
      .where("participant_id", "=", ctx.participant.id)
      .executeTakeFirst();
    return {
      debrief: {
        summary: unmeasuredSummary(
          rangeSummary(range.lo, range.hi, ctx.config.words),
          fields.consistency,
        ),
        metric,
        ratio: costRatioOf(metric),
        range: ratioRange(range.lo, range.hi),
        guess: guess?.ratio ?? null,
        ...fields,
        completionCode: ctx.participant.completion_code ?? "",
      },
    };
  },
  summary(ctx, pos) {
    const done =
      pos.elicitation.status === "done" ? (pos.elicitation.result as ElicitationResult) : null;
    if (!done) {
      return {
        metric: null,
        ratio: null,
        agreement: null,
        agreementDetail: null,
        consistency: null,
        range: null,
        rangeA: null,
      };
    }
    // The range the debrief states: every metric that gives the Phase II answers. (The
    // dashboard's context holds whole answer rows, shown points included: results.ts.)
    const rows = ctx.rows as AnswerRow[];
    const elicitationRows = effectiveRows(rows, "elicitation");
    const evaluation = effectiveRows(rows, "evaluation");
    const fields =
      evaluation.length > 0
        ? phaseThreeFields(
            pos,
            agreement(done, elicitationRows, phaseThree(pos, evaluation).random, frameOf(ctx)),
            learnedPerson(done),
          )
        : { agreement: null, agreementDetail: null, consistency: null };
    const rangeA = statedRange(answerRange(elicitationRows, frameOf(ctx)), fields.consistency);
    const metric = reportedMetric(done, rangeA);
    const adaptive = isAdaptiveResult(done) ? statedBinary(ctx, done, fields.consistency) : null;
    return {
      metric,
      ratio: costRatioOf(metric),
      ...fields,
      range: ratioRange(rangeA.lo, rangeA.hi),
      rangeA: { lo: rangeA.lo, hi: rangeA.hi },
      ...(adaptive
        ? { adaptive: adaptiveOutcome(adaptive), beliefDraws: binaryDraws(adaptive, metric) }
        : {}),
    };
  },
  consensus(rec, finished) {
    const metrics = finished.flatMap((f) =>
      "a0" in f.metric || "tp" in f.metric ? [{ id: f.id, metric: f.metric as MetricRecord }] : [],
    );
    return binaryConsensus(metrics, studyData(rec.study.hash, rec.config));
  },
  answersCsv(rec) {
    const zeta = studyData(rec.study.hash, rec.config).pool.zeta;
    const frame = studyFrame(rec.config, zeta);
    // The exact rates, then the counts the participant saw (Part 3 is judged on those), so an
    // analysis can redo what the debrief counted without rounding the rates again.
    const cells = (json: string) => {
      const pt = JSON.parse(json) as BinaryPoint;
      const f = fullConfusion(pt.confusion, zeta);
      const v = systemView(pt, zeta, frame);
      return [pt.classifier.threshold, f.tp, f.fp, f.fn, f.tn, v.tp, v.fp, v.fn, v.tn];
    };
    return longCsv(rec, {
      header: ["first", "second"].flatMap((side) =>
        ["threshold", "tp", "fp", "fn", "tn", "shown_tp", "shown_fp", "shown_fn", "shown_tn"].map(
          (c) => `${side}_${c}`,
        ),
      ),
      cells: (a: { first_point: string; second_point: string }) => [
        ...cells(a.first_point),
        ...cells(a.second_point),
      ],
    });
  },
  figureColumns: () => ({ header: [], values: () => [] }),
  labels(rec) {
    const data = studyData(rec.study.hash, rec.config);
    return { classes: [data.negativeLabel, data.positiveLabel] };
  },
};

/**
 * The range of `a` a binary participant's debrief states: every `a` that gives their Phase II
 * answers (`answerRange`), or every `a` when their answers could have come from a coin.
 */
function statedRange(
  range: { lo: number; hi: number },
  consistency: Pick<Consistency, "coinLike"> | null,
): { lo: number; hi: number } {
  return consistency?.coinLike ? { lo: 0, hi: 1 } : range;
}

const families = new Map<string, ReturnType<typeof binaryStudyFamily>>();

/**
 * An adaptive binary participant's result as the dashboard and exports state it: the
 * engine's, or nothing measured when their answers could have come from a coin
 * (`unmeasuredReading` over the study's family, seeded by the participant's seed).
 */
function statedBinary(
  ctx: Context,
  done: AdaptiveStudyResult,
  consistency: Pick<Consistency, "coinLike"> | null,
): AdaptiveStudyResult {
  const spec = ctx.config.spec;
  if (!consistency?.coinLike || !isBinarySpec(spec) || spec.strategy !== "adaptive") return done;
  let family = families.get(ctx.configHash);
  if (!family) {
    family = binaryStudyFamily(spec, binaryData(ctx).pool);
    if (families.size > 100) families.clear();
    families.set(ctx.configHash, family);
  }
  const seed = ctx.participant.seed;
  return "a0" in done.metric
    ? unmeasuredReading(
        done as AdaptiveResult<BinaryPoint, ThresholdMetric>,
        family as AdaptiveFamily<BinaryPoint, ThresholdMetric>,
        seed,
      )
    : unmeasuredReading(
        done as AdaptiveResult<BinaryPoint, BinaryLinearMetric>,
        family as AdaptiveFamily<BinaryPoint, BinaryLinearMetric>,
        seed,
      );
}

/**
 * The adaptive engine's draws of its final belief as metrics of the form the study reports:
 * `{ a0 }` (w = (1 - a0, a0) up to scale) or unit-norm `{ tp, tn }`.
 */
function binaryDraws(done: AdaptiveStudyResult, metric: MetricRecord): MetricRecord[] {
  return (done.posterior?.draws ?? []).map(([tp = 0, tn = 0]) => {
    if ("a0" in metric) {
      const s = tp + tn;
      return { a0: s > 0 ? Math.min(1, Math.max(0, tn / s)) : 0.5 };
    }
    const n = Math.hypot(tp, tn) || 1;
    return { tp: tp / n, tn: tn / n };
  });
}
