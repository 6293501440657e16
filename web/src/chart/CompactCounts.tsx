// A system's four counts as a compact table, for the comparison page on a phone: narrow
// enough that systems A and B fit side by side, with their trade-off line and both "I prefer"
// buttons, in one phone screen (issue 11). Pure: props in, markup out.

import { DEFAULT_PAGE_LABELS } from "../../../src/server/study/page-label-defaults.ts";
import type { StudyWords, SystemView } from "../api/types.ts";
import type { TableLabels } from "./FlowChart.tsx";
import { fillIn, formatCount, peopleOutOf } from "./format.ts";

export interface CompactCountsProps {
  system: SystemView;
  words: StudyWords;
  /** "System A" (the table's caption, read by screen readers). */
  name: string;
  /** The study's words for the table (page labels; the built-in wording when absent). */
  labels?: TableLabels | undefined;
}

/**
 * The counts of one binary system, grouped by true class, the two kinds of mistake in bold.
 * @example
 * <CompactCounts system={{ tp: 31, fn: 3, fp: 13, tn: 53, tpr: 0.91, tnr: 0.8, threshold: 0.4 }}
 *   words={words} name="System A" />
 */
export function CompactCounts({
  system: s,
  words: w,
  name,
  labels: L = DEFAULT_PAGE_LABELS,
}: CompactCountsProps) {
  const pos = s.tp + s.fn;
  const neg = s.fp + s.tn;
  const row = (outcome: "tp" | "fn" | "fp" | "tn", label: string, n: number, mistake: boolean) => (
    <tr data-outcome={outcome} data-count={n} class={mistake ? "mistake" : undefined}>
      <th scope="row">{label}</th>
      <td>{formatCount(n)}</td>
    </tr>
  );
  return (
    <table class="compact-counts">
      <caption class="visually-hidden">
        {fillIn(L.tableCaption, { name, people: peopleOutOf(s, w.people) })}
      </caption>
      <tbody class="compact-positive">
        <tr>
          <th scope="rowgroup" colSpan={2}>
            {fillIn(L.compactClass, { n: formatCount(pos), class: w.positive })}
          </th>
        </tr>
        {row("fn", w.missed, s.fn, true)}
        {row("tp", w.predictedPositive, s.tp, false)}
      </tbody>
      <tbody class="compact-negative">
        <tr>
          <th scope="rowgroup" colSpan={2}>
            {fillIn(L.compactClass, { n: formatCount(neg), class: w.negative })}
          </th>
        </tr>
        {row("fp", w.falseAlarm, s.fp, true)}
        {row("tn", w.predictedNegative, s.tn, false)}
      </tbody>
    </table>
  );
}
