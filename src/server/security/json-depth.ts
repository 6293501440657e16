/**
 * Whether JSON text nests arrays and objects deeper than `max`, found by one pass over the
 * text without parsing it (strings skipped): a body is refused before `JSON.parse` spends
 * time and stack on it (issue 28 item 3).
 * @example jsonTooDeep("[[[1]]]", 2) // true
 */
export function jsonTooDeep(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // a backslash escapes the next character
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}
