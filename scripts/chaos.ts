/**
 * Chaos suite of the web app (issue 14): `npx tsx scripts/chaos.ts [--db sqlite|postgres]
 * [--participants N] [--kills K] [--servers S] [--database-url URL] [--think-ms MS] [--seed X]
 * [--spread-ms MS] [--deadline-s S] [--sabotage]`. Defaults: sqlite, 200 participants, 5 kills,
 * 1 server on SQLite and 2 on PostgreSQL, 60 ms mean think time, arrivals spread over
 * 3 s per kill, everything given up (and failed) after 480 s.
 *
 * Starts S `elicit serve` processes (real `node bin/elicit.js serve`, production rate limits)
 * on one database: SQLite in a fresh temporary data dir (with S > 1 the processes share one
 * file: WAL, transactions that begin IMMEDIATE, a 5 s busy timeout), or PostgreSQL
 * (`--database-url`, else TEST_DATABASE_URL) in a fresh schema that is dropped afterwards.
 * N participants of the built-in study then go through the whole flow at once over HTTP, each
 * request sent to a random server (as a load balancer would), and misbehave the way real ones do: undos, double
 * submissions (the same answer twice at once), duplicate tabs (a second tab answering the same
 * question with its own choice, or a stale tab answering a question already answered) and
 * racing undo / answer pairs. Meanwhile a killer sends SIGKILL to a random server at random
 * moments, K times, restarting it each time. A participant whose request fails (connection
 * refused or reset, 429) reloads its page (GET) and carries on, as a browser would.
 *
 * Afterwards the database is audited against what the clients were told:
 * - lost: an answer acknowledged (200, not `duplicate`) with no stored row for it;
 * - duplicated: a question holding more than one live (not undone) answer, or a live log that
 *   is not questions 0, 1, 2, ... in order;
 * - stuck: a participant who did not reach the debrief (status done) within the step budget.
 * Any 5xx answer fails the run too. Prints
 * `chaos sqlite: 200 participants, 5 kills, lost 0, duplicated 0, stuck 0` and exits 1 unless
 * all are 0, no 5xx was seen and at least K kills happened. `--sabotage` damages the stored
 * answers before the audit (one lost, one revived duplicate, one participant set back), to
 * check that the audit sees it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRng, type Rng } from "../src/math/rng.ts";
import type { ParticipantState } from "../src/server/api-schemas.ts";
import { openDb } from "../src/server/db/connect.ts";
import {
  PAPER_POST_QUESTIONS,
  PAPER_QUESTIONNAIRE,
  phase1Questions,
} from "../src/server/study/template.ts";
import { type Ack, auditAnswers, dropSchema, prepareStudyDb } from "./study-db.ts";

if (process.argv.includes("--help")) {
  console.log(`usage: npx tsx scripts/chaos.ts [--db sqlite|postgres] [--participants N] [--kills K]
  [--servers S] [--database-url URL] [--think-ms MS] [--seed X] [--spread-ms MS] [--deadline-s S]
  [--sabotage]
Defaults: sqlite, 200 participants, 5 kills, 1 server on SQLite and 2 on PostgreSQL, 60 ms mean
think time, arrivals spread over 3 s per kill, everything given up (and failed) after 480 s.
Audits the database afterwards (lost, duplicated, stuck) and exits 1 unless all are 0, no 5xx
was seen and K kills happened; --sabotage damages the stored answers first to check the audit.`);
  process.exit(0);
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}

const kind = arg("db", "sqlite");
if (kind !== "sqlite" && kind !== "postgres") throw new Error(`--db sqlite|postgres, not ${kind}`);
const N = Number(arg("participants", "200"));
const K = Number(arg("kills", "5"));
const S = Number(arg("servers", kind === "postgres" ? "2" : "1"));
/** Mean pause before each step (uniform in [0, 2 x mean]). */
const thinkMs = Number(arg("think-ms", "60"));
const seed = Number(arg("seed", String(Date.now() % 1_000_000)));
/** A participant taking more steps than this without reaching the debrief is stuck. */
const MAX_STEPS = 400;
/**
 * Give up on everything after this long (a hung run is a failed run, not a hung CI), inside
 * .ci/run's 600 s stage limit. Binary studies run the learned-flipping-moderate or
 * (threshold) the learned-flipping answer model (nine kinds of person per hypothesis; eight
 * under binary-linear's learned-lean before); before the
 * grid belief shared its work between its components, two servers on PostgreSQL took 336 s
 * and two on one SQLite file 297 s (one server 188 s); after, 156 s and 91 s (one SQLite
 * server) on this 2-core machine. 480 s leaves room for a slower one.
 */
const DEADLINE_MS = Number(arg("deadline-s", "480")) * 1000;

const root = fileURLToPath(new URL("..", import.meta.url));
const rng = createRng(seed);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const started = Date.now();
const late = () => Date.now() - started > DEADLINE_MS;

// ---------------------------------------------------------------- the database
const work = mkdtempSync(join(tmpdir(), "elicit-chaos-"));
const baseUrl = kind === "postgres" ? arg("database-url", process.env.TEST_DATABASE_URL ?? "") : "";
if (kind === "postgres" && !baseUrl)
  throw new Error("--db postgres needs --database-url URL or TEST_DATABASE_URL");
const { databaseUrl, schema, studyId, tokens } = await prepareStudyDb({
  dataDir: work,
  baseUrl: baseUrl || undefined,
  schemaPrefix: "chaos",
  participants: N,
});

// ---------------------------------------------------------------- the servers
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      const port = typeof a === "object" && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

interface Server {
  readonly port: number;
  readonly log: string;
  proc: ChildProcess | null;
}
const servers: Server[] = [];
for (let i = 0; i < S; i++) {
  servers.push({ port: await freePort(), log: join(work, `server-${i}.log`), proc: null });
}

async function startServer(s: Server): Promise<void> {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.PORT;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const out = openSync(s.log, "a");
  s.proc = spawn(
    process.execPath,
    [join(root, "bin/elicit.js"), "serve", "--port", String(s.port), "--data-dir", work, "--quiet"],
    { env, stdio: ["ignore", out, out] },
  );
  const t0 = Date.now();
  for (;;) {
    if (s.proc.exitCode !== null) throw new Error(`server exited: ${tail(s.log)}`);
    try {
      const r = await fetch(`http://127.0.0.1:${s.port}/healthz`);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() - t0 > 60_000) throw new Error(`server did not start: ${tail(s.log)}`);
    await sleep(50);
  }
}

async function killServer(s: Server): Promise<void> {
  const p = s.proc;
  if (!p || p.exitCode !== null) return;
  const exited = new Promise((r) => p.once("exit", r));
  p.kill("SIGKILL");
  await exited;
  s.proc = null;
}

function tail(file: string): string {
  try {
    // A JSON log line holds a stack trace: its first 400 characters say what failed.
    return readFileSync(file, "utf8")
      .split("\n")
      .slice(-15)
      .map((l) => (l.length > 400 ? `${l.slice(0, 400)} …` : l))
      .join("\n");
  } catch {
    return "(no log)";
  }
}

// Never leave a server behind, whatever way this process ends.
process.on("exit", () => {
  for (const s of servers) s.proc?.kill("SIGKILL");
});
await Promise.all(servers.map(startServer));

// ---------------------------------------------------------------- the clients
const stats = {
  requests: 0,
  networkErrors: 0,
  rateLimited: 0,
  serverErrors: 0,
  otherErrors: 0,
  acknowledged: 0,
  undos: 0,
  doubles: 0,
  tabs: 0,
  staleTabs: 0,
  races: 0,
};
const firstErrors: string[] = [];
const note = (msg: string) => {
  if (firstErrors.length < 10) firstErrors.push(msg);
};

type Reply = { status: number; body: unknown } | null;

/** One HTTP request to a random server; null when the connection failed. */
async function send(method: "GET" | "POST", path: string, body?: unknown): Promise<Reply> {
  const s = servers[rng.int(servers.length)]!;
  stats.requests++;
  try {
    const res = await fetch(`http://127.0.0.1:${s.port}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    let json: unknown = text;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON
    }
    if (res.status >= 500) {
      stats.serverErrors++;
      note(`${res.status} ${method} ${path.replace(/\/p\/[^/]+/, "/p/…")}: ${text.slice(0, 200)}`);
    } else if (res.status === 429) {
      stats.rateLimited++;
    } else if (res.status !== 200) {
      stats.otherErrors++;
      note(`${res.status} ${method} ${path.replace(/\/p\/[^/]+/, "/p/…")}: ${text.slice(0, 200)}`);
    }
    return { status: res.status, body: json };
  } catch {
    stats.networkErrors++;
    return null; // killed (connection refused or reset): the outcome is unknown
  }
}

interface Participant {
  readonly token: string;
  readonly acks: Ack[];
  done: boolean;
  steps: number;
}

const questionnaire = Object.fromEntries(
  PAPER_QUESTIONNAIRE.map((f) => [f.id, f.options?.[0] ?? "chaos"]),
);
const postAnswers = Object.fromEntries(PAPER_POST_QUESTIONS.map((f) => [f.id, "chaos"]));
const choices = ["left", "right", "same"] as const;

/** The state a reply carries (comprehension replies wrap it), or null. */
function stateOf(r: Reply): ParticipantState | null {
  if (r?.status !== 200 || typeof r.body !== "object" || r.body === null) return null;
  const b = r.body as ParticipantState & { state?: ParticipantState };
  return b.state ?? b;
}

async function participant(p: Participant, prng: Rng): Promise<void> {
  const base = `/api/p/${p.token}`;
  const think = () => sleep(prng.next() * 2 * thinkMs);
  /** Reload the page until a server answers (a browser's user pressing F5). */
  const reload = async (): Promise<ParticipantState | null> => {
    for (let i = 0; !late(); i++) {
      const s = stateOf(await send("GET", base));
      if (s) return s;
      await sleep(Math.min(1000, 100 * (i + 1)));
    }
    return null;
  };
  /** POST an answer; records it when acknowledged. */
  const answer = async (
    phase: "elicitation" | "evaluation",
    question: number,
    choice: string,
  ): Promise<ParticipantState | null> => {
    const r = await send("POST", `${base}/${phase === "elicitation" ? "answer" : "evaluation"}`, {
      questionId: question,
      choice,
    });
    const s = stateOf(r);
    if (s && !s.duplicate) {
      p.acks.push({ phase, question, choice });
      stats.acknowledged++;
    }
    return s;
  };
  const undo = async (question: number) =>
    stateOf(await send("POST", `${base}/undo`, { questionId: question }));

  let undosLeft = 4;
  let stale: ParticipantState | null = null;
  let s = await reload();
  while (s && s.phase !== "debrief" && !late()) {
    if (++p.steps > MAX_STEPS) return;
    await think();
    let next: ParticipantState | null = null;
    const pick = () => choices[prng.int(3)]!;
    switch (s.phase) {
      case "consent":
        next = stateOf(await send("POST", `${base}/consent`, { agree: true }));
        break;
      case "questionnaire":
        next = stateOf(await send("POST", `${base}/questionnaire`, { answers: questionnaire }));
        break;
      case "story":
        next = stateOf(await send("POST", `${base}/story`, {}));
        break;
      case "comprehension": {
        const id = s.comprehension!.question.id;
        next = stateOf(
          await send("POST", `${base}/comprehension`, {
            questionId: id,
            // The answer key of the systems on the page (they show the pool's class totals).
            answer: phase1Questions(s.comprehension!.systems!).find((q) => q.id === id)!.correct,
          }),
        );
        break;
      }
      case "guess":
        next = stateOf(await send("POST", `${base}/guess`, { ratio: 1 + prng.int(9) }));
        break;
      case "elicitation": {
        const q = s.elicitation!.question.id;
        const r = prng.next();
        if (r < 0.08 && q > 0 && undosLeft > 0) {
          undosLeft--;
          stats.undos++;
          next = await undo(q);
        } else if (r < 0.15) {
          stats.doubles++; // a double click: the same answer twice at once
          const c = pick();
          const [a, b] = await Promise.all([
            answer("elicitation", q, c),
            answer("elicitation", q, c),
          ]);
          next = a && !a.duplicate ? a : b;
        } else if (r < 0.22) {
          stats.tabs++; // two tabs on the same question, each with its own choice
          const [a, b] = await Promise.all([
            answer("elicitation", q, pick()),
            answer("elicitation", q, pick()),
          ]);
          next = a && !a.duplicate ? a : b;
        } else if (r < 0.27 && stale?.phase === "elicitation") {
          stats.staleTabs++; // a tab left open on an older question answers it now
          await answer("elicitation", stale.elicitation!.question.id, pick());
          next = await answer("elicitation", q, pick());
        } else if (r < 0.34 && q > 0 && undosLeft > 0) {
          undosLeft--;
          stats.races++; // undo and answer racing (the issue's defect 1)
          await Promise.all([undo(q), answer("elicitation", q, pick())]);
          next = null; // which one won is the server's call: reload
        } else {
          next = await answer("elicitation", q, pick());
        }
        if (prng.next() < 0.2) stale = s;
        break;
      }
      case "evaluation": {
        const q = s.evaluation!.question.id;
        if (prng.next() < 0.1) {
          stats.doubles++;
          const c = pick();
          const [a, b] = await Promise.all([
            answer("evaluation", q, c),
            answer("evaluation", q, c),
          ]);
          next = a && !a.duplicate ? a : b;
        } else {
          next = await answer("evaluation", q, pick());
        }
        break;
      }
      case "post":
        next = stateOf(await send("POST", `${base}/post`, { answers: postAnswers }));
        break;
      default:
        return; // withdrawn (never asked for here): stuck
    }
    s = next ?? (await reload());
  }
  if (s?.phase === "debrief") p.done = true;
}

const people: Participant[] = tokens.map((token) => ({ token, acks: [], done: false, steps: 0 }));
// Arrivals spread over the time the kills take, so every kill hits participants mid-flow.
const spreadMs = Number(arg("spread-ms", String(K * 3000)));
const running = Promise.all(
  people.map(async (p, i) => {
    const prng = createRng(seed * 1000 + i + 1);
    await sleep(prng.next() * spreadMs);
    await participant(p, prng);
  }),
);
let finished = false;
void running.then(() => {
  finished = true;
});

// ---------------------------------------------------------------- the killer
let kills = 0;
const restartMs: number[] = [];
const killer = (async () => {
  while (kills < K && !finished && !late()) {
    await sleep(200 + rng.next() * 1500);
    if (finished) break;
    const s = servers[rng.int(servers.length)]!;
    await killServer(s);
    kills++;
    await sleep(rng.next() * 500);
    const t0 = Date.now();
    await startServer(s);
    restartMs.push(Date.now() - t0);
  }
})();
await running;
await killer;
const seconds = (Date.now() - started) / 1000;
for (const s of servers) await killServer(s);

// ---------------------------------------------------------------- the audit
if (process.argv.includes("--sabotage")) {
  const audit = await openDb({ dataDir: work, databaseUrl });
  // Check the checker: lose one answer, revive one undone answer next to its redo and set one
  // finished participant back; the audit must then count 1 lost, >= 1 duplicated, 1 stuck.
  const victim = await audit.db
    .selectFrom("answers")
    .select("id")
    .where("undone_at", "is", null)
    .orderBy("id")
    .executeTakeFirstOrThrow();
  await audit.db.deleteFrom("answers").where("id", "=", victim.id).execute();
  const undone = await audit.db
    .selectFrom("answers")
    .select("id")
    .where("undone_at", "is not", null)
    .orderBy("id")
    .executeTakeFirst();
  if (undone)
    await audit.db
      .updateTable("answers")
      .set({ undone_at: null })
      .where("id", "=", undone.id)
      .execute();
  const p = await audit.db
    .selectFrom("participants")
    .select("id")
    .where("status", "=", "done")
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  await audit.db
    .updateTable("participants")
    .set({ status: "started" })
    .where("id", "=", p.id)
    .execute();
  await audit.db.destroy();
}
const { stored, lost, duplicated, stuck } = await auditAnswers({
  dataDir: work,
  databaseUrl,
  studyId,
  clients: people,
});

const ok = lost === 0 && duplicated === 0 && stuck === 0 && stats.serverErrors === 0 && kills >= K;
console.log(
  `chaos ${kind}${S > 1 ? ` (${S} servers)` : ""}: ${N} participants, ${kills} kills, lost ${lost}, duplicated ${duplicated}, stuck ${stuck}`,
);
console.log(
  `  ${seconds.toFixed(1)} s, seed ${seed}: ${stats.requests} requests, ${stats.acknowledged} answers acknowledged, ${stored} stored; ${stats.undos} undos, ${stats.doubles} double submits, ${stats.tabs + stats.staleTabs} duplicate-tab answers, ${stats.races} undo/answer races; ${stats.networkErrors} failed connections, ${stats.rateLimited} rate-limited, ${stats.serverErrors} 5xx, ${stats.otherErrors} other 4xx`,
);
console.log(
  `  restarts took ${restartMs.map((m) => (m / 1000).toFixed(1)).join(", ")} s (process start to /healthz)`,
);
if (firstErrors.length > 0) console.log(`  first errors:\n    ${firstErrors.join("\n    ")}`);
if (kills < K)
  console.log(`  only ${kills} of ${K} kills happened before the participants finished`);
if (!ok) for (const s of servers) console.log(`  ${s.log}:\n${tail(s.log)}`);

if (schema) await dropSchema(baseUrl, schema);
rmSync(work, { recursive: true, force: true });
process.exit(ok ? 0 : 1);
