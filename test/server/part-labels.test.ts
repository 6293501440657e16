import { h } from "preact";
import { render } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import type { ParticipantState } from "../../src/server/api-schemas.ts";
import { DEFAULT_PAGE_LABELS, partLabels } from "../../src/server/study/page-label-defaults.ts";
import { kindStage } from "../../web/src/kinds/shared/participant.tsx";
import { labelsFor } from "../../web/src/participant/labels.ts";
import { PhasePage } from "../../web/src/participant/ParticipantApp.tsx";
import { CreateStudy } from "../../web/src/researcher/CreateStudy.tsx";
import { walkToElicitation, walkToPart1 } from "./driver.ts";
import { call, type TestApp, tokenOf } from "./helpers.ts";
import { appPerTest } from "./kind-driver.ts";

/**
 * The new-user audit: a study without Part 3 (evaluationPairs: 0) still said "Part 1 of 3" and
 * "Part 2 of 3"; the create form showed zod's own text for a name too long; and a study's words
 * had no length limit.
 */

const page = (s: ParticipantState) =>
  render(h(PhasePage, { state: s, busy: false, post: async () => undefined }))
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&");

/** A test run of a new study, by `body`, at its consent page. */
async function testRun(t: TestApp, cookie: string, body: Record<string, unknown>) {
  const r = await call(t, "POST", "/api/studies", body, cookie);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const link = await call(t, "POST", `/api/studies/${r.body.study.id}/test-run`, {}, cookie);
  return tokenOf(link.body.link);
}

const BINARY_NO_PART_3 = { strategy: "paper", tolerance: 0.5, population: 20, evaluationPairs: 0 };

describe("part lines count the parts a study has", () => {
  it("partLabels: of 2 without Part 3 for the default wording; a study's own wording as written", () => {
    const two = partLabels(DEFAULT_PAGE_LABELS, false);
    expect(two.comprehensionStage).toBe("Part 1 of 2: checking the pictures make sense");
    expect(two.elicitationStage).toBe("Part 2 of 2: your preferences");
    expect(partLabels(DEFAULT_PAGE_LABELS, true)).toEqual(DEFAULT_PAGE_LABELS);
    const own = { ...DEFAULT_PAGE_LABELS, elicitationStage: "Deel 2: uw voorkeur" };
    expect(partLabels(own, false).elicitationStage).toBe("Deel 2: uw voorkeur");
    expect(partLabels(own, false).comprehensionStage).toBe(two.comprehensionStage);
  });

  it("the web counts them too on a state without labels (an older server's)", () => {
    const s = { phase: "consent", study: { title: "x", words: {} } } as unknown as ParticipantState;
    expect(labelsFor(s).elicitationStage).toBe(DEFAULT_PAGE_LABELS.elicitationStage);
    const none = { ...s, study: { ...s.study, phaseThree: false as const } };
    expect(labelsFor(none).elicitationStage).toBe("Part 2 of 2: your preferences");
    expect(kindStage(none)).toBe("Part 2 of 2: your preferences");
    // A multiclass or fairness study's own wording is no longer replaced either.
    const own = { ...none, study: { ...none.study, labels: { elicitationStage: "Stage two" } } };
    expect(kindStage(own as ParticipantState)).toBe("Stage two");
  });
});

describe("a study without Part 3 (sqlite)", () => {
  const app = appPerTest("sqlite");

  it("defect: a binary study says Part 1 of 2 and Part 2 of 2", async () => {
    const { t, cookie } = app;
    const token = await testRun(t, cookie, { name: "No part 3", ...BINARY_NO_PART_3 });
    const s = await walkToPart1(t, token);
    expect(s.study.phaseThree).toBe(false);
    expect(s.study.labels!.comprehensionStage).toBe(
      "Part 1 of 2: checking the pictures make sense",
    );
    expect(page(s)).toContain("Part 1 of 2: checking the pictures make sense");
    expect(page(s)).not.toContain("of 3");
    const e = await walkToElicitation(
      t,
      await testRun(t, cookie, { name: "B", ...BINARY_NO_PART_3 }),
    );
    expect(e.phase).toBe("elicitation");
    expect(page(e)).toContain("Part 2 of 2: your preferences");
    expect(page(e)).not.toContain("of 3");
  });

  it("a binary study's own part lines are shown as written", async () => {
    const { t, cookie } = app;
    const labels = {
      comprehensionStage: "Part 1 of 3, as I wrote it",
      elicitationStage: "Stage two",
    };
    const token = await testRun(t, cookie, { name: "Own", ...BINARY_NO_PART_3, texts: { labels } });
    const e = await walkToElicitation(t, token);
    expect(e.study.labels!.elicitationStage).toBe("Stage two");
    expect(e.study.labels!.comprehensionStage).toBe("Part 1 of 3, as I wrote it");
    expect(page(e)).toContain("Stage two");
  });

  it("a binary study with Part 3 keeps of 3", async () => {
    const { t, cookie } = app;
    const token = await testRun(t, cookie, {
      name: "Three",
      ...BINARY_NO_PART_3,
      evaluationPairs: 4,
    });
    const s = await walkToPart1(t, token);
    expect(s.study.phaseThree).toBeUndefined();
    expect(page(s)).toContain("Part 1 of 3: checking the pictures make sense");
  });

  it("defect: a multiclass study's Part 1 said of 3 (its Phase II line already said of 2)", async () => {
    const { t, cookie } = app;
    const token = await testRun(t, cookie, {
      name: "Glass",
      kind: "multiclass",
      dataset: "glass",
      budget: 6,
      evaluationPairs: 0,
    });
    const s = await walkToPart1(t, token);
    expect(page(s)).toContain("Part 1 of 2: checking the pictures make sense");
    expect(page(s)).not.toContain("of 3");
  });
});

describe("the create form's name (sqlite)", () => {
  const app = appPerTest("sqlite");

  it("defect: a name over 200 characters gets a plain sentence, not zod's text", async () => {
    const { t, cookie } = app;
    const r = await call(t, "POST", "/api/studies", { name: "n".repeat(300) }, cookie);
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe("name: at most 200 characters");
    const title = await call(
      t,
      "POST",
      "/api/studies",
      { name: "x", texts: { title: "t".repeat(201), labels: { storyHeading: "h".repeat(501) } } },
      cookie,
    );
    expect(title.status).toBe(400);
    expect(title.body.error.message).toContain("texts.title: at most 200 characters");
    expect(title.body.error.message).toContain("texts.labels.storyHeading: at most 500 characters");
    expect(title.body.error.message).not.toMatch(/Too big|expected string/);
    const more = await call(
      t,
      "POST",
      "/api/studies",
      {
        name: "x",
        predictionsCsv: "label,probability\n",
        positive: "p".repeat(201),
        consentText: "c".repeat(20_001),
      },
      cookie,
    );
    expect(more.status).toBe(400);
    expect(more.body.error.message).toContain("positive: at most 200 characters");
    expect(more.body.error.message).toContain("consentText: at most 20000 characters");
    expect(more.body.error.message).not.toMatch(/Too big|expected string/);
  });

  it("defect: a study's words had no length limit (now a plain sentence, nothing stored)", async () => {
    const { t, cookie } = app;
    const studies = async () =>
      (await call(t, "GET", "/api/studies", undefined, cookie)).body.studies as {
        name: string;
        words: Record<string, string>;
      }[];
    const before = await studies();
    const long = await call(
      t,
      "POST",
      "/api/studies",
      {
        name: "Long words",
        template: "cancer-diagnosis",
        words: { positive: "p".repeat(201), question: "q".repeat(501), people: "x".repeat(10_000) },
      },
      cookie,
    );
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe("invalid_request");
    for (const m of [
      "words.positive: at most 200 characters",
      "words.question: at most 500 characters",
      "words.people: at most 200 characters",
    ])
      expect(long.body.error.message).toContain(m);
    expect(long.body.error.message).not.toMatch(/Too big|expected string/);
    expect(await studies()).toEqual(before);
    // At the limits the words are taken as written.
    const ok = await call(
      t,
      "POST",
      "/api/studies",
      {
        name: "Long words",
        template: "cancer-diagnosis",
        words: { positive: "p".repeat(200), question: "q".repeat(500) },
      },
      cookie,
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.study.words).toMatchObject({
      positive: "p".repeat(200),
      question: "q".repeat(500),
    });
  });

  it("the name input stops at 200 characters", () => {
    const html = render(h(CreateStudy, { editId: undefined }));
    expect(html).toMatch(
      /<input[^>]*id="study-name"[^>]*maxlength="200"|<input[^>]*maxlength="200"[^>]*id="study-name"/i,
    );
  });
});
