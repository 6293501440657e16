import { h } from "preact";
import { render } from "preact-render-to-string";
import { afterEach, describe, expect, it, vi } from "vitest";
import { builtInTextsLeft, GENERAL_BINARY_WORDS } from "../../src/server/study/general-texts.ts";
import {
  GENERAL_CONSENT,
  GENERAL_POST_QUESTIONS,
  GENERAL_QUESTIONNAIRE,
  PHASE1_SYSTEMS,
} from "../../src/server/study/template.ts";
import { defaultStudyTexts } from "../../src/server/study/texts.ts";
import { api } from "../../web/src/api/client.ts";
import type { CreateStudyBody } from "../../web/src/api/types.ts";
import { fieldsOfRequest, withUnedited } from "../../web/src/researcher/draft-form.ts";
import { DraftActions } from "../../web/src/researcher/StudyPage.tsx";
import type { StudyDefaults } from "../../web/src/researcher/StudyTextsEditor.tsx";
import { DIABETES_TEXTS, DIABETES_WORDS } from "../server/diabetes-study.ts";

/** What GET /api/study-defaults answers (routes/researcher.ts builds it the same way). */
const defaults = (): StudyDefaults =>
  JSON.parse(
    JSON.stringify({
      comprehensionSystems: PHASE1_SYSTEMS,
      texts: defaultStudyTexts(),
      kindTexts: {
        consentText: GENERAL_CONSENT,
        questionnaire: GENERAL_QUESTIONNAIRE,
        post: GENERAL_POST_QUESTIONS,
      },
    }),
  );

describe("issue 27 defect 8: a draft opened in the create form", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("defect: the form's fields come from the draft's create request", () => {
    const request: CreateStudyBody = {
      name: "Diabetes screening",
      datasetCsv: "glucose,diabetes\n1,pos\n2,neg\n",
      target: "diabetes",
      positive: "pos",
      dropColumns: ["id", "clinic"],
      words: DIABETES_WORDS,
      tolerance: 0.03,
      strategy: "adaptive",
      budget: 20,
      evaluationPairs: 5,
      consentText: "Agree?",
      texts: structuredClone(DIABETES_TEXTS) as unknown as CreateStudyBody["texts"],
    };
    const f = fieldsOfRequest(request, defaults());
    expect(f).toMatchObject({
      name: "Diabetes screening",
      kind: "binary",
      source: "dataset",
      csv: { name: "the draft’s dataset CSV", text: request.datasetCsv },
      target: "diabetes",
      positive: "pos",
      dropColumns: "id, clinic",
      words: DIABETES_WORDS,
      tolerance: "0.03",
      budget: "20",
      credibility: "",
      pairs: "5",
      population: "",
      consent: "Agree?",
    });
    expect(f.texts.title).toBe(DIABETES_TEXTS.title);
    expect(f.texts.story).toEqual(DIABETES_TEXTS.story);
    expect(f.texts.comprehension).toEqual(DIABETES_TEXTS.comprehension);
    expect(f.texts.post).toEqual(DIABETES_TEXTS.post);
  });

  it("defect: a draft of uploaded data made without texts opens with the general texts the server gave it", () => {
    const f = fieldsOfRequest({ name: "Loans", predictionsCsv: "label,probability\n" }, defaults());
    expect(f.source).toBe("csv");
    const d = defaults().texts;
    expect(
      builtInTextsLeft({ ...f.texts, words: GENERAL_BINARY_WORDS, consentText: f.consent }, d),
    ).toEqual([]);
    // The built-in study's data keep the built-in texts.
    const built = fieldsOfRequest({ name: "Cancer", template: "cancer-diagnosis" }, defaults());
    expect(built.texts.story).toEqual(d.story);
    expect(built.consent).toBe(d.consentText);
    // A multiclass draft: its bundled dataset, family and own story.
    const mc = fieldsOfRequest(
      {
        name: "Flowers",
        kind: "multiclass",
        dataset: "iris",
        family: "linear",
        texts: { story: { paragraphs: ["One.", "Two."] } },
      },
      defaults(),
    );
    expect(mc).toMatchObject({
      kind: "multiclass",
      kindSource: "bundled",
      bundled: "iris",
      kindFamily: "linear",
      kindStory: "One.\n\nTwo.",
      consent: GENERAL_CONSENT,
    });
  });

  it("defect: saving keeps what the form does not edit, and drops what it cleared", () => {
    const stored: CreateStudyBody = {
      name: "Loans",
      predictionsCsv: "csv",
      family: "binary-linear",
      retestPairs: 3,
      tolerance: 0.02,
      texts: {
        comprehensionSystems: [
          { tp: 30, fn: 4, fp: 10, tn: 56 },
          { tp: 20, fn: 14, fp: 3, tn: 63 },
        ],
        guessPrompt: "Old?",
      },
    };
    const sent: CreateStudyBody = {
      name: "Loans 2",
      predictionsCsv: "csv",
      strategy: "adaptive",
      texts: { guessPrompt: null },
    };
    expect(withUnedited(stored, sent)).toEqual({
      family: "binary-linear",
      retestPairs: 3,
      name: "Loans 2",
      predictionsCsv: "csv",
      strategy: "adaptive",
      texts: { comprehensionSystems: stored.texts!.comprehensionSystems, guessPrompt: null },
    });
    // Another kind keeps nothing of the old request.
    const mc: CreateStudyBody = { name: "Flowers", kind: "multiclass", dataset: "iris" };
    expect(withUnedited(stored, mc)).toEqual(mc);
  });

  it("defect: the study page of a draft offers Edit and Delete, or says why not", () => {
    const open = render(
      h(DraftActions, { sid: "7", participants: 0, busy: false, onDelete: () => {} }),
    );
    expect(open).toContain('<a class="button secondary" href="#/study/7/edit">Edit the draft</a>');
    expect(open).toMatch(/<button type="button" class="secondary"[^>]*>Delete the draft<\/button>/);
    const tried = render(
      h(DraftActions, { sid: "7", participants: 1, busy: false, onDelete: () => {} }),
    );
    expect(tried).not.toContain("Edit the draft");
    expect(tried).toContain("1 test run has been made of this draft");
  });

  it("defect: the client sends DELETE and PUT with a JSON body, as the server requires", async () => {
    const fetch = vi.fn(async () => new Response('{"deleted":7}', { status: 200 }));
    vi.stubGlobal("fetch", fetch);
    expect(await api("DELETE", "/api/studies/7")).toEqual({ deleted: 7 });
    await api("PUT", "/api/studies/7", { name: "x" });
    expect(fetch.mock.calls.map((c) => (c as unknown as [string, RequestInit])[1])).toEqual([
      expect.objectContaining({
        method: "DELETE",
        headers: { "content-type": "application/json" },
        body: "{}",
      }),
      expect.objectContaining({ method: "PUT", body: '{"name":"x"}' }),
    ]);
  });
});
