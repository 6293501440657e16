import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ParticipantState } from "../../src/server/api-schemas.ts";
import {
  answerElicitation,
  answerEvaluation,
  chooser,
  finePredictionsCsv,
  postAnswers,
  storedStudy,
  walkToElicitation,
} from "./driver.ts";
import { call, freshStore, signIn, startApp, type TestApp, tokenOf } from "./helpers.ts";

/**
 * Issue 11 item 7: the exports "load into pandas and R without type guessing". The loading
 * code in docs/web-api.md, exactly as documented, runs on a study's real exports here: every
 * column gets its codebook type, a participant's typed "NA" stays text, and empty cells are
 * missing. `.ci/run` installs python3-pandas and r-base-core and sets ELICIT_REQUIRE_LOADERS=1,
 * so there a missing interpreter fails the test instead of skipping it.
 */

const DOC = readFileSync(new URL("../../docs/web-api.md", import.meta.url), "utf8");
/** The first fenced block of a language in the docs. */
const block = (lang: string): string => {
  const m = DOC.match(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``));
  if (!m) throw new Error(`docs/web-api.md has no ${lang} block`);
  return m[1]!;
};

const PYTHON = ["/usr/bin/python3", "python3"].find(
  (p) => spawnSync(p, ["-c", "import pandas"], { stdio: "ignore" }).status === 0,
);
const RSCRIPT = spawnSync("Rscript", ["--version"], { stdio: "ignore" }).status === 0;
const REQUIRED = process.env.ELICIT_REQUIRE_LOADERS === "1";

describe("the documented loading code on a study's exports", () => {
  let t: TestApp;
  let dir: string;
  let book: { file: string; column: string; type: string }[] = [];

  beforeAll(async () => {
    t = await startApp(await freshStore("sqlite"));
    const cookie = await signIn(t);
    const created = await call(
      t,
      "POST",
      "/api/studies",
      { name: "Loans", predictionsCsv: finePredictionsCsv(), positive: "yes", evaluationPairs: 4 },
      cookie,
    );
    const id = created.body.study.id as number;
    const { pool } = await storedStudy(t, id);
    await call(t, "POST", `/api/studies/${id}/open`, { mode: "live" }, cookie);
    const links = (await call(t, "POST", `/api/studies/${id}/invites`, { count: 3 }, cookie)).body
      .links as string[];
    // Two finish (one types "NA" as a free-text answer); the third stops after Part 2 starts.
    for (const [i, link] of links.entries()) {
      const token = tokenOf(link);
      const choose = chooser(pool, 0.2 + 0.15 * i);
      let s: ParticipantState = await walkToElicitation(t, token);
      if (i === 2) break;
      s = (await answerElicitation(t, token, s, choose)).state;
      s = await answerEvaluation(t, token, s, choose);
      const answers = i === 0 ? { ...postAnswers, q6: "NA" } : postAnswers;
      s = (await call(t, "POST", `/api/p/${token}/post`, { answers })).body;
      expect(s.phase).toBe("debrief");
    }
    dir = mkdtempSync(join(tmpdir(), "elicit-exports-"));
    for (const file of ["codebook.csv", "participants.csv", "answers.csv"]) {
      const r = await call(t, "GET", `/api/studies/${id}/export/${file}`, undefined, cookie);
      expect(r.status).toBe(200);
      // The documented code reads files named as the dashboard downloads them.
      writeFileSync(join(dir, `study-1-${file}`), r.body as string);
    }
    const lines = readFileSync(join(dir, "study-1-codebook.csv"), "utf8").trim().split("\n");
    book = lines.slice(1).map((l) => {
      const [file, column, type] = l.split(",");
      return { file: file!, column: column!, type: type! };
    });
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.runIf(PYTHON !== undefined || REQUIRED)(
    "pandas: every column has its codebook type",
    async () => {
      expect(PYTHON, "python3 with pandas (apt-get install python3-pandas)").toBeDefined();
      const script = `${block("python")}
import json
answers = load("answers.csv")
print(json.dumps({
  "participants.csv": {c: str(t) for c, t in participants.dtypes.items()},
  "answers.csv": {c: str(t) for c, t in answers.dtypes.items()},
  "rows": [len(participants), len(answers)],
  "typed_na": [None if pd.isna(v) else v for v in participants["post_q6"]],
  "missing_finished": int(participants["finished_at"].isna().sum()),
}))
`;
      const out = JSON.parse(execFileSync(PYTHON!, ["-c", script], { cwd: dir, encoding: "utf8" }));
      const want: Record<string, string> = {
        integer: "Int64",
        boolean01: "Int64",
        number: "float64",
        text: "string",
        json: "string",
        datetime: "datetime64[ns, UTC]",
      };
      const wrong = book
        .filter((c) => out[c.file][c.column] !== want[c.type])
        .map((c) => `${c.file} ${c.column} (${c.type}): ${out[c.file][c.column]}`);
      expect(wrong).toEqual([]);
      expect(out.rows[0]).toBe(3);
      // Every stored answer row is loaded (Phase II and III of two participants, at least).
      const stored = await t.db.selectFrom("answers").select("id").execute();
      expect(out.rows[1]).toBe(stored.length);
      expect(out.rows[1]).toBeGreaterThan(8);
      // Typed "NA" is the participant's text; the unfinished participant's answer is missing.
      expect((out.typed_na as (string | null)[]).map((v) => v ?? "<NA>").sort()).toEqual(
        ["<NA>", "NA", "answer to q6"].sort(),
      );
      expect(out.missing_finished).toBe(1);
    },
  );

  it.runIf(RSCRIPT || REQUIRED)("R: every column has its codebook class", () => {
    expect(RSCRIPT, "Rscript (apt-get install r-base-core)").toBe(true);
    const script = `${block("r")}
answers <- load("answers.csv")
cls <- function(df) paste(names(df), sapply(df, function(x) class(x)[1]), sep = "=")
writeLines(paste0("participants.csv ", cls(participants)))
writeLines(paste0("answers.csv ", cls(answers)))
writeLines(paste0("typed_na ", ifelse(is.na(participants$post_q6), "<NA>", participants$post_q6)))
`;
    writeFileSync(join(dir, "load.R"), script);
    const out = execFileSync("Rscript", ["load.R"], { cwd: dir, encoding: "utf8" })
      .trim()
      .split("\n");
    const got = new Map(
      out
        .filter((l) => !l.startsWith("typed_na "))
        .map((l) => {
          const [file, rest] = [l.slice(0, l.indexOf(" ")), l.slice(l.indexOf(" ") + 1)];
          const eq = rest.lastIndexOf("=");
          return [`${file} ${rest.slice(0, eq)}`, rest.slice(eq + 1)] as const;
        }),
    );
    const want: Record<string, string> = {
      integer: "integer",
      boolean01: "integer",
      number: "numeric",
      text: "character",
      json: "character",
      datetime: "character",
    };
    const wrong = book
      .filter((c) => got.get(`${c.file} ${c.column}`) !== want[c.type])
      .map((c) => `${c.file} ${c.column} (${c.type}): ${got.get(`${c.file} ${c.column}`)}`);
    expect(wrong).toEqual([]);
    const typed = out.filter((l) => l.startsWith("typed_na ")).map((l) => l.slice(9));
    expect(typed.sort()).toEqual(["<NA>", "NA", "answer to q6"].sort());
  });
});
