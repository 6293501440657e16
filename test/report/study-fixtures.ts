// Real study.json exports of every study kind for the report's tests (issue 29 item 3): an app
// on a throw-away SQLite database, a researcher who creates the studies, and simulated people
// who read each system off the screen and walk consent to debrief over HTTP (inject). No
// vitest here, so the Playwright spec can run it too (`npx tsx test/report/write-fixtures.ts DIR`).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fairCost } from "../../src/elicit/fair/metric.ts";
import { createRng, type Rng } from "../../src/math/rng.ts";
import type {
  FairView,
  MulticlassView,
  ParticipantState,
  SystemView,
} from "../../src/server/api-schemas.ts";
import { buildApp } from "../../src/server/app.ts";
import { openDb } from "../../src/server/db/connect.ts";
import { defaultKnown, fairStudyData } from "../../src/server/kinds/fair/study.ts";
import { createResearcher } from "../../src/server/researchers.ts";
import { createRateLimiter } from "../../src/server/security/rate-limit.ts";
import { sha256 } from "../../src/server/security/tokens.ts";
import type { StudyConfig } from "../../src/server/study/config.ts";

/** The fixtures by name: a study of each kind, and one that nobody finished. */
export const FIXTURES = [
  "binary",
  "multiclass",
  "fair",
  "quadratic",
  "nobody",
  "multiclass-linear",
  "fair-quadratic",
] as const;
export type FixtureName = (typeof FIXTURES)[number];

/** The binary study's title: user input that must come out as text. */
export const HOSTILE_TITLE = `<script>alert(1)</script> Cancer & "screening"`;

/** The binary study's words for a missed case: user input too. */
export const HOSTILE_MISSED = `missed <img src=x onerror="alert(2)"> cancers`;

type App = Awaited<ReturnType<typeof buildApp>>;
type View = SystemView | MulticlassView | FairView;
/**
 * A simulated person: the value of a system as shown (larger is better; given the study's
 * configuration and hash), or a coin.
 */
type Reader = ((v: View, study: { config: StudyConfig; hash: string }) => number) | "coin";

async function call<T>(app: App, method: "GET" | "POST", url: string, body?: unknown, cookie = "") {
  const res = await app.inject({
    method,
    url,
    ...(body !== undefined ? { payload: body as object } : {}),
    headers: cookie ? { cookie } : {},
  });
  if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return (res.headers["content-type"]?.toString().includes("json") ? res.json() : res.body) as T;
}

const fieldAnswers = (fields: readonly { id: string; options?: readonly string[] }[]) =>
  Object.fromEntries(fields.map((f) => [f.id, f.options?.[0] ?? `text for ${f.id}`]));

/** The pending pair of a Phase II or Phase III state, whatever the kind. */
function pending(s: ParticipantState) {
  return (
    s.elicitation?.question ??
    s.multiclassElicitation?.question ??
    s.fairElicitation?.question ??
    s.evaluation?.question ??
    s.multiclassEvaluation?.question ??
    s.fairEvaluation?.question
  );
}

/**
 * Walks one participant from the consent page: to the end (`upTo` "debrief"), or stops when
 * it reaches the phase `upTo` names.
 */
async function walk(
  app: App,
  token: string,
  config: StudyConfig,
  reader: Reader,
  rng: Rng,
  upTo: ParticipantState["phase"] = "debrief",
  hash = "",
) {
  const base = `/api/p/${token}`;
  let s = await call<ParticipantState>(app, "GET", base);
  const right = new Map(config.comprehension.questions.map((q) => [q.id, q.correct]));
  for (let step = 0; step < 400 && s.phase !== upTo && s.phase !== "debrief"; step++) {
    switch (s.phase) {
      case "consent":
        s = await call(app, "POST", `${base}/consent`, { agree: true });
        break;
      case "questionnaire":
        s = await call(app, "POST", `${base}/questionnaire`, {
          answers: fieldAnswers(s.questionnaire!.fields),
        });
        break;
      case "story":
        s = await call(app, "POST", `${base}/story`, {});
        break;
      case "comprehension": {
        const q = s.comprehension!.question;
        const r = await call<{ state: ParticipantState }>(app, "POST", `${base}/comprehension`, {
          questionId: q.id,
          answer: right.get(q.id) ?? q.options[0],
        });
        s = r.state;
        break;
      }
      case "guess":
        s = await call(app, "POST", `${base}/guess`, { ratio: 4 });
        break;
      case "elicitation":
      case "evaluation": {
        const q = pending(s)!;
        const d =
          reader === "coin"
            ? rng.next() - 0.5
            : reader(q.left as View, { config, hash }) - reader(q.right as View, { config, hash });
        const choice = Math.abs(d) < 1e-9 ? "same" : d > 0 ? "left" : "right";
        const path = s.phase === "elicitation" ? "answer" : "evaluation";
        s = await call(app, "POST", `${base}/${path}`, { questionId: q.id, choice });
        break;
      }
      case "post":
        s = await call(app, "POST", `${base}/post`, { answers: fieldAnswers(s.post!.fields) });
        break;
      default:
        throw new Error(`unexpected phase ${s.phase}`);
    }
  }
  return s;
}

/** A binary reader: `w` on the people rightly flagged, `1 - w` on those rightly cleared. */
const binaryReader =
  (w: number): Reader =>
  (v) => {
    const s = v as SystemView;
    return w * s.tp + (1 - w) * s.tn;
  };

/** A multiclass reader: weight `w[i]` on each person of class i shown right. */
const classReader =
  (w: readonly number[]): Reader =>
  (v) =>
    (v as MulticlassView).counts.reduce((sum, row, i) => sum + w[i]! * row[i]!, 0);

/** A quadratic reader: the classes' rates weighed by `w`, uneven rates costing `c` each. */
const quadraticReader =
  (w: readonly number[], c: number): Reader =>
  (v) => {
    const r = (v as MulticlassView).rates;
    let value = r.reduce((s, x, i) => s + w[i]! * x, 0);
    for (let i = 0; i < r.length; i++)
      for (let j = i + 1; j < r.length; j++) value -= c * (r[i]! - r[j]!) ** 2;
    return value;
  };

/**
 * A fairness reader: the fair cost with trade-off `lambda` (and the study's costs and gap
 * weights, or equal ones) of every group's counts as shown; the lower the better.
 */
const fairReader =
  (lambda: number): Reader =>
  (v, { config, hash }) => {
    const data = fairStudyData(hash, config);
    const spec = config.spec as {
      known?: { a: readonly number[]; B: Record<string, number[][]> };
    };
    const known = spec.known ?? defaultKnown(data.classNames.length, data.groupNames.length);
    const rates = (v as FairView).counts.map((row) => row.map((c) => c / 100));
    const B = Object.fromEntries(
      Object.entries(known.B).map(([k, M]) => [k, M.map((row) => [...row])]),
    );
    return -fairCost({ a: [...known.a], B, lambda }, data.tau, rates);
  };

interface Person {
  reader: Reader;
  /** A test run instead of an invited participant. */
  test?: boolean;
  /** Stop at this phase (someone who started and did not finish). */
  upTo?: ParticipantState["phase"];
}

const STUDIES: Record<FixtureName, { body: Record<string, unknown>; people: Person[] }> = {
  binary: {
    body: { name: HOSTILE_TITLE, template: "cancer-diagnosis", words: { missed: HOSTILE_MISSED } },
    people: [
      { reader: binaryReader(0.8) },
      { reader: binaryReader(0.65) },
      { reader: binaryReader(0.9) },
      { reader: "coin" },
      { reader: binaryReader(0.7), test: true },
      { reader: binaryReader(0.7), upTo: "elicitation" },
    ],
  },
  multiclass: {
    body: { name: "Flowers", kind: "multiclass", dataset: "iris" },
    people: [
      { reader: classReader([0.2, 0.5, 0.3]) },
      { reader: classReader([0.3, 0.4, 0.3]) },
      { reader: classReader([0.15, 0.6, 0.25]) },
      { reader: classReader([0.3, 0.3, 0.4]), test: true },
    ],
  },
  fair: {
    body: { name: "Release decisions", kind: "fair" },
    people: [
      { reader: fairReader(0.3) },
      { reader: fairReader(0.6) },
      { reader: fairReader(0.45) },
    ],
  },
  "fair-quadratic": {
    body: { name: "Release decisions, whole metric", kind: "fair", family: "fair-quadratic" },
    people: [{ reader: fairReader(0.4) }, { reader: fairReader(0.7) }],
  },
  "multiclass-linear": {
    body: { name: "Flowers, every mistake", kind: "multiclass", dataset: "iris", family: "linear" },
    people: [{ reader: classReader([0.2, 0.5, 0.3]) }, { reader: classReader([0.4, 0.3, 0.3]) }],
  },
  quadratic: {
    body: { name: "Flowers, evenly", kind: "quadratic", dataset: "iris" },
    people: [
      { reader: quadraticReader([0.5, 0.7, 0.3], 1) },
      { reader: quadraticReader([0.4, 0.4, 0.4], 3) },
    ],
  },
  nobody: {
    body: { name: "Wine tasting", kind: "multiclass", dataset: "wine" },
    people: [
      { reader: classReader([0.3, 0.4, 0.3]), upTo: "elicitation" },
      { reader: classReader([0.3, 0.4, 0.3]), upTo: "consent" },
    ],
  },
};

/**
 * Creates the studies `names` (all by default) on a fresh database, walks their people over
 * HTTP and returns each study's study.json export as the researcher downloads it (text).
 * @example const { binary } = await studyExports(["binary"]); JSON.parse(binary).consensus
 */
export async function studyExports(
  names: readonly FixtureName[] = FIXTURES,
): Promise<Partial<Record<FixtureName, string>>> {
  const dir = mkdtempSync(join(tmpdir(), "elicit-report-"));
  const { db, kind } = await openDb({ dataDir: dir });
  const loose = () => createRateLimiter(100_000, 100_000);
  // Participants' seeds in a fixed sequence, as the server tests' (helpers.ts): the fixtures'
  // exports are then the same on every run.
  let nextSeed = 1;
  const app = await buildApp({
    db,
    kind,
    logger: false,
    webDist: null,
    limits: { login: loose(), answers: loose(), misses: loose() },
    participantSeed: () => 7919 * nextSeed++,
  });
  try {
    const email = "report@example.org";
    const password = "a long enough password";
    await createResearcher(db, email, password);
    const login = await app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email, password },
    });
    const session = login.cookies.find((c) => c.name === "elicit_session");
    if (!session) throw new Error(`login failed: ${login.body}`);
    const cookie = `elicit_session=${session.value}`;
    const out: Partial<Record<FixtureName, string>> = {};
    for (const name of names) {
      const { body, people } = STUDIES[name];
      const { study } = await call<{ study: { id: number } }>(
        app,
        "POST",
        "/api/studies",
        body,
        cookie,
      );
      const row = await db
        .selectFrom("studies")
        .select(["config", "config_hash"])
        .where("id", "=", study.id)
        .executeTakeFirstOrThrow();
      const config = JSON.parse(row.config) as StudyConfig;
      await call(app, "POST", `/api/studies/${study.id}/open`, { mode: "live" }, cookie);
      for (const [i, p] of people.entries()) {
        const { link } = p.test
          ? await call<{ link: string }>(
              app,
              "POST",
              `/api/studies/${study.id}/test-run`,
              {},
              cookie,
            )
          : {
              link: (
                await call<{ links: string[] }>(
                  app,
                  "POST",
                  `/api/studies/${study.id}/invites`,
                  { count: 1 },
                  cookie,
                )
              ).links[0]!,
            };
        const token = link.slice(link.lastIndexOf("/p/") + 3);
        // Seeds fixed, so the fixtures are the same on every run.
        const seed = 9100 + i;
        await db
          .updateTable("participants")
          .set({ seed })
          .where("token_hash", "=", sha256(token))
          .execute();
        await walk(
          app,
          token,
          config,
          p.reader,
          createRng(`report:${name}:${i}`),
          p.upTo,
          row.config_hash,
        );
      }
      out[name] = await call<string>(
        app,
        "GET",
        `/api/studies/${study.id}/export/study.json`,
        undefined,
        cookie,
      ).then((x) => (typeof x === "string" ? x : JSON.stringify(x)));
    }
    return out;
  } finally {
    await app.close();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}
