/**
 * Whether `s` is a plain decimal number as a person writes one: an optional sign, digits with
 * an optional decimal point, and an optional exponent. Not `Number`'s other readings: hex
 * (`0x10`), binary (`0b11`), octal (`0o7`), `Infinity`, or an empty string as 0.
 * @example isDecimal("-3.5") // true
 * @example isDecimal("0x10") // false
 */
export function isDecimal(s: string): boolean {
  return /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/.test(s) && Number.isFinite(Number(s));
}
