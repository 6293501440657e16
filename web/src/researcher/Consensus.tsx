// The dashboard's consensus (issue 12 item 4): a study's elicited metrics aggregated with
// their spread and the classifier best for them, as GET /api/studies/:id/consensus and study.json's
// `consensus` state them (the same numbers, rounded as printed here).

import type { z } from "zod";
import type * as S from "../../../src/server/api-schemas.ts";

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
  const coin = c.coinLike ?? [];
  const coinNote =
    coin.length === 0
      ? ""
      : ` ${coin.length} whose answers a coin could have given (${coin.map((id) => `#${id}`).join(", ")}) ${c.coinLikeIncluded ? "included" : "left out"}.`;
  const who = `Over ${c.n} participant${c.n === 1 ? "" : "s"} who finished (test runs and pilot left out).${coinNote}`;
  const pc = (x: number) => `${Math.round(x * 100)}%`;
  const b = c.best;
  const shared =
    b === undefined
      ? ""
      : `; it is the own best classifier of ${b.agree} of the ${c.n} participant${c.n === 1 ? "" : "s"}.`;
  const right = (classes: readonly string[]) =>
    b === undefined
      ? ""
      : `${classes.map((k, i) => `“${k}” ${pc(b.rates[i]!)}`).join(", ")} right (${pc(b.accuracy)} of all cases)`;
  if (c.lambda !== undefined) {
    const l = c.lambda;
    const f = (x: number) => x.toFixed(2);
    const classes = c.classes ?? [];
    const m = c.fairMetric;
    return [
      who,
      `lambda: mean ${f(l.mean)}, median ${f(l.median)}, sd ${f(l.sd)}, from ${f(l.min)} to ${f(l.max)}`,
      ...(m === undefined
        ? []
        : [
            `Mean whole metric: costs ${m.a.map(f).join(" / ")}, gap weights ${classes
              .map((_, i) => f(Object.values(m.B).reduce((s, M) => s + (M[i]?.[i] ?? 0), 0)))
              .join(" / ")} (per class), lambda ${f(m.lambda)}.`,
          ]),
      ...(b === undefined
        ? []
        : [
            `The systems best for ${m === undefined ? "the mean lambda" : "this metric"} get ${right(classes)}, with gaps between the groups of ${(b.gaps ?? []).map((g) => `${Math.round(g * 100)}`).join(" / ")} points per class${shared}`,
          ]),
    ];
  }
  if (c.tpWeight !== undefined) {
    const w = c.tpWeight;
    const f = (x: number) => x.toFixed(3);
    const [neg, pos] = c.classes ?? ["negative", "positive"];
    return [
      who,
      `Weight on true positives (against true negatives): mean ${f(w.mean)}, median ${f(w.median)}, sd ${f(w.sd)}, from ${f(w.min)} to ${f(w.max)}`,
      ...(b === undefined
        ? []
        : [
            `The classifier best for the mean weight says “${pos}” when its probability is at least ${(b.threshold ?? 0).toFixed(2)}: it gets ${right([neg!, pos!])}${shared}`,
          ]),
    ];
  }
  // Nobody counted (everyone who finished answered like a coin): only who it is over.
  if (c.weights === undefined) return [who];
  const w = c.weights;
  const f = (x: number) => x.toFixed(3);
  // A linear study's entries are its mistakes (more than its classes), each a share of the cost.
  const linear = w.classes.length > (c.classes ?? w.classes).length;
  return [
    who,
    ...w.classes.map(
      (k, i) =>
        `“${k}”: mean ${linear ? "share" : "weight per case"} ${f(w.mean[i]!)}, sd ${f(w.sd[i]!)}, from ${f(w.min[i]!)} to ${f(w.max[i]!)}`,
    ),
    ...(b === undefined
      ? []
      : [
          `The classifier best for these mean weights gets ${right(c.classes ?? w.classes)}${shared}`,
        ]),
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
