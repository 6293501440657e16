// A multiclass study's participant pages: Part 1's two systems as tables of 100 per true
// class, the comparison pages of Phases II and III and the debrief (every class's weight, or
// every kind of mistake's share of the cost).

import type { ParticipantState } from "../../api/types.ts";
import { consistencySentence } from "../../participant/agreement.ts";
import { labelsFor } from "../../participant/labels.ts";
import {
  MulticlassComparisonView,
  MulticlassSystem,
} from "../../participant/MulticlassComparisonView.tsx";
import { ResultText } from "../../participant/ResultText.tsx";
import { classWeightText } from "../../researcher/metric.ts";
import { KindAgreement, KindSystemsPair, kindQuestionPages } from "../shared/participant.tsx";

/**
 * Part 1's two systems, drawn as the comparison pages draw them.
 * @example <MulticlassComprehensionSystems state={stateAtComprehension} noun="System" />
 */
export function MulticlassComprehensionSystems({
  state,
  noun,
}: {
  state: ParticipantState;
  noun: string;
}) {
  const systems = state.comprehension?.kindSystems;
  if (systems?.kind !== "multiclass") return null;
  return (
    <KindSystemsPair
      noun={noun}
      system={(side, name, compact) => (
        <MulticlassSystem
          name={name}
          view={systems[side]}
          classes={systems.classes}
          compact={compact}
        />
      )}
    />
  );
}

/** Phase II's question and Phase III's pair, drawn by `MulticlassComparisonView`. */
const pages = kindQuestionPages(MulticlassComparisonView, {
  elicitation: (s) => s.multiclassElicitation!,
  evaluation: (s) => s.multiclassEvaluation!,
});

/**
 * Phase II: the pending question, with the budget as the most questions there can be.
 * @example multiclassElicitation({ state, busy: false, post }) // <MulticlassComparisonView ... />
 */
export const multiclassElicitation = pages.elicitation;

/**
 * Phase III: the pending evaluation pair.
 * @example multiclassEvaluation({ state, busy: false, post })
 */
export const multiclassEvaluation = pages.evaluation;

/**
 * A multiclass debrief: the mistake minded most in words, and every class's weight.
 * @example <MulticlassDebrief state={stateAtDebrief} />
 */
export function MulticlassDebrief({ state }: { state: ParticipantState }) {
  const d = state.multiclassDebrief!;
  const L = labelsFor(state);
  const consistency = d.consistency ? consistencySentence(d.consistency, L) : null;
  return (
    <section>
      <h1>Thank you!</h1>
      <div class="result-box" data-testid="result">
        <h2>From your comparisons</h2>
        <ResultText text={d.summary} />
        {d.mistakes !== undefined ? (
          <ul class="mc-weights" data-testid="mistakes">
            {d.mistakes.map((m) => (
              <li key={`${m.from}-${m.to}`}>
                <span>{`A true “${m.from}” taken for “${m.to}”`}</span>
                <div class="mc-bar" aria-hidden="true">
                  <div class="mc-right" style={{ width: `${Math.round(m.share * 100)}%` }} />
                </div>
                <span>
                  {`${Math.round(m.share * 100)}% of the weight${m.halfWidth !== null ? " (uncertain)" : ""}`}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <ul class="mc-weights">
            {d.classes.map((c, i) => (
              <li key={c}>
                <span>{`A true “${c}” taken for another class`}</span>
                <div class="mc-bar" aria-hidden="true">
                  <div
                    class="mc-right"
                    style={{ width: `${Math.round(d.classWeights[i]! * 100)}%` }}
                  />
                </div>
                <span>
                  {`${classWeightText(d.classWeights[i]!, d.classRanges?.[i])} of the weight${d.halfWidths[i] != null ? " (uncertain)" : ""}`}
                </span>
              </li>
            ))}
          </ul>
        )}
        <p class="muted">
          How much each kind of mistake weighs for you, per case, as your answers show it.
        </p>
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
