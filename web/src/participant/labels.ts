// The page labels a participant's pages use: the study's own (the state carries them), or
// the built-in wording from an older server that sent none.

import {
  DEFAULT_PAGE_LABELS,
  type PageLabels,
} from "../../../src/server/study/page-label-defaults.ts";
import type { ParticipantState } from "../api/types.ts";

/**
 * The study's headings, buttons and fixed sentences for this state.
 * @example labelsFor(state).storyHeading // "The task" unless the study says otherwise
 */
export function labelsFor(state: ParticipantState): PageLabels {
  return { ...DEFAULT_PAGE_LABELS, ...(state.study.labels ?? {}) };
}
