// What the fairness and multiclass study drivers share: creating a study of a kind over the
// API (its stored config and hash back), answering Phase II over HTTP as a simulated reader of
// the screen (left/right mapped back with the participant's placement), and a reader's answer
// with its seeded flips.

import { afterEach, beforeEach, expect } from "vitest";
import { parseCsv } from "../../src/data/csv.ts";
import type { Rng } from "../../src/math/rng.ts";
import type { Answer } from "../../src/search/question.ts";
import type { ParticipantState } from "../../src/server/api-schemas.ts";
import type { DbKind } from "../../src/server/db/schema.ts";
import { clearMulticlassReplayCache } from "../../src/server/kinds/multiclass/participant.ts";
import { placementOf } from "../../src/server/participant/elicitation.ts";
import { call, freshStore, signIn, startApp, type TestApp } from "./helpers.ts";

/** The app of the running test, on a fresh database, and its signed-in researcher's cookie. */
export interface AppPerTest {
  readonly t: TestApp;
  readonly cookie: string;
  /**
   * Closes the app and starts a new one on the same database (a server restart; the
   * multiclass and fairness replay cache is cleared too, so the new app replays from the
   * stored log); the new app is `t` from then on and is the one closed after the test.
   */
  restart(): Promise<TestApp>;
}

/**
 * In a describe block: before each test a fresh database of `kind`, an app on it and a
 * signed-in researcher; after it the app is closed.
 * @example const app = appPerTest(kind); it("…", async () => { const { t, cookie } = app; … });
 */
export function appPerTest(kind: DbKind): AppPerTest {
  let store: Awaited<ReturnType<typeof freshStore>>;
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    store = await freshStore(kind);
    t = await startApp(store);
    cookie = await signIn(t);
  });
  afterEach(async () => {
    await t.close();
  });
  return {
    get t() {
      return t;
    },
    get cookie() {
      return cookie;
    },
    async restart() {
      await t.close();
      clearMulticlassReplayCache();
      t = await startApp(store);
      return t;
    },
  };
}

/**
 * Creates a study with POST /api/studies (throws on any status but 200) and reads back its
 * stored config and config hash.
 * @example const { study, config, configHash } = await createStudyOfKind<StudyConfig<FairLambdaSpec>>(t, cookie, { name: "x", kind: "fair" });
 */
export async function createStudyOfKind<C>(
  t: TestApp,
  cookie: string,
  body: Record<string, unknown>,
) {
  const r = await call(t, "POST", "/api/studies", body, cookie);
  if (r.status !== 200)
    throw new Error(`creating the study: ${r.status} ${JSON.stringify(r.body)}`);
  const study = r.body.study as { id: number; configHash: string } & Record<string, unknown>;
  const row = await t.db
    .selectFrom("studies")
    .select(["config", "config_hash"])
    .where("id", "=", study.id)
    .executeTakeFirstOrThrow();
  return { study, config: JSON.parse(row.config) as C, configHash: row.config_hash };
}

/**
 * The answer to (first, second) of a reader who prefers `first` when `d` > 0 (a tie within
 * 1e-12), flipped with probability `flips` by the seeded `rng` (ties never flip).
 * @example flippedAnswer(value(first) - value(second), rng, 0.1) // "first", "second" or "tie"
 */
export function flippedAnswer(d: number, rng: Rng, flips: number): Answer {
  let a: Answer = Math.abs(d) < 1e-12 ? "tie" : d > 0 ? "first" : "second";
  if (a !== "tie" && rng.next() < flips) a = a === "first" ? "second" : "first";
  return a;
}

/**
 * Answers Phase II over HTTP until it ends or `stopAfter` answers: `question` takes the pair
 * shown out of the state, `reader` answers (first, second) and the choice is mapped back to
 * left/right with the participant's placement. Every answer must be a 200 and not a duplicate.
 * @example await answerPairs(t, token, seed, s, (s) => s.fairElicitation!.question, reader);
 */
export function answerPairs<V>(
  t: TestApp,
  token: string,
  seed: number,
  s: ParticipantState,
  question: (s: ParticipantState) => { id: number; left: V; right: V },
  reader: { answer(first: V, second: V): Answer },
  stopAfter = Number.POSITIVE_INFINITY,
) {
  return answerPhase("elicitation", t, token, seed, s, question, reader, stopAfter);
}

/**
 * Answers Phase II (`elicitation`, the `answer` request; `answerPairs`) or Phase III
 * (`evaluation`, the `evaluation` request) over HTTP until it ends or `stopAfter` answers,
 * as `answerPairs` describes.
 * @example await answerPhase("evaluation", t, token, seed, s, (s) => s.fairEvaluation!.question, reader);
 */
export async function answerPhase<V>(
  phase: "elicitation" | "evaluation",
  t: TestApp,
  token: string,
  seed: number,
  s: ParticipantState,
  question: (s: ParticipantState) => { id: number; left: V; right: V },
  reader: { answer(first: V, second: V): Answer },
  stopAfter = Number.POSITIVE_INFINITY,
) {
  let asked = 0;
  const shown: [V, V][] = [];
  while (s.phase === phase && asked < stopAfter) {
    const q = question(s);
    shown.push([q.left, q.right]);
    const placement = placementOf(seed, phase, q.id);
    const [first, second] = placement === "first-left" ? [q.left, q.right] : [q.right, q.left];
    const a = reader.answer(first, second);
    const choice =
      a === "tie" ? "same" : (a === "first") === (placement === "first-left") ? "left" : "right";
    const path = phase === "elicitation" ? "answer" : "evaluation";
    const r = await call<ParticipantState>(t, "POST", `/api/p/${token}/${path}`, {
      questionId: q.id,
      choice,
    });
    expect(r.status).toBe(200);
    expect(r.body.duplicate).toBeUndefined();
    s = r.body;
    asked++;
  }
  return { asked, shown, state: s };
}

/**
 * The study's `study.json` export as the researcher downloads it, parsed.
 * @example const json = await studyJson(t, cookie, study.id); json.consensus
 */
export async function studyJson(t: TestApp, cookie: string, studyId: number) {
  const r = await t.app.inject({
    method: "GET",
    url: `/api/studies/${studyId}/export/study.json`,
    headers: { cookie },
  });
  if (r.statusCode !== 200) throw new Error(`study.json: ${r.statusCode}`);
  return JSON.parse(r.body);
}

/** Rows of a CSV export as objects keyed by the header. */
export function csvRows(text: string): Record<string, string>[] {
  const t = parseCsv(text);
  return t.rows.map((r) => Object.fromEntries(t.header.map((c, i) => [c, r[i] ?? ""])));
}

/**
 * What a researcher sees of a study's participants: both CSVs (rows keyed by header) and the
 * dashboard's participant rows.
 * @example const { participants, answers, dashboard } = await researcherViews(t, cookie, id);
 */
export async function researcherViews(t: TestApp, cookie: string, studyId: number) {
  const get = async (path: string) => (await call(t, "GET", path, undefined, cookie)).body;
  return {
    participants: csvRows((await get(`/api/studies/${studyId}/export/participants.csv`)) as string),
    answers: csvRows((await get(`/api/studies/${studyId}/export/answers.csv`)) as string),
    dashboard: (await get(`/api/studies/${studyId}/participants`)).participants as {
      id: number;
      completionCode: string;
      consistency: unknown;
    }[],
  };
}
