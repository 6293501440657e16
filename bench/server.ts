/**
 * Load test of the web app (not a test): `npm run bench:server [-- --participants N]
 * [--servers S] [--think-ms MS] [--warmup W] [--database-url URL] [--target-p99 MS]`.
 *
 * Prepares one database (SQLite in a fresh temporary data dir, or PostgreSQL with
 * `--database-url URL` / BENCH_DATABASE_URL, in a fresh schema dropped afterwards), invites
 * N + W participants (default 200 + 5) of the built-in study and starts S server processes
 * (default 1) on it, each in its own process on 127.0.0.1 so the simulated participants do not
 * share their event loops. Every participant then goes through the whole flow at once over
 * real HTTP, each request sent to a random server as a load balancer would: consent,
 * questionnaire, story, the four comprehension questions, the guess, Phase II (a simulated
 * doctor with a random a0) and Phase III (15 answers), post-task questions. Before every step
 * a participant "thinks" for a uniform random time with mean `--think-ms` (default 1000 ms;
 * real people take several seconds per comparison), so arrivals and answers are spread out
 * the way a live study's are; `--think-ms 0` answers at once and measures the servers at
 * saturation instead. Every participant also double-submits one answer (two identical
 * requests at once). W warm-up participants (default 5, no think time, not measured) run first.
 *
 * Reports, per server and in total, requests and answers, answers per second and the p50 / p99
 * / max latency of the answer routes (answer, evaluation); then audits the database against
 * what the clients were told:
 * - lost: an answer acknowledged (200, not `duplicate`) with no stored row for it;
 * - duplicated: a question holding more than one live answer, or a live log that is not
 *   questions 0, 1, 2, ... in order;
 * - stuck: a participant who did not reach the debrief (status done).
 * Exits 1 when any is non-zero, a participant failed or p99 misses the target
 * (`--target-p99`, default 50 ms with one server as issue 3 asks, 100 ms with several as
 * issue 14 asks). With BENCH_PROF=1 each server process writes a V8 CPU profile to
 * /tmp/cpuprof.
 */
import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Ack, auditAnswers, dropSchema, prepareStudyDb } from "../scripts/study-db.ts";
import { thresholdPoint } from "../src/elicit/binary/point.ts";
import { createRng } from "../src/math/rng.ts";
import { truthfulAnswer } from "../src/oracle/noise.ts";
import type { ParticipantState, SystemView } from "../src/server/api-schemas.ts";
import { studyData } from "../src/server/kinds/binary/data.ts";
import { sha256 } from "../src/server/security/tokens.ts";
import { canonicalJson } from "../src/server/study/config.ts";
import {
  cancerDiagnosisConfig,
  PAPER_POST_QUESTIONS,
  PAPER_QUESTIONNAIRE,
  phase1Questions,
} from "../src/server/study/template.ts";

if (process.argv.includes("--help")) {
  console.log(`usage: npm run bench:server [-- --participants N] [--servers S] [--think-ms MS]
  [--warmup W] [--database-url URL] [--target-p99 MS]
Defaults: 200 participants + 5 warm-up, 1 server, 1000 ms mean think time, SQLite in a fresh
data dir (PostgreSQL with --database-url or BENCH_DATABASE_URL, in a fresh schema), target p99
50 ms with one server and 100 ms with several. Reports answers per second and latencies, audits
the database (lost, duplicated, stuck) and exits 1 when any is non-zero, a participant failed
or p99 misses the target.`);
  process.exit(0);
}

function arg(name: string, fallback: string | undefined): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const N = Number(arg("participants", "200"));
const S = Number(arg("servers", "1"));
if (!Number.isInteger(S) || S < 1 || S > 16) throw new Error(`--servers 1..16, not ${S}`);
/** Mean think time before each answer in ms (uniform in [0, 2 x mean]; real participants take
 * several seconds per comparison); `--think-ms 0` answers at once and measures saturation. */
const thinkMs = Number(arg("think-ms", "1000"));
/** Participants run (unmeasured, no think time) before the measured run, to warm the JIT. */
const W = Number(arg("warmup", "5"));
const targetP99 = Number(arg("target-p99", S > 1 ? "100" : "50"));
const baseUrl = arg("database-url", process.env.BENCH_DATABASE_URL) || undefined;
const dir = mkdtempSync(join(tmpdir(), "elicit-bench-"));

// ---------------------------------------------------------------- the database
const { databaseUrl, schema, studyId, tokens } = await prepareStudyDb({
  dataDir: dir,
  baseUrl,
  schemaPrefix: "bench",
  participants: N + W,
});

// ---------------------------------------------------------------- the servers
interface Server {
  readonly index: number;
  readonly proc: ChildProcess;
  readonly port: number;
  readonly latencies: number[];
  requests: number;
  answers: number;
  /** CPU time the server process used once listening (warm-up included). */
  cpuMs: number;
}
const startServer = async (index: number): Promise<Server> => {
  const proc = fork(fileURLToPath(new URL("./server-worker.ts", import.meta.url)), [dir], {
    execArgv: [
      "--import",
      "tsx",
      ...(process.env.BENCH_PROF ? ["--cpu-prof", "--cpu-prof-dir=/tmp/cpuprof"] : []),
    ],
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl ?? "" },
  });
  const ready = await new Promise<{ port: number; kind: string }>((resolve, reject) => {
    proc.once("message", (m) => resolve(m as { port: number; kind: string }));
    proc.once("exit", (code) => reject(new Error(`server ${index} exited with code ${code}`)));
  });
  return { index, proc, port: ready.port, latencies: [], requests: 0, answers: 0, cpuMs: 0 };
};
const servers: Server[] = [];
for (let i = 0; i < S; i++) servers.push(await startServer(i));
process.on("exit", () => {
  for (const s of servers) if (s.proc.exitCode === null) s.proc.kill("SIGKILL");
});
const kind = baseUrl ? "PostgreSQL" : "SQLite";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- the participants
const config = cancerDiagnosisConfig();
const pool = studyData(sha256(canonicalJson(config)), config).pool;
const balancer = createRng(7);
let answersSent = 0;
let duplicatesAcknowledged = 0;
let errors = 0;
let measuring = false;

const acks = new Map<string, Ack[]>();
const done = new Set<string>();

async function post(
  url: string,
  body: unknown,
  timed = false,
): Promise<ParticipantState & { state?: ParticipantState }> {
  const s = servers[balancer.int(servers.length)]!;
  const t0 = performance.now();
  const res = await fetch(`http://127.0.0.1:${s.port}${url}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as ParticipantState & { state?: ParticipantState };
  if (measuring) {
    s.requests++;
    if (timed) {
      s.latencies.push(performance.now() - t0);
      s.answers++;
    }
  }
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
  const mine: Ack[] = [];
  acks.set(token, mine);
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
  for (const q of phase1Questions(s.comprehension!.systems!)) {
    await think();
    s = (await post(`${p}/comprehension`, { questionId: q.id, answer: q.correct })).state!;
  }
  await think();
  s = await post(`${p}/guess`, { ratio: 3 });
  const doubleAt = rng.int(8);
  while (s.phase === "elicitation" || s.phase === "evaluation") {
    const phase = s.phase;
    const q = phase === "elicitation" ? s.elicitation!.question : s.evaluation!.question;
    const url = `${p}/${phase === "elicitation" ? "answer" : "evaluation"}`;
    const body = { questionId: q.id, choice: choose(q.left, q.right) };
    const ack = (r: ParticipantState) => {
      if (!r.duplicate) mine.push({ phase, question: q.id, choice: body.choice });
    };
    if (measuring) answersSent++;
    await think();
    if (phase === "elicitation" && q.id === doubleAt) {
      // a double click: the same answer twice at once
      const [a, b] = await Promise.all([post(url, body, true), post(url, body, true)]);
      ack(a);
      ack(b);
      if (measuring) answersSent++;
      if (a.duplicate && measuring) duplicatesAcknowledged++;
      if (b.duplicate && measuring) duplicatesAcknowledged++;
      s = a.duplicate ? b : a;
    } else {
      s = await post(url, body, true);
      ack(s);
    }
  }
  await think();
  s = await post(`${p}/post`, {
    answers: Object.fromEntries(PAPER_POST_QUESTIONS.map((f) => [f.id, "bench"])),
  });
  if (s.phase === "debrief") done.add(token);
}

const clientAtStart = process.cpuUsage();
const warm = await Promise.allSettled(tokens.slice(N).map((t, i) => participant(t, N + i, 0)));
measuring = true;
const t0 = performance.now();
const results = [
  ...warm,
  ...(await Promise.allSettled(tokens.slice(0, N).map((t, i) => participant(t, i, thinkMs)))),
];
const seconds = (performance.now() - t0) / 1000;
const failed = results.filter((r) => r.status === "rejected");

for (const s of servers) {
  const exited = new Promise((r) => s.proc.once("exit", r));
  const cpu = new Promise<number>((r) =>
    s.proc.once("message", (m) => r((m as { cpuMs: number }).cpuMs)),
  );
  s.proc.send("stop");
  s.cpuMs = await cpu;
  await exited;
}
const clientCpu = process.cpuUsage(clientAtStart);

// ---------------------------------------------------------------- the audit
const { stored, lost, duplicated, stuck } = await auditAnswers({
  dataDir: dir,
  databaseUrl,
  studyId,
  clients: tokens.map((token) => ({ token, acks: acks.get(token) ?? [], done: done.has(token) })),
});

// ---------------------------------------------------------------- the report
const pct = (xs: number[], q: number) =>
  xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
const latencyLine = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return `p50 ${pct(sorted, 0.5).toFixed(1)} ms, p99 ${pct(sorted, 0.99).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms`;
};
const all = servers.flatMap((s) => s.latencies).sort((a, b) => a - b);
const p99 = pct(all, 0.99);
console.log(
  `elicit bench:server: ${N} concurrent participants over HTTP, ${kind}, ${S} server${S > 1 ? "s" : ""}, think time ${thinkMs ? `${thinkMs} ms mean` : "none"}`,
);
console.log(
  `  completed        ${done.size}/${N + W} participants (${W} warm-up) in ${seconds.toFixed(2)} s`,
);
for (const s of servers) {
  console.log(
    `  server ${s.index + 1}         ${s.requests} requests, ${s.answers} answers (${(s.answers / seconds).toFixed(0)}/s), CPU ${(s.cpuMs / 1000).toFixed(1)} s; answer latency ${latencyLine(s.latencies)}`,
  );
}
console.log(
  `  total            ${answersSent} answers submitted (${duplicatesAcknowledged} double submits acknowledged as duplicates), ${(answersSent / seconds).toFixed(0)} answers/s`,
);
console.log(`  answer latency   ${latencyLine(all)} (target p99 < ${targetP99} ms)`);
const requests = servers.reduce((a, s) => a + s.requests, 0);
const serverCpu = servers.reduce((a, s) => a + s.cpuMs, 0);
console.log(
  `  CPU              servers ${(serverCpu / 1000).toFixed(1)} s (${(serverCpu / Math.max(1, requests)).toFixed(2)} ms per measured request, warm-up included), participants' process ${((clientCpu.user + clientCpu.system) / 1e6).toFixed(1)} s, over ${seconds.toFixed(1)} s on ${availableParallelism()} cores (load average ${loadavg()[0]!.toFixed(1)} at the end)`,
);
console.log(
  `  audit            ${stored} stored answers; lost ${lost}, duplicated ${duplicated}, stuck ${stuck}`,
);
if (failed.length > 0) {
  console.log(
    `  failures         ${failed.length} participants (${errors} HTTP errors); first: ${(failed[0] as PromiseRejectedResult).reason}`,
  );
}
if (schema && baseUrl) await dropSchema(baseUrl, schema);
rmSync(dir, { recursive: true, force: true });
process.exitCode =
  lost > 0 || duplicated > 0 || stuck > 0 || failed.length > 0 || p99 >= targetP99 ? 1 : 0;
