// One comparison page: the question, systems A and B side by side (stacked on phones), and
// "I prefer A" / "I prefer B" / "They seem about the same". Keyboard: Left, Right, 0.

import { useState } from "preact/hooks";
import type { Choice, Comparison, StudyWords } from "../api/types.ts";
import type { FlowChartProps } from "../chart/FlowChart.tsx";
import { FlowChart } from "../chart/FlowChart.tsx";
import { tradeOffLine } from "../chart/format.ts";
import { ResponsiveFlowChart } from "../chart/ResponsiveFlowChart.tsx";
import { PreferButton, ProgressLine, SameAndKeys, useChoiceKeys } from "./ChoiceControls.tsx";

export interface ComparisonViewProps {
  words: StudyWords;
  question: Comparison;
  /** e.g. "Part 2 of 3: your preferences" */
  stage: string;
  /** e.g. "Question 4 · about 6 more" */
  progressText: string;
  /** 0..1 for the progress bar. */
  progressValue: number;
  busy: boolean;
  onChoose: (choice: Choice) => void;
  canUndo?: boolean;
  onUndo?: () => void;
  /** Server-side/tests: fixed chart width instead of measuring. */
  fixedWidth?: number;
}

export function ComparisonView(p: ComparisonViewProps) {
  const [showTables, setShowTables] = useState(false);
  const { words, question, busy, onChoose } = p;
  const noun = words.systemNoun.charAt(0).toUpperCase() + words.systemNoun.slice(1);
  const tradeOff = tradeOffLine(question.left, question.right, words);

  useChoiceKeys(busy, onChoose);

  const chart = (side: "left" | "right", letter: string) => {
    const props: Omit<FlowChartProps, "width"> = {
      system: question[side],
      words,
      name: `${noun} ${letter}`,
      id: `q${question.id}-${side}`,
      showTable: showTables,
    };
    return p.fixedWidth !== undefined ? (
      <FlowChart {...props} width={p.fixedWidth} />
    ) : (
      <ResponsiveFlowChart {...props} />
    );
  };

  return (
    <section class="comparison" aria-labelledby="question-text">
      <ProgressLine stage={p.stage} progressValue={p.progressValue} progressText={p.progressText} />
      <h1 id="question-text" class="question">
        {words.question}
      </h1>
      <p class="visually-hidden" aria-live="polite" aria-atomic="true">
        {`New pair shown: ${p.progressText}. ${noun} A on the left, ${noun} B on the right. ${tradeOff}`}
      </p>
      <div class="pair" data-question-id={question.id}>
        <div class="system" data-side="left">
          <h2>{`${noun} A`}</h2>
          {chart("left", "A")}
          <PreferButton side="left" busy={busy} onChoose={onChoose} />
        </div>
        <div class="system" data-side="right">
          <h2>{`${noun} B`}</h2>
          {chart("right", "B")}
          <PreferButton side="right" busy={busy} onChoose={onChoose} />
        </div>
      </div>
      <p class="trade-off" data-testid="trade-off">
        {tradeOff}
      </p>
      <SameAndKeys busy={busy} onChoose={onChoose} />
      <div class="tools">
        <button
          type="button"
          class="secondary"
          aria-pressed={showTables}
          onClick={() => setShowTables(!showTables)}
        >
          {showTables ? "Hide the numbers as tables" : "Show the numbers as tables"}
        </button>
        {p.onUndo !== undefined && (
          <button
            type="button"
            class="secondary"
            disabled={busy || p.canUndo !== true}
            onClick={p.onUndo}
          >
            Undo last answer
          </button>
        )}
      </div>
    </section>
  );
}
