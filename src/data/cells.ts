/**
 * Interpreting single CSV cells: which values count as missing, and which as numbers.
 *
 * @example
 * isMissing(" NA ");   // true
 * parseNumber("3.5");  // 3.5
 * parseNumber("0x10"); // null (only decimal notation counts)
 * isNonFiniteNumber("1e999"); // true (a number, but not a finite one)
 */

/** Tokens (compared trimmed and lower-cased) that mean "no value". */
const MISSING = new Set(["", "na", "nan", "?", "null"]);

/**
 * Strict decimal syntax. `Number()` alone would also accept hex, binary, "Infinity" and
 * whitespace-only strings, which in a data file are far more likely to be labels than numbers.
 */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * True when a cell is missing: empty, `NA`, `NaN`, `?` or `null` (case-insensitive, trimmed).
 *
 * @example
 * isMissing("");     // true
 * isMissing("null"); // true
 * isMissing("0");    // false
 */
export function isMissing(value: string): boolean {
  return MISSING.has(value.trim().toLowerCase());
}

/**
 * The finite number a cell spells in decimal notation (surrounding spaces allowed), else null.
 *
 * @example
 * parseNumber(" -1.5e3 "); // -1500
 * parseNumber("1e999");    // null (not finite)
 * parseNumber("abc");      // null
 */
export function parseNumber(value: string): number | null {
  const text = value.trim();
  if (!DECIMAL.test(text)) return null;
  const x = Number(text);
  return Number.isFinite(x) ? x : null;
}

/** `Infinity`, `inf` (any case, signed): what tools write for an infinite number. */
const INFINITY = /^[+-]?inf(?:inity)?$/i;

/**
 * True when a cell spells a number that is not finite: a decimal too large for a double
 * (`1e999`) or an infinity (`Infinity`, `-inf`). `parseNumber` rejects these; a numeric column
 * holding one is an error, not a reason to read the column as categories.
 *
 * @example
 * isNonFiniteNumber("1e999");     // true
 * isNonFiniteNumber("-Infinity"); // true
 * isNonFiniteNumber("1e9");       // false (finite)
 * isNonFiniteNumber("abc");       // false
 */
export function isNonFiniteNumber(value: string): boolean {
  const text = value.trim();
  if (INFINITY.test(text)) return true;
  return DECIMAL.test(text) && !Number.isFinite(Number(text));
}
