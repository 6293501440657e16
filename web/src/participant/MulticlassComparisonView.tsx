// One multiclass comparison page: two systems side by side, each shown as 100 cases of every
// true class and where the system put them, with the share it got right (on a phone, compactly:
// the share right per class, so both systems and their buttons fit one screen).
// Whole counts, every row out of the same 100: the numbers on screen are the numbers asked.
// Keyboard as on the binary page: Left, Right, 0.

import type { MulticlassComparison, MulticlassView } from "../api/types.ts";
import { ComparisonPage, type ComparisonViewBase, systemNoun } from "./ComparisonPage.tsx";
import { COMPACT_QUERY, useMediaQuery } from "./ComparisonView.tsx";

export interface MulticlassComparisonViewProps extends ComparisonViewBase {
  question: MulticlassComparison;
}

/** "A gets more “setosa” right (93 vs 88 of 100); B gets more “virginica” right (…)." */
export function multiclassDifferences(
  left: MulticlassView,
  right: MulticlassView,
  classes: readonly string[],
  noun: string,
): string {
  const better = (a: MulticlassView, b: MulticlassView) =>
    classes
      .map((c, i) => ({ c, a: a.counts[i]![i]!, b: b.counts[i]![i]! }))
      .filter((x) => x.a > x.b)
      .map((x) => `“${x.c}” (${x.a} vs ${x.b} of 100)`);
  const parts: string[] = [];
  const l = better(left, right);
  const r = better(right, left);
  if (l.length > 0) parts.push(`${noun} A gets more right of ${l.join(", ")}`);
  if (r.length > 0) parts.push(`${noun} B gets more right of ${r.join(", ")}`);
  return parts.length > 0
    ? `${parts.join("; ")}.`
    : "Both get the same number right in every class.";
}

function SystemCard(p: { name: string; view: MulticlassView; classes: readonly string[] }) {
  return (
    <div class="mc-system">
      {p.classes.map((c, i) => {
        const row = p.view.counts[i]!;
        const right = row[i]!;
        const mistakes = p.classes
          .map((d, j) => ({ d, n: row[j]!, j }))
          .filter((x) => x.j !== i && x.n > 0);
        return (
          <div class="mc-row" key={c} data-class={c}>
            <p class="mc-head">
              <strong>{`True “${c}”:`}</strong>{" "}
              {`${right} of 100 right (${Math.round(p.view.rates[i]! * 100)}%)`}
            </p>
            <div class="mc-bar" aria-hidden="true">
              <div class="mc-right" style={{ width: `${right}%` }} />
            </div>
            <p class="mc-mistakes">
              {mistakes.length === 0
                ? "None taken for another class."
                : `Taken for ${mistakes.map((x) => `“${x.d}”: ${x.n}`).join(", ")}.`}
            </p>
          </div>
        );
      })}
      <p class="visually-hidden">{`${p.name}: ${p.classes.map((c, i) => `${p.view.counts[i]![i]} of 100 ${c} right`).join("; ")}.`}</p>
    </div>
  );
}

/**
 * One system on a phone: per true class only its name, how many of 100 it gets right and the
 * bar, so that A and B sit side by side and both fit one screen with their buttons (issue 12);
 * where the rest went is in the hidden sentence a screen reader reads.
 */
function CompactSystem(p: { name: string; view: MulticlassView; classes: readonly string[] }) {
  return (
    <div class="mc-system compact">
      {p.classes.map((c, i) => {
        const right = p.view.counts[i]![i]!;
        return (
          <div class="mc-row" key={c} data-class={c}>
            <p class="mc-class">
              <strong>{`“${c}”`}</strong>
            </p>
            <p class="mc-head">{`${right} of 100 right (${Math.round(p.view.rates[i]! * 100)}%)`}</p>
            <div class="mc-bar" aria-hidden="true">
              <div class="mc-right" style={{ width: `${right}%` }} />
            </div>
          </div>
        );
      })}
      <p class="visually-hidden">
        {`${p.name}: ${p.classes
          .map((c, i) => {
            const row = p.view.counts[i]!;
            const rest = p.classes
              .map((d, j) => ({ d, n: row[j]!, j }))
              .filter((x) => x.j !== i && x.n > 0)
              .map((x) => `${x.n} taken for ${x.d}`);
            return `${row[i]} of 100 ${c} right${rest.length > 0 ? ` (${rest.join(", ")})` : ""}`;
          })
          .join("; ")}.`}
      </p>
    </div>
  );
}

/**
 * One multiclass system as the comparison page draws it: every true class's row in full, or
 * on a phone (`compact`) its counts right only.
 * @example <MulticlassSystem name="System A" view={v} classes={["a", "b", "c"]} compact={false} />
 */
export function MulticlassSystem(p: {
  name: string;
  view: MulticlassView;
  classes: readonly string[];
  compact: boolean;
}) {
  return p.compact ? <CompactSystem {...p} /> : <SystemCard {...p} />;
}

export function MulticlassComparisonView(p: MulticlassComparisonViewProps) {
  const { words, question } = p;
  const phone = useMediaQuery(COMPACT_QUERY);
  const differences = multiclassDifferences(
    question.left,
    question.right,
    question.classes,
    systemNoun(words),
  );

  return (
    <ComparisonPage
      {...p}
      note={<>Each {words.systemNoun} is shown on 100 cases of every true class.</>}
      announce={differences}
      renderSystem={(side, name) =>
        phone ? (
          <CompactSystem name={name} view={question[side]} classes={question.classes} />
        ) : (
          <SystemCard name={name} view={question[side]} classes={question.classes} />
        )
      }
      tradeOff={differences}
      compact={phone}
    />
  );
}
