// The study section: what was studied and how (kind, family, data, classes and groups, the
// strategy, Phase III) and who took part (finished, not finished, test runs left out).

import { html, type SafeHtml } from "../html.ts";
import type { ReportContext, ReportKind } from "../kinds/kind.ts";
import { counted, inWords } from "../text.ts";

/** Where the candidate classifiers come from, in words. */
function dataText(ctx: ReportContext): string {
  const c = ctx.exp.study.config;
  const s = c.source;
  const file =
    s.file === undefined || s.file === "uploaded dataset" ? "an uploaded dataset" : s.file;
  if (c.template === "cancer-diagnosis") return `the built-in “Cancer diagnosis” study (${file})`;
  switch (s.kind) {
    case "predictions":
    case "multiclass-predictions":
      return "uploaded predictions (the researcher's own model)";
    case "fair-predictions":
      return `uploaded predictions with the group column “${s.groups}”`;
    case "fair-dataset":
      return `${file}, label column “${s.target}”, groups by “${s.groups}”`;
    default:
      return s.target === undefined ? file : `${file}, label column “${s.target}”`;
  }
}

/** How the questions were chosen, in words. */
function strategyText(ctx: ReportContext): string {
  const s = ctx.exp.study.config.spec;
  if (s.strategy !== "adaptive")
    return `the papers' search (${s.strategy}), tolerance ${s.tolerance}`;
  const cred =
    s.credibility === undefined ? "" : `, ${Math.round(s.credibility * 100)}% credible regions`;
  const budget = s.budget === undefined ? "" : `at most ${s.budget} questions`;
  return `the adaptive engine: ${budget}${cred}, tolerance ${s.tolerance}`;
}

/** Phase III in words. */
function phaseThreeText(ctx: ReportContext): string {
  const c = ctx.exp.study.config;
  if (c.evaluationPairs === 0) return "none (no evaluation pairs)";
  const retests = c.retestPairs ?? 0;
  return `${counted(c.evaluationPairs, "random pair")}${retests > 0 ? ` and ${counted(retests, "Phase II pair")} shown again` : ""}, to measure agreement M and consistency`;
}

/**
 * Who took part, in words: people invited (test runs apart) by how far they got, the test
 * runs and pilot participants left out.
 * @example participantsText(ctx) // "5 invited: 4 finished, 1 started and not finished; 1 test run (left out of the consensus)"
 */
export function participantsText(ctx: ReportContext): string {
  const ps = ctx.exp.participants;
  const people = ps.filter((p) => !p.test);
  const by = (status: string) => people.filter((p) => p.status === status).length;
  const parts = [
    `${by("done")} finished`,
    ...(by("started") > 0 ? [`${by("started")} started and not finished`] : []),
    ...(by("invited") > 0 ? [`${by("invited")} not started`] : []),
    ...(by("withdrawn") > 0 ? [`${by("withdrawn")} withdrew`] : []),
  ];
  const tests = ps.filter((p) => p.test);
  const testsDone = tests.filter((p) => p.status === "done").length;
  const pilot = people.filter((p) => p.pilot).length;
  return [
    `${people.length} invited: ${parts.join(", ")}`,
    ...(pilot > 0 ? [`${counted(pilot, "pilot participant")} (left out of the consensus)`] : []),
    `${counted(tests.length, "test run")}${tests.length > 0 ? ` (${testsDone} finished), left out of the consensus` : ""}`,
  ].join("; ");
}

/** The study section. */
export function studySection(ctx: ReportContext, kind: ReportKind): SafeHtml {
  const { study } = ctx.exp;
  const c = study.config;
  const fact = (term: string, value: string) => html`<dt>${term}</dt><dd>${value}</dd>`;
  return html`<section aria-labelledby="study-heading"><h2 id="study-heading">The study</h2><dl class="facts">${[
    fact("Kind", kind.label),
    fact("Family", `${c.spec.family}: ${kind.elicits(ctx)}`),
    fact("Data", dataText(ctx)),
    fact(
      "Classes",
      `${inWords(ctx.classes.map((k) => `“${k}”`))}${c.kind === undefined || c.kind === "binary" ? ` (positive: “${ctx.classes[1]}”; ${c.words.missed} and ${c.words.falseAlarm})` : ""}`,
    ),
    ctx.groups.length > 0 ? fact("Groups", inWords(ctx.groups.map((g) => `“${g}”`))) : null,
    fact("Questions", strategyText(ctx)),
    fact("Phase III", phaseThreeText(ctx)),
    fact(
      "Status",
      `${study.status}${study.openedAt ? `, opened ${study.openedAt.slice(0, 10)}` : ""}`,
    ),
    fact("Participants", participantsText(ctx)),
  ]}</dl></section>`;
}
