/**
 * The four statistic spaces the multiclass geometry works in. Each is a vector space of its
 * own dimension with its own centre, brackets and plug-in weights (ALGORITHMS.md E.8).
 *
 * @example
 * spaceDimension("offdiag-confusion", 3); // 6
 * spaceDimension("diag-rates", 3);        // 3
 */
export type SpaceKind = "diag-confusion" | "offdiag-confusion" | "diag-rates" | "offdiag-rates";

/** All space kinds, for iteration and validation. */
export const SPACE_KINDS: readonly SpaceKind[] = [
  "diag-confusion",
  "offdiag-confusion",
  "diag-rates",
  "offdiag-rates",
];

/**
 * Whether a space holds diagonal (k entries) rather than off-diagonal (k^2 - k) statistics.
 *
 * @example
 * isDiagonalSpace("diag-rates"); // true
 */
export function isDiagonalSpace(kind: SpaceKind): boolean {
  return kind === "diag-confusion" || kind === "diag-rates";
}

/**
 * Whether a space holds rates (rows divided by the priors) rather than confusions.
 *
 * @example
 * isRateSpace("offdiag-confusion"); // false
 */
export function isRateSpace(kind: SpaceKind): boolean {
  return kind === "diag-rates" || kind === "offdiag-rates";
}

/**
 * Dimension of a space for k classes: k (diagonal) or k^2 - k (off-diagonal).
 *
 * @example
 * spaceDimension("offdiag-rates", 4); // 12
 */
export function spaceDimension(kind: SpaceKind, k: number): number {
  return isDiagonalSpace(kind) ? k : k * k - k;
}
