import { describe, expect, it } from "vitest";
import { MetricFileError, readMetricSource } from "../../../src/experiments/score/metric-source.ts";

/**
 * Reading metric files (issue 29 item 1) on small hand-made study.json exports: the belief of
 * a paper-search participant (no draws: summary.rangeA sampled evenly), a fairness study's
 * lambda with the config's known a and B, the consensus (the participants' metrics as the
 * sample) and the errors for a participant not in the study.
 */

const study = (kind: string | undefined, spec: object, participants: object[], extra = {}) => ({
  study: { config: { ...(kind ? { kind } : {}), spec, source: { groups: "colour" } } },
  consensus: { participants: participants.map((p) => (p as { id: number }).id) },
  participants,
  ...extra,
});
const person = (id: number, metric: object | null, more: object = {}) => ({
  id,
  status: metric ? "done" : "started",
  test: false,
  pilot: false,
  summary: { metric, ...more },
});

describe("readMetricSource", () => {
  it("binary paper search: no draws, so every a of summary.rangeA, sampled evenly, said so", () => {
    const json = study(
      undefined,
      { family: "binary-threshold" },
      [person(4, { a0: 0.3 }, { rangeA: { lo: 0.25, hi: 0.35 } })],
      { classes: ["benign", "malignant"] },
    );
    const s = readMetricSource(json, { participant: 4 }).subjects[0]!;
    // a0 kept: a threshold study's metric is scored and exported as binary-threshold.
    expect(s.metric).toEqual({
      family: "binary-linear",
      tp: 0.7,
      tn: 0.3,
      a0: 0.3,
      classes: ["benign", "malignant"],
    });
    expect(s.belief!.kind).toBe("range");
    expect(s.belief!.note).toMatch(
      /^no belief draws \(the paper's search keeps none\): every a in \[0\.2500, 0\.3500\]/,
    );
    const a = s.belief!.samples.map((m) => (m as { tn: number }).tn);
    // Each sample is the threshold metric at its own a.
    for (const m of s.belief!.samples)
      expect((m as { a0: number }).a0).toBe((m as { tn: number }).tn);
    expect(a).toHaveLength(200);
    expect(a[0]).toBeCloseTo(0.25 + 0.1 / 400, 15);
    expect(a[199]).toBeCloseTo(0.35 - 0.1 / 400, 15);
  });

  it("fair-lambda: lambda with the config's known a and B, draws { lambda } likewise; the group column", () => {
    const known = {
      a: [0.6, 0.8],
      B: {
        "0-1": [
          [1, 0],
          [0, 1],
        ],
      },
    };
    const json = study(
      "fair",
      { family: "fair-lambda", known },
      [
        person(
          1,
          { lambda: 0.4, low: 0.3, high: 0.5 },
          { beliefDraws: [{ lambda: 0.35 }, { lambda: 0.45 }] },
        ),
      ],
      { classes: ["No", "Yes"], groups: ["Black", "White"] },
    );
    const src = readMetricSource(json, { participant: 1 });
    expect(src.groupColumn).toBe("colour");
    const s = src.subjects[0]!;
    expect(s.metric).toEqual({
      family: "fair",
      ...known,
      lambda: 0.4,
      classes: ["No", "Yes"],
      groups: ["Black", "White"],
    });
    expect(s.belief!.samples.map((m) => (m as { lambda: number }).lambda)).toEqual([0.35, 0.45]);
  });

  it("the consensus: the mean weight on TP of the participants, who are its sample", () => {
    const json = study(undefined, { family: "binary-threshold" }, [
      person(1, { a0: 0.2 }),
      person(2, { tp: 0.6, tn: 0.8 }),
    ]);
    const s = readMetricSource(json, {}).subjects[0]!;
    expect(s.label).toBe("the consensus of 2 participants (1, 2)");
    const tp = (0.8 + 0.6 / 1.4) / 2;
    expect((s.metric as { tp: number }).tp).toBeCloseTo(tp, 15);
    expect(s.belief!.kind).toBe("participants");
    expect(s.belief!.samples).toHaveLength(2);
    // A mixed consensus is no threshold metric (participant 2 gave tp and tn).
    expect((s.metric as { a0?: number }).a0).toBeUndefined();
  });

  it("the consensus of a threshold study's participants is a threshold metric, a0 = tn", () => {
    const json = study(undefined, { family: "binary-threshold" }, [
      person(1, { a0: 0.2 }),
      person(2, { a0: 0.4 }),
    ]);
    const m = readMetricSource(json, {}).subjects[0]!.metric as {
      tp: number;
      tn: number;
      a0: number;
    };
    expect(m.tn).toBeCloseTo(0.3, 15);
    expect(m.a0).toBe(m.tn);
  });

  it("quadratic studies: summary.metric.weights is the engine's w, read back as a and B", () => {
    const w = [0.5, 0.5, -0.3, -0.3, 0, 0, 0, 0, 0];
    const json = study("quadratic", { family: "quadratic" }, [person(9, { weights: w })]);
    const m = readMetricSource(json, { participant: 9 }).subjects[0]!.metric as {
      a: readonly number[];
      B: readonly (readonly number[])[];
    };
    const n = Math.hypot(...w);
    expect(m.a).toEqual([0.5 / n, 0.5 / n, -0.3 / n]);
    expect(m.B[0]![0]).toBeCloseTo(-0.3 / n, 15);
  });

  it("a participant not in the study, one without a metric, and --all on a metric file are refused", () => {
    const json = study(undefined, { family: "binary-threshold" }, [
      person(1, { a0: 0.2 }),
      person(2, null),
    ]);
    expect(() => readMetricSource(json, { participant: 7 })).toThrow(
      new MetricFileError("participant 7 is not in the study; participants with a metric: 1"),
    );
    expect(() => readMetricSource(json, { participant: 2 })).toThrow(
      /participant 2 has no elicited metric \(status started\)/,
    );
    expect(() => readMetricSource({ family: "linear", a: [-1, -1] }, { all: true })).toThrow(
      /--participant and --all choose among a study\.json's participants/,
    );
  });
});
