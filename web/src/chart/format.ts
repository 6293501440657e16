// Number formatting shared by the chart, its table and its description.

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

/** "32 of 35 · 91%" — a count out of its true-class total, with the class-conditional rate. */
export function countOfTotal(count: number, total: number, rate: number): string {
  return `${formatCount(count)} of ${formatCount(total)} · ${formatPercent(rate)}`;
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
): string {
  const part = (d: number, phrase: string) => {
    if (d === 0 || formatCount(Math.abs(d)) === "0") return `the same number of ${phrase}`;
    const n = formatCount(Math.abs(d));
    return `${n} ${d > 0 ? "more" : "fewer"} ${outcomeWord(phrase, Number(n))}`;
  };
  const missed = part(b.fn - a.fn, words.missed);
  const falseAlarms = part(b.fp - a.fp, words.falseAlarm);
  return `${letters[1]}: ${missed} and ${falseAlarms} than ${letters[0]}, per ${peopleOutOf(a, words.people)}.`;
}
