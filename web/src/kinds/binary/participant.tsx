// A binary study's participant pages: the costs of each mistake under the story, Part 1's
// worked example and flow charts, the comparison pages of Phases II and III and the debrief
// (the cost ratio as a range beside the participant's own guess).

import type { Choice, ParticipantState } from "../../api/types.ts";
import { capitalise } from "../../chart/layout.ts";
import { ResponsiveFlowChart } from "../../chart/ResponsiveFlowChart.tsx";
import { agreementSentence, consistencySentence } from "../../participant/agreement.ts";
import { ComparisonView } from "../../participant/ComparisonView.tsx";
import { labelsFor } from "../../participant/labels.ts";
import { elicitationProgress, fillProgress } from "../../participant/progress.ts";
import { ResultText } from "../../participant/ResultText.tsx";
import { workedExample } from "../../participant/worked-example.ts";
import type { PageProps } from "../kind.ts";

/**
 * Under the story: what each kind of mistake means, in the study's words.
 * @example <StoryCosts state={stateAtStory} />
 */
export function StoryCosts({ state }: { state: ParticipantState }) {
  const words = state.study.words;
  return (
    <div class="costs">
      <section>
        <h2>{`What ${words.missed} mean`}</h2>
        <p>{state.story?.costs.missed}</p>
      </section>
      <section>
        <h2>{`What ${words.falseAlarm} mean`}</h2>
        <p>{state.story?.costs.falseAlarm}</p>
      </section>
    </div>
  );
}

/**
 * Part 1's two systems as flow charts, the first question with a worked example above them.
 * @example <BinaryComprehensionSystems state={stateAtComprehension} noun="System" />
 */
export function BinaryComprehensionSystems({
  state,
  noun,
}: {
  state: ParticipantState;
  noun: string;
}) {
  const c = state.comprehension!;
  const words = state.study.words;
  const L = labelsFor(state);
  if (c.systems === undefined) return null;
  return (
    <>
      {c.index === 0 && (
        <div class="worked-example" data-testid="worked-example">
          <h2>{L.workedExampleHeading.replaceAll("{system}", words.systemNoun)}</h2>
          {workedExample(c.systems[0], words, `${noun} A`, L).map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      )}
      <div class="pair">
        {c.systems.map((s, i) => (
          <div class="system" key={i === 0 ? "a" : "b"}>
            <h2>{`${noun} ${i === 0 ? "A" : "B"}`}</h2>
            <ResponsiveFlowChart
              system={s}
              words={words}
              name={`${noun} ${i === 0 ? "A" : "B"}`}
              id={`c${c.index}-${i}`}
            />
          </div>
        ))}
      </div>
    </>
  );
}

/**
 * Phase II: the pending question of the search, with only what is certain of the progress
 * (the searches' upper bound, an adaptive study's budget; see progress.ts).
 * @example binaryElicitation({ state, busy: false, post }) // <ComparisonView ... />
 */
export function binaryElicitation({ state, busy, post }: PageProps) {
  const e = state.elicitation!;
  const L = labelsFor(state);
  const progress = elicitationProgress(e.progress, L);
  return (
    <ComparisonView
      words={state.study.words}
      question={e.question}
      stage={L.elicitationStage}
      labels={L}
      progressText={progress.text}
      progressValue={progress.value}
      busy={busy}
      onChoose={(choice: Choice) => post("answer", { questionId: e.question.id, choice })}
      canUndo={e.canUndo}
      onUndo={() => post("undo", { questionId: e.question.id })}
    />
  );
}

/**
 * Phase III: the pending evaluation pair.
 * @example binaryEvaluation({ state, busy: false, post })
 */
export function binaryEvaluation({ state, busy, post }: PageProps) {
  const e = state.evaluation!;
  const L = labelsFor(state);
  return (
    <ComparisonView
      words={state.study.words}
      question={e.question}
      stage={L.evaluationStage}
      labels={L}
      progressText={fillProgress(L.progressOf, {
        n: e.progress.answered + 1,
        total: e.progress.total,
      })}
      progressValue={(e.progress.answered + 1) / Math.max(1, e.progress.total)}
      busy={busy}
      onChoose={(choice: Choice) => post("evaluation", { questionId: e.question.id, choice })}
    />
  );
}

/** "5", "2.5", "12": a ratio as the debrief prints it. */
function formatRatio(x: number): string {
  return x >= 10 ? String(Math.round(x)) : x.toFixed(1).replace(/\.0$/, "");
}

/**
 * The binary debrief: the result as a range beside the participant's own guess, the agreement
 * M both ways in one plain paragraph, and the completion code.
 * @example <Debrief state={stateAtDebrief} />
 */
export function Debrief({ state }: { state: ParticipantState }) {
  const d = state.debrief!;
  const w = state.study.words;
  const L = labelsFor(state);
  const inRange =
    d.guess !== null &&
    d.guess >= d.range.low &&
    (d.range.high === null || d.guess <= d.range.high);
  // Answers that leave every ratio open (the summary says they do not tell which mistake is
  // worse) have no range to note or to hold a guess: "within the range" would be empty words.
  const open = d.range.low <= 0 && d.range.high === null;
  return (
    <section>
      <h1>{L.debriefHeading}</h1>
      <div class="result-pair">
        <div class="result-box" data-testid="result">
          <h2>{L.debriefResultHeading}</h2>
          <ResultText text={d.summary} />
          {!open && <p class="muted">{L.debriefRangeNote}</p>}
        </div>
        <div class="result-box" data-testid="guess">
          <h2>{L.debriefGuessHeading}</h2>
          {d.guess === null ? (
            <p>{L.debriefGuessSkipped}</p>
          ) : (
            <>
              <ResultText
                text={`${capitalise(w.missed)}: ${formatRatio(d.guess)} times as bad as ${w.falseAlarm}.`}
              />
              <p class="muted">
                {open ? L.debriefGuessOpen : inRange ? L.debriefGuessInside : L.debriefGuessOutside}
              </p>
            </>
          )}
        </div>
      </div>
      {agreementSentence(d.agreementDetail, L) !== null && (
        <p data-testid="agreement">{agreementSentence(d.agreementDetail, L)}</p>
      )}
      {d.consistency && consistencySentence(d.consistency, L) !== null && (
        <p data-testid="consistency">{consistencySentence(d.consistency, L)}</p>
      )}
      <p>
        {`${L.completionCode} `}
        <strong data-testid="completion-code">{d.completionCode}</strong>
      </p>
      <p class="muted">{L.debriefClose}</p>
    </section>
  );
}
