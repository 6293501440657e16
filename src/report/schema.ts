// What the report reads of a study.json export (src/server/study/export.ts `studyJson`),
// checked at the edge with the web API's own schemas: the consensus and each participant's
// summary are the dashboard's (`Consensus`, `ParticipantRow`), so a file that parses here is
// one the server wrote.

import { z } from "zod";
import { Consensus, ParticipantRow, StudyWords } from "../server/api-schemas.ts";
import { STUDY_KINDS } from "../server/kinds/catalogue.ts";
import { notJsonMessage } from "../words.ts";

/** A participant's summary: the dashboard's row, its Phase II questions and binary range of a. */
const Summary = ParticipantRow.extend({
  questions: z.number().int().optional(),
  rangeA: z.object({ lo: z.number(), hi: z.number() }).nullable().optional(),
});

/**
 * The study's configuration: what the report reads, every other field (and every field of
 * the objects read) kept as it is, so that the configuration still hashes to the study's hash.
 */
const Config = z.looseObject({
  kind: z.enum(STUDY_KINDS).optional(),
  title: z.string(),
  template: z.string().nullable().optional(),
  source: z.looseObject({
    kind: z.string(),
    file: z.string().optional(),
    positive: z.string().optional(),
    target: z.string().optional(),
    groups: z.string().optional(),
    classes: z.array(z.string()).optional(),
  }),
  spec: z.looseObject({
    family: z.string(),
    strategy: z.string(),
    tolerance: z.number(),
    budget: z.number().int().optional(),
    credibility: z.number().optional(),
    known: z
      .looseObject({
        a: z.array(z.number()),
        B: z.record(z.string(), z.array(z.array(z.number()))),
      })
      .optional(),
  }),
  words: StudyWords.loose(),
  evaluationPairs: z.number().int(),
  retestPairs: z.number().int().optional(),
  display: z.looseObject({ population: z.number() }).optional(),
});

/** A study.json export as the report reads it. */
export const StudyExport = z.object({
  software: z.object({ name: z.literal("metric-elicitation"), version: z.string() }),
  exportedAt: z.string(),
  study: z.object({
    id: z.number().int(),
    name: z.string(),
    status: z.string(),
    hash: z.string(),
    createdAt: z.string(),
    openedAt: z.string().nullable(),
    config: Config,
  }),
  /** The class names in the order the export uses (exports from issue 29 on). */
  classes: z.array(z.string()).optional(),
  /** A fairness study's group names in order (exports from issue 29 on). */
  groups: z.array(z.string()).optional(),
  consensus: Consensus.nullable(),
  participants: z.array(
    z.object({
      id: z.number().int(),
      status: z.string(),
      test: z.boolean(),
      pilot: z.boolean(),
      summary: Summary,
    }),
  ),
});
export type StudyExport = z.infer<typeof StudyExport>;

/** One participant of an export. */
export type ExportParticipant = StudyExport["participants"][number];

/** Why a file cannot be reported on: not JSON, or not a study.json export. */
export class StudyExportError extends Error {}

/**
 * The study.json export in `text` (read from `name`), checked; a `StudyExportError` that says
 * what is wrong otherwise: not JSON (the parser's message, on one line), JSON that is no study
 * export at all, or an export with a field the report cannot read or that is missing (its path
 * named).
 * @example parseStudyExport(readFileSync("study.json", "utf8"), "study.json").study.name
 */
export function parseStudyExport(text: string, name: string): StudyExport {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new StudyExportError(notJsonMessage(name, e));
  }
  const download = `download it from the study's page in the web app: Export, "Everything (JSON)"`;
  const fields = json !== null && typeof json === "object" && !Array.isArray(json) ? json : null;
  const software = (fields as { software?: { name?: unknown } } | null)?.software?.name;
  // JSON that is no export at all (a metric file, a participants list) is told so; one that
  // says it comes from this software, or has an export's fields, gets the field it lacks named.
  const looksLike =
    fields !== null &&
    (software === "metric-elicitation" || ("study" in fields && "participants" in fields));
  if (!looksLike) {
    throw new StudyExportError(`${name} is not a study.json export (${download})`);
  }
  const parsed = StudyExport.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.join(".") : "(top level)";
    if (valueAt(json, issue.path) === undefined) {
      throw new StudyExportError(
        `${name} is not a study.json export this version can read: it has no ${where} (${download})`,
      );
    }
    throw new StudyExportError(
      `${name} is not a study.json export this version can read: ${where}: ${issue.message}`,
    );
  }
  return parsed.data;
}

/** The value at `path` inside parsed JSON, or undefined when some step of it is missing. */
function valueAt(json: unknown, path: readonly PropertyKey[]): unknown {
  let at = json;
  for (const key of path) {
    if (at === null || typeof at !== "object" || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}
