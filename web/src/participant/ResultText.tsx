// A debrief's result in words, its key sentence emphasised: every kind's debrief shows one.

import { Fragment } from "preact";

/**
 * A text's sentences: split after ".", "!" or "?" followed by a space and a capital, an
 * opening quote or a parenthesis (decimals such as "0.72" have no space after the point).
 * @example sentences("Lambda is 0.72. It leans to B.") // ["Lambda is 0.72.", "It leans to B."]
 */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[A-Z“"(])/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/**
 * A debrief's result in words with only its key sentence emphasised (issue 27: the whole
 * paragraph was bold, so nothing stood out): sentence `emphasise` (the first by default) in
 * `<strong>`, the others as plain text around it.
 * @example <ResultText text={d.summary} emphasise={1} />
 */
export function ResultText({ text, emphasise = 0 }: { text: string; emphasise?: number }) {
  const parts = sentences(text);
  const key = Math.min(emphasise, Math.max(0, parts.length - 1));
  return (
    <p class="result-text">
      {parts.map((s, i) => (
        // Sentences may repeat, so their place in the fixed text is their key.
        <Fragment key={i}>
          {i > 0 ? " " : ""}
          {i === key ? <strong>{s}</strong> : s}
        </Fragment>
      ))}
    </p>
  );
}
