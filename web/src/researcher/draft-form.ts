// Opening a draft in the create form (issue 27 defect 8): the form's fields from the create
// request the draft was made from, and the request saved back with whatever the form does not
// edit kept as it was (nothing a researcher gave is dropped by opening and saving a draft).

import {
  GENERAL_BINARY_WORDS,
  generalBinaryTexts,
} from "../../../src/server/study/general-texts.ts";
import type { PageLabels } from "../../../src/server/study/page-label-defaults.ts";
import type { CreateStudyBody, Field, StudyWords } from "../api/types.ts";
import { defaultFamily, isWebKind, type WebKindId, webKindOf } from "../kinds/registry.ts";
import { type EditableTexts, labelsOfTexts, type StudyDefaults } from "./StudyTextsEditor.tsx";

/** Kinds of study, sources and families as the create form names them. */
export type FormKind = WebKindId;
export type FormSource = "template" | "dataset" | "csv";
export type FormKindSource = "dataset" | "predictions" | "bundled";
export type FormKindFamily = NonNullable<CreateStudyBody["family"]>;

/** Every field of the create form, as it holds them (numbers as typed text). */
export interface FormFields {
  name: string;
  kind: FormKind;
  source: FormSource;
  csv: { name: string; text: string } | null;
  target: string;
  dropColumns: string;
  positive: string;
  words: Partial<StudyWords>;
  tolerance: string;
  strategy: "paper" | "lazy" | "bisect" | "adaptive";
  budget: string;
  credibility: string;
  pairs: string;
  population: string;
  consent: string;
  texts: EditableTexts;
  kindSource: FormKindSource;
  bundled: string;
  classes: string[];
  groups: string;
  kindFamily: FormKindFamily;
  kindBudget: string;
  kindTitle: string;
  kindStory: string;
  kindQuestionnaire: Field[];
  kindPost: Field[];
}

const text = (x: number | undefined) => (x === undefined ? "" : String(x));
const copy = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

/**
 * The create form's fields for a draft's stored create request: what it set, and where it
 * set nothing what the server filled in (the built-in study's texts for its data, general
 * texts in the study's words for uploaded data, each kind's own defaults), so that saving
 * the form unchanged asks for the same study.
 * @example fieldsOfRequest({ name: "Loans", predictionsCsv: csv }, defaults).source // "csv"
 */
export function fieldsOfRequest(r: CreateStudyBody, d: StudyDefaults): FormFields {
  const requested = r.kind ?? "binary";
  // A kind the server knows and this form does not show yet: said rather than half-opened.
  if (!isWebKind(requested))
    throw new Error(`This draft is a ${requested} study, which this form cannot edit yet.`);
  const kind: FormKind = requested;
  const upload = r.datasetCsv ?? r.predictionsCsv;
  const csv =
    upload === undefined
      ? null
      : {
          name: `the draft’s ${r.datasetCsv !== undefined ? "dataset" : "predictions"} CSV`,
          text: upload,
        };
  const source: FormSource =
    r.datasetCsv !== undefined ? "dataset" : r.predictionsCsv !== undefined ? "csv" : "template";
  // What the server starts a binary study's texts from: general ones for uploaded data.
  const words = { ...(source === "template" ? {} : GENERAL_BINARY_WORDS), ...(r.words ?? {}) };
  const general =
    source === "template" ? null : generalBinaryTexts(words as StudyWords, d.texts.post);
  const base: EditableTexts = copy({
    ...d.texts,
    ...(general === null
      ? {}
      : {
          story: general.story,
          comprehension: general.comprehension,
          guessPrompt: general.guessPrompt,
          post: general.post,
        }),
    title: "",
  }) as unknown as EditableTexts;
  const t = r.texts ?? {};
  const texts: EditableTexts = {
    ...base,
    ...copy({
      ...(t.title !== undefined ? { title: t.title } : {}),
      ...(t.story !== undefined
        ? { story: { paragraphs: t.story.paragraphs, costs: t.story.costs ?? base.story.costs } }
        : {}),
      ...(t.comprehension !== undefined ? { comprehension: t.comprehension } : {}),
      ...(t.guessPrompt !== undefined ? { guessPrompt: t.guessPrompt } : {}),
      ...(t.questionnaire !== undefined ? { questionnaire: t.questionnaire } : {}),
      ...(t.post !== undefined ? { post: t.post } : {}),
      ...(t.labels !== undefined
        ? { labels: { ...labelsOfTexts(base), ...t.labels } as PageLabels }
        : {}),
    }),
  };
  const create = webKindOf(kind).create;
  const family = create.families.find((f) => f.id === r.family)?.id;
  return {
    name: r.name,
    kind,
    source,
    csv,
    target: r.target ?? "",
    dropColumns: (r.dropColumns ?? []).join(", "),
    positive: r.positive ?? "",
    words: { ...(r.words ?? {}) },
    tolerance: text(r.tolerance),
    strategy: r.strategy ?? "adaptive",
    budget: text(r.budget),
    credibility: text(r.credibility),
    pairs: text(r.evaluationPairs),
    population: text(r.population),
    consent: r.consentText ?? create.serverConsent(source, d),
    texts,
    kindSource:
      r.dataset !== undefined
        ? "bundled"
        : r.predictionsCsv !== undefined
          ? "predictions"
          : "dataset",
    bundled: r.dataset ?? "",
    classes: [...(r.classes ?? [])],
    groups: r.groups ?? "",
    kindFamily: family ?? defaultFamily(kind),
    kindBudget: text(r.budget),
    kindTitle: t.title ?? "",
    kindStory: (t.story?.paragraphs ?? []).join("\n\n"),
    kindQuestionnaire: copy(t.questionnaire ?? d.kindTexts?.questionnaire ?? []) as Field[],
    kindPost: copy(t.post ?? d.kindTexts?.post ?? []) as Field[],
  };
}

/**
 * The request to save a draft with: the form's `sent` request, and every field of the
 * draft's `stored` request the form does not edit (a binary study's family, its retest pairs,
 * its Part 1 systems; a multiclass study's labels ...) kept as it was. A draft changed to
 * another kind keeps nothing of its old request.
 * @example withUnedited({ name: "a", family: "binary-linear" }, { name: "b" }) // { family: "binary-linear", name: "b" }
 */
export function withUnedited(stored: CreateStudyBody, sent: CreateStudyBody): CreateStudyBody {
  const kindOf = (b: CreateStudyBody) => b.kind ?? "binary";
  if (kindOf(stored) !== kindOf(sent)) return sent;
  const kind = kindOf(sent);
  // The form sends only its own kinds; what it edits of one, the rest of the draft is kept.
  if (!isWebKind(kind)) return sent;
  const managed = webKindOf(kind).create.managed;
  const kept = Object.fromEntries(
    Object.entries(stored).filter(
      ([k]) => !(managed.fields as readonly string[]).includes(k) && k !== "texts",
    ),
  );
  const keptTexts = Object.fromEntries(
    Object.entries(stored.texts ?? {}).filter(([k]) => !managed.texts.includes(k)),
  );
  const texts = { ...keptTexts, ...(sent.texts ?? {}) };
  return {
    ...kept,
    ...sent,
    ...(Object.keys(texts).length > 0 ? { texts } : {}),
  } as CreateStudyBody;
}
