import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { truthfulAnswer } from "../../src/oracle/noise.ts";
import type { SystemView } from "../../src/server/api-schemas.ts";
import { sha256 } from "../../src/server/security/tokens.ts";
import { tempDir } from "../temp-dir.ts";
import {
  answerElicitation,
  finePredictionsCsv,
  finish,
  storedStudy,
  walkToElicitation,
} from "./driver.ts";
import { call, freshStore, signIn, startApp, type TestApp, tokenOf } from "./helpers.ts";
import { csvRows } from "./kind-driver.ts";

/**
 * Issue 10, "Replay": a web study configured as adaptive recovers a simulated participant's
 * metric over HTTP with the same questions as `elicit simulate` on the same predictions,
 * spec and seed: the participant's stored answer log and the CLI's session log are the same
 * answers to the same questions (both are a pure function of spec, seed and answers).
 */
const bin = fileURLToPath(new URL("../../bin/elicit.js", import.meta.url));

/**
 * The participant of metric `a0 TN + (1 - a0) TP` judging the counts the page shows (issue
 * 26), as `elicit simulate --as-shown`'s person judges TP and TN at the display step.
 */
function onScreen(a0: number) {
  return (l: SystemView, r: SystemView): "left" | "right" | "same" => {
    const a = truthfulAnswer(a0 * l.tn + (1 - a0) * l.tp, a0 * r.tn + (1 - a0) * r.tp);
    return a === "first" ? "left" : a === "second" ? "right" : "same";
  };
}

describe("adaptive web study vs elicit simulate", () => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await startApp(await freshStore("sqlite"));
    cookie = await signIn(t);
  });
  afterEach(async () => {
    await t.close();
  });

  it("asks the same questions and elicits the same a0 as the CLI", async () => {
    const a0 = 0.3;
    const csv = finePredictionsCsv();
    const created = await call(
      t,
      "POST",
      "/api/studies",
      { name: "Parity", predictionsCsv: csv, positive: "yes", strategy: "adaptive", budget: 25 },
      cookie,
    );
    expect(created.status).toBe(200);
    const id = created.body.study.id as number;
    const { config } = await storedStudy(t, id);
    const spec = config.spec as unknown as Record<string, unknown>;

    const link = await call(t, "POST", `/api/studies/${id}/test-run`, {}, cookie);
    const token = tokenOf(link.body.link);
    const seed = 424242;
    await t.db
      .updateTable("participants")
      .set({ seed })
      .where("token_hash", "=", sha256(token))
      .execute();
    const participant = await t.db
      .selectFrom("participants")
      .select(["id"])
      .where("token_hash", "=", sha256(token))
      .executeTakeFirstOrThrow();

    const s = await walkToElicitation(t, token);
    const { state } = await answerElicitation(t, token, s, onScreen(a0));
    const done = await finish(t, token, state, onScreen(a0));
    const webA0 = (done.debrief!.metric as { a0: number }).a0;
    const answers = (
      await t.db
        .selectFrom("answers")
        .select(["answer", "first_point", "second_point"])
        .where("participant_id", "=", participant.id)
        .where("phase", "=", "elicitation")
        .where("undone_at", "is", null)
        .orderBy("question_index")
        .execute()
    ).map((r) => r.answer);

    const dir = tempDir("elicit-parity-");
    const file = join(dir, "predictions.csv");
    writeFileSync(file, csv);
    const cli = spawnSync(
      process.execPath,
      [
        bin,
        "simulate",
        "--predictions",
        file,
        "--positive",
        "yes",
        "--pool",
        String(config.pool),
        "--family",
        "binary-threshold",
        "--strategy",
        "adaptive",
        "--tolerance",
        String(spec.tolerance),
        "--budget",
        String(spec.budget),
        "--credibility",
        String(spec.credibility),
        "--answer-model",
        String(spec.model),
        "--display-step",
        String(spec.displayStep),
        // The web study believes answers are about the counts as shown.
        "--as-shown",
        // ... and weighs every threshold classifier as shown for its questions.
        "--every-shown",
        "--grid",
        String(spec.grid),
        // The study's belief grid (STUDY_GRID_POINTS), not the engine's default.
        "--grid-points",
        String(spec.gridPoints),
        "--seed",
        String(seed),
        "--truth",
        JSON.stringify({ a0 }),
        "--json",
      ],
      { encoding: "utf8", input: "" },
    );
    expect(cli.stderr).not.toMatch(/error/i);
    const report = JSON.parse(cli.stdout);
    expect(report.session.answers).toEqual(answers);
    // The debrief states the engine's estimate moved into the range of every a0 that gives
    // the Phase II answers (participants.csv range_a_low/high): the CLI's, moved likewise.
    const row = csvRows(
      (await call(t, "GET", `/api/studies/${id}/export/participants.csv`, undefined, cookie))
        .body as string,
    )[0]!;
    const [lo, hi] = [Number(row.range_a_low), Number(row.range_a_high)];
    expect(lo).toBeLessThan(hi);
    expect(Math.min(hi, Math.max(lo, report.elicited.a0))).toBeCloseTo(webA0, 12);
    expect(Math.abs(webA0 - a0)).toBeLessThanOrEqual(Number(spec.tolerance));
  }, 180_000);
});
