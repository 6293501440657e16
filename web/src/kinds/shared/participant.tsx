// What the participant pages of every kind of several classes share: the stage line of their
// Phase II, Phase III's progress, the comparison pages of both phases, the agreement on their
// debriefs and the frame of Part 1's two systems (side by side, compact on a phone).

import type { ComponentChildren } from "preact";
import type { Choice, ParticipantState } from "../../api/types.ts";
import { agreementSentence } from "../../participant/agreement.ts";
import type { ComparisonViewBase } from "../../participant/ComparisonPage.tsx";
import { COMPACT_QUERY, useMediaQuery } from "../../participant/ComparisonView.tsx";
import { labelsFor } from "../../participant/labels.ts";
import { fillProgress } from "../../participant/progress.ts";
import type { PageProps } from "../kind.ts";

/**
 * "Part 2 of 3" of a multiclass or fairness study: of 3 when Phase III follows (the study's
 * evaluation pairs), else of 2 (`labelsFor` counts the parts; a study's own wording stays).
 * @example kindStage({ ...state, study: { ...state.study, phaseThree: false } }) // "Part 2 of 2: your preferences"
 */
export function kindStage(state: ParticipantState): string {
  return labelsFor(state).elicitationStage;
}

/**
 * Phase III's progress line and bar: the pair shown of all of them.
 * @example evaluationProgress(state, { answered: 2, total: 10 }).progressValue // 0.3
 */
export function evaluationProgress(
  state: ParticipantState,
  p: { answered: number; total: number },
): { progressText: string; progressValue: number } {
  return {
    progressText: fillProgress(labelsFor(state).progressOf, { n: p.answered + 1, total: p.total }),
    progressValue: (p.answered + 1) / Math.max(1, p.total),
  };
}

/** A kind's pending Phase II question, as the state carries it. */
interface PendingQuestion<Q> {
  question: Q;
  progress: { answered: number; atMost: number };
  canUndo: boolean;
}

/** A kind's pending Phase III pair, as the state carries it. */
interface PendingPair<Q> {
  question: Q;
  progress: { answered: number; total: number };
}

/**
 * The Phase II and Phase III pages of a kind whose comparisons `View` draws: Phase II's
 * question with the budget as the most questions there can be (and undo), Phase III's pair
 * with its progress; `pending` reads each phase's payload from the state.
 * @example
 * const pages = kindQuestionPages(FairComparisonView, {
 *   elicitation: (s) => s.fairElicitation!,
 *   evaluation: (s) => s.fairEvaluation!,
 * });
 * pages.elicitation({ state, busy: false, post }); // <FairComparisonView ... />
 */
export function kindQuestionPages<Q extends { id: number }>(
  View: (p: ComparisonViewBase & { question: Q }) => ComponentChildren,
  pending: {
    elicitation: (s: ParticipantState) => PendingQuestion<Q>;
    evaluation: (s: ParticipantState) => PendingPair<Q>;
  },
): {
  elicitation: (p: PageProps) => ComponentChildren;
  evaluation: (p: PageProps) => ComponentChildren;
} {
  return {
    elicitation: ({ state, busy, post }) => {
      const q = pending.elicitation(state);
      const done = q.progress.answered;
      return (
        <View
          words={state.study.words}
          question={q.question}
          stage={kindStage(state)}
          progressText={`Question ${done + 1} of at most ${q.progress.atMost}`}
          progressValue={done / q.progress.atMost}
          busy={busy}
          onChoose={(choice: Choice) => post("answer", { questionId: q.question.id, choice })}
          canUndo={q.canUndo}
          onUndo={() => post("undo", { questionId: q.question.id })}
        />
      );
    },
    evaluation: ({ state, busy, post }) => {
      const e = pending.evaluation(state);
      return (
        <View
          words={state.study.words}
          question={e.question}
          stage={labelsFor(state).evaluationStage}
          {...evaluationProgress(state, e.progress)}
          busy={busy}
          onChoose={(choice: Choice) => post("evaluation", { questionId: e.question.id, choice })}
        />
      );
    },
  };
}

/**
 * The agreement M of a multiclass or fairness debrief, when the study had a Phase III.
 * @example <KindAgreement d={state.fairDebrief} state={state} />
 */
export function KindAgreement({
  d,
  state,
}: {
  d: { agreementDetail?: Parameters<typeof agreementSentence>[0] };
  state: ParticipantState;
}) {
  const text = d.agreementDetail ? agreementSentence(d.agreementDetail, labelsFor(state)) : null;
  return text === null ? null : <p data-testid="agreement">{text}</p>;
}

/**
 * Part 1's two systems of a multiclass or fairness study, drawn as its comparison pages draw
 * them (side by side, compact on a phone); `system` draws one.
 * @example <KindSystemsPair noun="System" system={(side, name, compact) => <MulticlassSystem ... />} />
 */
export function KindSystemsPair({
  noun,
  system,
}: {
  noun: string;
  system: (side: "left" | "right", name: string, compact: boolean) => ComponentChildren;
}) {
  const phone = useMediaQuery(COMPACT_QUERY);
  return (
    <div class={phone ? "pair compact" : "pair"} data-testid="kind-systems">
      {(["left", "right"] as const).map((side, i) => {
        const name = `${noun} ${i === 0 ? "A" : "B"}`;
        return (
          <div class="system" data-side={side} key={side}>
            <h2>{name}</h2>
            {system(side, name, phone)}
          </div>
        );
      })}
    </div>
  );
}
