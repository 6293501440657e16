import { expect } from "vitest";
import { thresholdPoint } from "../../src/elicit/binary/point.ts";
import type { BinaryPopulation } from "../../src/geometry/binary/population.ts";
import { truthfulAnswer } from "../../src/oracle/noise.ts";
import type { ParticipantState, SystemView } from "../../src/server/api-schemas.ts";
import { studyData } from "../../src/server/kinds/binary/data.ts";
import { sha256 } from "../../src/server/security/tokens.ts";
import type { StudyConfig } from "../../src/server/study/config.ts";
import { PAPER_POST_QUESTIONS, PAPER_QUESTIONNAIRE } from "../../src/server/study/template.ts";
import { call, type TestApp } from "./helpers.ts";

export const questionnaireAnswers = Object.fromEntries(
  PAPER_QUESTIONNAIRE.map((f) => [f.id, f.options?.[0] ?? `text for ${f.id}`]),
);
/** Answers to whatever fields a page shows: each choice's first option, or some text. */
export function answersFor(
  fields: readonly { id: string; options?: readonly string[] }[],
): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [f.id, f.options?.[0] ?? `text for ${f.id}`]));
}

export const postAnswers = Object.fromEntries(
  PAPER_POST_QUESTIONS.map((f) => [f.id, `answer to ${f.id}`]),
);

/** A simulated participant with metric a0 TN + (1 - a0) TP, deciding on the exact points. */
export function chooser(population: BinaryPopulation, a0: number, grid = 1e-4) {
  const value = (v: SystemView) => {
    const c = thresholdPoint(population, v.threshold, grid).confusion;
    return a0 * c.tn + (1 - a0) * c.tp;
  };
  return (left: SystemView, right: SystemView): "left" | "right" | "same" => {
    const a = truthfulAnswer(value(left), value(right));
    return a === "first" ? "left" : a === "second" ? "right" : "same";
  };
}

/**
 * A person who reads the counts on the screen and picks the system with the lower cost
 * `ratio x missed + false alarms` shown ("same" for equal costs): as a person answers, unlike
 * `chooser`, which weighs the unrounded systems behind the counts.
 * @example screenChooser(3)(left, right) // "left" when 3 fn + fp is lower on the left
 */
export function screenChooser(ratio: number) {
  return (l: SystemView, r: SystemView): "left" | "right" | "same" => {
    const d = ratio * r.fn + r.fp - (ratio * l.fn + l.fp);
    return d > 1e-9 ? "left" : d < -1e-9 ? "right" : "same";
  };
}

/**
 * The right answer of each of Part 1's questions of the participant's study, as stored (the
 * built-in questions for the template's data, general ones for uploaded data, or the study's
 * own), by question id.
 */
export async function answerKey(t: TestApp, token: string): Promise<Map<string, string>> {
  const row = await t.db
    .selectFrom("participants")
    .innerJoin("studies", "studies.id", "participants.study_id")
    .select("studies.config")
    .where("participants.token_hash", "=", sha256(token))
    .executeTakeFirstOrThrow();
  const config = JSON.parse(row.config) as StudyConfig;
  return new Map(config.comprehension.questions.map((q) => [q.id, q.correct]));
}

/** Consent, questionnaire (`answersFor` its fields) and story: Part 1's first question. */
export async function walkToPart1(t: TestApp, token: string): Promise<ParticipantState> {
  const base = `/api/p/${token}`;
  let s = (await call<ParticipantState>(t, "GET", base)).body;
  s = (await call(t, "POST", `${base}/consent`, { agree: true })).body;
  s = (
    await call(t, "POST", `${base}/questionnaire`, { answers: answersFor(s.questionnaire!.fields) })
  ).body;
  s = (await call(t, "POST", `${base}/story`, {})).body;
  if (s.phase !== "comprehension") throw new Error(`expected comprehension, got ${s.phase}`);
  return s;
}

/** Drive a participant from the consent page to the first Phase II question. */
export async function walkToElicitation(t: TestApp, token: string): Promise<ParticipantState> {
  const base = `/api/p/${token}`;
  let s = (await call<ParticipantState>(t, "GET", base)).body;
  if (s.phase !== "consent") throw new Error(`expected consent, got ${s.phase}`);
  s = (await call(t, "POST", `${base}/consent`, { agree: true })).body;
  s = (await call(t, "POST", `${base}/questionnaire`, { answers: questionnaireAnswers })).body;
  s = (await call(t, "POST", `${base}/story`, {})).body;
  const key = s.phase === "comprehension" ? await answerKey(t, token) : new Map();
  while (s.phase === "comprehension") {
    const id = s.comprehension!.question.id;
    const r = await call(t, "POST", `${base}/comprehension`, {
      questionId: id,
      answer: key.get(id),
    });
    s = r.body.state;
  }
  s = (await call(t, "POST", `${base}/guess`, { ratio: 4 })).body;
  return s;
}

/** Answer Phase II with `choose` until it ends; returns the shown threshold pairs and state. */
export async function answerElicitation(
  t: TestApp,
  token: string,
  s: ParticipantState,
  choose: (l: SystemView, r: SystemView) => "left" | "right" | "same",
  stopAfter = Number.POSITIVE_INFINITY,
) {
  const shown: [number, number][] = [];
  while (s.phase === "elicitation" && shown.length < stopAfter) {
    const q = s.elicitation!.question;
    shown.push([q.left.threshold, q.right.threshold]);
    s = (
      await call(t, "POST", `/api/p/${token}/answer`, {
        questionId: q.id,
        choice: choose(q.left, q.right),
      })
    ).body;
  }
  return { shown, state: s };
}

/** Answer Phase III with `choose` until it ends. */
export async function answerEvaluation(
  t: TestApp,
  token: string,
  s: ParticipantState,
  choose: (l: SystemView, r: SystemView) => "left" | "right" | "same",
): Promise<ParticipantState> {
  while (s.phase === "evaluation") {
    const q = s.evaluation!.question;
    s = (
      await call(t, "POST", `/api/p/${token}/evaluation`, {
        questionId: q.id,
        choice: choose(q.left, q.right),
      })
    ).body;
  }
  return s;
}

/** Answer Phase III and the post-task questions. */
export async function finish(
  t: TestApp,
  token: string,
  s: ParticipantState,
  choose: (l: SystemView, r: SystemView) => "left" | "right" | "same",
) {
  s = await answerEvaluation(t, token, s, choose);
  s = (await call(t, "POST", `/api/p/${token}/post`, { answers: postAnswers })).body;
  return s;
}

/**
 * A binary study's stored configuration and the pool its participants see, read back from the
 * database as the server reads them.
 * @example const { pool } = await storedStudy(t, id);
 */
export async function storedStudy(t: TestApp, id: number) {
  const row = await t.db
    .selectFrom("studies")
    .select(["config", "config_hash"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  const config = JSON.parse(row.config) as StudyConfig;
  return { config, pool: studyData(row.config_hash, config).pool };
}

/**
 * A study made from `finePredictionsCsv` (plus `extra` create fields) and a test-run
 * participant of it: the study id and the participant's token.
 */
export async function studyWithTestRun(
  t: TestApp,
  cookie: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: number; token: string }> {
  const created = await call(
    t,
    "POST",
    "/api/studies",
    { name: "Loans", predictionsCsv: finePredictionsCsv(), positive: "yes", ...extra },
    cookie,
  );
  if (created.status !== 200) throw new Error(`creating the study: ${created.status}`);
  const id = created.body.study.id as number;
  const link = await call(t, "POST", `/api/studies/${id}/test-run`, {}, cookie);
  return { id, token: link.body.link.slice(link.body.link.lastIndexOf("/p/") + 3) };
}

/** 200 probability levels, 10 rows each, with round(10 p) positives: a fine labelled pool. */
export function finePredictionsCsv(): string {
  const lines = ["label,probability"];
  for (let i = 0; i < 200; i++) {
    const p = (i + 0.5) / 200;
    const positives = Math.round(10 * p);
    for (let j = 0; j < 10; j++) lines.push(`${j < positives ? "yes" : "no"},${p}`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * A binary study made from `body` (name, strategy, data) and opened live; returns its id.
 * @example const id = await openBinaryStudy(t, cookie, { name: "Screening", strategy: "paper" });
 */
export async function openBinaryStudy(
  t: TestApp,
  cookie: string,
  body: Record<string, unknown>,
): Promise<number> {
  const created = await call(t, "POST", "/api/studies", body, cookie);
  expect(created.status).toBe(200);
  const id = created.body.study.id as number;
  expect((await call(t, "POST", `/api/studies/${id}/open`, { mode: "live" }, cookie)).status).toBe(
    200,
  );
  return id;
}
