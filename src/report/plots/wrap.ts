// Text in an SVG does not wrap: lines of words cut to a width in characters.

/** Average width of a character of the plots' 14 px system font, in px (generous). */
export const CHAR_PX = 7.8;

/**
 * Words in lines of at most `max` characters (a word longer than that keeps its own line).
 * @example wrapWords("a bb ccc", 4) // ["a bb", "ccc"]
 */
export function wrapWords(text: string, max: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= max)
      lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/**
 * `text` cut to `max` characters with an ellipsis when longer.
 * @example clip("versicolor", 6) // "versi…"
 */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
}
