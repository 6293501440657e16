// Number formatting shared by the chart, its table and its description.

import {
  DEFAULT_PAGE_LABELS,
  type PageLabels,
} from "../../../src/server/study/page-label-defaults.ts";

/** A count out of the population: integers as is, fractions with one decimal ("3.5"). */
export function formatCount(n: number): string {
  const r = Math.round(n * 10) / 10;
  return Number.isInteger(r) ? String(r) : r.toFixed(1);
}

/** A rate in [0, 1] as a whole percentage ("91%"). */
export function formatPercent(rate: number): string {
  if (!Number.isFinite(rate)) return "–";
  return `${Math.round(rate * 100)}%`;
}

/**
 * "32 of 35 · 91%" — a count out of its true-class total, with the class-conditional rate
 * (`template`: the study's `chartBadge` label).
 */
export function countOfTotal(
  count: number,
  total: number,
  rate: number,
  template: string = DEFAULT_PAGE_LABELS.chartBadge,
): string {
  return fillIn(template, {
    n: formatCount(count),
    of: formatCount(total),
    percent: formatPercent(rate),
  });
}

/** The four counts of a shown system. */
export interface Counts {
  tp: number;
  fn: number;
  fp: number;
  tn: number;
}

/**
 * How many people a system's counts are out of (the study's population, 100 by default):
 * their sum, to the nearest whole person (old one-decimal views sum to 100 up to rounding).
 */
export function populationOf(s: Counts): number {
  return Math.round(s.tp + s.fn + s.fp + s.tn);
}

/**
 * "100 patients": the people the counts are out of, in the study's word for them (the
 * built-in study's "patients" when it has none).
 * @example peopleOutOf({ tp: 31, fn: 3, fp: 13, tn: 53 }, "adults") // "100 adults"
 */
export function peopleOutOf(s: Counts, people = "patients"): string {
  return `${populationOf(s)} ${people}`;
}

/**
 * An outcome phrase for `n` people: the study's plural ("missed cancers", "false alarms")
 * made singular for one by dropping a final "s" where that is safe ("1 missed cancer");
 * phrases it cannot singularise ("missed diagnoses") stay as written.
 */
export function outcomeWord(phrase: string, n: number): string {
  if (Math.abs(n) !== 1) return phrase;
  if (/[^s]s$/i.test(phrase) && !/(ses|xes|zes|ches|shes|ies)$/i.test(phrase)) {
    return phrase.slice(0, -1);
  }
  return phrase;
}

/**
 * The trade-off of a pair in one plain line, B against A, in the study's own outcome words:
 * "B: 3 more missed cancers and 20 fewer false alarms than A, per 100 patients."
 */
export function tradeOffLine(
  a: Counts,
  b: Counts,
  words: { missed: string; falseAlarm: string; people?: string },
  letters: readonly [string, string] = ["A", "B"],
  labels: TradeOffLabels = DEFAULT_PAGE_LABELS,
): string {
  const part = (d: number, phrase: string) => {
    if (d === 0 || formatCount(Math.abs(d)) === "0")
      return fillIn(labels.tradeOffSame, { outcome: phrase });
    const n = formatCount(Math.abs(d));
    return fillIn(d > 0 ? labels.tradeOffMore : labels.tradeOffFewer, {
      n,
      outcome: outcomeWord(phrase, Number(n)),
    });
  };
  return fillIn(labels.tradeOff, {
    a: letters[0],
    b: letters[1],
    missed: part(b.fn - a.fn, words.missed),
    falseAlarms: part(b.fp - a.fp, words.falseAlarm),
    people: peopleOutOf(a, words.people),
  });
}

/** The page labels of the trade-off line. */
export type TradeOffLabels = Pick<
  PageLabels,
  "tradeOff" | "tradeOffMore" | "tradeOffFewer" | "tradeOffSame"
>;

/**
 * A study's label with its `{key}`s filled in, in one pass (a value holding "{...}" is never
 * filled in again); an unknown key stays as written.
 * @example fillIn("{n} actually {class}", { n: "34", class: "had cancer" }) // "34 actually had cancer"
 */
export function fillIn(template: string, values: Record<string, string>): string {
  return template.replace(/\{([A-Za-z]+)\}/g, (w, k: string) => values[k] ?? w);
}
