// A predictions CSV for the tests of studies made from a model's predictions (the HTTP tests
// and the e2e create form): seeded, so every run uploads the same file.

import { formatMulticlassPredictions } from "../../src/data/predictions.ts";
import { createRng } from "../../src/math/rng.ts";

/**
 * `n` rows of `k` classes: each row's probabilities a seeded softmax with its label's score
 * raised, with a group column when `groups` is given.
 */
export function predictionsCsv(n: number, k: number, classes: string[], groups?: string[]): string {
  const rng = createRng(`predictions:${n}:${k}`);
  const labels: number[] = [];
  const probabilities = Array.from({ length: n }, (_, r) => {
    const label = r % k;
    labels.push(label);
    const z = Array.from({ length: k }, (_, i) => (i === label ? 1.5 : 0) + 2 * rng.next());
    const e = z.map(Math.exp);
    const s = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / s);
  });
  const text = formatMulticlassPredictions({ labels, probabilities, classNames: classes });
  if (groups === undefined) return text;
  const lines = text.trimEnd().split("\n");
  return `${[
    `group,${lines[0]}`,
    ...lines.slice(1).map((l, r) => `${groups[(r * 7 + (r % 3)) % groups.length]},${l}`),
  ].join("\n")}\n`;
}
