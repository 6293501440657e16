// What every comparison page shares, whatever it shows: the progress line, "I prefer A/B",
// "They seem about the same" with the keyboard hint, and the keys Left, Right and 0.

import { useEffect, useRef } from "preact/hooks";
import {
  DEFAULT_PAGE_LABELS,
  type PageLabels,
} from "../../../src/server/study/page-label-defaults.ts";
import type { Choice } from "../api/types.ts";

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
}

/**
 * Left, Right and 0 choose A, B and "about the same" unless the page is busy or a field has
 * focus. The listener reads the current busy flag and handler through a ref set at render: a
 * listener re-registered in an effect runs after the new pair is painted, and a key pressed
 * in between went to the old listener, which still thought the page was busy (dropped).
 * @example useChoiceKeys(busy, onChoose);
 */
export function useChoiceKeys(busy: boolean, onChoose: (choice: Choice) => void): void {
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
}

/** "Part 2 of 3: your preferences", a progress bar and "Question 4 · about 6 more". */
export function ProgressLine(p: { stage: string; progressValue: number; progressText: string }) {
  return (
    <div class="progress">
      <span>{p.stage}</span>
      <progress max={1} value={p.progressValue} aria-label="Progress" />
      <span>{p.progressText}</span>
    </div>
  );
}

/**
 * A click handler that ignores the later clicks of a double (or triple) click. The page
 * guards a request in flight, but a fast server answers between the two clicks of a double
 * click and the next question's button, in the same place, took the second click as an
 * answer nobody gave (CI saw two answers stored for one double click). A click from the
 * keyboard or a script has `detail` 0 and counts.
 * @example <button onClick={firstClickOnly(() => post("story", {}))} />
 */
export function firstClickOnly(handler: () => void): (e: MouseEvent) => void {
  return (e) => {
    if (e.detail > 1) return;
    handler();
  };
}

/** "I prefer A" (left) or "I prefer B" (right). */
export function PreferButton(p: {
  side: "left" | "right";
  busy: boolean;
  onChoose: (choice: Choice) => void;
  /** The study's word for "I prefer" (the default's otherwise). */
  prefer?: string;
}) {
  const letter = p.side === "left" ? "A" : "B";
  return (
    <button
      type="button"
      class="choose"
      disabled={p.busy}
      aria-keyshortcuts={p.side === "left" ? "ArrowLeft" : "ArrowRight"}
      onClick={firstClickOnly(() => p.onChoose(p.side))}
    >
      {`${p.prefer ?? DEFAULT_PAGE_LABELS.preferButton} ${letter}`}
    </button>
  );
}

/** "They seem about the same" and the keyboard hint under it. */
export function SameAndKeys(p: {
  busy: boolean;
  onChoose: (choice: Choice) => void;
  /** The study's labels (the defaults otherwise). */
  labels?: PageLabels;
}) {
  const L = p.labels ?? DEFAULT_PAGE_LABELS;
  return (
    <>
      <div class="same-row">
        <button
          type="button"
          class="secondary"
          disabled={p.busy}
          aria-keyshortcuts="0"
          onClick={firstClickOnly(() => p.onChoose("same"))}
        >
          {L.sameButton}
        </button>
      </div>
      <p class="keys">
        {`${L.keysHint} `}
        <kbd>←</kbd> A, <kbd>→</kbd> B, <kbd>0</kbd> {L.keysSame}
      </p>
    </>
  );
}
