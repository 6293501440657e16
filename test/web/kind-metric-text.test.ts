import { describe, expect, it } from "vitest";
import type { ParticipantRow } from "../../web/src/api/types.ts";
import { webKindOf } from "../../web/src/kinds/registry.ts";
import { formatMetric } from "../../web/src/researcher/metric.ts";

// Issue 27 item 1: the dashboard's participants table asks the study's kind for a row's
// metric (no branching on the metric's shape in the page); each kind states what the
// shape-reading helper stated for its rows.

const row = (extra: Partial<ParticipantRow>) => ({ adaptive: null, ...extra }) as ParticipantRow;

describe("each kind's metric text on the dashboard", () => {
  it("binary, multiclass, fair and quadratic rows read as formatMetric reads them", () => {
    const cases: [Parameters<typeof webKindOf>[0], ParticipantRow, string][] = [
      ["binary", row({ metric: { a0: 0.2 } }), "0.800 TP + 0.200 TN"],
      [
        "multiclass",
        row({
          metric: { weights: [0.2, 0.8] },
          classWeights: [0.31, 0.69],
          classHalfWidths: [null, 0.08],
          classRanges: [
            { low: 0.25, high: 0.38 },
            { low: 0.6, high: 0.75 },
          ],
        }),
        "weights per case 31% (25–38%), 69% (60–75%) (uncertain)",
      ],
      ["multiclass", row({ metric: { weights: [0.5, 0.5] } }), "class weights 0.500, 0.500"],
      ["fair", row({ metric: { lambda: 0.3, low: 0.2, high: 0.4 } }), "lambda 0.30 (0.20–0.40)"],
      [
        "quadratic",
        row({
          metric: { weights: [0.1, 0.2, 0.3] },
          classWeights: [0.5, 0.5],
          kindFigures: { values: {}, text: "", short: "imbalance “a”–“b”: 3 people of 100 (2–5)" },
        }),
        "weights per case 50%, 50%; imbalance “a”–“b”: 3 people of 100 (2–5)",
      ],
    ];
    for (const [kind, r, text] of cases) {
      expect(webKindOf(kind).dashboard.metricText(r), kind).toBe(text);
      expect(formatMetric(r.metric, r.adaptive?.unidentified, r)).toBe(text);
    }
  });
});
