// The create request of a kind of several classes: its data (a bundled dataset or an uploaded
// CSV) with the kind's own fields, then the family, tolerance, budget and texts every such
// request carries, with the form's checks before sending (the server makes them too).

import { placeholderLeft } from "../../../../src/server/study/placeholders.ts";
import type { CreateStudyBody, Field } from "../../api/types.ts";
import { noFileChosen } from "../../researcher/csv-file.ts";
import { fieldPlaceholders } from "../../researcher/StudyTextsEditor.tsx";
import type { CreateKind } from "../kind.ts";
import type { ClassKindSpec } from "./class-kind.ts";

/** The request fields and texts the create form edits for a kind of several classes. */
export const CLASS_KIND_MANAGED: CreateKind["managed"] = {
  fields: [
    "name",
    "kind",
    "dataset",
    "predictionsCsv",
    "datasetCsv",
    "target",
    "classes",
    "groups",
    "dropColumns",
    "family",
    "tolerance",
    "budget",
    "consentText",
  ],
  texts: ["title", "story", "questionnaire", "post"],
};

/**
 * The request builder of a kind of several classes (the study uses the adaptive strategy).
 * @example classKindRequest(multiclassSpec)({ ...form, kindSource: "bundled", bundled: "iris" }, ctx) // { body: { name, kind: "multiclass", dataset: "iris", tolerance: 0.05, budget: 25, ... } }
 */
export function classKindRequest(spec: ClassKindSpec): CreateKind["request"] {
  return (form, ctx) => {
    const data = dataFields(spec, form, ctx.fileError);
    return "error" in data ? data : withCommonFields(spec, form, ctx.defaults, data);
  };
}

/** The request's name, kind and data, with the kind's own fields; or the first problem. */
function dataFields(
  spec: ClassKindSpec,
  form: Parameters<CreateKind["request"]>[0],
  fileError: string | null,
): CreateStudyBody | { error: string } {
  const head = { name: form.name.trim(), kind: spec.id };
  if (form.kindSource === "bundled") {
    if (form.bundled === "") return { error: "Please choose a bundled dataset." };
    const extras = spec.extras(form, "bundled");
    if ("error" in extras) return extras;
    return { ...head, dataset: form.bundled as NonNullable<CreateStudyBody["dataset"]>, ...extras };
  }
  const predictions = form.kindSource === "predictions";
  const { csv } = form;
  if (csv === null)
    return { error: noFileChosen(fileError, predictions ? "predictions" : "dataset") };
  if (!predictions && form.target === "")
    return { error: "Please choose the label column of the dataset." };
  const extras = spec.extras(form, form.kindSource);
  if ("error" in extras) return extras;
  const body: CreateStudyBody = predictions
    ? { ...head, predictionsCsv: csv.text, ...extras }
    : { ...head, datasetCsv: csv.text, target: form.target, ...extras };
  const drop = form.dropColumns
    .split(",")
    .map((c) => c.trim())
    .filter((c) => c !== "");
  if (!predictions && drop.length > 0) body.dropColumns = drop;
  return body;
}

/** The family, tolerance, budget, consent and texts every request of these kinds carries. */
function withCommonFields(
  spec: ClassKindSpec,
  form: Parameters<CreateKind["request"]>[0],
  defaults: Parameters<CreateKind["request"]>[1]["defaults"],
  body: CreateStudyBody,
): { body: CreateStudyBody } | { error: string } {
  const { kindFamily, tolerance, kindBudget, consent, kindTitle, kindQuestionnaire, kindPost } =
    form;
  // A kind's default family is the server's default too: only another one is named.
  if (kindFamily !== spec.families[0]?.id) body.family = kindFamily;
  if (tolerance.trim() !== "") {
    const tol = Number(tolerance);
    if (!Number.isFinite(tol) || tol <= 0 || tol >= 0.5)
      return { error: "Tolerance must be a number between 0 and 0.5." };
    body.tolerance = tol;
  }
  if (kindBudget.trim() !== "") {
    const b = Number(kindBudget);
    if (!Number.isInteger(b) || b < 5 || b > 100)
      return { error: "The question budget must be a whole number from 5 to 100." };
    body.budget = b;
  }
  if (consent.trim() !== "") body.consentText = consent;
  const paragraphs = form.kindStory
    .split(/\n\s*\n/)
    .map((x) => x.trim())
    .filter((x) => x !== "");
  // The same check as the binary form's and the server's: nothing of this kind's texts is
  // filled in, so a [[...]] mark or a {word} left in one would reach participants as typed.
  const left = [
    ...(placeholderLeft(kindTitle) !== null ? ["title"] : []),
    ...(placeholderLeft(consent) !== null ? ["consent text"] : []),
    ...paragraphs.flatMap((p, i) =>
      placeholderLeft(p) !== null ? [`story paragraph ${i + 1}`] : [],
    ),
    ...fieldPlaceholders("questionnaire", kindQuestionnaire ?? []),
    ...fieldPlaceholders("post-task question", kindPost ?? []),
  ];
  if (left.length > 0)
    return {
      error: `Placeholders are left in: ${left.join(", ")}. Write the study’s own text there.`,
    };
  // Only what the researcher changed goes in the request (the rest is the kind's default).
  const changed = (mine: Field[] | null, built: Field[] | undefined): mine is Field[] =>
    mine !== null && JSON.stringify(mine) !== JSON.stringify(built);
  const questionnaire = changed(kindQuestionnaire, defaults?.kindTexts?.questionnaire);
  const post = changed(kindPost, defaults?.kindTexts?.post);
  if (kindTitle.trim() !== "" || paragraphs.length > 0 || questionnaire || post)
    body.texts = {
      ...(kindTitle.trim() !== "" ? { title: kindTitle.trim() } : {}),
      ...(paragraphs.length > 0 ? { story: { paragraphs } } : {}),
      ...(questionnaire ? { questionnaire: kindQuestionnaire! } : {}),
      ...(post ? { post: kindPost! } : {}),
    };
  return { body };
}
