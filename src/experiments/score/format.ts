import { describePortableMetric } from "../../metrics/portable/metric.ts";
import { inWords } from "../../words.ts";
import type { MetricSubject } from "./metric-source.ts";
import type { CloseCall, ScoreReport } from "./score.ts";

/** A subject (whose metric) with its report, as `elicit score` prints them. */
export interface ScoredSubject {
  readonly subject: MetricSubject;
  readonly report: ScoreReport;
}

const pad = (s: string, n: number) => s.padEnd(n);
/** A share in whole percent, never rounded to 0% or 100% unless it is. */
const pct = (x: number) =>
  x > 0 && x < 0.005 ? "<1%" : x < 1 && x > 0.995 ? ">99%" : `${Math.round(100 * x)}%`;

/**
 * The report in words and a table: the metric, each model's score, rank, probability of being
 * best under the belief (when there is one) and decision rule, then plainly how ties for best
 * were counted and which models the belief cannot tell apart (or which is never worse).
 * @example formatScoreReport([{ subject, report }]).split("\n")[0] // "Metric of participant 3: binary-linear: ..."
 */
export function formatScoreReport(scored: readonly ScoredSubject[]): string {
  const out: string[] = [];
  for (const { subject, report } of scored) {
    if (out.length > 0) out.push("");
    out.push(`Metric of ${subject.label}: ${describePortableMetric(report.metric)}`);
    out.push(
      report.cost
        ? "Scores are the metric's cost: lower is better."
        : "Scores are the metric's value: larger is better.",
    );
    const b = report.belief;
    out.push(
      b
        ? `Belief: ${b.note}.`
        : `Belief: none, so no probabilities of being best (${subject.beliefNote ?? "the file has no belief"}).`,
    );
    const width = Math.max(5, ...report.models.map((m) => m.name.length)) + 2;
    out.push(
      "",
      `${pad("rank", 6)}${pad("model", width)}${pad("score", 12)}${b ? pad("P(best)", 9) : ""}decision rule`,
    );
    const byRank = report.models
      .map((m, i) => ({ m, i }))
      .sort((x, y) => x.m.rank - y.m.rank || x.i - y.i);
    for (const { m, i } of byRank)
      out.push(
        `${pad(String(m.rank), 6)}${pad(m.name, width)}${pad(m.score.toFixed(6), 12)}${b ? pad(b.pBest[i]!.toFixed(3), 9) : ""}${m.rule.text}`,
      );
    if (b) {
      const top = Math.max(...b.pBest);
      out.push("");
      const split = report.models.map((m, i) => `${m.name} ${b.pBest[i]!.toFixed(3)}`).join(", ");
      const neverBeaten = report.models.filter((_, i) => b.pBestOrTied[i] === 1).map((m) => m.name);
      if (report.models.length > 1 && top < 0.95)
        out.push(
          neverBeaten.length > 0
            ? `No model is best alone under 95% of the belief's samples, but ${inWords(neverBeaten)} ${neverBeaten.length === 1 ? "is" : "are"} best or tied for best under every one of them (P(best): ${split}).`
            : `The belief does not settle which model is best: the probability of being best is split (${split}).`,
        );
      const ties = report.models.filter((_, i) => b.pBestAlone[i] !== b.pBestOrTied[i]);
      if (ties.length > 0)
        out.push(
          `P(best) shares a sample under which models tie for best equally among them. Best alone / best or tied: ${report.models.map((m, i) => `${m.name} ${pct(b.pBestAlone[i]!)} / ${pct(b.pBestOrTied[i]!)}`).join(", ")}.`,
        );
      for (const c of b.closeCalls) out.push(closeCallText(c));
      if (b.closeCalls.length === 0 && report.models.length > 1)
        out.push(
          "The belief orders every neighbouring pair of models the same way in at least 95% of its samples.",
        );
    }
  }
  return `${out.join("\n")}\n`;
}

/** A close call in words: never "cannot tell apart" for a pair one of which is never worse. */
function closeCallText(c: CloseCall): string {
  if (c.tied === 1)
    return `The belief cannot tell ${c.first} and ${c.second} apart: they score the same under every one of its samples.`;
  const same = c.tied > 0 ? ` (the same under ${pct(c.tied)})` : "";
  if (c.secondBetter === 0 || c.firstBetter === 0) {
    const [lead, other, share] =
      c.secondBetter === 0
        ? [c.first, c.second, c.firstBetter]
        : [c.second, c.first, c.secondBetter];
    return `${lead} scores at least as well as ${other} under every one of the belief's samples, better under ${pct(share)}${same}.`;
  }
  return `The belief cannot tell ${c.first} and ${c.second} apart: ${c.first} scores better under ${pct(c.firstBetter)} of its samples, ${c.second} under ${pct(c.secondBetter)}${c.tied > 0 ? `, the same under ${pct(c.tied)}` : ""}.`;
}

/**
 * The report as JSON for machines: per subject the metric, the belief's account, and per model
 * (in the order given) its score, rank, probability of being best, decision rule and confusion.
 * @example JSON.parse(JSON.stringify(scoreReportJson(scored))).subjects[0].ranking // ["b.csv", "a.csv"]
 */
export function scoreReportJson(scored: readonly ScoredSubject[], notes: readonly string[] = []) {
  return {
    subjects: scored.map(({ subject, report }) => ({
      label: subject.label,
      metric: report.metric,
      cost: report.cost,
      belief: report.belief
        ? {
            kind: report.belief.kind,
            note: report.belief.note,
            samples: report.belief.samples,
            closeCalls: report.belief.closeCalls,
          }
        : null,
      ...(report.belief ? {} : { beliefNote: subject.beliefNote ?? null }),
      ranking: report.ranking,
      models: report.models.map((m, i) => ({
        name: m.name,
        score: m.score,
        rank: m.rank,
        pBest: report.belief ? report.belief.pBest[i] : null,
        pBestAlone: report.belief ? report.belief.pBestAlone[i] : null,
        pBestOrTied: report.belief ? report.belief.pBestOrTied[i] : null,
        rule: {
          text: m.rule.text,
          optimal: m.rule.optimal,
          ...(m.rule.threshold !== undefined
            ? { threshold: m.rule.threshold, direction: m.rule.direction }
            : {}),
          ...(m.rule.gains ? { gains: m.rule.gains } : {}),
        },
        confusion: m.confusion,
      })),
    })),
    notes,
  };
}
