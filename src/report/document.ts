// A study's report as one self-contained HTML page (issue 29 item 3): the style inline, the
// plots inline SVG, no script and no network (its Content-Security-Policy allows neither),
// readable from a 390 px phone to a desktop. Every string from the export is escaped.

import { html, SafeHtml } from "./html.ts";
import type { ReportContext, ReportKind } from "./kinds/kind.ts";
import { reportKindOf } from "./kinds/registry.ts";
import { reportNames, type StudyNames } from "./names.ts";
import type { StudyExport } from "./schema.ts";
import { consensusSection, NOBODY, whoLine } from "./sections/consensus.ts";
import { consistencySection } from "./sections/consistency.ts";
import { debriefsSection } from "./sections/debriefs.ts";
import { recommendedSection } from "./sections/recommended.ts";
import { resultsSection } from "./sections/results.ts";
import { participantsText, studySection } from "./sections/study.ts";
import { REPORT_CSS } from "./style.ts";
import { percent } from "./text.ts";

/** What a report may be given besides the export. */
export interface ReportOptions {
  /** The study's class and group names from its data, when the caller could read them. */
  readonly names?: StudyNames | null;
}

/** The median of `xs` (non-empty). */
function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const h = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

/** The report's first lines: who took part, the consensus and agreement in a sentence each. */
function glance(ctx: ReportContext, kind: ReportKind): SafeHtml {
  const c = ctx.exp.consensus;
  const counted = ctx.exp.participants.filter((p) => c?.participants.includes(p.id));
  const ms = counted.flatMap((p) => (p.summary.agreement === null ? [] : [p.summary.agreement]));
  const best = c === null || c.n === 0 ? null : kind.best(c, ctx);
  // A kind's consensus in a line or two (binary, fair); per class (multiclass) it is below.
  const figures = c === null || c.n === 0 ? [] : kind.consensusLines(c, ctx);
  const lines = [
    `Participants: ${participantsText(ctx)}.`,
    c === null ? NOBODY : `Consensus: ${whoLine(c)}`,
    ...(figures.length <= 2 ? figures : []),
    ...(best === null ? [] : [best.lines[0]!]),
    ...(ms.length > 0
      ? [`Median agreement M of the participants counted: ${percent(median(ms))}.`]
      : []),
  ];
  return html`<div class="glance"><ul>${lines.map((l) => html`<li>${l}</li>`)}</ul></div>`;
}

/**
 * The HTML page reporting on the study in `exp` (a checked study.json export).
 * @example writeFileSync("report.html", reportHtml(parseStudyExport(text, "study.json")))
 */
export function reportHtml(exp: StudyExport, o: ReportOptions = {}): string {
  const names = reportNames(exp, o.names ?? null);
  const ctx: ReportContext = { exp, classes: names.classes, groups: names.groups };
  const kind = reportKindOf(exp.study.config);
  const title = exp.study.name !== "" ? exp.study.name : `Study ${exp.study.id}`;
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${`Report: ${title}`}</title>
<style>${new SafeHtml(REPORT_CSS)}</style>
</head>
<body>
<header><p class="muted">Metric-elicitation study report</p><h1>${title}</h1><p class="muted">${`Study #${exp.study.id}, ${exp.study.status}; exported ${exp.exportedAt.slice(0, 16).replace("T", " ")} UTC by ${exp.software.name} ${exp.software.version}.`}</p></header>
<main>
${glance(ctx, kind)}
${studySection(ctx, kind)}
${consensusSection(ctx, kind)}
${recommendedSection(ctx, kind)}
${resultsSection(ctx, kind)}
${consistencySection(ctx)}
${debriefsSection(ctx, kind)}
</main>
<footer><p>${`Made by elicit report from the study's study.json export. This page loads nothing from the network and runs no script.`}</p></footer>
</body>
</html>
`;
  return page.value;
}
