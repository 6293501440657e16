// The page labels a participant's pages use: the study's own (the state carries them), or
// the built-in wording from an older server that sent none.

import {
  DEFAULT_PAGE_LABELS,
  type PageLabels,
  partLabels,
} from "../../../src/server/study/page-label-defaults.ts";
import type { ParticipantState } from "../api/types.ts";

/**
 * The study's headings, buttons and fixed sentences for this state; without Part 3 the part
 * lines in their default wording count two parts (an older server sent them "of 3").
 * @example labelsFor(state).storyHeading // "The task" unless the study says otherwise
 */
export function labelsFor(state: ParticipantState): PageLabels {
  return partLabels(
    { ...DEFAULT_PAGE_LABELS, ...(state.study.labels ?? {}) },
    state.study.phaseThree !== false,
  );
}
