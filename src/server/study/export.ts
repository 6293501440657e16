import { isDecimal } from "../../data/decimal.ts";
import { VERSION } from "../../version.ts";
import { studyKindOf } from "../kinds/registry.ts";
import { type MetricRecord, metricWeights } from "../participant/metric.ts";
import type { AnswerRow } from "../participant/service.ts";
import {
  BELIEF_DRAWS_DOC,
  CSV_CONVENTIONS,
  codebook,
  codebookCsv,
  type Doc,
  STUDY_LABELS_DOC,
} from "./codebook.ts";
import { studyConsensus } from "./consensus.ts";
import { participantSummary, type StudyRecords } from "./results.ts";

/**
 * One CSV field: quoted when it holds a comma, quote or line break. Text (not numbers) that
 * starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, so a
 * spreadsheet shows a participant's `=HYPERLINK(...)` as text instead of running it (OWASP
 * CSV injection); a plain decimal number ("-5") is left as it is.
 * @example csvField("=1+1") // "'=1+1"
 */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "";
  let s = String(v);
  // A plain number ("-5", "+3.2") is no formula: left as the number it is (issue 28 item 6).
  if (typeof v === "string" && /^[=+\-@\t\r]/.test(s) && !isDecimal(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

function csv(header: readonly string[], rows: readonly unknown[][]): string {
  return `${[header, ...rows].map((r) => r.map(csvField).join(",")).join("\n")}\n`;
}

/** The long export's columns before and after the shown systems, whatever the study kind. */
const ANSWER_HEAD = [
  "study_id",
  "config_hash",
  "participant_id",
  "test",
  "pilot",
  "phase",
  "question_index",
  "revision",
  "stage",
  "placement",
  "choice",
  "answer",
  "undone",
] as const;
const ANSWER_TAIL = ["shown_at", "answered_at", "response_ms", "undone_at"] as const;
const CONSISTENCY = [
  "participant_error_rate",
  "participant_coin_like",
  "participant_near_coin",
  "participant_leans_to",
] as const;

/**
 * One row per stored answer (undone answers included and marked), the two shown systems in
 * the kind's own columns (`systems`: header and cells of one answer's first and second point),
 * then the participant's consistency (issue 26: `participant_error_rate`,
 * `participant_coin_like`, `participant_near_coin`, `participant_leans_to`), so an analysis
 * of the answers can leave out those whose answers a coin could have given, or who chose by
 * the side of the screen.
 */
export function longCsv(
  rec: StudyRecords,
  systems: { header: readonly string[]; cells: (a: AnswerRow) => unknown[] },
): string {
  const rows: unknown[][] = [];
  for (const p of rec.participants) {
    const c = participantSummary(rec, p).consistency ?? null;
    for (const a of rec.answers.get(p.id) ?? []) {
      rows.push([
        rec.study.id,
        a.config_hash,
        p.id,
        p.test,
        p.pilot,
        a.phase,
        a.question_index,
        a.revision,
        a.stage,
        a.placement,
        a.choice,
        a.answer,
        a.undone_at ? 1 : 0,
        ...systems.cells(a),
        c?.errorRate,
        c === null ? undefined : c.coinLike ? 1 : 0,
        c === null ? undefined : c.nearCoin ? 1 : 0,
        c?.leansTo ?? undefined,
        a.shown_at,
        a.answered_at,
        Date.parse(a.answered_at) - Date.parse(a.shown_at),
        a.undone_at,
      ]);
    }
  }
  return csv([...ANSWER_HEAD, ...systems.header, ...CONSISTENCY, ...ANSWER_TAIL], rows);
}

/** The tidy long export: one row per stored answer (undone answers included and marked). */
export function answersCsv(rec: StudyRecords): string {
  return studyKindOf(rec.config).answersCsv(rec);
}

/**
 * Column names numbered from 1 in the study's class order (study.json `classes`).
 * @example numbered("class_weight_", 2, "_low") // ["class_weight_1_low", "class_weight_2_low"]
 */
export function numbered(prefix: string, count: number, suffix = ""): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${i + 1}${suffix}`);
}

/** The wide export: one row per participant. */
export function participantsCsv(rec: StudyRecords): string {
  const q = rec.config.questionnaire.map((f) => f.id);
  const post = rec.config.post.map((f) => f.id);
  const compIds = rec.config.comprehension.questions.map((c) => c.id);
  const figures = studyKindOf(rec.config).figureColumns(rec);
  const header = [
    "participant_id",
    "status",
    "test",
    "pilot",
    "seed",
    "config_hash",
    "started_at",
    "finished_at",
    "seconds",
    ...q.map((id) => `questionnaire_${id}`),
    ...compIds.map((id) => `comprehension_${id}_attempts`),
    ...compIds.map((id) => `comprehension_${id}_correct`),
    "guess_ratio",
    "elicited_a0",
    "elicited_tp",
    "elicited_tn",
    "elicited_ratio",
    "elicited_lambda",
    "lambda_low",
    "lambda_high",
    "elicitation_questions",
    "elicitation_strategy",
    "stop_reason",
    "credible_level",
    "credible_radius",
    "p_optimal",
    "agreement",
    "agreement_undecided",
    "evaluation_pairs",
    "evaluation_ties",
    "undecided_pairs",
    "undecided_ties",
    "metric_ties",
    "retest_pairs",
    "retest_same",
    "error_rate",
    "error_rate_low",
    "error_rate_high",
    "coin_p",
    "coin_like",
    "near_coin",
    "leans_to",
    "elicitation_family",
    "elicited_fn_cost",
    "elicited_fp_cost",
    "ratio_low",
    "ratio_high",
    "ratio_high_unbounded",
    "range_a_low",
    "range_a_high",
    ...figures.header,
    ...post.map((id) => `post_${id}`),
    "completion_code",
  ];
  const rows = rec.participants.map((p) => {
    const s = participantSummary(rec, p);
    const resp = rec.responses.get(p.id) ?? [];
    const value = (form: string, id: string) =>
      resp.find((r) => r.form === form && r.field_id === id)?.value ?? "";
    const comp = rec.comprehension.get(p.id) ?? [];
    // Binary columns; multiclass weights and a fair-quadratic a and B have their own
    // (its kind's `figureColumns`), and the whole metric is in the JSON export (summary.metric).
    const m =
      s.metric !== null && !("weights" in s.metric) && !("lambda" in s.metric)
        ? (s.metric as MetricRecord)
        : null;
    const fair = s.metric !== null && "lambda" in s.metric ? s.metric : null;
    const w = m === null ? null : metricWeights(m);
    return [
      p.id,
      p.status,
      p.test,
      p.pilot,
      p.seed,
      rec.study.hash,
      p.started_at,
      p.finished_at,
      s.seconds,
      ...q.map((id) => value("questionnaire", id)),
      ...compIds.map((id) => comp.filter((c) => c.question_id === id).length),
      ...compIds.map((id) => (comp.some((c) => c.question_id === id && c.correct === 1) ? 1 : 0)),
      s.guess,
      m !== null && "a0" in m ? m.a0 : undefined,
      w?.tp,
      w?.tn,
      s.ratio,
      fair?.lambda,
      fair?.low,
      fair?.high,
      s.questions,
      rec.config.spec.strategy,
      s.adaptive?.stop,
      s.adaptive?.credible.level,
      s.adaptive?.credible.radius,
      s.adaptive?.pOptimal,
      s.agreement,
      s.agreementDetail?.undecided,
      s.agreementDetail?.pairs,
      s.agreementDetail?.ties,
      s.agreementDetail?.undecidedPairs,
      s.agreementDetail?.undecidedTies,
      s.agreementDetail?.metricTies,
      s.consistency?.retestPairs,
      s.consistency?.retestSame,
      s.consistency?.errorRate,
      s.consistency?.errorLow,
      s.consistency?.errorHigh,
      s.consistency?.coinP,
      s.consistency ? (s.consistency.coinLike ? 1 : 0) : undefined,
      s.consistency ? (s.consistency.nearCoin ? 1 : 0) : undefined,
      s.consistency?.leansTo ?? undefined,
      rec.config.spec.family,
      // Costs of a missed positive and a false alarm: maximising tp TP + tn TN is minimising
      // tp FN + tn FP, so the same shares.
      w?.tp,
      w?.tn,
      s.range?.low,
      s.range?.high,
      s.range ? (s.range.high === null ? 1 : 0) : undefined,
      s.rangeA?.lo,
      s.rangeA?.hi,
      ...figures.values(s),
      ...post.map((id) => value("post", id)),
      p.completion_code,
    ];
  });
  return csv(header, rows);
}

/**
 * The codebook of the CSV exports as its own file: every column with one type and a
 * description (see `codebook`).
 * @example codebookFile(rec).split("\n")[1] // "answers.csv,study_id,integer,the study's id"
 */
export function codebookFile(rec: StudyRecords): string {
  return codebookCsv(answersCsv(rec), participantsCsv(rec), csvField, kindDocs(rec));
}

/** The study kind's own participants.csv columns, documented by the kind. */
function kindDocs(rec: StudyRecords): Readonly<Record<string, Doc>> {
  return studyKindOf(rec.config).figureColumns(rec).docs ?? {};
}

/** Everything: configuration, hash, software version, and per participant every record. */
export function studyJson(rec: StudyRecords): unknown {
  return {
    software: { name: "metric-elicitation", version: VERSION },
    exportedAt: new Date().toISOString(),
    study: { ...rec.study, config: rec.config },
    ...studyKindOf(rec.config).labels(rec),
    codebook: {
      answers:
        "phase elicitation = Phase II, evaluation = Phase III; placement first-left means the procedure's first point was shown on the left; answer is the engine's first/second/tie; undone_at marks an undone answer (never deleted); counts are fractions of the population (multiply by 100 for 'out of 100')",
      columns: codebook(answersCsv(rec), participantsCsv(rec), kindDocs(rec)),
      conventions: CSV_CONVENTIONS,
      labels: STUDY_LABELS_DOC,
      beliefDraws: BELIEF_DRAWS_DOC,
      csv: "in the CSV files, text cells that start with =, +, -, @, a tab or a carriage return are prefixed with ' so spreadsheets do not run them as formulas; the JSON export holds the text unchanged",
      agreement:
        "summary.agreement (participants.csv agreement): share of Phase III answers (excluding 'about the same') on which the elicited metric prefers the same system; summary.agreementDetail: the same over all pairs (all) and over the pairs the participant's result range does not decide in advance (undecided: some metric of the range summary.rangeA prefers each system), with the counts of pairs and of 'about the same' answers (ties); Phase III pairs are random (seeded by the participant's seed) trade-offs, never dominated nor identical on screen",
      range:
        "summary.range: the cost-ratio range the debrief showed (low, high rounded outward as printed; high null when unbounded); summary.rangeA: the range [lo, hi] of a in (1 - a) TP + a TN that gives the Phase II answers; for a participant flagged like a coin (consistency.coinLike) nothing was measured and both are every value (rangeA [0, 1], range from 0 to unbounded)",
      ratio:
        "how many times as bad a missed positive is as a false alarm under the elicited metric",
      metric:
        "summary.metric is { a0 } for the threshold family, whose metric is a0 TN + (1 - a0) TP (a0 weighs true negatives), or unit-norm { tp, tn } for tp TP + tn TN; participants.csv elicited_tp and elicited_tn are the same metric as tp TP + tn TN with tp + tn = 1 (threshold: 1 - a0 and a0), elicited_ratio = elicited_tp / elicited_tn",
      multiclass:
        "multiclass studies: summary.metric is { weights }: diagonal-linear, one weight >= 0 per class (in config's class order) on its correct decisions, summing to 1 (metric sum_i a_i C_ii on the joint confusions); linear, a cost <= 0 for every kind of mistake, true class i taken for j, row by row without the diagonal (a01, a02, a10, ...), unit length (metric sum_{i != j} a_ij C_ij); summary.adaptive.unidentified names the weights (a0.. or a01..) the answers left open with their credible half-widths; answers.csv first_counts / second_counts are the counts shown, counts[i][j] of 100 people of true class i put in class j",
      fair: "fair studies: summary.metric is { lambda, low, high }, the trade-off lambda of (1 - lambda) <a, 1 - r> + lambda/2 sum (r^u - r^v)^T B^{uv} (r^u - r^v) (cost form, a and B in config.spec.known; 0 = only accuracy, 1 = only equal rates across groups) and the range [low, high] its credible region leaves (rounded outward to 2 decimals; participants.csv elicited_lambda, lambda_low, lambda_high); answers.csv first_counts / second_counts are counts[g][i], people of 100 in group g with true class i the system got right; the stored points are each group's rates; fair-quadratic studies (the whole metric, config.spec has no known): summary.metric also carries a (the costs per class, unit length) and B (per group pair u-v, the violation weights, half the sum of their Frobenius norms 1), lambda's range is lambda's own credible half-width when summary.adaptive.unidentified names lambda and the study's tolerance otherwise, and summary.adaptive.unidentified names every coordinate (a1 and on, B12_11 and on, lambda) the answers left open (its answer model reads them twice, the second reading without a careful reader; summary.adaptive.credible and unidentified answer for both, or for the first alone once Phase III bears out a careful reader: that reading at least 0.9 likely, at least 10 Phase III answers counted, none against the result, every repeat the same)",
      consensus:
        "every study kind (null before anyone finished): the elicited metrics of the participants who finished, test runs and pilot participants left out (ids in consensus.participants), aggregated with their spread; consensus.weights (multiclass): the figure each participant's debrief states, averaged: diagonal-linear, per class in the study's order the mean weight per case (summary.classWeights; the means sum to 1); linear, per mistake the mean share of the cost (the debrief's mistakes); with the population standard deviation (sd, dividing by n), the least and greatest; consensus.best (multiclass): the classifier best on the study's pool for the metric whose figures are those means (diagonal-linear: a_i proportional to mean_i / p_i, predict argmax_i a_i eta_i(x)), each class's share right (rates, in class order), its accuracy, and agree, how many participants' own best classifier (their weights in the same rule) labels every case of the pool the same way; consensus.lambda (fair): the mean and median lambda, sd, least and greatest; consensus.fairMetric (fair-quadratic): the participants' a, B and lambda averaged and normalised again; consensus.best (fair): the group-wise classifiers best for the mean lambda (fair-lambda, with config.spec.known) or for fairMetric on the query ball, as a participant's screen shows them: groupRates[g][i] each group's share right per class (whole people of 100), rates everyone's (groups weighted by their share of each class), accuracy, gaps per class, and agree, how many participants' own best shows the same counts; consensus.tpWeight (binary): the weight on true positives tp / (tp + tn) of each metric, mean, median, sd, least and greatest; consensus.best (binary): the classifier best for mean TP + (1 - mean) TN on the pool, positive when the probability is at least threshold, its shares right (rates: the negative, then the positive class, as consensus.classes), accuracy and agree, how many participants' own threshold labels every case of the pool the same way; consensus.classes (binary, fair): the class names in the order of best.rates; the dashboard shows the same numbers",
      adaptive:
        "adaptive strategy only (summary.adaptive; participants.csv stop_reason, credible_level, credible_radius, p_optimal): why the engine stopped (tolerance, decision-sufficient, budget, no-informative-question), the credible region (every plausible metric lies within radius of the elicited one with probability level, in the family's error measure), and the probability that the recommended classifier is the best one; for a participant flagged like a coin (consistency.coinLike) nothing was measured: level 1, radius the largest error any metric of the family has from the elicited one, every coordinate in summary.adaptive.unidentified, every range stated (lambda's, the weights per case, the imbalance) the whole of it, p_optimal the recommendation's share over the prior; the engine's seed is the participant's seed",
    },
    consensus: studyConsensus(rec),
    participants: rec.participants.map((p) => ({
      id: p.id,
      status: p.status,
      test: p.test === 1,
      pilot: p.pilot === 1,
      seed: p.seed,
      createdAt: p.created_at,
      startedAt: p.started_at,
      consentedAt: p.consented_at,
      finishedAt: p.finished_at,
      withdrawnAt: p.withdrawn_at,
      completionCode: p.completion_code,
      summary: participantSummary(rec, p),
      responses: rec.responses.get(p.id) ?? [],
      comprehension: rec.comprehension.get(p.id) ?? [],
      guess: rec.guesses.has(p.id) ? rec.guesses.get(p.id) : undefined,
      answers: (rec.answers.get(p.id) ?? []).map((a) => ({
        ...a,
        first_point: JSON.parse(a.first_point),
        second_point: JSON.parse(a.second_point),
      })),
    })),
  };
}
