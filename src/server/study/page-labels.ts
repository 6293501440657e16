import { z } from "zod";
import { DEFAULT_PAGE_LABELS, type PageLabelKey, type PageLabels } from "./page-label-defaults.ts";

export { DEFAULT_PAGE_LABELS, type PageLabelKey, type PageLabels };

// Plain messages (texts.ts `atMostChars`; that module imports this one).
const label = z.string().trim().min(1, "must not be empty").max(500, "at most 500 characters");

/** Page labels as a create request may set them (any subset; unknown keys refused). */
export const PageLabelsInput = z
  .object(
    Object.fromEntries(Object.keys(DEFAULT_PAGE_LABELS).map((k) => [k, label.optional()])) as {
      [K in PageLabelKey]: z.ZodOptional<typeof label>;
    },
  )
  .strict();

/** Every page label, as the participant state carries it. */
export const PageLabelsSchema = z.object(
  Object.fromEntries(Object.keys(DEFAULT_PAGE_LABELS).map((k) => [k, z.string()])) as {
    [K in PageLabelKey]: z.ZodString;
  },
);

/**
 * A study's page labels: its own where it set them, the defaults elsewhere. A study that
 * rewrote the consistency sentence before binary studies had one of their own
 * (`debriefConsistencyRange`) keeps its text there too, rather than our default.
 * @example pageLabels({ storyHeading: "Your job" }).storyHeading // "Your job"
 */
export function pageLabels(own: Partial<PageLabels> | undefined): PageLabels {
  const inherited =
    own?.debriefConsistency !== undefined && own.debriefConsistencyRange === undefined
      ? { debriefConsistencyRange: own.debriefConsistency }
      : {};
  return { ...DEFAULT_PAGE_LABELS, ...inherited, ...(own ?? {}) };
}
