// The dashboard's consensus (issue 12 item 4): a study's elicited metrics aggregated with
// their spread and the classifier best for them, as GET /api/studies/:id/consensus and study.json's
// `consensus` state them (the same numbers, rounded as printed here). The sentences are the
// report's too (src/server/study/consensus-text.ts).

import type { z } from "zod";
import type * as S from "../../../src/server/api-schemas.ts";
import {
  binaryBestLine,
  fairBestLine,
  lambdaLine,
  NOBODY,
  tpWeightLine,
  weightLines,
  weightsBestLine,
  whoLine,
} from "../../../src/server/study/consensus-text.ts";

/** A study's consensus as the API sends it. */
export type Consensus = z.infer<typeof S.Consensus>;

/**
 * The consensus in lines of text: who it is over, then per class (multiclass), for lambda
 * (fair) or for the weight on true positives (binary) the mean and the spread, 3 decimals
 * (lambda: 2), then the classifier best for the consensus and how many share it.
 * @example consensusLines({ n: 2, participants: [1, 2], lambda: { mean: 0.4, median: 0.4, sd: 0.2, min: 0.2, max: 0.6 } })
 * // ["Over 2 participants who finished (test runs and pilot left out).", "lambda: mean 0.40, median 0.40, sd 0.20, from 0.20 to 0.60"]
 */
export function consensusLines(c: Consensus): string[] {
  const who = whoLine(c);
  const b = c.best;
  if (c.lambda !== undefined) {
    const f = (x: number) => x.toFixed(2);
    const classes = c.classes ?? [];
    const m = c.fairMetric;
    return [
      who,
      lambdaLine(c.lambda),
      // Differs from the report's "Mean whole metric" line: "costs …, gap weights … (per class)", no class names.
      ...(m === undefined
        ? []
        : [
            `Mean whole metric: costs ${m.a.map(f).join(" / ")}, gap weights ${classes
              .map((_, i) => f(Object.values(m.B).reduce((s, M) => s + (M[i]?.[i] ?? 0), 0)))
              .join(" / ")} (per class), lambda ${f(m.lambda)}.`,
          ]),
      ...(b === undefined ? [] : [fairBestLine(b, classes, c.n, m !== undefined)]),
    ];
  }
  if (c.tpWeight !== undefined) {
    const [neg, pos] = c.classes ?? ["negative", "positive"];
    return [
      who,
      tpWeightLine(c.tpWeight),
      ...(b === undefined ? [] : [binaryBestLine(b, [neg!, pos!], c.n)]),
    ];
  }
  // Nobody counted (everyone who finished answered like a coin): only who it is over.
  if (c.weights === undefined) return [who];
  return [
    who,
    ...weightLines(c),
    ...(b === undefined ? [] : [weightsBestLine(b, c.classes ?? c.weights.classes, c.n)]),
  ];
}

/**
 * The consensus section of a study's dashboard (every kind). With `onIncludeCoinLike`, a
 * check box puts the participants whose answers a coin could have given back in.
 */
export function ConsensusPanel({
  consensus,
  includeCoinLike = false,
  onIncludeCoinLike,
}: {
  consensus: Consensus | null;
  includeCoinLike?: boolean;
  onIncludeCoinLike?: (include: boolean) => void;
}) {
  return (
    <section aria-labelledby="consensus-heading" data-testid="consensus">
      <h2 id="consensus-heading">Consensus</h2>
      {onIncludeCoinLike && (consensus?.coinLike?.length ?? 0) > 0 && (
        <label>
          <input
            type="checkbox"
            checked={includeCoinLike}
            onChange={(e) => onIncludeCoinLike((e.currentTarget as HTMLInputElement).checked)}
          />{" "}
          Include participants whose answers a coin could have given
        </label>
      )}
      {consensus === null ? (
        <p class="muted">{NOBODY}</p>
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
