/**
 * Load test of the web app (not a test): `npm run bench:server [-- --participants N]
 * [--think-ms MS] [--warmup W] [--database-url URL]`.
 *
 * Starts the server in its own process on 127.0.0.1 (SQLite in a fresh temporary data dir, or
 * PostgreSQL with `--database-url URL` / BENCH_DATABASE_URL; the bench empties that database's
 * tables first), invites N participants (default 200) of the built-in study and lets them all
 * go through the whole flow at once over real HTTP: consent, questionnaire, story, the four
 * comprehension questions, the guess, Phase II (up to 20 answers: pairs that look the same in
 * whole patients are not asked; a simulated doctor with a random a0) and Phase III (15
 * answers), post-task questions. Before every step a participant
 * "thinks" for a uniform random time with mean `--think-ms` (default 1000 ms; real people take
 * several seconds per comparison), so arrivals and answers are spread out the way a live
 * study's are; `--think-ms 0` answers at once and measures the server at saturation instead.
 * Every participant also double-submits one answer (two identical requests at once).
 * W warm-up participants (default 5, no think time, not measured) run first.
 *
 * Reports answers per second, p50/p99 latency of the answer routes, and lost or duplicated
 * answers found by auditing the database afterwards.
 * Target (issue 3): 200 participants, p99 under 50 ms with SQLite, nothing lost or duplicated.
 * With BENCH_PROF=1 the server process writes a V8 CPU profile to /tmp/cpuprof.
 */
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { thresholdPoint } from "../src/elicit/binary/point.ts";
import { createRng } from "../src/math/rng.ts";
import { truthfulAnswer } from "../src/oracle/noise.ts";
import type { ParticipantState, SystemView } from "../src/server/api-schemas.ts";
import { openDb } from "../src/server/db/connect.ts";
import { sha256 } from "../src/server/security/tokens.ts";
import { canonicalJson } from "../src/server/study/config.ts";
import { studyData } from "../src/server/study/population.ts";
import {
  cancerDiagnosisConfig,
  PAPER_POST_QUESTIONS,
  PAPER_QUESTIONNAIRE,
  phase1Questions,
} from "../src/server/study/template.ts";

function arg(name: string, fallback: string | undefined): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const N = Number(arg("participants", "200"));
/** Mean think time before each answer in ms (uniform in [0, 2 x mean]; real participants take
 * several seconds per comparison); `--think-ms 0` answers at once and measures saturation. */
const thinkMs = Number(arg("think-ms", "1000"));
/** Participants run (unmeasured, no think time) before the measured run, to warm the JIT. */
const W = Number(arg("warmup", "5"));
const databaseUrl = arg("database-url", process.env.BENCH_DATABASE_URL);
const dir = mkdtempSync(join(tmpdir(), "elicit-bench-"));
const worker = fork(
  fileURLToPath(new URL("./server-worker.ts", import.meta.url)),
  [dir, String(N + W)],
  {
    execArgv: [
      "--import",
      "tsx",
      ...(process.env.BENCH_PROF ? ["--cpu-prof", "--cpu-prof-dir=/tmp/cpuprof"] : []),
    ],
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl ?? "" },
  },
);
const ready = await new Promise<{ port: number; tokens: string[]; kind: string }>(
  (resolve, reject) => {
    worker.once("message", (m) => resolve(m as { port: number; tokens: string[]; kind: string }));
    worker.once("exit", (code) => reject(new Error(`the server process exited with code ${code}`)));
  },
);
const { tokens, kind } = ready;
const base = `http://127.0.0.1:${ready.port}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const config = cancerDiagnosisConfig();
const pool = studyData(sha256(canonicalJson(config)), config).pool;
const latencies: number[] = [];
let answersSent = 0;
let duplicatesAcknowledged = 0;
/** Questions shown to all participants (warm-up included): each should hold one stored answer. */
let questionsShown = 0;
let errors = 0;

let measuring = false;

async function post(
  url: string,
  body: unknown,
  timed = false,
): Promise<ParticipantState & { state?: ParticipantState }> {
  const t0 = performance.now();
  const res = await fetch(base + url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as ParticipantState & { state?: ParticipantState };
  if (timed && measuring) latencies.push(performance.now() - t0);
  if (!res.ok) {
    errors++;
    throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
  }
  return json;
}

async function participant(token: string, i: number, thinkMs: number): Promise<void> {
  const rng = createRng(i + 1);
  const a0 = 0.1 + 0.8 * rng.next();
  const value = (v: SystemView) => {
    const c = thresholdPoint(pool, v.threshold, 1e-4).confusion;
    return a0 * c.tn + (1 - a0) * c.tp;
  };
  const choose = (l: SystemView, r: SystemView) => {
    const a = truthfulAnswer(value(l), value(r));
    return a === "first" ? "left" : a === "second" ? "right" : "same";
  };
  const p = `/api/p/${token}`;
  const think = () => (thinkMs > 0 ? sleep(rng.next() * 2 * thinkMs) : Promise.resolve());
  await think(); // arrivals spread over the first 2 x think time
  await post(`${p}/consent`, { agree: true });
  await think();
  await post(`${p}/questionnaire`, {
    answers: Object.fromEntries(PAPER_QUESTIONNAIRE.map((f) => [f.id, f.options?.[0] ?? ""])),
  });
  await think();
  let s = await post(`${p}/story`, {});
  for (const q of phase1Questions()) {
    await think();
    s = (await post(`${p}/comprehension`, { questionId: q.id, answer: q.correct })).state!;
  }
  await think();
  s = await post(`${p}/guess`, { ratio: 3 });
  const doubleAt = rng.int(8);
  const shown = new Set<string>();
  while (s.phase === "elicitation" || s.phase === "evaluation") {
    const q = s.phase === "elicitation" ? s.elicitation!.question : s.evaluation!.question;
    shown.add(`${s.phase}:${q.id}`);
    const url = `${p}/${s.phase === "elicitation" ? "answer" : "evaluation"}`;
    const body = { questionId: q.id, choice: choose(q.left, q.right) };
    if (measuring) answersSent++;
    await think();
    if (s.phase === "elicitation" && q.id === doubleAt) {
      // a double click: the same answer twice at once
      const [a, b] = await Promise.all([post(url, body, true), post(url, body, true)]);
      if (measuring) answersSent++;
      if (a.duplicate && measuring) duplicatesAcknowledged++;
      if (b.duplicate && measuring) duplicatesAcknowledged++;
      s = a.duplicate ? b : a;
    } else {
      s = await post(url, body, true);
    }
  }
  questionsShown += shown.size;
  await think();
  await post(`${p}/post`, {
    answers: Object.fromEntries(PAPER_POST_QUESTIONS.map((f) => [f.id, "bench"])),
  });
}

const warm = await Promise.allSettled(tokens.slice(N).map((t, i) => participant(t, N + i, 0)));
measuring = true;
const t0 = performance.now();
const results = [
  ...warm,
  ...(await Promise.allSettled(tokens.slice(0, N).map((t, i) => participant(t, i, thinkMs)))),
];
const seconds = (performance.now() - t0) / 1000;
const failed = results.filter((r) => r.status === "rejected");

worker.send("stop");
await new Promise((r) => worker.once("exit", r));
const { db } = await openDb({ dataDir: dir, databaseUrl });

// Audit the database: every question a participant was shown should hold exactly one answer,
// one per (phase, index), and nothing else.
const rows = await db
  .selectFrom("answers")
  .select(["participant_id", "phase", "question_index", "undone_at"])
  .execute();
const perKey = new Map<string, number>();
for (const r of rows) {
  const k = `${r.participant_id}:${r.phase}:${r.question_index}`;
  perKey.set(k, (perKey.get(k) ?? 0) + 1);
}
const duplicated = [...perKey.values()].filter((c) => c > 1).length;
const expected = questionsShown;
const lost = Math.max(0, expected - perKey.size);
const done = await db
  .selectFrom("participants")
  .select("id")
  .where("status", "=", "done")
  .execute();

latencies.sort((a, b) => a - b);
const pct = (q: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
const p99 = pct(0.99);
console.log(
  `elicit bench:server: ${N} concurrent participants over HTTP, ${kind}, think time ${thinkMs ? `${thinkMs} ms mean` : "none"}`,
);
console.log(
  `  completed        ${done.length}/${N + W} participants (${W} warm-up) in ${seconds.toFixed(2)} s`,
);
console.log(
  `  answers          ${answersSent} submitted (${duplicatesAcknowledged} double submits acknowledged as duplicates), ${(answersSent / seconds).toFixed(0)} answers/s`,
);
console.log(
  `  answer latency   p50 ${pct(0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${(latencies.at(-1) ?? 0).toFixed(1)} ms (target p99 < 50 ms)`,
);
console.log(
  `  stored answers   ${perKey.size} of ${expected} expected; lost ${lost}, duplicated ${duplicated}`,
);
if (failed.length > 0) {
  console.log(
    `  failures         ${failed.length} participants (${errors} HTTP errors); first: ${(failed[0] as PromiseRejectedResult).reason}`,
  );
}
await db.destroy();
rmSync(dir, { recursive: true, force: true });
process.exitCode = lost > 0 || duplicated > 0 || failed.length > 0 ? 1 : 0;
