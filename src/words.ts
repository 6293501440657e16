// Lists in words, for messages and pages alike (pure: the engine, the server and the web use it).

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
