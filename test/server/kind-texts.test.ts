import { describe, expect, it } from "vitest";
import type { ParticipantState } from "../../src/server/api-schemas.ts";
import { GENERAL_POST_QUESTIONS, renumber } from "../../src/server/study/template.ts";
import { call, tokenOf } from "./helpers.ts";
import { appPerTest } from "./kind-driver.ts";

/**
 * Issue 12: multiclass and fairness studies showed the cancer study's consent ("medical
 * screening systems"), its healthcare question and its post-task questions about missing a
 * cancer, and refused a researcher's own texts. They now start from texts that name no
 * disease, and take the study's own title, consent, story, questionnaire, post-task questions
 * and page labels; the binary-only texts (costs, comprehension, guess) are refused, not ignored.
 */

const OWN = {
  consentText: "Deze studie gaat over hoe mensen fouten van beslissystemen wegen. Doet u mee?",
  texts: {
    title: "Bloemen sorteren",
    story: { paragraphs: ["Een systeem sorteert bloemen. Welke fouten vindt u erger?"] },
    questionnaire: [
      {
        id: "tuin",
        label: "Heeft u een tuin?",
        kind: "single",
        options: ["Ja", "Nee"],
        required: true,
      },
    ],
    post: [{ id: "waarom", label: "Waarom koos u zo?", kind: "text", required: true }],
    labels: { storyHeading: "De taak", continueButton: "Verder" },
  },
};

/** Every state from consent to the debrief, answering "left" and the first option. */
async function walk(t: ReturnType<typeof appPerTest>["t"], cookie: string, id: number) {
  await call(t, "POST", `/api/studies/${id}/open`, { mode: "live" }, cookie);
  const links = (await call(t, "POST", `/api/studies/${id}/invites`, { count: 1 }, cookie)).body
    .links as string[];
  const base = `/api/p/${tokenOf(links[0]!)}`;
  const states: ParticipantState[] = [];
  let s = (await call<ParticipantState>(t, "GET", base)).body;
  for (let i = 0; i < 200 && s.phase !== "debrief"; i++) {
    states.push(s);
    const answers = (fields: { id: string; options?: string[] }[]) =>
      Object.fromEntries(fields.map((f) => [f.id, f.options?.[0] ?? "om te zien"]));
    const step: Record<string, () => [string, unknown]> = {
      consent: () => ["consent", { agree: true }],
      questionnaire: () => ["questionnaire", { answers: answers(s.questionnaire!.fields) }],
      story: () => ["story", {}],
      comprehension: () => [
        "comprehension",
        { questionId: s.comprehension!.question.id, answer: s.comprehension!.question.options[0] },
      ],
      elicitation: () => [
        "answer",
        {
          questionId: (s.multiclassElicitation ?? s.fairElicitation)!.question.id,
          choice: "left",
        },
      ],
      evaluation: () => [
        "evaluation",
        {
          questionId: (s.multiclassEvaluation ?? s.fairEvaluation)!.question.id,
          choice: "left",
        },
      ],
      post: () => ["post", { answers: answers(s.post!.fields) }],
    };
    const next = step[s.phase];
    if (next === undefined) throw new Error(`unexpected phase ${s.phase}`);
    const [path, body] = next();
    const r = await call(t, "POST", `${base}/${path}`, body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    s = r.body.state ?? r.body;
  }
  states.push(s);
  expect(s.phase).toBe("debrief");
  return states;
}

describe("the texts of multiclass and fairness studies", () => {
  const app = appPerTest("sqlite");
  const kinds = [
    ["multiclass", { kind: "multiclass", dataset: "iris" }],
    ["fair", { kind: "fair" }],
  ] as const;

  it.each(kinds)(
    "a %s study's default pages name no disease and no healthcare",
    async (_k, body) => {
      const { t, cookie } = app;
      const r = await call(t, "POST", "/api/studies", { name: "Study", ...body }, cookie);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const all = JSON.stringify(await walk(t, cookie, r.body.study.id));
      expect(all).toContain("automated decision systems");
      const bad = [...all.matchAll(/cancer|healthcare|medical|patients/gi)].map((m) =>
        all.slice(Math.max(0, m.index! - 60), m.index! + 20),
      );
      expect(bad).toEqual([]);
      // The same walk finds the built-in wording where it is: the search can fail.
      expect(all).toContain("Which mistakes mattered most to you");
    },
    180_000,
  );

  it.each(kinds)(
    "a %s study shows its own title, consent, story, questions and labels",
    async (_k, body) => {
      const { t, cookie } = app;
      const r = await call(t, "POST", "/api/studies", { name: "Study", ...body, ...OWN }, cookie);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const states = await walk(t, cookie, r.body.study.id);
      const phase = (p: string) => states.find((s) => s.phase === p)!;
      expect(phase("consent").study.title).toBe("Bloemen sorteren");
      expect(phase("consent").consent?.text).toBe(OWN.consentText);
      expect(phase("questionnaire").questionnaire?.fields.map((f) => f.label)).toEqual([
        "Heeft u een tuin?",
      ]);
      expect(phase("story").story?.paragraphs).toEqual(OWN.texts.story.paragraphs);
      expect(phase("story").study.labels?.storyHeading).toBe("De taak");
      expect(phase("post").post?.fields.map((f) => f.label)).toEqual(["Waarom koos u zo?"]);
      const all = JSON.stringify(states);
      expect(all).not.toMatch(/Which mistakes mattered most|automated decision systems/);
    },
    180_000,
  );

  it.each([
    [
      "a comprehension question",
      { comprehension: [] },
      /texts\.comprehension: comprehension applies to binary studies/,
    ],
    [
      "a guess prompt",
      { guessPrompt: "How much worse?" },
      /texts\.guessPrompt: guessPrompt applies to binary studies/,
    ],
    [
      "the two costs",
      { story: { paragraphs: ["x"], costs: { missed: "a", falseAlarm: "b" } } },
      /texts\.story\.costs: the two costs apply to binary studies/,
    ],
  ])("refuses %s for a multiclass study, and creates nothing", async (_what, texts, message) => {
    const { t, cookie } = app;
    const before = (await t.db.selectFrom("studies").select("id").execute()).length;
    const r = await call(
      t,
      "POST",
      "/api/studies",
      { name: "x", kind: "multiclass", dataset: "iris", texts },
      cookie,
    );
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(message);
    expect((await t.db.selectFrom("studies").select("id").execute()).length).toBe(before);
  });
});

describe("the post-task questions of multiclass and fairness studies", () => {
  it("defect: multiclass and fairness post-task questions are numbered Q1-Q5 as shown, with no gap", () => {
    const numbers = GENERAL_POST_QUESTIONS.map((f) => /^Q(\d+)\./.exec(f.label)?.[1]);
    expect(numbers).toEqual(["1", "2", "3", "4", "5"]);
    // The ids stay the paper's, so the exports' post_q3 ... columns line up with binary studies'.
    expect(GENERAL_POST_QUESTIONS.map((f) => f.id)).toEqual(["q1", "q3", "q4", "q5", "q6"]);
    expect(GENERAL_POST_QUESTIONS[1]!.label).toBe(
      "Q2. How did you decide between the two systems?",
    );
    expect(renumber("No number here", 4)).toBe("No number here");
  });
});
