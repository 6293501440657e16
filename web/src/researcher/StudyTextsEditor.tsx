// The create form's editor of every text a participant reads (issue 11 item 3): title, story,
// what each mistake costs, comprehension questions with answers and feedback, the guess
// question, the questionnaire and the post-task questions; the built-in study's texts to start
// from (GET /api/study-defaults), and a live preview of the pages in the study's own words.

import {
  COMPREHENSION_TOKENS,
  fillTokens,
} from "../../../src/server/study/comprehension-systems.ts";
import {
  DEFAULT_PAGE_LABELS,
  type PageLabelKey,
  type PageLabels,
  partLabels,
} from "../../../src/server/study/page-label-defaults.ts";
import {
  labelTokens,
  PLACEHOLDER,
  placeholderLeft,
} from "../../../src/server/study/placeholders.ts";
import type { CreateStudyBody, Field, StudyWords } from "../api/types.ts";
import { tradeOffLine } from "../chart/format.ts";
import { capitalise } from "../chart/layout.ts";
import { ResponsiveFlowChart } from "../chart/ResponsiveFlowChart.tsx";

/** The texts a create request carries (`texts` of POST /api/studies). */
export type StudyTexts = NonNullable<CreateStudyBody["texts"]>;
type Question = NonNullable<StudyTexts["comprehension"]>[number];

/** Everything the editor holds: the request's texts, all filled in, and the consent text. */
export interface EditableTexts {
  title: string;
  story: { paragraphs: string[]; costs: { missed: string; falseAlarm: string } };
  comprehension: Question[];
  guessPrompt: string | null;
  questionnaire: Field[];
  post: Field[];
  /** Headings, buttons and the debrief's fixed sentences (the defaults when absent). */
  labels?: PageLabels;
}

/** What each page label is, as the editor names its field. */
export const LABEL_NAMES: Record<PageLabelKey, string> = {
  consentHeading: "Consent page heading",
  consentAgree: "Consent: agree button",
  consentDecline: "Consent: decline button",
  questionnaireHeading: "Questionnaire heading",
  continueButton: "Continue button",
  requiredNote: "Forms: note on required questions (* marks where the star goes)",
  pleaseAnswer: "Forms: before the unanswered questions",
  storyHeading: "Story page heading",
  storyDone: "Story: done button",
  comprehensionStage: "Comprehension: part line",
  comprehensionQuestion: "Comprehension: question number ({n} of {total})",
  workedExampleHeading: "Comprehension: worked example heading ({system})",
  workedExampleRead: "Worked example: how to read a system ({name}, {total})",
  workedExamplePositives:
    "Worked example: the positives ({positives}, {positive}, {name}, {flagged}, {tp}, {tpr}, {cleared}, {fn}, {missed})",
  workedExampleNegatives:
    "Worked example: the negatives ({negatives}, {negative}, {name}, {cleared}, {tn}, {tnr}, {flagged}, {fp}, {falseAlarm})",
  workedExampleSo:
    "Worked example: the two mistakes ({name}, {fn}, {missed}, {fp}, {falseAlarm}, {total})",
  feedbackCorrect: "Comprehension: a right answer",
  feedbackWrong: "Comprehension: a wrong answer",
  feedbackAbout: "Comprehension: before the last answer's feedback",
  attemptsLeft: "Comprehension: attempts left ({n})",
  checkAnswer: "Comprehension: check button",
  guessHeading: "Guess page heading",
  guessHelp: "Guess: help under the box",
  guessSkip: "Guess: skip button",
  guessInvalid: "Guess: not a positive number",
  elicitationStage: "Comparisons: part line",
  progressAtMostMore: "Comparisons: progress ({n} question, {left} at most left)",
  progressLast: "Comparisons: progress on the last question ({n})",
  progressAbout: "Comparisons: progress, estimated ({n}, {left} about left)",
  progressOfAtMost: "Adaptive comparisons: progress ({n} of at most {total})",
  progressOf: "Last comparisons: progress ({n} of {total})",
  preferButton: "Comparisons: prefer button (before A or B)",
  sameButton: "Comparisons: about the same button",
  keysHint: "Comparisons: keyboard hint start",
  keysSame: "Comparisons: keyboard hint, key 0",
  undoButton: "Comparisons: undo button",
  tablesShow: "Comparisons: show tables button",
  tablesHide: "Comparisons: hide tables button",
  tableCaption: "Tables: caption ({name}, {people})",
  tableTrueClass: "Tables: first column heading",
  tableTotal: "Tables: total column heading",
  tableActually: "Charts and tables: a true class ({class})",
  tableCell: "Tables: a count and its rate ({n}, {percent}, {of})",
  compactClass: "Phone tables: a true class ({n}, {class})",
  chartBadge: "Charts: an arrow's count ({n} of {of}, {percent})",
  chartDescription: "Charts: the text read to screen-reader users (see the default's {...})",
  tradeOff: "Comparisons: the trade-off line ({b}, {missed}, {falseAlarms}, {a}, {people})",
  tradeOffMore: "Trade-off line: more ({n}, {outcome})",
  tradeOffFewer: "Trade-off line: fewer ({n}, {outcome})",
  tradeOffSame: "Trade-off line: the same number ({outcome})",
  evaluationStage: "Last comparisons: part line",
  postHeading: "Post-task questions heading",
  finishButton: "Finish button",
  debriefHeading: "Debrief heading",
  debriefResultHeading: "Debrief: result box heading",
  debriefRangeNote: "Debrief: note under the result",
  debriefAgreement: "Debrief: agreement ({share}, {agree} of {pairs})",
  debriefAgreementOpen:
    "Debrief: agreement on the open pairs ({pairs}, {share}, {agree} of {count})",
  debriefAgreementSettled: "Debrief: every pair settled in advance",
  debriefConsistency:
    "Debrief (multiclass, fairness, quadratic): choices against the result ({against} of {counted}, {share}, {low} to {high})",
  debriefConsistencyRange:
    "Debrief (binary): choices against the best weighing of the range ({against} of {counted}, {share}, {low} to {high})",
  debriefRetest: "Debrief: pairs seen twice ({repeats}, {same} the same)",
  debriefSlips:
    "Debrief (multiclass): estimated choices against the result ({share}, {low} to {high})",
  pairOne: "Debrief: one pair",
  pairMany: "Debrief: several pairs",
  debriefGuessHeading: "Debrief: guess box heading",
  debriefGuessSkipped: "Debrief: guess skipped",
  debriefGuessInside: "Debrief: guess within the range",
  debriefGuessOutside: "Debrief: guess outside the range",
  debriefGuessOpen: "Debrief: guess, when the answers leave every weighing open",
  completionCode: "Debrief: before the completion code",
  debriefClose: "Debrief: last line",
  withdrawnHeading: "Withdrawn page heading",
  withdrawnText: "Withdrawn page text",
};

/**
 * Every page label of some texts, the defaults where they set none.
 * @example labelsOfTexts({ ...texts, labels: undefined }).storyHeading // "The task"
 */
export function labelsOfTexts(t: EditableTexts): PageLabels {
  return { ...DEFAULT_PAGE_LABELS, ...(t.labels ?? {}) };
}

/** A fixed system of the comprehension questions, as counts out of 100. */
export interface FixedCounts {
  tp: number;
  fn: number;
  fp: number;
  tn: number;
}

/** What GET /api/study-defaults answers. */
export interface StudyDefaults {
  comprehensionSystems: FixedCounts[];
  texts: EditableTexts & { words: StudyWords; consentText: string };
  /** A multiclass or fairness study's defaults (older servers leave them out). */
  kindTexts?: { consentText: string; questionnaire: Field[]; post: Field[] };
}

/** "31, 3, 13, 53": a fixed system's counts in the legend's order. */
const countsText = (s: FixedCounts | undefined) =>
  s === undefined ? "?" : `${s.tp}, ${s.fn}, ${s.fp}, ${s.tn}`;

/** Text still to be written; the same marks as the server's (src/server/study/placeholders.ts). */
export { PLACEHOLDER };

/**
 * Where placeholders are left, as "story paragraph 2", "comprehension question 1 prompt", ...:
 * a `[[...]]`-style mark anywhere, or a `{word}` where nothing fills it in (only the
 * comprehension questions' tokens and each page label's own values are filled in), as the
 * server refuses them (issue 27: `{population}` in the story passed this check).
 * @example placeholdersIn({ ...texts, guessPrompt: "[[ask]]" }) // ["guess question"]
 */
export function placeholdersIn(t: EditableTexts, words: StudyWords, consent: string): string[] {
  const out: string[] = [];
  const check = (where: string, s: string | null | undefined, tokens: readonly string[] = []) => {
    if (s != null && placeholderLeft(s, tokens) !== null) out.push(where);
  };
  check("title", t.title);
  for (const [k, v] of Object.entries(words)) check(`word “${k}”`, v);
  check("consent text", consent);
  for (const [i, p] of t.story.paragraphs.entries()) check(`story paragraph ${i + 1}`, p);
  check("cost of a missed positive", t.story.costs.missed);
  check("cost of a false alarm", t.story.costs.falseAlarm);
  t.comprehension.forEach((q, i) => {
    for (const part of ["prompt", "correct", "explanation"] as const)
      check(`comprehension question ${i + 1} ${part}`, q[part], COMPREHENSION_TOKENS);
    for (const [j, o] of q.options.entries())
      check(`comprehension question ${i + 1} option ${j + 1}`, o, COMPREHENSION_TOKENS);
  });
  check("guess question", t.guessPrompt);
  for (const [k, v] of Object.entries(labelsOfTexts(t)))
    check(LABEL_NAMES[k as PageLabelKey] ?? k, v, labelTokens(k));
  out.push(...fieldPlaceholders("questionnaire", t.questionnaire));
  out.push(...fieldPlaceholders("post-task question", t.post));
  return out;
}

/**
 * Where placeholders are left in form questions (their labels and options).
 * @example fieldPlaceholders("post-task question", [{ id: "q1", label: "TBD", kind: "text", required: true }]) // ["post-task question 1"]
 */
export function fieldPlaceholders(name: string, fields: readonly Field[]): string[] {
  const out: string[] = [];
  fields.forEach((f, i) => {
    if (placeholderLeft(f.label) !== null) out.push(`${name} ${i + 1}`);
    for (const o of f.options ?? [])
      if (placeholderLeft(o) !== null) out.push(`${name} ${i + 1} option`);
  });
  return out;
}

const lines = (s: string) => s.split("\n").map((x) => x.trim());

/**
 * A comprehension question with its answer lines edited (the textarea's text), keeping its
 * right answer (issue 27: editing the options reset it, and creation then failed with
 * "the correct answer must be one of the options"): kept while it is still one of the lines;
 * when only its own line was edited, it follows that line; otherwise it is left as it was, no
 * longer an option, which the editor shows and the form refuses to send (`rightAnswerProblems`).
 * @example withOptions({ ...q, options: ["3", "9"], correct: "3" }, "3 patients\n9").correct // "3 patients"
 */
export function withOptions(q: Question, text: string): Question {
  const options = text.split("\n");
  const same = (a: string, b: string) => a.trim() === b.trim();
  if (q.correct.trim() !== "" && options.some((o) => same(o, q.correct))) return { ...q, options };
  const at = q.options.findIndex((o) => same(o, q.correct));
  const onlyThatLine =
    at >= 0 &&
    options.length === q.options.length &&
    options.every((o, i) => i === at || o === q.options[i]) &&
    options[at]!.trim() !== "";
  return onlyThatLine ? { ...q, options, correct: options[at]!.trim() } : { ...q, options };
}

/** Whether a question's right answer is one of its (non-blank) answer lines. */
export function hasRightAnswer(q: Question): boolean {
  return q.correct.trim() !== "" && lines(q.options.join("\n")).includes(q.correct.trim());
}

/**
 * The comprehension questions whose right answer is not one of their answers, as the form
 * says it before sending (the server would refuse the study).
 * @example rightAnswerProblems([{ ...q, correct: "gone" }]) // ["comprehension question 1: choose its right answer (“gone” is no longer one of its answers)"]
 */
export function rightAnswerProblems(questions: readonly Question[]): string[] {
  return questions.flatMap((q, i) =>
    hasRightAnswer(q)
      ? []
      : [
          `comprehension question ${i + 1}: choose its right answer${q.correct.trim() === "" ? "" : ` (“${q.correct.trim()}” is no longer one of its answers)`}`,
        ],
  );
}
const value = (e: Event) => (e.currentTarget as HTMLInputElement | HTMLTextAreaElement).value;

/**
 * An editable list of form questions (the questionnaire or the post-task questions): each
 * question's text, answer kind, options and whether it is required; add and remove.
 * @example <FieldsEditor id="q" legend="Questionnaire" fields={fields} onChange={setFields} />
 */
export function FieldsEditor({
  id,
  legend,
  fields,
  onChange,
}: {
  id: string;
  legend: string;
  fields: Field[];
  onChange: (f: Field[]) => void;
}) {
  const set = (i: number, f: Partial<Field>) =>
    onChange(fields.map((x, j) => (j === i ? { ...x, ...f } : x)));
  return (
    <fieldset>
      <legend>{legend}</legend>
      {fields.map((f, i) => (
        <div class="text-item" key={`${id}-${i}`}>
          <div class="field">
            <label for={`${id}-${i}-label`}>{`Question ${i + 1}`}</label>
            <input
              id={`${id}-${i}-label`}
              maxLength={1000}
              value={f.label}
              onInput={(e) => set(i, { label: value(e) })}
            />
          </div>
          <div class="grid2">
            <div class="field">
              <label for={`${id}-${i}-kind`}>Answer</label>
              <select
                id={`${id}-${i}-kind`}
                value={f.kind}
                onChange={(e) => {
                  const kind = (e.currentTarget as HTMLSelectElement).value as Field["kind"];
                  const { options: _o, ...rest } = f;
                  const next: Field =
                    kind === "single"
                      ? { ...rest, kind, options: f.options ?? ["", ""] }
                      : { ...rest, kind };
                  onChange(fields.map((x, j) => (j === i ? next : x)));
                }}
              >
                <option value="single">one of several options</option>
                <option value="text">free text</option>
                <option value="number">a number</option>
              </select>
            </div>
            <label class="choice">
              <input
                type="checkbox"
                checked={f.required}
                onChange={(e) =>
                  set(i, { required: (e.currentTarget as HTMLInputElement).checked })
                }
              />
              <span>Required</span>
            </label>
          </div>
          {f.kind === "single" && (
            <div class="field">
              <label for={`${id}-${i}-options`}>Options (one per line)</label>
              <textarea
                id={`${id}-${i}-options`}
                rows={3}
                value={(f.options ?? []).join("\n")}
                onInput={(e) => set(i, { options: value(e).split("\n") })}
              />
            </div>
          )}
          <button
            type="button"
            class="secondary"
            onClick={() => onChange(fields.filter((_, j) => j !== i))}
          >
            {`Remove question ${i + 1}`}
          </button>
        </div>
      ))}
      <button
        type="button"
        class="secondary"
        onClick={() =>
          onChange([
            ...fields,
            { id: `${id}${fields.length + 1}`, label: "", kind: "text", required: false },
          ])
        }
      >
        Add a question
      </button>
    </fieldset>
  );
}

/** Every participant-facing text of the study, each editable. */
export function StudyTextsEditor({
  texts,
  systems,
  onChange,
}: {
  texts: EditableTexts;
  /** The two fixed systems the comprehension questions ask about. */
  systems: FixedCounts[];
  onChange: (t: EditableTexts) => void;
}) {
  const setQ = (i: number, q: Partial<Question>) =>
    onChange({
      ...texts,
      comprehension: texts.comprehension.map((x, j) => (j === i ? { ...x, ...q } : x)),
    });
  return (
    <div class="texts-editor">
      <div class="field">
        <label for="t-title">Title shown to participants (the study’s name if empty)</label>
        <input
          id="t-title"
          maxLength={200}
          value={texts.title}
          onInput={(e) => onChange({ ...texts, title: value(e) })}
        />
      </div>
      <div class="field">
        <label for="t-story">The task’s story (a blank line between paragraphs)</label>
        <textarea
          id="t-story"
          rows={7}
          value={texts.story.paragraphs.join("\n\n")}
          onInput={(e) =>
            onChange({ ...texts, story: { ...texts.story, paragraphs: value(e).split(/\n\s*\n/) } })
          }
        />
      </div>
      <div class="grid2">
        <div class="field">
          <label for="t-cost-missed">What a missed positive costs</label>
          <textarea
            id="t-cost-missed"
            rows={4}
            value={texts.story.costs.missed}
            onInput={(e) =>
              onChange({
                ...texts,
                story: { ...texts.story, costs: { ...texts.story.costs, missed: value(e) } },
              })
            }
          />
        </div>
        <div class="field">
          <label for="t-cost-false">What a false alarm costs</label>
          <textarea
            id="t-cost-false"
            rows={4}
            value={texts.story.costs.falseAlarm}
            onInput={(e) =>
              onChange({
                ...texts,
                story: { ...texts.story, costs: { ...texts.story.costs, falseAlarm: value(e) } },
              })
            }
          />
        </div>
      </div>
      <fieldset>
        <legend>
          {`Comprehension questions (about two fixed systems of 100: A has ${countsText(systems[0])} and B ${countsText(systems[1])} true positives, missed positives, false alarms and true negatives)`}
        </legend>
        <p class="muted" id="cq-tokens">
          {`The systems keep these rates but show your pool's class totals, so write their numbers as tokens, filled in when the study is created: ${COMPREHENSION_TOKENS.filter((t) => /\{A\.|\{p/.test(t)).join(", ")} (B likewise). Numbers typed in are kept as written and are refused if your pool's totals differ from these.`}
        </p>
        {texts.comprehension.map((q, i) => (
          <div class="text-item" key={q.id}>
            <div class="field">
              <label for={`cq-${i}-prompt`}>{`Question ${i + 1}`}</label>
              <textarea
                id={`cq-${i}-prompt`}
                rows={2}
                value={q.prompt}
                onInput={(e) => setQ(i, { prompt: value(e) })}
              />
            </div>
            <div class="grid2">
              <div class="field">
                <label for={`cq-${i}-options`}>Answers (one per line)</label>
                <textarea
                  id={`cq-${i}-options`}
                  rows={4}
                  value={q.options.join("\n")}
                  onInput={(e) => setQ(i, withOptions(q, value(e)))}
                />
              </div>
              <div class="field">
                <label for={`cq-${i}-correct`}>The right answer</label>
                <select
                  id={`cq-${i}-correct`}
                  value={hasRightAnswer(q) ? q.correct.trim() : ""}
                  aria-invalid={hasRightAnswer(q) ? undefined : "true"}
                  aria-describedby={hasRightAnswer(q) ? undefined : `cq-${i}-correct-missing`}
                  onChange={(e) =>
                    setQ(i, { correct: (e.currentTarget as HTMLSelectElement).value })
                  }
                >
                  {!hasRightAnswer(q) && (
                    <option value="" disabled>
                      (choose the right answer)
                    </option>
                  )}
                  {[...new Set(lines(q.options.join("\n")).filter((o) => o !== ""))].map((o) => (
                    <option key={o} value={o}>
                      {o}
                    </option>
                  ))}
                </select>
                {!hasRightAnswer(q) && (
                  <p
                    class="error"
                    id={`cq-${i}-correct-missing`}
                    data-testid="right-answer-missing"
                  >
                    {q.correct.trim() === ""
                      ? "Choose the right answer among the answers."
                      : `The right answer “${q.correct.trim()}” is no longer one of the answers: choose it again.`}
                  </p>
                )}
              </div>
            </div>
            <div class="field">
              <label for={`cq-${i}-explanation`}>Feedback after a wrong answer</label>
              <textarea
                id={`cq-${i}-explanation`}
                rows={2}
                value={q.explanation}
                onInput={(e) => setQ(i, { explanation: value(e) })}
              />
            </div>
            <button
              type="button"
              class="secondary"
              onClick={() =>
                onChange({ ...texts, comprehension: texts.comprehension.filter((_, j) => j !== i) })
              }
            >
              {`Remove question ${i + 1}`}
            </button>
          </div>
        ))}
        <button
          type="button"
          class="secondary"
          onClick={() =>
            onChange({
              ...texts,
              comprehension: [
                ...texts.comprehension,
                {
                  id: `q${Date.now().toString(36)}`,
                  prompt: "",
                  options: ["", ""],
                  correct: "",
                  explanation: "",
                },
              ],
            })
          }
        >
          Add a comprehension question
        </button>
      </fieldset>
      <div class="field">
        <label class="choice">
          <input
            type="checkbox"
            checked={texts.guessPrompt !== null}
            onChange={(e) =>
              onChange({
                ...texts,
                guessPrompt: (e.currentTarget as HTMLInputElement).checked ? "" : null,
              })
            }
          />
          <span>Ask for the participant’s own guess of the cost ratio</span>
        </label>
        {texts.guessPrompt !== null && (
          <>
            <label for="t-guess">The guess question</label>
            <textarea
              id="t-guess"
              rows={2}
              value={texts.guessPrompt}
              onInput={(e) => onChange({ ...texts, guessPrompt: value(e) })}
            />
          </>
        )}
      </div>
      <FieldsEditor
        id="qn"
        legend="Questionnaire (before the task)"
        fields={texts.questionnaire}
        onChange={(questionnaire) => onChange({ ...texts, questionnaire })}
      />
      <FieldsEditor
        id="post"
        legend="Questions after the task"
        fields={texts.post}
        onChange={(post) => onChange({ ...texts, post })}
      />
      <details class="labels-editor">
        <summary>{`Headings, buttons and the debrief’s sentences (${Object.keys(LABEL_NAMES).length}, the built-in wording unless changed)`}</summary>
        {(Object.keys(LABEL_NAMES) as PageLabelKey[]).map((k) => (
          <div class="field" key={k}>
            <label for={`t-label-${k}`}>{LABEL_NAMES[k]}</label>
            <input
              id={`t-label-${k}`}
              maxLength={500}
              value={labelsOfTexts(texts)[k]}
              onInput={(e) =>
                onChange({ ...texts, labels: { ...labelsOfTexts(texts), [k]: value(e) } })
              }
            />
          </div>
        ))}
      </details>
    </div>
  );
}

/** The request's `texts`: blank answer lines dropped, an empty title left to the name. */
export function textsForRequest(t: EditableTexts): StudyTexts {
  const clean = (fs: Field[]) =>
    fs.map((f) => ({
      ...f,
      ...(f.options ? { options: lines(f.options.join("\n")).filter((o) => o !== "") } : {}),
    }));
  return {
    ...(t.title.trim() !== "" ? { title: t.title.trim() } : {}),
    story: {
      paragraphs: t.story.paragraphs.map((p) => p.trim()).filter((p) => p !== ""),
      costs: t.story.costs,
    },
    comprehension: t.comprehension.map((q) => ({
      ...q,
      options: lines(q.options.join("\n")).filter((o) => o !== ""),
      correct: q.correct.trim(),
    })),
    guessPrompt: t.guessPrompt,
    questionnaire: clean(t.questionnaire),
    post: clean(t.post),
    labels: Object.fromEntries(
      Object.entries(labelsOfTexts(t)).map(([k, v]) => [k, v.trim()]),
    ) as PageLabels,
  };
}

/** The participant's pages in the study's words, as they will read them. */
export function StudyPreview({
  name,
  texts,
  words,
  consent,
  systems,
  phaseThree = true,
}: {
  name: string;
  texts: EditableTexts;
  words: StudyWords;
  consent: string;
  /** The comprehension questions' two fixed systems (the server's, from study-defaults). */
  systems: FixedCounts[];
  /** Whether the study has Phase III (evaluation pairs): without it the parts are "of 2". */
  phaseThree?: boolean;
}) {
  const [a, b] = systems;
  const noun = capitalise(words.systemNoun);
  const left = placeholdersIn(texts, words, consent);
  const raw = texts.comprehension[0];
  // The preview fills the tokens in from the built-in systems; the study, from its pool's totals.
  const fill = (t: string) => (a !== undefined && b !== undefined ? fillTokens(t, [a, b]) : t);
  const q =
    raw === undefined
      ? undefined
      : {
          ...raw,
          prompt: fill(raw.prompt),
          options: raw.options.map(fill),
          correct: fill(raw.correct),
        };
  // The part lines counted as the participant's pages will count them (the server's rule).
  const L = partLabels(labelsOfTexts(texts), phaseThree);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the preview scrolls on its own, so a keyboard user must be able to focus it (axe: scrollable-region-focusable)
    <section class="preview" aria-labelledby="preview-title" data-testid="preview" tabIndex={0}>
      <h2 id="preview-title">Preview: what participants read</h2>
      {left.length > 0 ? (
        <div class="error" role="status">
          {`Still to be written (a study cannot be created with placeholders left): ${left.join(", ")}.`}
        </div>
      ) : (
        <p class="muted">No placeholders left.</p>
      )}
      <p class="muted">{texts.title.trim() !== "" ? texts.title : name || "(the study’s name)"}</p>
      <h3>{L.storyHeading}</h3>
      {texts.story.paragraphs
        .filter((p) => p.trim() !== "")
        .map((p, i) => (
          <p key={`p${i}`}>{p}</p>
        ))}
      <div class="costs">
        <section>
          <h4>{`What ${words.missed} mean`}</h4>
          <p>{texts.story.costs.missed}</p>
        </section>
        <section>
          <h4>{`What ${words.falseAlarm} mean`}</h4>
          <p>{texts.story.costs.falseAlarm}</p>
        </section>
      </div>
      <p class="muted">{L.comprehensionStage}</p>
      {a !== undefined && (
        <>
          <h3>{`${noun} A, as the comprehension questions show it`}</h3>
          <ResponsiveFlowChart
            system={{
              ...a,
              tpr: a.tp / Math.max(1, a.tp + a.fn),
              tnr: a.tn / Math.max(1, a.tn + a.fp),
              threshold: 0.5,
            }}
            words={words}
            name={`${noun} A`}
            id="preview-a"
          />
        </>
      )}
      {q !== undefined && (
        <>
          <p>
            <strong>{q.prompt}</strong>
          </p>
          <ul>
            {q.options
              .filter((o) => o.trim() !== "")
              .map((o) => (
                <li key={o}>{o === q.correct ? `${o} (right)` : o}</li>
              ))}
          </ul>
          <p class="muted">{`After a wrong answer: ${q.explanation}`}</p>
        </>
      )}
      {texts.guessPrompt !== null && (
        <>
          <h3>{L.guessHeading}</h3>
          <p>{texts.guessPrompt}</p>
          <p class="muted">{L.guessHelp}</p>
        </>
      )}
      <h3>Each comparison</h3>
      <p>{words.question}</p>
      {a !== undefined && b !== undefined && <p>{tradeOffLine(a, b, words, ["A", "B"], L)}</p>}
      <p class="muted">{L.elicitationStage}</p>
      <h3>{`${L.debriefHeading} (the debrief, an example)`}</h3>
      <p>
        <strong>{L.debriefResultHeading}</strong>
      </p>
      <p>{`For you, ${words.missed} are between 2 and 3 times as bad as ${words.falseAlarm}.`}</p>
      <p class="muted">{L.debriefRangeNote}</p>
      <p>
        <strong>{L.debriefGuessHeading}</strong>
      </p>
      <p>{L.debriefGuessInside}</p>
      <p>{`${L.completionCode} ABC123`}</p>
      <p class="muted">{L.debriefClose}</p>
    </section>
  );
}
