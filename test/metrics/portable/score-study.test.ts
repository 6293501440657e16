import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatMulticlassPredictions, formatPredictions } from "../../../src/data/predictions.ts";
import { readMetricSource } from "../../../src/experiments/score/metric-source.ts";
import { readModelPredictions } from "../../../src/experiments/score/model-predictions.ts";
import { scoreModels } from "../../../src/experiments/score/score.ts";
import { createRng } from "../../../src/math/rng.ts";
import { sha256 } from "../../../src/server/security/tokens.ts";
import {
  answerElicitation,
  chooser,
  finePredictionsCsv,
  finish,
  storedStudy,
  walkToElicitation,
} from "../../server/driver.ts";
import { answerFair, createFair, fairReader } from "../../server/fair-driver.ts";
import { call, type TestApp, tokenOf } from "../../server/helpers.ts";
import { appPerTest } from "../../server/kind-driver.ts";
import {
  answerMulticlass,
  createMulticlass,
  finishMulticlass,
  screenReader,
  walkToMulticlass,
} from "../../server/multiclass-driver.ts";

/**
 * Issue 29 item 1 on real exports: a study made and answered over HTTP, its study.json
 * downloaded, and `elicit score` run on it. The adaptive participants' summaries keep 200
 * draws of the engine's final belief (summary.beliefDraws, in the form of summary.metric),
 * and the probability that each model is best is checked against a direct computation over
 * those draws (each draw's own optimal rule, written out here, not the library's).
 */

const dir = mkdtempSync(join(tmpdir(), "elicit-score-study-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ELICIT = new URL("../../../bin/elicit.js", import.meta.url).pathname;
function elicit(args: string[]) {
  const r = spawnSync(process.execPath, [ELICIT, ...args], { encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Two models' binary predictions on the same 400 cases: a sharp one and a blurred one. */
function binaryModels(): { name: string; labels: number[]; p: number[] }[] {
  const rng = createRng("score-study-binary");
  const labels = Array.from({ length: 400 }, () => (rng.next() < 0.35 ? 1 : 0));
  const noisy = (spread: number, shift: number) =>
    labels.map((y) => {
      const z = (y === 1 ? 1 : -1) * spread + shift + rng.normal();
      return 1 / (1 + Math.exp(-z));
    });
  return [
    { name: "sharp.csv", labels, p: noisy(1.6, 0.8) },
    { name: "blurred.csv", labels, p: noisy(1.2, -0.6) },
  ];
}

async function exported(t: TestApp, cookie: string, id: number) {
  const r = await call(t, "GET", `/api/studies/${id}/export/study.json`, undefined, cookie);
  expect(r.status).toBe(200);
  return r.body;
}

async function invite(t: TestApp, cookie: string, id: number, seeds: number[]) {
  const links = (
    await call(t, "POST", `/api/studies/${id}/invites`, { count: seeds.length }, cookie)
  ).body.links as string[];
  const out: { token: string; seed: number }[] = [];
  for (const [i, seed] of seeds.entries()) {
    const token = tokenOf(links[i]!);
    await t.db
      .updateTable("participants")
      .set({ seed })
      .where("token_hash", "=", sha256(token))
      .execute();
    out.push({ token, seed });
  }
  return out;
}

describe("elicit score on a study's study.json (sqlite)", () => {
  const app = appPerTest("sqlite");

  it("binary adaptive: 200 belief draws per participant; P(best) as the draws say, directly; the CLI prints them", async () => {
    const { t, cookie } = app;
    const created = await call(
      t,
      "POST",
      "/api/studies",
      { name: "Loans", predictionsCsv: finePredictionsCsv(), positive: "yes", evaluationPairs: 4 },
      cookie,
    );
    expect(created.status).toBe(200);
    const id = created.body.study.id as number;
    expect(
      (await call(t, "POST", `/api/studies/${id}/open`, { mode: "live" }, cookie)).status,
    ).toBe(200);
    const { pool } = await storedStudy(t, id);
    for (const [n, p] of (await invite(t, cookie, id, [701, 702])).entries()) {
      const a0 = [0.35, 0.6][n]!;
      const s = await walkToElicitation(t, p.token);
      const { state } = await answerElicitation(t, p.token, s, chooser(pool, a0));
      expect((await finish(t, p.token, state, chooser(pool, a0))).phase).toBe("debrief");
    }
    const json = await exported(t, cookie, id);
    expect(json.classes).toEqual(["no", "yes"]);
    expect(json.codebook.beliefDraws).toMatch(/200 draws of the engine's final belief/);
    const [first] = json.participants as {
      id: number;
      summary: { metric: { a0: number }; beliefDraws: { a0: number }[] };
    }[];
    expect(first!.summary.beliefDraws).toHaveLength(200);
    for (const d of first!.summary.beliefDraws) expect(Object.keys(d)).toEqual(["a0"]);

    // Two models' predictions files with the study's classes.
    const models = binaryModels();
    for (const m of models)
      writeFileSync(
        join(dir, m.name),
        formatPredictions({
          labels: m.labels,
          probabilities: m.p,
          positiveLabel: "yes",
          negativeLabel: "no",
        }),
      );
    const studyFile = join(dir, "study.json");
    writeFileSync(studyFile, JSON.stringify(json));

    // Directly: under (1 - a0) TP + a0 TN the best rule is "yes when p >= a0"; a model is best
    // under a draw when its value is the larger (ties share the draw).
    const value = (a0: number, m: (typeof models)[number]) => {
      let tp = 0;
      let tn = 0;
      m.labels.forEach((y, n) => {
        const yes = m.p[n]! >= a0;
        if (y === 1 && yes) tp++;
        if (y === 0 && !yes) tn++;
      });
      return ((1 - a0) * tp + a0 * tn) / m.labels.length;
    };
    const direct = (draws: readonly { a0: number }[]) => {
      const p = [0, 0];
      for (const d of draws) {
        const [a, b] = [value(d.a0, models[0]!), value(d.a0, models[1]!)];
        if (Math.abs(a - b) <= 1e-12) {
          p[0]! += 0.5 / draws.length;
          p[1]! += 0.5 / draws.length;
        } else p[a > b ? 0 : 1]! += 1 / draws.length;
      }
      return p;
    };
    const expected = direct(first!.summary.beliefDraws);
    const lib = (() => {
      const source = readMetricSource(json, { participant: first!.id });
      const subject = source.subjects[0]!;
      const read = models.map(
        (m) =>
          readModelPredictions(
            m.name,
            formatPredictions({
              labels: m.labels,
              probabilities: m.p,
              positiveLabel: "yes",
              negativeLabel: "no",
            }),
            subject.metric,
          ).model,
      );
      return scoreModels(subject.metric, read, subject.belief!);
    })();
    lib.belief!.pBest.forEach((p, i) => {
      expect(p).toBeCloseTo(expected[i]!, 12);
    });

    const cli = elicit([
      "score",
      "--metric",
      studyFile,
      "--participant",
      String(first!.id),
      "--predictions",
      join(dir, "sharp.csv"),
      join(dir, "blurred.csv"),
      "--json",
    ]);
    expect(cli.status, cli.stderr).toBe(0);
    const out = JSON.parse(cli.stdout);
    const subject = out.subjects[0];
    expect(subject.belief.kind).toBe("draws");
    expect(subject.belief.samples).toBe(200);
    subject.models.forEach((m: { pBest: number }, i: number) => {
      expect(m.pBest).toBeCloseTo(expected[i]!, 12);
    });
    // The scores are the elicited metric's values of each model's optimal rule (threshold a0).
    const a0 = first!.summary.metric.a0;
    subject.models.forEach((m: { score: number; rule: { threshold: number } }, i: number) => {
      expect(m.rule.threshold).toBeCloseTo(a0, 12);
      expect(m.score).toBeCloseTo(value(a0, models[i]!), 12);
    });
    expect(subject.ranking).toEqual(
      value(a0, models[0]!) >= value(a0, models[1]!)
        ? ["sharp.csv", "blurred.csv"]
        : ["blurred.csv", "sharp.csv"],
    );

    // The consensus: the participants' own metrics are the sample.
    const text = elicit([
      "score",
      "--metric",
      studyFile,
      "--predictions",
      join(dir, "sharp.csv"),
      join(dir, "blurred.csv"),
    ]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain("Metric of the consensus of 2 participants");
    // The built-in binary study's metric is a threshold, and is named so.
    expect(text.stdout).toMatch(
      /Metric of the consensus of 2 participants[^\n]*: binary-threshold: a0 = /,
    );
    expect(text.stdout).toContain("the 2 participants' own metrics are the sample");
    const own = (json.participants as { summary: { metric: { a0: number } } }[]).map(
      (p) => p.summary.metric,
    );
    const c = direct(own);
    expect(text.stdout).toMatch(
      new RegExp(`sharp\\.csv +[0-9.]+ +${c[0]!.toFixed(3).replace(".", "\\.")}`),
    );

    // A participant not in the study, and one of another study's classes.
    const missing = elicit([
      "score",
      "--metric",
      studyFile,
      "--participant",
      "999",
      "--predictions",
      join(dir, "sharp.csv"),
    ]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(
      /participant 999 is not in the study; participants with a metric: \d+, \d+/,
    );
    writeFileSync(join(dir, "other.csv"), "label,probability\nbenign,0.2\nmalignant,0.9\n");
    const wrong = elicit([
      "score",
      "--metric",
      studyFile,
      "--predictions",
      join(dir, "other.csv"),
      "--positive",
      "malignant",
    ]);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain(
      "its classes (benign, positive malignant) do not match the metric's (no, positive yes)",
    );
  }, 180_000);

  it("multiclass: the draws are { weights } summing to 1; P(best) as the draws say, each with its argmax_i a_i p_i rule", async () => {
    const { t, cookie } = app;
    const { study, data } = await createMulticlass(t, cookie, { evaluationPairs: 0 });
    const id = study.id as number;
    expect(
      (await call(t, "POST", `/api/studies/${id}/open`, { mode: "live" }, cookie)).status,
    ).toBe(200);
    const [p] = await invite(t, cookie, id, [811]);
    const s = await walkToMulticlass(t, p!.token);
    const run = await answerMulticlass(
      t,
      p!.token,
      p!.seed,
      s,
      screenReader([0.2, 0.5, 0.3], data.pool.priors, 0, p!.seed),
    );
    await finishMulticlass(t, p!.token, run.state);
    const json = await exported(t, cookie, id);
    expect(json.classes).toEqual(data.classNames);
    const [mine] = json.participants as {
      id: number;
      summary: { beliefDraws: { weights: number[] }[] };
    }[];
    const draws = mine!.summary.beliefDraws;
    expect(draws).toHaveLength(200);
    for (const d of draws) expect(d.weights.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 12);

    // Two models on the same 300 cases of the study's classes.
    const rng = createRng("score-study-multiclass");
    const labels = Array.from({ length: 300 }, () => rng.int(3));
    const soft = (sharp: number) =>
      labels.map((y) => {
        const z = [0, 1, 2].map((i) => (i === y ? sharp : 0) + rng.normal());
        const e = z.map(Math.exp);
        const s = e.reduce((a, b) => a + b, 0);
        return Float64Array.from(e, (x) => x / s);
      });
    const models = [
      { name: "m1.csv", probabilities: soft(1.5) },
      { name: "m2.csv", probabilities: soft(1.1) },
    ];
    const files = models.map((m) => {
      const f = join(dir, m.name);
      writeFileSync(
        f,
        formatMulticlassPredictions({
          labels,
          probabilities: m.probabilities,
          classNames: data.classNames,
        }),
      );
      return f;
    });
    const studyFile = join(dir, "study-mc.json");
    writeFileSync(studyFile, JSON.stringify(json));
    // Directly: under sum_i a_i C_ii the best rule is argmax_i a_i p_i (ties to the first).
    const value = (a: number[], probabilities: Float64Array[]) => {
      let v = 0;
      probabilities.forEach((q, n) => {
        let best = 0;
        for (let j = 1; j < 3; j++) if (a[j]! * q[j]! > a[best]! * q[best]!) best = j;
        if (best === labels[n]) v += a[best]!;
      });
      return v / labels.length;
    };
    const expected = [0, 0];
    for (const d of draws) {
      const [x, y] = models.map((m) => value(d.weights, m.probabilities)) as [number, number];
      if (Math.abs(x - y) <= 1e-12) {
        expected[0]! += 0.5 / 200;
        expected[1]! += 0.5 / 200;
      } else expected[x > y ? 0 : 1]! += 1 / 200;
    }
    const cli = elicit([
      "score",
      "--metric",
      studyFile,
      "--participant",
      String(mine!.id),
      "--predictions",
      ...files,
      "--json",
    ]);
    expect(cli.status, cli.stderr).toBe(0);
    const out = JSON.parse(cli.stdout).subjects[0];
    out.models.forEach((m: { pBest: number }, i: number) => {
      expect(m.pBest).toBeCloseTo(expected[i]!, 12);
    });
    expect(out.models[0].rule.text).toMatch(/^predict argmax_i a_i P\(i \| x\)/);
    // A predictions file of other classes is refused, naming them.
    writeFileSync(join(dir, "wrong.csv"), "label,p_x,p_y,p_z\nx,0.2,0.3,0.5\ny,0.1,0.8,0.1\n");
    const wrong = elicit(["score", "--metric", studyFile, "--predictions", join(dir, "wrong.csv")]);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/its classes \(x, y, z\) do not match the metric's/);
  }, 240_000);

  it("fair: the draws are { lambda } (the study's known a and B); score reads them with the study's group column", async () => {
    const { t, cookie } = app;
    const { study, config, data } = await createFair(t, cookie, { evaluationPairs: 0 });
    const id = study.id as number;
    expect(
      (await call(t, "POST", `/api/studies/${id}/open`, { mode: "live" }, cookie)).status,
    ).toBe(200);
    const [p] = await invite(t, cookie, id, [911]);
    const s = await walkToMulticlass(t, p!.token);
    const run = await answerFair(
      t,
      p!.token,
      p!.seed,
      s,
      fairReader(config.spec, data.tau, 0.3, 0, p!.seed),
    );
    await finishMulticlass(t, p!.token, run.state);
    const json = await exported(t, cookie, id);
    expect(json.classes).toEqual(data.classNames);
    expect(json.groups).toEqual(data.groupNames);
    const [mine] = json.participants as { id: number; summary: { beliefDraws: object[] } }[];
    expect(mine!.summary.beliefDraws).toHaveLength(200);
    for (const d of mine!.summary.beliefDraws) expect(Object.keys(d)).toEqual(["lambda"]);
    const [c0, c1] = data.classNames as [string, string];
    const [g0, g1] = data.groupNames as [string, string];
    const lines = [
      `label,${config.source.kind === "fair-dataset" ? config.source.groups : "group"},p_${c0},p_${c1}`,
    ];
    const rng = createRng("score-study-fair");
    for (let n = 0; n < 200; n++) {
      const q = rng.next();
      lines.push(`${rng.next() < q ? c1 : c0},${n % 2 ? g0 : g1},${1 - q},${q}`);
    }
    const f = join(dir, "fair-model.csv");
    writeFileSync(f, `${lines.join("\n")}\n`);
    const g = join(dir, "fair-other.csv");
    writeFileSync(
      g,
      `${lines.map((l, i) => (i === 0 ? l : l.replace(/,([^,]*),([^,]*)$/, (_, a, b) => `,${b},${a}`))).join("\n")}\n`,
    );
    const studyFile = join(dir, "study-fair.json");
    writeFileSync(studyFile, JSON.stringify(json));
    const r = elicit([
      "score",
      "--metric",
      studyFile,
      "--participant",
      String(mine!.id),
      "--predictions",
      f,
      g,
      "--json",
    ]);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout).subjects[0];
    expect(out.cost).toBe(true);
    expect(out.belief.samples).toBe(200);
    const sum = out.models.reduce((x: number, m: { pBest: number }) => x + m.pBest, 0);
    expect(sum).toBeCloseTo(1, 12);
  }, 240_000);
});
