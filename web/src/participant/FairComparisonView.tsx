// One fairness comparison page: two systems side by side (on a phone as numbers only), each as a
// table of every group's correct counts out of 100 people per true class, the share right of
// everyone, and the gap between the groups; a line states the trade-off between the two.
// Whole counts, every cell out of the same 100: the numbers on screen are the numbers asked.
// Keyboard as on the other comparison pages: Left, Right, 0.

import type { FairComparison, FairView } from "../api/types.ts";
import { ComparisonPage, type ComparisonViewBase, systemNoun } from "./ComparisonPage.tsx";
import { COMPACT_QUERY, useMediaQuery } from "./ComparisonView.tsx";

export interface FairComparisonViewProps extends ComparisonViewBase {
  question: FairComparison;
}

/** Average over the true classes of the share of everyone decided right (one decimal). */
export function averageRight(v: FairView): number {
  return Math.round((10 * v.overall.reduce((s, x) => s + x, 0)) / v.overall.length) / 10;
}

/** The gaps between the groups, added over the true classes (points out of 100). */
export function totalGap(v: FairView): number {
  return v.gaps.reduce((s, x) => s + x, 0);
}

/**
 * "1 point", "0 points", "12 points": a gap between groups in points of 100.
 * @example points(1) // "1 point"
 */
export function points(n: number): string {
  return `${n} ${n === 1 ? "point" : "points"}`;
}

/**
 * The trade-off in one line, from the numbers on screen: which system gets more right on
 * average, and where each has the smaller gap between the groups. People are whole (issue 27:
 * "56.5 vs 52.6 of 100"): the averages are said as whole people of 100, and two that round
 * alike as the same. The gaps are said true answer by true answer, never as one verdict: a sum
 * of gaps ranked a pair "more alike" that the person's own fairness (the metric weighs squared
 * gaps, each true answer its own way) may rank the other way, and made a trade-off read as a
 * dominated pair.
 * @example fairTradeOff(a, b, "System", ["No", "Yes"]) // "System A gets more right overall (74 vs 71 of 100 …); the gap between the groups is smaller for System A on true “No” (2 vs 9 points), and for System B on true “Yes” (1 vs 4 points)."
 */
export function fairTradeOff(
  left: FairView,
  right: FairView,
  noun: string,
  classes: readonly string[],
): string {
  const [al, ar] = [Math.round(averageRight(left)), Math.round(averageRight(right))];
  const acc =
    al === ar
      ? `both get about ${al} of 100 right on average`
      : `${noun} ${al > ar ? "A" : "B"} gets more right overall (${Math.max(al, ar)} vs ${Math.min(al, ar)} of 100, on average over the true answers)`;
  const name = (i: number) => `“${classes[i] ?? i + 1}”`;
  const smaller = (mine: FairView, theirs: FairView) =>
    mine.gaps.flatMap((g, i) =>
      g < theirs.gaps[i]! ? [`${name(i)} (${g} vs ${points(theirs.gaps[i]!)})`] : [],
    );
  const [sl, sr] = [smaller(left, right), smaller(right, left)];
  const list = (xs: string[]) =>
    xs.length === 1 ? xs[0]! : `${xs.slice(0, -1).join(", ")} and ${xs.at(-1)}`;
  const [gl, gr] = [totalGap(left), totalGap(right)];
  let gap: string;
  if (sl.length === 0 && sr.length === 0) {
    gap = `the gaps between the groups are the same for both (${points(gl)} in all)`;
  } else if (sl.length === 0 || sr.length === 0) {
    // One system's gaps are nowhere larger: that much holds whatever weighs them.
    const [side, total, other, wins] =
      sr.length === 0 ? ["A", gl, gr, sl.length] : ["B", gr, gl, sr.length];
    gap =
      wins === left.gaps.length
        ? `${noun} ${side} has the smaller gap between the groups on every true answer (${total} vs ${points(other)} in all)`
        : `${noun} ${side} has no larger gap between the groups on any true answer (${total} vs ${points(other)} in all)`;
  } else {
    gap = `the gap between the groups is smaller for ${noun} A on true ${list(sl)}, and for ${noun} B on true ${list(sr)}`;
  }
  return `${acc.charAt(0).toUpperCase()}${acc.slice(1)}; ${gap}.`;
}

/** Visible on a wide screen; on a phone read only by screen readers (the table's words). */
function Wide(p: { compact: boolean; children: string }) {
  return p.compact ? <span class="visually-hidden">{p.children}</span> : p.children;
}

/**
 * One system of a fairness comparison as a table: every group's correct counts of 100 per true
 * answer, everyone's share right and the gaps; on a phone its numbers only, in a box that
 * scrolls sideways when the names do not fit.
 * @example <FairSystemTable name="System A" view={v} groups={["Black", "White"]} classes={["No", "Yes"]} compact />
 */
export function FairSystemTable(p: {
  name: string;
  view: FairView;
  groups: readonly string[];
  classes: readonly string[];
  /** On a phone: the same table with its numbers only, so A and B fit side by side. */
  compact: boolean;
}) {
  const c = p.compact;
  const table = (
    <table class={c ? "fair-table compact" : "fair-table"}>
      <caption class="visually-hidden">{`${p.name}: people of 100 decided right, by group and true answer`}</caption>
      <thead>
        <tr>
          <th scope="col">{c ? "of 100" : "Group"}</th>
          {p.classes.map((cl) => (
            <th scope="col" key={cl}>
              <Wide compact={c}>True </Wide>
              {`“${cl}”`}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {p.groups.map((g, gi) => (
          <tr key={g} data-group={g}>
            <th scope="row">{g}</th>
            {p.classes.map((cl, i) => {
              const n = p.view.counts[gi]![i]!;
              return (
                <td key={cl} class="fair-num">
                  <span class="fair-count">
                    {String(n)}
                    <Wide compact={c}> of 100 right</Wide>
                  </span>
                  <div class="mc-bar" aria-hidden="true">
                    <div class="mc-right" style={{ width: `${n}%` }} />
                  </div>
                </td>
              );
            })}
          </tr>
        ))}
        <tr class="fair-everyone">
          <th scope="row">{c ? "All" : "Everyone"}</th>
          {p.classes.map((cl, i) => (
            <td key={cl} class="fair-num">
              {/* One decimal always: "54%" beside "41.3%" read as two precisions. */}
              {`${p.view.overall[i]!.toFixed(1)}%`}
              <Wide compact={c}> right</Wide>
            </td>
          ))}
        </tr>
        <tr class="fair-gap">
          <th scope="row">
            Gap<Wide compact={c}> between groups</Wide>
          </th>
          {p.classes.map((cl, i) => (
            <td key={cl} class="fair-num">
              <strong>
                {String(p.view.gaps[i])}
                <Wide compact={c}>{p.view.gaps[i] === 1 ? " point" : " points"}</Wide>
              </strong>
            </td>
          ))}
        </tr>
      </tbody>
    </table>
  );
  // On a phone a table whose group or class names do not fit scrolls sideways inside its
  // system's box instead of breaking a word or a number (issue 27: "Fem/ale", "26.8/%").
  return c ? (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that may scroll sideways must be reachable by keyboard (axe: scrollable-region-focusable)
    <section class="fair-table-scroll" tabIndex={0} aria-label={`${p.name}, table`}>
      {table}
    </section>
  ) : (
    table
  );
}

export function FairComparisonView(p: FairComparisonViewProps) {
  const { words, question } = p;
  const tradeOff = fairTradeOff(question.left, question.right, systemNoun(words), question.classes);
  const phone = useMediaQuery(COMPACT_QUERY);

  return (
    <ComparisonPage
      {...p}
      note={
        <>Each {words.systemNoun} is shown on 100 people of every group and every true answer.</>
      }
      announce={tradeOff}
      renderSystem={(side, name) => (
        <FairSystemTable
          name={name}
          view={question[side]}
          groups={question.groups}
          classes={question.classes}
          compact={phone}
        />
      )}
      tradeOff={tradeOff}
      compact={phone}
    />
  );
}
