// Every study kind of the web app, by its id: the one place that knows which kinds exist.
// Adding a kind is a folder under kinds/ and one line here.

import type { ParticipantState } from "../api/types.ts";
import type { FormKindFamily } from "../researcher/draft-form.ts";
import { binary } from "./binary/index.tsx";
import { fair } from "./fair/index.ts";
import type { StudyKindId, WebStudyKind } from "./kind.ts";
import { multiclass } from "./multiclass/index.ts";
import { quadratic } from "./quadratic/index.ts";

/** Every kind the web app shows, in the order the create form's kind picker lists them. */
const KINDS = { binary, multiclass, fair, quadratic } satisfies Partial<
  Record<StudyKindId, WebStudyKind>
>;

/** A kind the web app has a module for (the server may know more, not yet shown here). */
export type WebKindId = keyof typeof KINDS;

/**
 * Whether the web app has a module for a kind the server names.
 * @example isWebKind("fair") // true
 */
export function isWebKind(kind: StudyKindId): kind is WebKindId {
  return Object.hasOwn(KINDS, kind);
}

/**
 * The kind module of a kind id; binary when absent (a participant state's `study.kind`, a
 * create request's `kind`).
 * @example webKindOf(undefined).id // "binary"
 */
export function webKindOf(kind: WebKindId | undefined): WebStudyKind {
  return KINDS[kind ?? "binary"];
}

/**
 * Every kind, in the kind picker's order.
 * @example webKinds().map((k) => k.id) // ["binary", "multiclass", "fair"]
 */
export function webKinds(): WebStudyKind<WebKindId>[] {
  return Object.values(KINDS);
}

/**
 * The family a study of `kind` starts from in the create form: its first; a kind the form
 * asks no family of (binary) keeps the form's initial value, which it never sends.
 * @example defaultFamily("fair") // "fair-lambda"
 */
export function defaultFamily(kind: WebKindId): FormKindFamily {
  return webKindOf(kind).create.families[0]?.id ?? "diagonal-linear";
}

/**
 * The kind of a participant's state: the one its study names, else the one whose payload it
 * carries (a state made by hand, as in the unit tests), else binary (whose states name none).
 * @example participantKindOf({ ...state, study: { ...state.study, kind: "fair" } }).id // "fair"
 */
export function participantKindOf(state: ParticipantState): WebStudyKind {
  if (state.study.kind !== undefined) return webKindOf(state.study.kind);
  return webKinds().find((k) => k.participant.carries(state)) ?? webKindOf(undefined);
}
