/**
 * A vector, or a matrix row by row, as every command and report prints weights: in
 * parentheses, comma separated, each number to `digits` decimals.
 * @example vectorText([0.2, [0.1, -0.3]], 2) // "(0.20, (0.10, -0.30))"
 */
export function vectorText(xs: readonly unknown[], digits = 4): string {
  const item = (x: unknown): string =>
    typeof x === "number"
      ? Number.isFinite(x)
        ? x.toFixed(digits)
        : String(x)
      : Array.isArray(x)
        ? vectorText(x, digits)
        : String(x);
  return `(${xs.map(item).join(", ")})`;
}
