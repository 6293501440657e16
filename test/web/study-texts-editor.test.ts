import { h } from "preact";
import { render } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import {
  defaultStudyTexts,
  PLACEHOLDER as SERVER_PLACEHOLDER,
} from "../../src/server/study/texts.ts";
import { csvColumns, unchangedTexts } from "../../web/src/researcher/CreateStudy.tsx";
import {
  type EditableTexts,
  PLACEHOLDER,
  placeholdersIn,
  StudyPreview,
  textsForRequest,
} from "../../web/src/researcher/StudyTextsEditor.tsx";
import { DIABETES_TEXTS, DIABETES_WORDS } from "../server/diabetes-study.ts";

const texts = (): EditableTexts => structuredClone(DIABETES_TEXTS) as unknown as EditableTexts;
const SYSTEMS = [
  { tp: 31, fn: 3, fp: 13, tn: 53 },
  { tp: 25, fn: 9, fp: 4, tn: 62 },
];

describe("the create form's study texts", () => {
  it("marks placeholders as the server does", () => {
    expect(PLACEHOLDER.source).toBe(SERVER_PLACEHOLDER.source);
    for (const s of ["[[who]]", "{{x}}", "TODO", "a TBD b", "FIXME", "XXX"]) {
      expect(PLACEHOLDER.test(s), s).toBe(true);
    }
    for (const s of ["[who]", "todo list", "TODOS", "a {b} c"])
      expect(PLACEHOLDER.test(s), s).toBe(false);
  });

  it("names every place a placeholder is left", () => {
    expect(placeholdersIn(texts(), DIABETES_WORDS, "ok")).toEqual([]);
    const t = texts();
    t.story.paragraphs[1] = "[[say who]]";
    t.comprehension[1]!.options = ["System A", "TODO"];
    t.guessPrompt = "{{ask}}";
    t.post[0]!.label = "TBD";
    expect(placeholdersIn(t, { ...DIABETES_WORDS, missed: "[[missed]]" }, "XXX consent")).toEqual([
      "word “missed”",
      "consent text",
      "story paragraph 2",
      "comprehension question 2 option 2",
      "guess question",
      "post-task question 1",
    ]);
  });

  it("sends the texts without blank paragraphs or answer lines, and no empty title", () => {
    const t = texts();
    t.title = "  ";
    t.story.paragraphs = ["One.", "  ", "Two."];
    t.comprehension[0]!.options = [" 3", "", "13 ", "31", "53", ""];
    t.questionnaire[0]!.options = ["18-39", "", " 40-64"];
    const r = textsForRequest(t);
    expect(r.title).toBeUndefined();
    expect(r.story!.paragraphs).toEqual(["One.", "Two."]);
    expect(r.comprehension![0]!.options).toEqual(["3", "13", "31", "53"]);
    expect(r.questionnaire![0]!.options).toEqual(["18-39", "40-64"]);
    expect(textsForRequest({ ...t, title: " Diabetes " }).title).toBe("Diabetes");
  });

  it("names the parts still the built-in study's", () => {
    const d = structuredClone(defaultStudyTexts()) as unknown as Parameters<
      typeof unchangedTexts
    >[1];
    const t: EditableTexts = structuredClone({ ...d, title: "" });
    expect(unchangedTexts(t, d, {}, d.consentText)).toEqual([
      "the story",
      "what each mistake costs",
      "4 comprehension questions",
      "the guess question",
      "6 post-task questions",
      "the words “had cancer”, “did not have cancer”, “predicted high risk”, “predicted low risk”, “missed cancers”, “false alarms”, “Which system would you rather your doctor used?”",
      "the consent text",
    ]);
    const own = texts();
    expect(unchangedTexts(own, d, DIABETES_WORDS, "Agree?")).toEqual([]);
    own.post = [...own.post, d.post[2]!];
    expect(unchangedTexts(own, d, DIABETES_WORDS, "Agree?")).toEqual(["1 post-task question"]);
  });

  it("offers the CSV's columns and each column's values", () => {
    const cols = csvColumns('glucose,"age",diabetes\r\n148,50,pos\n85,31,neg\n\n183,32,pos\n');
    expect(cols.map((c) => c.name)).toEqual(["glucose", "age", "diabetes"]);
    expect(cols[2]!.values).toEqual(["neg", "pos"]);
    expect(csvColumns("")).toEqual([]);
  });

  it("previews the pages in the study's words, with the placeholders left", () => {
    const html = render(
      h(StudyPreview, {
        name: "Diabetes",
        texts: texts(),
        words: DIABETES_WORDS,
        consent: "Agree?",
        systems: SYSTEMS,
      }),
    );
    expect(html).toContain("No placeholders left.");
    expect(html).toContain("What missed diabetes cases mean");
    expect(html).toContain(DIABETES_TEXTS.story.costs.falseAlarm);
    expect(html).toContain(DIABETES_TEXTS.comprehension[0].prompt);
    expect(html).toContain(
      "B: 6 more missed diabetes cases and 9 fewer needless glucose tests than A, per 100 adults.",
    );
    expect(html).not.toMatch(/cancer|patients/i);
    const left = render(
      h(StudyPreview, {
        name: "Diabetes",
        texts: { ...texts(), guessPrompt: "[[ask]]" },
        words: DIABETES_WORDS,
        consent: "Agree?",
        systems: SYSTEMS,
      }),
    );
    expect(left).toContain("Still to be written");
    expect(left).toContain("guess question");
  });
});
