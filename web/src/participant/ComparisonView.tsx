// One comparison page: the question, systems A and B side by side (stacked on phones), and
// "I prefer A" / "I prefer B" / "They seem about the same". Keyboard: Left, Right, 0.

import { useEffect, useRef, useState } from "preact/hooks";
import type { Choice, Comparison, StudyWords } from "../api/types.ts";
import type { FlowChartProps } from "../chart/FlowChart.tsx";
import { FlowChart } from "../chart/FlowChart.tsx";
import { tradeOffLine } from "../chart/format.ts";
import { ResponsiveFlowChart } from "../chart/ResponsiveFlowChart.tsx";

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

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
}

export function ComparisonView(p: ComparisonViewProps) {
  const [showTables, setShowTables] = useState(false);
  const { words, question, busy, onChoose } = p;
  const noun = words.systemNoun.charAt(0).toUpperCase() + words.systemNoun.slice(1);
  const tradeOff = tradeOffLine(question.left, question.right, words);

  // The key listener reads the current busy flag and handler through refs set at render: a
  // listener re-registered in an effect runs after the new pair is painted, and a key pressed
  // in between went to the old listener, which still thought the page was busy (dropped).
  const live = useRef({ busy, onChoose });
  live.current = { busy, onChoose };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
      let choice: Choice | null = null;
      if (e.key === "ArrowLeft") choice = "left";
      else if (e.key === "ArrowRight") choice = "right";
      else if (e.key === "0") choice = "same";
      if (choice === null) return;
      e.preventDefault();
      if (!live.current.busy) live.current.onChoose(choice);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

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
      <div class="progress">
        <span>{p.stage}</span>
        <progress max={1} value={p.progressValue} aria-label="Progress" />
        <span>{p.progressText}</span>
      </div>
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
          <button
            type="button"
            class="choose"
            disabled={busy}
            aria-keyshortcuts="ArrowLeft"
            onClick={() => onChoose("left")}
          >
            I prefer A
          </button>
        </div>
        <div class="system" data-side="right">
          <h2>{`${noun} B`}</h2>
          {chart("right", "B")}
          <button
            type="button"
            class="choose"
            disabled={busy}
            aria-keyshortcuts="ArrowRight"
            onClick={() => onChoose("right")}
          >
            I prefer B
          </button>
        </div>
      </div>
      <p class="trade-off" data-testid="trade-off">
        {tradeOff}
      </p>
      <div class="same-row">
        <button
          type="button"
          class="secondary"
          disabled={busy}
          aria-keyshortcuts="0"
          onClick={() => onChoose("same")}
        >
          They seem about the same
        </button>
      </div>
      <p class="keys">
        Keyboard: <kbd>←</kbd> A, <kbd>→</kbd> B, <kbd>0</kbd> about the same.
      </p>
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
