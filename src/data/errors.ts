/**
 * The one error type of the data layer: something is wrong with the user's data (a ragged CSV
 * row, an unknown column, a probability outside [0, 1]), as opposed to a programming error.
 * Front ends show `message` to the user as is, so messages name the line or column at fault.
 *
 * @example
 * try {
 *   parseCsv("a,b\n1\n");
 * } catch (e) {
 *   if (e instanceof DataError) console.error(e.message, e.line); // "line 2: ...", 2
 * }
 */
export class DataError extends Error {
  /** 1-based line of the input the problem was found on, when there is one. */
  readonly line: number | undefined;

  constructor(message: string, options: { line?: number } = {}) {
    super(message);
    this.name = "DataError";
    this.line = options.line;
  }
}
