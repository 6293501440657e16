// Text still to be written in a study, shared by the server's check at creation and the create
// form's ("No placeholders left."). Pure (no Node imports): the web bundle imports it too.

import { DEFAULT_PAGE_LABELS } from "./page-label-defaults.ts";

/**
 * Marks a text as still to be written: `[[...]]`, `{{...}}`, or the words TODO, TBD, FIXME
 * or XXX. The create form's blank skeleton uses `[[...]]`; a study is refused while any is left.
 */
export const PLACEHOLDER = /\[\[[^\]]*\]\]|\{\{[^}]*\}\}|\b(?:TODO|TBD|FIXME|XXX)\b/;

/**
 * A word in single braces, the way the comprehension tokens (`{A.fn}`, `{population}`) and the
 * page labels' values (`{n}`, `{total}`) are written. Only those two kinds of text are filled
 * in; anywhere else such a word would reach participants as typed (issue 27: `{population}` in
 * the story), so it is a placeholder left there.
 */
const BRACED = /(?<!\{)\{[A-Za-z][A-Za-z0-9_.]*\}(?!\})/g;

/**
 * The `{...}` values a page label is filled in with: those its built-in wording uses.
 * @example labelTokens("comprehensionQuestion") // ["{n}", "{total}"]
 */
export function labelTokens(key: string): readonly string[] {
  const text = (DEFAULT_PAGE_LABELS as Record<string, string>)[key] ?? "";
  return [...new Set(text.match(BRACED) ?? [])];
}

/** Every `{word}` passes here: another check names the unknown ones (comprehension tokens). */
export const ANY_TOKEN = "any token";

/**
 * The `{...}` tokens the text at `path` of a create request (or of a configuration's
 * participant texts) is filled in with: in a comprehension question any (filling them in
 * refuses an unknown one, naming every token: comprehension-systems.ts), a label's own values
 * in a page label, none anywhere else.
 * @example tokensAt(["texts", "story", "paragraphs", 0]) // []
 */
export function tokensAt(path: readonly (string | number)[]): readonly string[] | typeof ANY_TOKEN {
  const p = path[0] === "texts" ? path.slice(1) : path;
  if (p[0] === "comprehension") return ANY_TOKEN;
  if (p[0] === "labels" && typeof p[1] === "string") return labelTokens(p[1]);
  return [];
}

/**
 * The first placeholder left in a text, or null: a `PLACEHOLDER` mark, or a `{word}` that is
 * not one of the `allowed` tokens (nothing would fill it in).
 * @example placeholderLeft("Of {population} patients") // "{population}"
 * @example placeholderLeft("Of {population} patients", ["{population}"]) // null
 */
export function placeholderLeft(
  text: string,
  allowed: readonly string[] | typeof ANY_TOKEN = [],
): string | null {
  const mark = PLACEHOLDER.exec(text);
  if (mark !== null) return mark[0];
  if (allowed === ANY_TOKEN) return null;
  for (const m of text.matchAll(BRACED)) if (!allowed.includes(m[0])) return m[0];
  return null;
}

/**
 * Why a placeholder is refused, for the error message and the form.
 * @example placeholderAdvice("{population}") // "“{population}” is not filled in there ..."
 */
export function placeholderAdvice(found: string): string {
  return /^\{[^{]/.test(found)
    ? `“${found}” is not filled in there (tokens such as {population} are filled in only in the comprehension questions, and a page label only with its own values): write the study's own text`
    : `write the study's own text there ([[...]], {{...}}, TODO, TBD, FIXME and XXX mark text still to be written)`;
}
