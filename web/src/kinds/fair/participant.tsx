// A fairness study's participant pages: Part 1's two systems as tables of every group's
// correct counts, the comparison pages of Phases II and III and the debrief (the trade-off
// lambda as a range on a line from 0 to 1, and for the whole fair metric its costs and gaps).

import type { ParticipantState } from "../../api/types.ts";
import { consistencySentence } from "../../participant/agreement.ts";
import { FairComparisonView, FairSystemTable } from "../../participant/FairComparisonView.tsx";
import { labelsFor } from "../../participant/labels.ts";
import { ResultText } from "../../participant/ResultText.tsx";
import { KindAgreement, KindSystemsPair, kindQuestionPages } from "../shared/participant.tsx";

/**
 * Part 1's two systems, drawn as the comparison pages draw them.
 * @example <FairComprehensionSystems state={stateAtComprehension} noun="System" />
 */
export function FairComprehensionSystems({
  state,
  noun,
}: {
  state: ParticipantState;
  noun: string;
}) {
  const systems = state.comprehension?.kindSystems;
  if (systems?.kind !== "fair") return null;
  return (
    <KindSystemsPair
      noun={noun}
      system={(side, name, compact) => (
        <FairSystemTable
          name={name}
          view={systems[side]}
          groups={systems.groups}
          classes={systems.classes}
          compact={compact}
        />
      )}
    />
  );
}

/** Phase II's question and Phase III's pair, drawn by `FairComparisonView`. */
const pages = kindQuestionPages(FairComparisonView, {
  elicitation: (s) => s.fairElicitation!,
  evaluation: (s) => s.fairEvaluation!,
});

/**
 * Phase II: the pending question, with the budget as the most questions there can be.
 * @example fairElicitation({ state, busy: false, post }) // <FairComparisonView ... />
 */
export const fairElicitation = pages.elicitation;

/**
 * Phase III: the pending evaluation pair.
 * @example fairEvaluation({ state, busy: false, post })
 */
export const fairEvaluation = pages.evaluation;

/**
 * A fairness debrief: the trade-off lambda as a range on a line from 0 to 1, in words.
 * @example <FairDebrief state={stateAtDebrief} />
 */
export function FairDebrief({ state }: { state: ParticipantState }) {
  const d = state.fairDebrief!;
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const consistency = d.consistency ? consistencySentence(d.consistency, labelsFor(state)) : null;
  return (
    <section>
      <h1>Thank you!</h1>
      <div class="result-box" data-testid="result">
        <h2>From your comparisons</h2>
        {/* The lean in plain words is the result; lambda's numbers before it are its detail. */}
        <ResultText text={d.summary} emphasise={1} />
        <div class="fair-scale" aria-hidden="true">
          <div
            class="fair-range"
            style={{ left: pct(d.metric.low), width: pct(d.metric.high - d.metric.low) }}
          />
          <div class="fair-point" style={{ left: pct(d.metric.lambda) }} />
        </div>
        <p class="fair-scale-ends muted">
          <span>0: only being right overall</span>
          <span>1: only treating the groups alike</span>
        </p>
        {d.full !== undefined && <FairWhole d={d} />}
        <KindAgreement d={d} state={state} />
        {consistency !== null && <p data-testid="consistency">{consistency}</p>}
      </div>
      <p>
        Your completion code: <strong data-testid="completion-code">{d.completionCode}</strong>
      </p>
      <p class="muted">You can close this page now.</p>
    </section>
  );
}

/**
 * The whole fair metric on the debrief: per true class what a wrong decision costs (`a_i`) and
 * how much the gap between groups weighs (the diagonal of `B`, summed over group pairs), each
 * marked "(uncertain)" where the answers left it open.
 */
function FairWhole({ d }: { d: NonNullable<ParticipantState["fairDebrief"]> }) {
  const full = d.full!;
  const open = new Set(full.unidentified.map((u) => u.name));
  const gap = (i: number) => Object.values(full.B).reduce((s, M) => s + (M[i]?.[i] ?? 0), 0);
  const gapOpen = (i: number) =>
    [...open].some((n) => n.startsWith("B") && n.endsWith(`_${i + 1}${i + 1}`));
  const mark = (uncertain: boolean) => (uncertain ? " (uncertain)" : "");
  return (
    <table class="fair-whole" data-testid="fair-full">
      <caption>What matters to you, per true answer</caption>
      <thead>
        <tr>
          <th scope="col">True answer</th>
          <th scope="col">Cost of a wrong decision</th>
          <th scope="col">Weight of the gap between groups</th>
        </tr>
      </thead>
      <tbody>
        {d.classes.map((c, i) => (
          <tr key={c}>
            <th scope="row">{`“${c}”`}</th>
            <td>{`${full.a[i]!.toFixed(2)}${mark(open.has(`a${i + 1}`))}`}</td>
            <td>{`${gap(i).toFixed(2)}${mark(gapOpen(i))}`}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
