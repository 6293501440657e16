// Lists in words, and other wording shared by messages and pages (pure: the engine, the server
// and the web use it).

/**
 * A list in words, its last two joined by `conjunction`.
 * @example inWords(["a", "b", "c"]) // "a, b and c"
 * @example inWords(["exact", "human", "flips:P"], "or") // "exact, human or flips:P"
 */
export function inWords(xs: readonly string[], conjunction = "and"): string {
  return xs.length < 2
    ? (xs[0] ?? "")
    : `${xs.slice(0, -1).join(", ")} ${conjunction} ${xs.at(-1)}`;
}

/**
 * The one-line message for a file whose text `JSON.parse` refused with `error`: the parser's
 * own words without the excerpt of the text it quotes (which can hold a line break or a
 * quote and so cut the line short), e.g. "m5.json is not JSON: Unexpected token 'o'".
 * `elicit score` and `elicit report` both word it so.
 * @example notJsonMessage("m5.json", new SyntaxError(`Unexpected token 'o', "not json\n" is not valid JSON`)) // "m5.json is not JSON: Unexpected token 'o'"
 * @example notJsonMessage("x.json", new SyntaxError("Unexpected end of JSON input")) // "x.json is not JSON: Unexpected end of JSON input"
 */
export function notJsonMessage(name: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const bare = message.replace(/,\s*"[\s\S]*" is not valid JSON$/, "");
  const line = bare.split("\n")[0]!.trim();
  return line === "" ? `${name} is not JSON` : `${name} is not JSON: ${line}`;
}
