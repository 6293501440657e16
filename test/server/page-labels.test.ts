// Issue 11 item 3: the participant pages' headings, buttons and the debrief's sentences come
// from the study's texts (`texts.labels`), default to the built-in wording, and are checked
// for placeholders like every other text: a study with its own labels shows none of the
// defaults on any page it renders, and a study with a placeholder left is not created.

import { h } from "preact";
import { render } from "preact-render-to-string";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { prepareBinaryFromPredictions } from "../../src/population/binary.ts";
import type { ParticipantState } from "../../src/server/api-schemas.ts";
import { CreateStudyBody } from "../../src/server/api-schemas.ts";
import {
  DEFAULT_PAGE_LABELS,
  type PageLabelKey,
  PageLabelsInput,
  pageLabels,
} from "../../src/server/study/page-labels.ts";
import { placeholderLeft } from "../../src/server/study/placeholders.ts";
import { defaultStudyTexts, StudyTexts } from "../../src/server/study/texts.ts";
import { PhasePage } from "../../web/src/participant/ParticipantApp.tsx";
import { elicitationProgress, fillProgress } from "../../web/src/participant/progress.ts";
import {
  type EditableTexts,
  LABEL_NAMES,
  placeholdersIn,
  textsForRequest,
} from "../../web/src/researcher/StudyTextsEditor.tsx";
import { DIABETES_TEXTS, diabetesStudyBody, shownQuestion } from "./diabetes-study.ts";
import { chooser } from "./driver.ts";
import { call, freshStore, signIn, startApp, type TestApp, tokenOf } from "./helpers.ts";

const KEYS = Object.keys(DEFAULT_PAGE_LABELS) as PageLabelKey[];
/** Every label the study's own: "Screening study label 7", ... (no default word in them). */
const OWN = Object.fromEntries(KEYS.map((k, i) => [k, `Screening study label ${i + 1}`])) as Record<
  PageLabelKey,
  string
>;

/** A rendered page's text: tags dropped, the few entities preact writes decoded. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

const page = (s: ParticipantState) =>
  textOf(render(h(PhasePage, { state: s, busy: false, post: async () => undefined })));

describe("page labels in the study's texts", () => {
  it("fill the progress lines' numbers", () => {
    expect(fillProgress(DEFAULT_PAGE_LABELS.progressOf, { n: 3, total: 15 })).toBe(
      "Question 3 of 15",
    );
    const own = { ...DEFAULT_PAGE_LABELS, progressAtMostMore: "Vraag {n}, nog hoogstens {left}" };
    expect(
      elicitationProgress({ answered: 3, estimatedRemaining: 7, remainingAtMost: 13 }, own).text,
    ).toBe("Vraag 4, nog hoogstens 12");
  });

  it("default to today's wording, and the schema refuses unknown or empty ones", () => {
    expect(defaultStudyTexts().labels).toEqual(DEFAULT_PAGE_LABELS);
    expect(defaultStudyTexts().labels.storyHeading).toBe("The task");
    expect(PageLabelsInput.safeParse({ storyHeading: "Your job" }).success).toBe(true);
    expect(PageLabelsInput.safeParse({ storyHeadline: "x" }).success).toBe(false);
    expect(PageLabelsInput.safeParse({ storyHeading: "  " }).success).toBe(false);
    expect(StudyTexts.safeParse({ labels: OWN }).success).toBe(true);
  });

  it("a study that rewrote the consistency sentence keeps its text in binary studies' own", () => {
    const own = "{against} of {counted} off ({share}, {low}-{high})";
    expect(pageLabels({ debriefConsistency: own }).debriefConsistencyRange).toBe(own);
    expect(
      pageLabels({ debriefConsistency: own, debriefConsistencyRange: "mine" })
        .debriefConsistencyRange,
    ).toBe("mine");
    expect(pageLabels(undefined).debriefConsistencyRange).toBe(
      DEFAULT_PAGE_LABELS.debriefConsistencyRange,
    );
  });

  it("the editor names every label, sends them, and finds a placeholder left in one", () => {
    expect(Object.keys(LABEL_NAMES).sort()).toEqual([...KEYS].sort());
    const d = defaultStudyTexts();
    // The editor's mutable copy of the defaults (as the create form holds them).
    const editable = JSON.parse(
      JSON.stringify({
        ...d,
        title: "",
        labels: { ...d.labels, debriefClose: "[[say goodbye]]" },
      }),
    ) as EditableTexts;
    expect(placeholdersIn(editable, d.words, d.consentText)).toEqual(["Debrief: last line"]);
    expect(textsForRequest({ ...editable, labels: OWN }).labels).toEqual(OWN);
  });
});

describe("issue 27 defect 2: a {word} in single braces where nothing fills it in", () => {
  const issues = (texts: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const r = CreateStudyBody.safeParse({
      name: "x",
      template: "cancer-diagnosis",
      texts,
      ...extra,
    });
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  };

  it("defect: {population} with single braces in the story is refused as a placeholder left", () => {
    const left = issues({ story: { paragraphs: ["Imagine {population} patients."] } });
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(
      /^texts\.story\.paragraphs\.0: a placeholder is left in story\.paragraphs\.0/,
    );
    expect(left[0]).toContain("“{population}” is not filled in there");
  });

  it("defect: single-brace placeholders are refused in every text nothing fills in", () => {
    expect(issues({ guessPrompt: "How much worse is {missed}?" })).toHaveLength(1);
    expect(issues({ title: "Study {A.fn}" })).toHaveLength(1);
    expect(issues({}, { consentText: "Take part in {study}?" })).toHaveLength(1);
    expect(issues({}, { words: { missed: "{missed}" } })).toHaveLength(1);
    // A page label is filled in with its own values only.
    expect(issues({ labels: { comprehensionQuestion: "vraag {n} van {total}" } })).toEqual([]);
    expect(issues({ labels: { storyHeading: "The task of {name}" } })).toHaveLength(1);
    // The comprehension questions' tokens are filled in, and stay allowed there.
    expect(issues({ comprehension: defaultStudyTexts().comprehension })).toEqual([]);
    // Braces that are no placeholder ({a, b}, a lone brace) stay as written.
    expect(issues({ story: { paragraphs: ["Sets {a, b} and { x }."] } })).toEqual([]);
  });

  it("defect: the create form's check finds a single-brace placeholder where nothing fills it in", () => {
    const d = defaultStudyTexts();
    const editable = JSON.parse(JSON.stringify({ ...d, title: "" })) as EditableTexts;
    expect(placeholdersIn(editable, d.words, d.consentText)).toEqual([]);
    editable.story.paragraphs[0] = "Imagine a clinic that screens {population} patients.";
    editable.labels = { ...d.labels, comprehensionQuestion: "vraag {n} van {totaal}" };
    expect(placeholdersIn(editable, d.words, d.consentText)).toEqual([
      "story paragraph 1",
      "Comprehension: question number ({n} of {total})",
    ]);
    expect(placeholderLeft("{{x}} and {y}")).toBe("{{x}}");
    expect(placeholderLeft("Of {A.fn}", ["{A.fn}"])).toBeNull();
  });
});

describe("a study with its own labels (sqlite)", () => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await startApp(await freshStore("sqlite"));
    cookie = await signIn(t);
  });
  afterEach(async () => {
    await t.close();
  });

  it("defect: a study with {population} left in its story is not created (HTTP 400, named)", async () => {
    const before = (await t.db.selectFrom("studies").select("id").execute()).length;
    const r = await call(
      t,
      "POST",
      "/api/studies",
      {
        name: "Braces",
        template: "cancer-diagnosis",
        texts: { story: { paragraphs: ["A clinic screens {population} patients."] } },
      },
      cookie,
    );
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain("texts.story.paragraphs.0");
    expect(r.body.error.message).toContain("{population}");
    expect((await t.db.selectFrom("studies").select("id").execute()).length).toBe(before);
  });

  it("is refused while a label holds a placeholder, and nothing is created", async () => {
    const before = (await t.db.selectFrom("studies").select("id").execute()).length;
    const r = await call(
      t,
      "POST",
      "/api/studies",
      diabetesStudyBody({ texts: { ...DIABETES_TEXTS, labels: { storyHeading: "TODO" } } }),
      cookie,
    );
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toMatch(/placeholder is left in labels\.storyHeading/);
    expect((await t.db.selectFrom("studies").select("id").execute()).length).toBe(before);
  });

  it("shows its own labels and none of the defaults on any page, and no 'cancer'", async () => {
    const created = await call(
      t,
      "POST",
      "/api/studies",
      diabetesStudyBody({
        evaluationPairs: 4,
        // The papers' search: its progress line ("at most {left} more") is one this walk checks.
        strategy: "paper",
        texts: { ...DIABETES_TEXTS, labels: OWN },
      }),
      cookie,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.study.id as number;
    expect(
      (await call(t, "POST", `/api/studies/${id}/open`, { mode: "live" }, cookie)).status,
    ).toBe(200);
    const links = (await call(t, "POST", `/api/studies/${id}/invites`, { count: 2 }, cookie)).body
      .links as string[];
    const base = `/api/p/${tokenOf(links[0]!)}`;
    const pages: string[] = [];
    const phases = new Set<string>();
    const see = (s: ParticipantState) => {
      phases.add(s.phase);
      pages.push(page(s));
      return s;
    };

    let s = see((await call<ParticipantState>(t, "GET", base)).body);
    expect(s.study.labels).toEqual(OWN);
    s = see((await call(t, "POST", `${base}/consent`, { agree: true })).body);
    s = see(
      (await call(t, "POST", `${base}/questionnaire`, { answers: { age: "40-64", tested: "Yes" } }))
        .body,
    );
    s = see((await call(t, "POST", `${base}/story`, {})).body);
    while (s.phase === "comprehension") {
      const q = shownQuestion(s.comprehension!.question.id, s.comprehension!.systems!);
      const r = await call(t, "POST", `${base}/comprehension`, {
        questionId: q.id,
        answer: q.correct,
      });
      s = see(r.body.state);
    }
    expect(s.phase).toBe("guess");
    s = see((await call(t, "POST", `${base}/guess`, { ratio: 3 })).body);
    const exported = await call(
      t,
      "GET",
      `/api/studies/${id}/export/study.json`,
      undefined,
      cookie,
    );
    const pool = prepareBinaryFromPredictions(exported.body.study.config.source.csv, {
      positive: "pos",
    }).pool;
    const choose = chooser(pool, 0.25);
    while (s.phase === "elicitation" || s.phase === "evaluation") {
      const e = s.elicitation ?? s.evaluation!;
      const path = s.phase === "elicitation" ? "answer" : "evaluation";
      s = see(
        (
          await call(t, "POST", `${base}/${path}`, {
            questionId: e.question.id,
            choice: choose(e.question.left, e.question.right),
          })
        ).body,
      );
    }
    s = see(
      (await call(t, "POST", `${base}/post`, { answers: { worse: "missing it", other: "" } })).body,
    );
    expect(s.phase).toBe("debrief");
    // A second participant declines: the withdrawn page.
    const other = `/api/p/${tokenOf(links[1]!)}`;
    await call(t, "GET", other);
    see((await call(t, "POST", `${other}/consent`, { agree: false })).body);

    expect([...phases].sort()).toEqual(
      [
        "comprehension",
        "consent",
        "debrief",
        "elicitation",
        "evaluation",
        "guess",
        "post",
        "questionnaire",
        "story",
        "withdrawn",
      ].sort(),
    );
    const all = pages.join("\n");
    // The comparison pages drew their charts (no width on the server): the frame is there.
    expect(all).toContain(`${OWN.preferButton} A`);
    // "pair" and "pairs" are everyday words (the study's own story uses them): those two are
    // checked by the agreement's own wording below instead.
    const everyday = ["pairOne", "pairMany"];
    for (const k of KEYS.filter((x) => !everyday.includes(x)))
      expect(all, `default ${k} shown`).not.toContain(DEFAULT_PAGE_LABELS[k]);
    // Every label is on some page but the guess's other outcomes (skipped / the other side).
    const guessOutcomes = [
      "debriefGuessSkipped",
      "debriefGuessInside",
      "debriefGuessOutside",
      "debriefGuessOpen",
    ];
    // Not on this walk: "Hide the numbers as tables" (only once the tables are shown), and
    // the progress lines of an adaptive study, an old server and (maybe) the last question.
    // "Please answer:" shows only after a refused submit.
    // Nor a wrong comprehension answer; "pair" / "pairs" fill the agreement's {pairs}, which
    // these own labels do not use (test/server/debrief-agreement.test.ts renders them); the
    // agreement's second sentence is one of two (some pairs open, or all settled in advance).
    const agreementOutcomes = ["debriefAgreementOpen", "debriefAgreementSettled"];
    // The comprehension feedback lives in the browser's page state after a submit, which these
    // server-side renders never hold (the e2e participant run shows the default wording).
    const elsewhere = [
      // The pairs seen twice: only in adaptive studies (this walk is the paper's search).
      "debriefRetest",
      // Choices against the result itself: the adaptive kinds' sentence (a multiclass,
      // fairness or quadratic study's Phase III; test/server/kind-phase-three.test.ts renders
      // it); this binary walk counts them against the best weighing of its range instead
      // (`debriefConsistencyRange`).
      "debriefConsistency",
      // The learned answer model's estimate: only on a multiclass study's debrief
      // (test/server/multiclass-consistency.test.ts renders it).
      "debriefSlips",
      "feedbackCorrect",
      "feedbackAbout",
      "feedbackWrong",
      "pairOne",
      "pairMany",
      ...agreementOutcomes,
      "tablesHide",
      "progressOfAtMost",
      "progressAbout",
      "progressLast",
      "pleaseAnswer",
      // Only after a guess that is not a positive number; and the tables of counts, which sit
      // in the charts these width-less renders leave out (test/web/table-labels.test.ts).
      "guessInvalid",
      "tableCaption",
      "tableTrueClass",
      "tableTotal",
      "tableActually",
      "tableCell",
      "compactClass",
      "chartBadge",
      "chartDescription",
      // The trade-off line's parts fill its {missed} and {falseAlarms}, which these own labels
      // do not use (test/web/table-labels.test.ts fills them).
      "tradeOffMore",
      "tradeOffFewer",
      "tradeOffSame",
    ];
    for (const k of KEYS.filter((x) => !guessOutcomes.includes(x) && !elsewhere.includes(x)))
      expect(all, `own ${k} missing`).toContain(OWN[k]);
    expect(guessOutcomes.filter((k) => all.includes(OWN[k as PageLabelKey]))).toHaveLength(1);
    expect(agreementOutcomes.filter((k) => all.includes(OWN[k as PageLabelKey]))).toHaveLength(1);
    // The progress lines are templates: their default wording with any number filled in.
    expect(all).not.toMatch(/Question \d/);
    // The required note's star is drawn apart from its words.
    expect(all).not.toMatch(/Questions marked/);
    // The templated sentences are the study's too: none of their default words.
    expect(all).not.toMatch(/Attempts left|question \d+ of \d+|agrees with|worked example/);
    expect(all).not.toMatch(/\d+ pairs?\)/);
    expect(all.match(/cancer/gi)).toBeNull();
  });
});
