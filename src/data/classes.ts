/**
 * Naming and ordering class labels, shared by the dataset builders and the predictions files.
 *
 * @example
 * sortClassNames(["10", "9", "2"]);        // ["2", "9", "10"] (all numeric: by value)
 * sortClassNames(["b", "a", "C"]);         // ["C", "a", "b"] (else by UTF-16 code units)
 * negativeLabelFor("cat", ["dog", "cow"]); // "not cat"
 */
import { parseNumber } from "./cells.ts";

/**
 * Distinct class names in a stable, platform-independent order: by numeric value when every
 * name is a number (ties by text, so "1" precedes "1.0"), otherwise by UTF-16 code units
 * (not locale-dependent, so every machine agrees).
 *
 * @example
 * sortClassNames(["yes", "no"]); // ["no", "yes"]
 */
export function sortClassNames(names: Iterable<string>): string[] {
  const distinct = [...new Set(names)];
  const values = distinct.map(parseNumber);
  if (values.every((v) => v !== null)) {
    const order = distinct.map((name, i) => ({ name, value: values[i]! }));
    order.sort((a, b) => a.value - b.value || compareText(a.name, b.name));
    return order.map((o) => o.name);
  }
  return distinct.sort(compareText);
}

/**
 * Code-unit order, the same everywhere (unlike `localeCompare`).
 *
 * @example
 * ["b", "B", "a"].sort(compareText); // ["B", "a", "b"]
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Display name of the negative class in a one-vs-rest binary problem: the other class when
 * there is exactly one, else `not <positive>`.
 *
 * @example
 * negativeLabelFor("malignant", ["benign"]); // "benign"
 */
export function negativeLabelFor(positive: string, others: readonly string[]): string {
  return others.length === 1 ? others[0]! : `not ${positive}`;
}
