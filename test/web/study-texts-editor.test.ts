import { h } from "preact";
import { render } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import { CreateStudyBody } from "../../src/server/api-schemas.ts";
import { builtInTextsLeft, WORD_MAX_CHARS } from "../../src/server/study/general-texts.ts";
import { DEFAULT_PAGE_LABELS } from "../../src/server/study/page-label-defaults.ts";
import {
  defaultStudyTexts,
  PLACEHOLDER as SERVER_PLACEHOLDER,
} from "../../src/server/study/texts.ts";
import { BinaryDataSection, BinaryTextsSection } from "../../web/src/kinds/binary/create.tsx";
import { previewPhaseThree } from "../../web/src/kinds/binary/request.ts";
import type { CreateSectionProps } from "../../web/src/kinds/kind.ts";
import { INITIAL_FORM } from "../../web/src/researcher/CreateStudy.tsx";
import { csvColumns } from "../../web/src/researcher/csv-file.ts";
import {
  type EditableTexts,
  hasRightAnswer,
  PLACEHOLDER,
  placeholdersIn,
  rightAnswerProblems,
  StudyPreview,
  StudyTextsEditor,
  textsForRequest,
  withOptions,
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

  it("names the parts still the built-in study's that name its disease or data", () => {
    const d = structuredClone(defaultStudyTexts());
    const t = structuredClone(d);
    expect(builtInTextsLeft(t, d)).toEqual([
      "the story",
      "what each mistake costs",
      "4 comprehension questions",
      "the guess question",
      "1 post-task question",
      "the words “had cancer”, “did not have cancer”, “predicted high risk”, “predicted low risk”, “missed cancers”, “Which system would you rather your doctor used?”",
      "the consent text",
    ]);
    const own = { ...texts(), words: DIABETES_WORDS, consentText: "Agree?" };
    expect(builtInTextsLeft(own, d)).toEqual([]);
    expect(builtInTextsLeft({ ...own, post: [...own.post, d.post[0]!] }, d)).toEqual([
      "1 post-task question",
    ]);
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

describe("issue 27 defect 3: editing a comprehension question's answers keeps its right answer", () => {
  type Q = EditableTexts["comprehension"][number];
  const tradeOff = (): Q => structuredClone(defaultStudyTexts().comprehension[3]!) as Q;

  it("defect: editing another answer line keeps the right answer", () => {
    const q = tradeOff();
    const lines = [...q.options];
    lines[2] = "It misses more and alarms more";
    lines.push("");
    const edited = withOptions(q, lines.join("\n"));
    expect(edited.correct).toBe(q.correct);
    expect(edited.options).toEqual(lines);
    expect(hasRightAnswer(edited)).toBe(true);
  });

  it("defect: editing the right answer's own line, letter by letter, carries the right answer along", () => {
    let q = tradeOff();
    // "cancers" -> "defaults" in every line, one keystroke at a time, as a researcher types.
    for (let line = 0; line < q.options.length; line++) {
      const target = q.options[line]!.replace("cancers", "defaults");
      let now = q.options[line]!;
      while (now !== target) {
        // Delete to the common prefix, then type the rest.
        let common = 0;
        while (common < now.length && now[common] === target[common]) common++;
        now = now.length > common ? now.slice(0, -1) : target.slice(0, now.length + 1);
        const options = q.options.map((o, i) => (i === line ? now : o));
        q = withOptions(q, options.join("\n"));
        expect(hasRightAnswer(q), `${line}: ${now}`).toBe(true);
      }
    }
    expect(q.correct).toBe("It catches more defaults and gives more false alarms");
    // The request the form sends then passes the server's check (it failed with
    // "texts.comprehension.3.correct: the correct answer must be one of the options").
    const all = (structuredClone(defaultStudyTexts().comprehension) as Q[]).map((x, i) =>
      i === 3 ? q : x,
    );
    const body = {
      name: "Loans",
      template: "cancer-diagnosis" as const,
      texts: textsForRequest({
        ...(structuredClone(defaultStudyTexts()) as unknown as EditableTexts),
        title: "",
        comprehension: all,
      }),
    };
    const parsed = CreateStudyBody.safeParse(body);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });

  it("defect: a right answer no longer among the answers is shown plainly and stops the form", () => {
    const q = tradeOff();
    // The right answer's line removed: nothing to follow.
    const gone = withOptions(q, q.options.slice(1).join("\n"));
    expect(gone.correct).toBe(q.correct);
    expect(hasRightAnswer(gone)).toBe(false);
    expect(rightAnswerProblems([tradeOff(), gone])).toEqual([
      `comprehension question 2: choose its right answer (“${q.correct}” is no longer one of its answers)`,
    ]);
    const html = render(
      h(StudyTextsEditor, {
        texts: { ...texts(), comprehension: [gone] },
        systems: SYSTEMS,
        onChange: () => {},
      }),
    );
    expect(html).toContain(
      `The right answer “${q.correct}” is no longer one of the answers: choose it again.`,
    );
    expect(html).toContain("<option selected value disabled>(choose the right answer)</option>");
    expect(html).toMatch(/aria-invalid="true"/);
    // With the right answer in place the editor shows no such note, and selects it.
    const ok = render(
      h(StudyTextsEditor, {
        texts: { ...texts(), comprehension: [q] },
        systems: SYSTEMS,
        onChange: () => {},
      }),
    );
    expect(ok).not.toContain("choose the right answer");
    expect(ok).toContain(`<option selected value="${q.correct}">`);
  });
});

describe("the new-user audit: the create form's parts and word limits", () => {
  /** The binary kind's create-form sections on `form`, as the create page renders them. */
  const section = (form: Partial<CreateSectionProps["form"]>): CreateSectionProps => ({
    form: { ...INITIAL_FORM, texts: texts(), ...form },
    update: () => {},
    defaults: null,
    columns: [],
    onFile: () => {},
    fileError: null,
    clearFile: () => {},
    setError: () => {},
  });
  const shown = (form: Partial<CreateSectionProps["form"]>) =>
    render(h(BinaryTextsSection, section(form))).replace(/<[^>]+>/g, " ");

  it("defect: the preview said Part 1 and 2 of 3 with no evaluation pairs (no Part 3)", () => {
    const none = shown({ pairs: "0" });
    expect(none).toContain("Part 1 of 2: checking the pictures make sense");
    expect(none).toContain("Part 2 of 2: your preferences");
    expect(none).not.toMatch(/Part \d of 3/);
    for (const pairs of ["15", "", " "]) {
      expect(shown({ pairs }), pairs).toContain("Part 1 of 3: checking the pictures make sense");
      expect(shown({ pairs }), pairs).toContain("Part 2 of 3: your preferences");
    }
    expect([
      previewPhaseThree({ ...INITIAL_FORM, pairs: "0" }),
      previewPhaseThree(INITIAL_FORM),
    ]).toEqual([false, true]);
    // A researcher's own part line is shown as written, as the server does.
    const own = { ...texts(), labels: { ...DEFAULT_PAGE_LABELS, elicitationStage: "Stage two" } };
    expect(shown({ pairs: "0", texts: own })).toContain("Stage two");
  });

  it("every word input stops at the server's limit for it", () => {
    const html = render(h(BinaryDataSection, section({})));
    for (const [k, max] of Object.entries(WORD_MAX_CHARS))
      expect(html, k).toMatch(new RegExp(`<input[^>]*id="w-${k}"[^>]*maxlength="${max}"`, "i"));
  });
});
