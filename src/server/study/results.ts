import type { AdaptiveResult } from "../../elicit/adaptive/engine.ts";
import type {
  AdaptiveOutcome,
  ParticipantRow as ParticipantSummary,
  Phase,
} from "../api-schemas.ts";
import type { Db } from "../db/schema.ts";
import { studyKindOf } from "../kinds/registry.ts";
import type { ElicitationResult } from "../participant/elicitation.ts";
import {
  type AnswerRow,
  type Context,
  type ParticipantRow,
  position,
} from "../participant/service.ts";
import { msBetween } from "../time.ts";
import type { StudyConfig } from "./config.ts";
import { anyStudyData } from "./population.ts";
import { loadConfig } from "./store.ts";

/** Everything stored about a study's participants, loaded in a few queries. */
export interface StudyRecords {
  readonly study: {
    id: number;
    name: string;
    status: string;
    hash: string;
    createdAt: string;
    openedAt: string | null;
  };
  readonly config: StudyConfig;
  readonly participants: ParticipantRow[];
  readonly answers: Map<number, AnswerRow[]>;
  readonly responses: Map<number, { form: string; field_id: string; value: string }[]>;
  readonly comprehension: Map<
    number,
    { question_id: string; attempt: number; answer: string; correct: number; created_at: string }[]
  >;
  readonly guesses: Map<number, number | null>;
}

function group<T extends { participant_id: number }>(rows: T[]): Map<number, T[]> {
  const m = new Map<number, T[]>();
  for (const r of rows) {
    const list = m.get(r.participant_id);
    if (list) list.push(r);
    else m.set(r.participant_id, [r]);
  }
  return m;
}

export async function loadStudyRecords(db: Db, studyId: number): Promise<StudyRecords | null> {
  const s = await db
    .selectFrom("studies")
    .select(["id", "name", "status", "config_hash", "created_at", "opened_at"])
    .where("id", "=", studyId)
    .executeTakeFirst();
  if (!s) return null;
  const config = await loadConfig(db, s.id, s.config_hash);
  const participants = await db
    .selectFrom("participants")
    .selectAll()
    .where("study_id", "=", studyId)
    .orderBy("id")
    .execute();
  const ids = participants.map((p) => p.id);
  const inStudy = (qb: "answers" | "responses" | "comprehension" | "guesses") =>
    db
      .selectFrom(qb)
      .innerJoin("participants", "participants.id", `${qb}.participant_id`)
      .where("participants.study_id", "=", studyId);
  const [answers, responses, comprehension, guesses] = ids.length
    ? await Promise.all([
        inStudy("answers").selectAll("answers").orderBy("answers.id").execute(),
        inStudy("responses")
          .select(["responses.participant_id", "form", "field_id", "value"])
          .orderBy("responses.id")
          .execute(),
        inStudy("comprehension")
          .select([
            "comprehension.participant_id",
            "question_id",
            "attempt",
            "answer",
            "correct",
            "comprehension.created_at",
          ])
          .orderBy("comprehension.id")
          .execute(),
        inStudy("guesses").select(["guesses.participant_id", "ratio"]).execute(),
      ])
    : [[], [], [], []];
  return {
    study: {
      id: s.id,
      name: s.name,
      status: s.status,
      hash: s.config_hash,
      createdAt: s.created_at,
      openedAt: s.opened_at,
    },
    config,
    participants,
    answers: group(answers as AnswerRow[]),
    responses: group(responses),
    comprehension: group(comprehension),
    guesses: new Map(guesses.map((g) => [g.participant_id, g.ratio])),
  };
}

/** The adaptive engine's account of its result (null for the searches). */
export function adaptiveOutcome(
  r: ElicitationResult | AdaptiveResult<unknown, unknown>,
): AdaptiveOutcome | null {
  if (!("strategy" in r && r.strategy === "adaptive")) return null;
  return {
    stop: r.stop,
    questions: r.questions,
    credible: { ...r.credible },
    pOptimal: r.pOptimal,
    inconsistent: r.inconsistent,
    unidentified: r.unidentified.map((u) => ({ ...u })),
    model: r.model,
  };
}

/** One participant's derived results (replayed from the stored log). */
export function participantSummary(
  rec: StudyRecords,
  p: ParticipantRow,
): ParticipantSummary & {
  questions: number;
  /** The debrief's range of `a` in `(1 - a) TP + a TN` (binary studies, Phase II done). */
  rangeA: { lo: number; hi: number } | null;
} {
  const rows = rec.answers.get(p.id) ?? [];
  const ctx: Context = {
    participant: p,
    studyId: rec.study.id,
    studyStatus: rec.study.status,
    configHash: rec.study.hash,
    config: rec.config,
    data: anyStudyData(rec.study.hash, rec.config),
    rows,
  };
  const pos = position(ctx);
  const { rangeA, ...figures } = studyKindOf(rec.config).summary(ctx, pos);
  const start = p.started_at;
  const end = p.finished_at;
  return {
    id: p.id,
    status: p.status,
    startedAt: start,
    finishedAt: end,
    guess: rec.guesses.get(p.id) ?? null,
    ...figures,
    rangeA,
    seconds: start && end ? Math.round(msBetween(start, end) / 1000) : null,
    test: p.test === 1,
    pilot: p.pilot === 1,
    completionCode: p.completion_code,
    answered: pos.elicitationRows.length,
    phase: pos.phase as Phase,
    questions: pos.elicitationRows.length,
  };
}
