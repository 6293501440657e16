// The dashboard's consensus (issue 12 item 4): a multiclass or fairness study's elicited
// metrics aggregated with their spread, as GET /api/studies/:id/consensus and study.json's
// `consensus` state them (the same numbers, rounded as printed here).

import type { z } from "zod";
import type * as S from "../../../src/server/api-schemas.ts";

/** A study's consensus as the API sends it. */
export type Consensus = z.infer<typeof S.Consensus>;

/**
 * The consensus in lines of text: who it is over, then per class (multiclass) or for lambda
 * (fair) the mean and the spread, 3 decimals (lambda: 2).
 * @example consensusLines({ n: 2, participants: [1, 2], lambda: { mean: 0.4, median: 0.4, sd: 0.2, min: 0.2, max: 0.6 } })
 * // ["Over 2 participants who finished (test runs and pilot left out).", "lambda: mean 0.40, median 0.40, sd 0.20, from 0.20 to 0.60"]
 */
export function consensusLines(c: Consensus): string[] {
  const who = `Over ${c.n} participant${c.n === 1 ? "" : "s"} who finished (test runs and pilot left out).`;
  if (c.lambda !== undefined) {
    const l = c.lambda;
    const f = (x: number) => x.toFixed(2);
    return [
      who,
      `lambda: mean ${f(l.mean)}, median ${f(l.median)}, sd ${f(l.sd)}, from ${f(l.min)} to ${f(l.max)}`,
    ];
  }
  const w = c.weights!;
  const f = (x: number) => x.toFixed(3);
  const pc = (x: number) => `${Math.round(x * 100)}%`;
  const b = c.best;
  return [
    who,
    ...w.classes.map(
      (k, i) =>
        `“${k}”: mean weight ${f(w.mean[i]!)}, sd ${f(w.sd[i]!)}, from ${f(w.min[i]!)} to ${f(w.max[i]!)}`,
    ),
    ...(b === undefined
      ? []
      : [
          `The classifier best for these mean weights gets ${w.classes.map((k, i) => `“${k}” ${pc(b.rates[i]!)}`).join(", ")} right (${pc(b.accuracy)} of all cases); it is the own best classifier of ${b.agree} of the ${c.n} participant${c.n === 1 ? "" : "s"}.`,
        ]),
  ];
}

/** The consensus section of a multiclass or fairness study's dashboard. */
export function ConsensusPanel({ consensus }: { consensus: Consensus | null }) {
  return (
    <section aria-labelledby="consensus-heading" data-testid="consensus">
      <h2 id="consensus-heading">Consensus</h2>
      {consensus === null ? (
        <p class="muted">
          Nobody has finished yet (test runs and pilot participants are left out).
        </p>
      ) : (
        <ul>
          {consensusLines(consensus).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
