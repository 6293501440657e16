// Issue 27 defect 1: an uploaded dataset launched with the built-in study's texts and numbers
// ("34 of them actually have cancer" beside a worked example with 35); the create form only
// warned. A binary study of other data now gets general texts written in its own words when a
// request leaves them out, and one whose texts are still the built-in study's is refused at
// creation, and (one stored before) when it is opened, run or invited into.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ParticipantState } from "../../src/server/api-schemas.ts";
import { sha256 } from "../../src/server/security/tokens.ts";
import { canonicalJson, type StudyConfig } from "../../src/server/study/config.ts";
import {
  builtInTextsLeft,
  GENERAL_BINARY_WORDS,
  generalBinaryTexts,
  replaceBuiltInTexts,
} from "../../src/server/study/general-texts.ts";
import { PAPER_POST_QUESTIONS } from "../../src/server/study/template.ts";
import { defaultStudyTexts } from "../../src/server/study/texts.ts";
import { finePredictionsCsv, walkToElicitation } from "./driver.ts";
import { call, freshStore, signIn, startApp, type TestApp, tokenOf } from "./helpers.ts";

const OTHER_DATA = /cancer|patient|doctor|clinic|medical|biops|high risk|low risk/i;

describe("issue 27 defect 1: the built-in study's texts on other data", () => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await startApp(await freshStore("sqlite"));
    cookie = await signIn(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const studies = async () => (await t.db.selectFrom("studies").select("id").execute()).length;
  const config = async (id: number) =>
    (await call(t, "GET", `/api/studies/${id}/export/study.json`, undefined, cookie)).body.study
      .config as StudyConfig;

  it("defect: an uploaded study without texts gets general ones from its data and words: no cancer, no built-in numbers", async () => {
    const created = await call(
      t,
      "POST",
      "/api/studies",
      { name: "Loans", predictionsCsv: finePredictionsCsv(), positive: "yes" },
      cookie,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const c = await config(created.body.study.id);
    expect(c.words).toEqual(GENERAL_BINARY_WORDS);
    const texts = JSON.stringify({
      words: c.words,
      consent: c.consentText,
      story: c.story,
      comprehension: c.comprehension.questions,
      guess: c.guessPrompt,
      post: c.post,
    });
    expect(texts).not.toMatch(OTHER_DATA);
    // The story quotes no number of any pool; Part 1's numbers are this pool's, filled in.
    expect(c.story.paragraphs.join(" ")).not.toMatch(/\d/);
    const [a] = c.comprehension.systems;
    expect(c.comprehension.questions[0]!.correct).toBe(String(a.fn));
    expect(c.comprehension.questions[0]!.prompt).toContain(
      `Of the ${a.tp + a.fn + a.fp + a.tn} people`,
    );
    // A participant reads none of the built-in study's words on the way to the comparisons,
    // and the general questions' right answers are the stored ones.
    const { body: link } = await call(
      t,
      "POST",
      `/api/studies/${created.body.study.id}/test-run`,
      {},
      cookie,
    );
    const token = tokenOf(link.link);
    const seen: ParticipantState[] = [(await call(t, "GET", `/api/p/${token}`)).body];
    const s = await walkToElicitation(t, token);
    seen.push(s);
    expect(s.phase).toBe("elicitation");
    expect(JSON.stringify(seen)).not.toMatch(OTHER_DATA);
    const attempts = await t.db.selectFrom("comprehension").select(["correct"]).execute();
    expect(attempts.map((r) => Number(r.correct))).toEqual([1, 1, 1, 1]);
  });

  it("defect: the general texts are written in the study's own words", async () => {
    const words = {
      positive: "defaulted",
      negative: "repaid",
      missed: "missed defaults",
      falseAlarm: "refused good loans",
    };
    const created = await call(
      t,
      "POST",
      "/api/studies",
      { name: "Loans", predictionsCsv: finePredictionsCsv(), positive: "yes", words },
      cookie,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const c = await config(created.body.study.id);
    expect(c.guessPrompt).toContain(
      "one of the missed defaults than one of the refused good loans",
    );
    expect(c.story.costs.missed).toContain("people who actually defaulted");
    expect(c.comprehension.questions[3]!.correct).toBe(
      "It makes fewer missed defaults and more refused good loans",
    );
  });

  it("defect: an uploaded study sent with the built-in texts is refused, naming what to change, and nothing is created", async () => {
    const before = await studies();
    const d = defaultStudyTexts();
    const r = await call(
      t,
      "POST",
      "/api/studies",
      {
        name: "Loans",
        predictionsCsv: finePredictionsCsv(),
        positive: "yes",
        consentText: d.consentText,
        texts: {
          story: d.story,
          comprehension: d.comprehension,
          guessPrompt: d.guessPrompt,
          post: d.post,
        },
      },
      cookie,
    );
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("invalid_study");
    expect(r.body.error.message).toBe(
      "texts: This study's data are not the built-in study's, but these texts are still the built-in breast-cancer study's (its disease, patients and numbers): the story; what each mistake costs; 4 comprehension questions; the guess question; 1 post-task question; the consent text. Write this study's own text there, or leave those texts out of the request to get general ones written in this study's words.",
    );
    // One paragraph and the built-in words are enough to be refused.
    const one = await call(
      t,
      "POST",
      "/api/studies",
      {
        name: "Loans",
        predictionsCsv: finePredictionsCsv(),
        positive: "yes",
        words: { positive: "had cancer" },
        texts: { story: { paragraphs: ["Loans are given.", d.story.paragraphs[0]!] } },
      },
      cookie,
    );
    expect(one.status).toBe(400);
    expect(one.body.error.message).toContain("story paragraph 2; the words “had cancer”.");
    expect(await studies()).toBe(before);
    // The built-in data keep the built-in texts, numbers and all.
    const builtIn = await call(
      t,
      "POST",
      "/api/studies",
      { name: "Cancer", template: "cancer-diagnosis", texts: { story: d.story } },
      cookie,
    );
    expect(builtIn.status).toBe(200);
  });

  it("defect: a stored draft of other data with the built-in texts cannot be opened, run or invited into (409)", async () => {
    const created = await call(
      t,
      "POST",
      "/api/studies",
      { name: "Loans", predictionsCsv: finePredictionsCsv(), positive: "yes" },
      cookie,
    );
    const id = created.body.study.id as number;
    // As a study created before this check was stored: the built-in story and words.
    const d = defaultStudyTexts();
    const old = { ...(await config(id)), story: d.story, words: d.words };
    await t.db
      .updateTable("studies")
      .set({ config: JSON.stringify(old), config_hash: sha256(canonicalJson(old)) })
      .where("id", "=", id)
      .execute();
    for (const [path, body] of [
      ["open", { mode: "pilot" }],
      ["open", { mode: "live" }],
      ["test-run", {}],
    ] as const) {
      const r = await call(t, "POST", `/api/studies/${id}/${path}`, body, cookie);
      expect(r.status, path).toBe(409);
      expect(r.body.error.code).toBe("texts_of_other_data");
      expect(r.body.error.message).toContain(
        "the story; what each mistake costs; the words “had cancer”",
      );
    }
    const s = (await call(t, "GET", `/api/studies/${id}`, undefined, cookie)).body.study;
    expect(s.status).toBe("draft");
    expect(s.participants).toBe(0);
    // Invites need an open study; one opened before the check is refused them too.
    await t.db.updateTable("studies").set({ status: "pilot" }).where("id", "=", id).execute();
    const invites = await call(t, "POST", `/api/studies/${id}/invites`, { count: 1 }, cookie);
    expect(invites.status).toBe(409);
    expect(invites.body.error.code).toBe("texts_of_other_data");
  });
});

describe("issue 27 defect 1: the create form's check and its general texts", () => {
  const d = defaultStudyTexts();
  const general = generalBinaryTexts(GENERAL_BINARY_WORDS, PAPER_POST_QUESTIONS);

  it("defect: the form finds what is still the built-in study's, only what names its disease or data", () => {
    expect(builtInTextsLeft({ ...d, words: GENERAL_BINARY_WORDS }, d)).toEqual([
      "the story",
      "what each mistake costs",
      "4 comprehension questions",
      "the guess question",
      "1 post-task question",
      "the consent text",
    ]);
    // "false alarms", "system" and the generic post-task questions fit any study.
    expect(builtInTextsLeft(d, d)).toContain(
      "the words “had cancer”, “did not have cancer”, “predicted high risk”, “predicted low risk”, “missed cancers”, “Which system would you rather your doctor used?”",
    );
    const generalTexts = {
      ...general,
      words: GENERAL_BINARY_WORDS,
      comprehension: general.comprehension,
    };
    expect(builtInTextsLeft(generalTexts, d)).toEqual([]);
    // A built-in question with this pool's numbers filled in is still the built-in question.
    const filled = {
      ...d.comprehension[0]!,
      prompt: d.comprehension[0]!.prompt.replace("{population}", "100"),
    };
    expect(builtInTextsLeft({ ...generalTexts, comprehension: [filled] }, d)).toEqual([
      "1 comprehension question",
    ]);
  });

  it("defect: 'Use general texts' replaces only what is still the built-in study's", () => {
    const mine = {
      consentText: "My consent?",
      story: {
        paragraphs: ["My own paragraph.", ...d.story.paragraphs],
        costs: { missed: "My cost.", falseAlarm: d.story.costs.falseAlarm },
      },
      comprehension: [...d.comprehension],
      guessPrompt: d.guessPrompt,
      post: [...d.post],
    };
    const r = replaceBuiltInTexts(mine, d, general);
    expect(r.consentText).toBe("My consent?");
    expect(r.story.paragraphs).toEqual(["My own paragraph."]);
    expect(r.story.costs).toEqual({
      missed: "My cost.",
      falseAlarm: general.story.costs.falseAlarm,
    });
    expect(r.comprehension.map((q) => q.id)).toEqual(d.comprehension.map((q) => q.id));
    expect(r.guessPrompt).toBe(general.guessPrompt);
    expect(r.post.map((f) => f.label)).toEqual([
      general.post[0]!.label,
      ...d.post.slice(1).map((f) => f.label),
    ]);
    expect(builtInTextsLeft({ ...r, words: GENERAL_BINARY_WORDS }, d)).toEqual([]);
  });
});
