import { z } from "zod";
import { wToQuadratic } from "../../elicit/adaptive/families/quadratic.ts";
import {
  PORTABLE_FAMILIES,
  type PortableMetric,
  portableMetricProblems,
} from "../../metrics/portable/metric.ts";
import type { MetricBelief } from "./score.ts";

/**
 * Reading the files that hold an elicited metric into portable metrics (and the belief's
 * samples): a study's JSON export (study.json), a metric JSON file, or a participant's
 * debrief (the participant API's state). Pure: takes parsed JSON, validated with zod; every
 * problem is a `MetricFileError` saying what is wrong and what to do.
 */

/** A file that does not hold what it should (the message says what to change). */
export class MetricFileError extends Error {}

/** One metric to score with: whose it is, the metric, and the belief about it (if any). */
export interface MetricSubject {
  /** e.g. "participant 3", "the consensus of 4 participants", "metric.json". */
  readonly label: string;
  readonly metric: PortableMetric;
  /** The belief's samples; null when the file has none (`beliefNote` says why). */
  readonly belief: MetricBelief | null;
  readonly beliefNote?: string;
}

/** What a metric file holds. */
export interface MetricSource {
  readonly kind: "study" | "metric" | "debrief";
  readonly subjects: readonly MetricSubject[];
  /** A fair study's group column (its config), the predictions' default `--groups`. */
  readonly groupColumn?: string;
}

/** Which metric of a study.json: a participant's, the consensus (default) or everyone's. */
export interface MetricSelection {
  readonly participant?: number;
  readonly all?: boolean;
}

const num = z.number().finite();
const vec = z.array(num);
const mat = z.array(vec);
const named = { classes: z.array(z.string()).optional() };

/** The metric file's shapes: `--truth`'s per family plus `family` (and optional names). */
const MetricFile = z.discriminatedUnion("family", [
  z.object({ family: z.literal("binary-linear"), tp: num, tn: num, ...named }).strict(),
  z.object({ family: z.literal("binary-threshold"), a0: num.min(0).max(1), ...named }).strict(),
  z
    .object({
      family: z.literal("binary-linear-fractional"),
      p11: num,
      p00: num,
      q11: num,
      q00: num,
      q0: num,
      ...named,
    })
    .strict(),
  z.object({ family: z.enum(["diagonal-linear", "linear"]), a: vec, ...named }).strict(),
  z
    .object({
      family: z.enum(["diagonal-linear-fractional", "linear-fractional"]),
      a: vec,
      b: vec,
      b0: num,
      ...named,
    })
    .strict(),
  z.object({ family: z.literal("quadratic"), a: vec, B: mat, ...named }).strict(),
  z
    .object({
      family: z.enum(["fair", "fair-quadratic"]),
      a: vec,
      B: z.record(z.string(), mat),
      lambda: num,
      groups: z.array(z.string()).optional(),
      ...named,
    })
    .strict(),
]);

/** The families a metric file may name. */
export const METRIC_FILE_FAMILIES = [
  ...PORTABLE_FAMILIES.filter((f) => f !== "fair"),
  "binary-threshold",
  "fair",
] as const;

const EXAMPLE = '{"family":"binary-linear","tp":0.7,"tn":0.3,"classes":["benign","malignant"]}';

function issueText(e: z.ZodError): string {
  const i = e.issues[0]!;
  return `${i.path.join(".") || "value"}: ${i.message}`;
}

function checked(m: PortableMetric, where: string): PortableMetric {
  const problems = portableMetricProblems(m);
  if (problems.length > 0) throw new MetricFileError(`${where}: ${problems.join("; ")}`);
  return m;
}

/** A metric file's metric (`family` plus the family's numbers) as a portable metric. */
function fromMetricFile(raw: Record<string, unknown>, where: string): PortableMetric {
  if (typeof raw.family !== "string" || !METRIC_FILE_FAMILIES.includes(raw.family as never))
    throw new MetricFileError(
      `${where}: family ${raw.family === undefined ? "is missing" : `"${String(raw.family)}" is not a metric file's family`}; the families are ${METRIC_FILE_FAMILIES.join(", ")}; e.g. ${EXAMPLE}`,
    );
  if (
    raw.family.endsWith("-fractional") &&
    raw.family !== "binary-linear-fractional" &&
    !("b0" in raw)
  )
    throw new MetricFileError(
      `${where}: b0 is required in a metric file (the CLI's --truth implies it from the data's priors, which a metric file does not have)`,
    );
  if (raw.family === "binary-linear-fractional" && !("q0" in raw))
    throw new MetricFileError(
      `${where}: q0 is required in a metric file (the CLI's --truth implies it from the data's prior, which a metric file does not have)`,
    );
  const parsed = MetricFile.safeParse(raw);
  if (!parsed.success)
    throw new MetricFileError(`${where} (${raw.family}): ${issueText(parsed.error)}`);
  const f = parsed.data;
  const classes = f.classes ? { classes: f.classes } : {};
  switch (f.family) {
    case "binary-threshold":
      // a0 kept, so the reports and exported code call it the threshold metric it was given as.
      return checked(
        { family: "binary-linear", tp: 1 - f.a0, tn: f.a0, a0: f.a0, ...classes },
        where,
      );
    case "fair-quadratic":
    case "fair":
      return checked(
        {
          family: "fair",
          a: f.a,
          B: f.B,
          lambda: f.lambda,
          ...classes,
          ...(f.groups ? { groups: f.groups } : {}),
        },
        where,
      );
    default:
      return checked(f as PortableMetric, where);
  }
}

// --- study.json ---------------------------------------------------------------------------

const Record_ = z.record(z.string(), z.unknown());
const StudyJson = z.object({
  study: z.object({
    config: z.object({
      kind: z.string().optional(),
      spec: z.object({
        family: z.string(),
        known: z.object({ a: vec, B: z.record(z.string(), mat) }).optional(),
      }),
      source: z.object({ groups: z.string().optional() }).passthrough(),
    }),
  }),
  classes: z.array(z.string()).optional(),
  groups: z.array(z.string()).optional(),
  consensus: z
    .object({ participants: z.array(z.number().int()) })
    .passthrough()
    .nullable(),
  participants: z.array(
    z.object({
      id: z.number().int(),
      status: z.string(),
      test: z.boolean().optional(),
      pilot: z.boolean().optional(),
      summary: z.object({
        metric: Record_.nullable(),
        beliefDraws: z.array(Record_).optional(),
        rangeA: z.object({ lo: num, hi: num }).nullable().optional(),
      }),
    }),
  ),
});
type StudyJson = z.infer<typeof StudyJson>;

/** Samples a range evenly: the midpoints of `count` equal parts of [lo, hi]. */
function evenly(lo: number, hi: number, count = 200): number[] {
  return Array.from({ length: count }, (_, i) => lo + ((hi - lo) * (i + 0.5)) / count);
}

/** How the study's metric records become portable metrics (its kind and family). */
function studyReader(
  s: StudyJson,
): (rec: Record<string, unknown>, where: string) => PortableMetric {
  const { kind = "binary", spec } = s.study.config;
  const classes = s.classes ? { classes: s.classes } : {};
  const groups = s.groups ? { groups: s.groups } : {};
  const numbers = (rec: Record<string, unknown>, key: string, where: string): number[] => {
    const v = vec.safeParse(rec[key]);
    if (!v.success) throw new MetricFileError(`${where}: ${key} must be a list of numbers`);
    return v.data;
  };
  if (kind === "binary")
    return (rec, where) => {
      // a0 kept: a threshold study's metric is reported and exported as binary-threshold.
      if (typeof rec.a0 === "number")
        return checked(
          { family: "binary-linear", tp: 1 - rec.a0, tn: rec.a0, a0: rec.a0, ...classes },
          where,
        );
      if (typeof rec.tp === "number" && typeof rec.tn === "number")
        return checked({ family: "binary-linear", tp: rec.tp, tn: rec.tn, ...classes }, where);
      throw new MetricFileError(`${where}: a binary metric is { a0 } or { tp, tn }`);
    };
  if (kind === "multiclass") {
    if (spec.family !== "diagonal-linear" && spec.family !== "linear")
      throw new MetricFileError(`a multiclass study of family "${spec.family}" is not supported`);
    const family = spec.family;
    return (rec, where) =>
      checked({ family, a: numbers(rec, "weights", where), ...classes }, where);
  }
  if (kind === "quadratic")
    return (rec, where) => {
      const w = numbers(rec, "weights", where);
      // w has 2k + k(k - 1)/2 entries.
      const k = Math.round((-3 + Math.sqrt(9 + 8 * w.length)) / 2);
      const q = wToQuadratic(w, k);
      return checked({ family: "quadratic", a: q.a, B: q.B, ...classes }, where);
    };
  if (kind === "fair")
    return (rec, where) => {
      if (typeof rec.lambda !== "number")
        throw new MetricFileError(`${where}: a fair metric record needs lambda`);
      const own = z.object({ a: vec, B: z.record(z.string(), mat) }).safeParse(rec);
      const ab = own.success ? own.data : spec.known;
      if (!ab)
        throw new MetricFileError(
          `${where}: the metric has lambda only and the study's config has no known a and B`,
        );
      return checked(
        { family: "fair", a: ab.a, B: ab.B, lambda: rec.lambda, ...classes, ...groups },
        where,
      );
    };
  throw new MetricFileError(`a study of kind "${kind}" is not supported`);
}

/** The mean of metrics of one family, normalised as the engine states that family. */
function meanMetric(ms: readonly PortableMetric[]): PortableMetric {
  const first = ms[0]!;
  const mean = (f: (m: PortableMetric) => number[]) =>
    f(first).map((_, i) => ms.reduce((s, m) => s + f(m)[i]!, 0) / ms.length);
  switch (first.family) {
    case "binary-linear": {
      // The weight on TP, tp / (tp + tn), averaged (the study's consensus.tpWeight).
      const tp = mean((m) => {
        const b = m as { tp: number; tn: number };
        return [b.tp / (b.tp + b.tn)];
      })[0]!;
      // A consensus of threshold metrics is one too (a0 = tn), else plain binary-linear.
      const { a0: _, ...rest } = first;
      const threshold = ms.every((m) => (m as { a0?: number }).a0 !== undefined);
      return { ...rest, tp, tn: 1 - tp, ...(threshold ? { a0: 1 - tp } : {}) };
    }
    case "diagonal-linear": {
      const a = mean((m) => [...(m as { a: readonly number[] }).a]);
      const s = a.reduce((x, y) => x + y, 0);
      return { ...first, a: a.map((x) => x / s) };
    }
    case "linear": {
      const a = mean((m) => [...(m as { a: readonly number[] }).a]);
      const n = Math.hypot(...a);
      return { ...first, a: a.map((x) => x / n) };
    }
    case "quadratic": {
      const k = first.a.length;
      const flat = (m: PortableMetric) => {
        const q = m as { a: readonly number[]; B: readonly (readonly number[])[] };
        return [...q.a, ...q.B.flat()];
      };
      const w = mean(flat);
      const n = Math.hypot(...w);
      return {
        ...first,
        a: w.slice(0, k).map((x) => x / n),
        B: Array.from({ length: k }, (_, i) =>
          w.slice(k + i * k, k + (i + 1) * k).map((x) => x / n),
        ),
      };
    }
    case "fair": {
      const lambda = mean((m) => [(m as { lambda: number }).lambda])[0]!;
      const a = mean((m) => [...(m as { a: readonly number[] }).a]);
      const B = Object.fromEntries(
        Object.keys(first.B).map((key) => [
          key,
          first.B[key]!.map((row, i) =>
            row.map(
              (_, j) =>
                ms.reduce((s, m) => s + ((m as typeof first).B[key]?.[i]?.[j] ?? 0), 0) / ms.length,
            ),
          ),
        ]),
      );
      return { ...first, a, B, lambda };
    }
    default:
      return first;
  }
}

/** True when some step of `path` is absent from parsed JSON (a missing field, not a bad one). */
function lacks(json: unknown, path: readonly PropertyKey[]): boolean {
  let at = json;
  for (const key of path) {
    if (at === null || typeof at !== "object" || !Object.hasOwn(at, key)) return true;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at === undefined;
}

function readStudy(raw: unknown, sel: MetricSelection, name: string): MetricSource {
  const parsed = StudyJson.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // A field the export lacks is named as missing (`elicit report` words it the same).
    const missing = lacks(raw, issue.path);
    throw new MetricFileError(
      `${name} is not a study.json export this version can read: ${missing ? `it has no ${issue.path.join(".")}` : issueText(parsed.error)}`,
    );
  }
  const s = parsed.data;
  const read = studyReader(s);
  const withMetric = s.participants.filter((p) => p.summary.metric !== null);
  const subjectOf = (p: StudyJson["participants"][number]): MetricSubject => {
    const label = `participant ${p.id}${p.test ? " (a test run)" : ""}${p.pilot ? " (pilot)" : ""}`;
    const metric = read(p.summary.metric!, `${label}'s summary.metric`);
    const draws = p.summary.beliefDraws ?? [];
    if (draws.length > 0)
      return {
        label,
        metric,
        belief: {
          kind: "draws",
          note: `${draws.length} draws of the adaptive engine's final belief (study.json summary.beliefDraws)`,
          samples: draws.map((d, i) => read(d, `${label}'s summary.beliefDraws[${i}]`)),
        },
      };
    const range = p.summary.rangeA;
    if (metric.family === "binary-linear" && range)
      return {
        label,
        metric,
        belief: {
          kind: "range",
          note: `no belief draws (the paper's search keeps none): every a in [${range.lo.toFixed(4)}, ${range.hi.toFixed(4)}] of (1 - a) TP + a TN fits the answers (summary.rangeA), sampled evenly (200 values)`,
          samples: evenly(range.lo, range.hi).map((a) => ({
            ...metric,
            tp: 1 - a,
            tn: a,
            ...(metric.a0 !== undefined ? { a0: a } : {}),
          })),
        },
      };
    return {
      label,
      metric,
      belief: null,
      beliefNote:
        "this participant's summary has no belief draws (summary.beliefDraws; exports made before they were added have none)",
    };
  };
  const groupColumn = s.study.config.source.groups;
  const base = { kind: "study" as const, ...(groupColumn ? { groupColumn } : {}) };
  if (sel.participant !== undefined) {
    const p = s.participants.find((x) => x.id === sel.participant);
    const ids = withMetric.map((x) => x.id).join(", ") || "none";
    if (!p)
      throw new MetricFileError(
        `participant ${sel.participant} is not in the study; participants with a metric: ${ids}`,
      );
    if (p.summary.metric === null)
      throw new MetricFileError(
        `participant ${sel.participant} has no elicited metric (status ${p.status}); participants with a metric: ${ids}`,
      );
    return { ...base, subjects: [subjectOf(p)] };
  }
  if (sel.all) {
    if (withMetric.length === 0)
      throw new MetricFileError("no participant has an elicited metric yet");
    return { ...base, subjects: withMetric.map(subjectOf) };
  }
  const ids = s.consensus?.participants ?? [];
  const members = withMetric.filter((p) => ids.includes(p.id));
  if (members.length === 0)
    throw new MetricFileError(
      `the study has no consensus yet (nobody counted has finished); choose --participant ID (with a metric: ${withMetric.map((x) => x.id).join(", ") || "none"})`,
    );
  const metrics = members.map((p) =>
    read(p.summary.metric!, `participant ${p.id}'s summary.metric`),
  );
  return {
    ...base,
    subjects: [
      {
        label: `the consensus of ${members.length} participant${members.length === 1 ? "" : "s"} (${members.map((p) => p.id).join(", ")})`,
        metric: meanMetric(metrics),
        belief: {
          kind: "participants",
          note: `the ${members.length === 1 ? "participant's own metric is" : `${members.length} participants' own metrics are`} the sample (each counted once)`,
          samples: metrics,
        },
      },
    ],
  };
}

// --- debrief ------------------------------------------------------------------------------

const Debrief = z.object({
  debrief: z
    .object({
      metric: Record_,
      range: z.object({ low: num, high: num.nullable() }),
    })
    .passthrough()
    .optional(),
  multiclassDebrief: z
    .object({
      metric: z.object({ weights: vec }),
      classes: z.array(z.string()),
      mistakes: z.array(z.unknown()).optional(),
      kindFigures: z.unknown().optional(),
    })
    .passthrough()
    .optional(),
  fairDebrief: z
    .object({
      metric: z.object({ lambda: num }).passthrough(),
      classes: z.array(z.string()),
      groups: z.array(z.string()),
      full: z
        .object({ a: vec, B: z.record(z.string(), mat) })
        .passthrough()
        .optional(),
    })
    .passthrough()
    .optional(),
});

function readDebrief(raw: Record<string, unknown>, where: string): MetricSource {
  const parsed = Debrief.safeParse(raw);
  if (!parsed.success) throw new MetricFileError(`${where}: ${issueText(parsed.error)}`);
  const d = parsed.data;
  const noDraws =
    "a debrief holds no belief draws: the best-model probabilities need the study's study.json (summary.beliefDraws)";
  if (d.debrief) {
    const rec = d.debrief.metric;
    const metric = studyReader({
      study: { config: { spec: { family: "binary" }, source: {} } },
      consensus: null,
      participants: [],
    })(rec, `${where} debrief.metric`);
    // The cost ratio r = (1 - a) / a, so a = 1 / (1 + r); the range is rounded outward.
    const { low, high } = d.debrief.range;
    const lo = high === null ? 0 : 1 / (1 + high);
    const hi = 1 / (1 + low);
    return {
      kind: "debrief",
      subjects: [
        {
          label: where,
          metric,
          belief: {
            kind: "range",
            note: `the debrief's range of cost ratios ${low} to ${high ?? "unbounded"} (rounded outward), as a in [${lo.toFixed(4)}, ${hi.toFixed(4)}] of (1 - a) TP + a TN, sampled evenly (200 values)`,
            samples: evenly(lo, hi).map((a) => ({ family: "binary-linear", tp: 1 - a, tn: a })),
          },
        },
      ],
    };
  }
  if (d.multiclassDebrief) {
    const m = d.multiclassDebrief;
    const k = m.classes.length;
    const w = m.metric.weights;
    let metric: PortableMetric;
    if (m.mistakes !== undefined || w.length === k * (k - 1))
      metric = { family: "linear", a: w, classes: m.classes };
    else if (w.length === k) metric = { family: "diagonal-linear", a: w, classes: m.classes };
    else {
      const q = wToQuadratic(w, k);
      metric = { family: "quadratic", a: q.a, B: q.B, classes: m.classes };
    }
    return {
      kind: "debrief",
      subjects: [
        { label: where, metric: checked(metric, where), belief: null, beliefNote: noDraws },
      ],
    };
  }
  if (d.fairDebrief) {
    const f = d.fairDebrief;
    if (!f.full)
      throw new MetricFileError(
        `${where}: a fair-lambda debrief holds lambda only; the costs a and gap weights B it goes with are in the study's config: score with the study's study.json instead`,
      );
    return {
      kind: "debrief",
      subjects: [
        {
          label: where,
          metric: checked(
            {
              family: "fair",
              a: f.full.a,
              B: f.full.B,
              lambda: f.metric.lambda,
              classes: f.classes,
              groups: f.groups,
            },
            where,
          ),
          belief: null,
          beliefNote: noDraws,
        },
      ],
    };
  }
  throw new MetricFileError(
    `${where}: the participant state has no debrief (debrief, multiclassDebrief or fairDebrief): the participant has not finished Phase II`,
  );
}

/**
 * The metrics a parsed file holds: a study.json export (a participant's metric with
 * `participant`, every participant's with `all`, else the consensus, whose belief is the
 * participants' own metrics), a metric file (`{"family": ..., ...}`, the family's numbers as
 * `--truth` takes them, optional `classes`, `groups` and `draws`, a list of metrics of the
 * same family as the belief's samples), or a participant's state with its debrief.
 * @example readMetricSource({ family: "binary-threshold", a0: 0.3 }, {}, "m.json").subjects[0].metric // { family: "binary-linear", tp: 0.7, tn: 0.3 }
 */
export function readMetricSource(
  raw: unknown,
  sel: MetricSelection,
  name = "the metric file",
): MetricSource {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new MetricFileError(`${name} must hold a JSON object`);
  const obj = raw as Record<string, unknown>;
  const studyOnly = sel.participant !== undefined || sel.all;
  const ours = (obj.software as { name?: unknown } | undefined)?.name === "metric-elicitation";
  if ("study" in obj && ("participants" in obj || ours)) return readStudy(obj, sel, name);
  if (studyOnly)
    throw new MetricFileError(
      `--participant and --all choose among a study.json's participants; ${name} is not a study.json`,
    );
  if ("family" in obj) {
    const { draws, ...rest } = obj;
    const metric = fromMetricFile(rest, name);
    const parsedDraws = z.array(Record_).optional().safeParse(draws);
    if (!parsedDraws.success) throw new MetricFileError(`${name}: draws must be a list of metrics`);
    const samples = (parsedDraws.data ?? []).map((d, i) =>
      fromMetricFile({ family: rest.family, ...d }, `${name} draws[${i}]`),
    );
    return {
      kind: "metric",
      subjects: [
        {
          label: name,
          metric,
          belief:
            samples.length > 0
              ? { kind: "draws", note: `the ${samples.length} draws in ${name}`, samples }
              : null,
          beliefNote: `${name} holds no draws (add "draws": [metrics of the same family] for the best-model probabilities)`,
        },
      ],
    };
  }
  const inner = "completionCode" in obj && "metric" in obj;
  if ("debrief" in obj || "multiclassDebrief" in obj || "fairDebrief" in obj)
    return readDebrief(obj, name);
  if (inner)
    throw new MetricFileError(
      `${name} looks like a debrief on its own: pass the whole participant state (the JSON with debrief, multiclassDebrief or fairDebrief)`,
    );
  throw new MetricFileError(
    `${name} is neither a study.json export (study, participants), a metric file ({"family": ...}) nor a participant's state with a debrief; e.g. ${EXAMPLE}`,
  );
}
