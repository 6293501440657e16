// The frame every comparison page shares, whatever the systems look like: progress line,
// the question, an optional note under it, the live announcement of a new pair, systems A and B
// side by side (stacked on phones) each with its "I prefer" button, the trade-off line,
// "They seem about the same" with the keyboard hint, and the tools row (Undo and any extra
// tools). The keys Left, Right and 0 are bound here. The binary, multiclass and fairness
// pages differ only in how one system is drawn (renderSystem) and in their texts.

import type { ComponentChildren } from "preact";
import {
  DEFAULT_PAGE_LABELS,
  type PageLabels,
} from "../../../src/server/study/page-label-defaults.ts";
import type { Choice, StudyWords } from "../api/types.ts";
import {
  firstClickOnly,
  PreferButton,
  ProgressLine,
  SameAndKeys,
  useChoiceKeys,
} from "./ChoiceControls.tsx";

/** What every comparison view takes besides its question (the page's state and handlers). */
export interface ComparisonViewBase {
  words: StudyWords;
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
  /** The study's page labels (buttons, keyboard hint); the defaults when absent. */
  labels?: PageLabels;
}

/**
 * The study's word for a system, capitalised as in the headings "System A" and "System B".
 * @example systemNoun({ ...words, systemNoun: "system" }) // "System"
 */
export function systemNoun(words: StudyWords): string {
  return words.systemNoun.charAt(0).toUpperCase() + words.systemNoun.slice(1);
}

export interface ComparisonPageProps extends ComparisonViewBase {
  /** The pair shown (its id goes on the pair's element as data-question-id). */
  question: { id: number };
  /** A note under the heading (a paragraph of class "muted"); none when undefined. */
  note?: ComponentChildren;
  /** What a screen reader hears after "New pair shown: {progressText}. " */
  announce: string;
  /** One system's drawing; name is its heading, e.g. "System A". */
  renderSystem: (side: "left" | "right", name: string) => ComponentChildren;
  /** The line under the pair saying how the two differ. */
  tradeOff: string;
  /** Tools before "Undo last answer"; the tools row is shown when this or onUndo is given. */
  tools?: ComponentChildren;
  /** Systems side by side even on a phone (each drawn compactly by renderSystem). */
  compact?: boolean;
}

/**
 * One comparison page around two systems drawn by the caller; the heading is the study's
 * question (words.question), the systems are named by systemNoun(words).
 * @example
 * <ComparisonPage {...props} announce={line} tradeOff={line}
 *   renderSystem={(side, name) => <Card name={name} view={props.question[side]} />} />
 */
export function ComparisonPage(p: ComparisonPageProps) {
  const { busy, onChoose } = p;
  const noun = systemNoun(p.words);
  const L = p.labels ?? DEFAULT_PAGE_LABELS;
  useChoiceKeys(busy, onChoose);

  return (
    <section class="comparison" aria-labelledby="question-text">
      <ProgressLine stage={p.stage} progressValue={p.progressValue} progressText={p.progressText} />
      <h1 id="question-text" class="question">
        {p.words.question}
      </h1>
      {p.note !== undefined && <p class="muted">{p.note}</p>}
      <p class="visually-hidden" aria-live="polite" aria-atomic="true">
        {`New pair shown: ${p.progressText}. ${p.announce}`}
      </p>
      <div class={p.compact === true ? "pair compact" : "pair"} data-question-id={p.question.id}>
        {(["left", "right"] as const).map((side) => {
          const name = `${noun} ${side === "left" ? "A" : "B"}`;
          return (
            <div class="system" data-side={side} key={side}>
              <h2>{name}</h2>
              {p.renderSystem(side, name)}
              <PreferButton side={side} busy={busy} onChoose={onChoose} prefer={L.preferButton} />
            </div>
          );
        })}
      </div>
      <p class="trade-off" data-testid="trade-off">
        {p.tradeOff}
      </p>
      <SameAndKeys busy={busy} onChoose={onChoose} labels={L} />
      {(p.tools !== undefined || p.onUndo !== undefined) && (
        <div class="tools">
          {p.tools}
          {p.onUndo !== undefined && (
            <button
              type="button"
              class="secondary"
              disabled={busy || p.canUndo !== true}
              onClick={firstClickOnly(p.onUndo)}
            >
              {L.undoButton}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
