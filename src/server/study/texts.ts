import { z } from "zod";
import { kindRules, type StudyKind } from "../kinds/catalogue.ts";
import type { StudyConfig } from "./config.ts";
import { builtInTextsLeft, type TextsToCheck } from "./general-texts.ts";
import { type PageLabels, PageLabelsInput, PageLabelsSchema, pageLabels } from "./page-labels.ts";
import { placeholderAdvice, placeholderLeft, tokensAt } from "./placeholders.ts";
import { CANCER_DATA_FILE, cancerDiagnosisConfig, phase1QuestionTemplates } from "./template.ts";

/**
 * A study's own words beyond the class names (issue 11 item 3): every text a participant
 * reads, as a create request may give it. Whatever is left out keeps the built-in "Cancer
 * diagnosis" study's text (the configured defaults, `defaultStudyTexts()`).
 */

export { PLACEHOLDER } from "./placeholders.ts";

/**
 * The message of a text over its length limit, a plain sentence for the create form (zod's
 * own, "Too big: expected string to have <=200 characters", reads as a validator's).
 * @example atMostChars(200) // "at most 200 characters"
 */
export function atMostChars(max: number): string {
  return `at most ${max} characters`;
}

const text = (max: number) =>
  z.string().trim().min(1, "must not be empty").max(max, atMostChars(max));

/** A questionnaire or post-task field as a researcher writes it. */
export const FieldInput = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, "an id is a letter then letters, digits or _"),
    label: text(1000),
    kind: z.enum(["single", "text", "number"]),
    options: z.array(text(200)).min(2).max(20).optional(),
    required: z.boolean(),
  })
  .superRefine((f, ctx) => {
    if (f.kind === "single" && f.options === undefined)
      ctx.addIssue({ code: "custom", path: ["options"], message: "a single choice needs options" });
    if (f.kind !== "single" && f.options !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["options"],
        message: "options apply only to a single choice",
      });
    if (f.options && new Set(f.options).size !== f.options.length)
      ctx.addIssue({ code: "custom", path: ["options"], message: "options must differ" });
  });

const uniqueIds = (fields: readonly { id: string }[], ctx: z.RefinementCtx) => {
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    if (seen.has(f.id))
      ctx.addIssue({ code: "custom", path: [i, "id"], message: `id "${f.id}" appears twice` });
    seen.add(f.id);
  });
};

/** A Phase I comprehension question: the right answer must be one of the options. */
export const ComprehensionInput = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, "an id is letters, digits, - or _"),
    prompt: text(2000),
    options: z.array(text(500)).min(2).max(8),
    correct: text(500),
    explanation: text(2000),
  })
  .superRefine((q, ctx) => {
    if (!q.options.includes(q.correct))
      ctx.addIssue({
        code: "custom",
        path: ["correct"],
        message: "the correct answer must be one of the options",
      });
    if (new Set(q.options).size !== q.options.length)
      ctx.addIssue({ code: "custom", path: ["options"], message: "options must differ" });
  });

/** A fixed system of Part 1: whole counts. */
const count = z.number().int("a count is a whole number").min(0).max(1_000_000);
export const FixedSystemInput = z.object({ tp: count, fn: count, fp: count, tn: count }).strict();

/** Every participant-facing text a create request may set (all optional). */
export const StudyTexts = z
  .object({
    /** Shown at the top of every page (the study's name otherwise). */
    title: text(200).optional(),
    story: z
      .object({
        paragraphs: z.array(text(4000)).min(1).max(12),
        /** A binary study's two mistakes; left out, the study's own stay. */
        costs: z.object({ missed: text(2000), falseAlarm: text(2000) }).optional(),
      })
      .optional(),
    comprehension: z
      .array(ComprehensionInput)
      .max(12)
      .superRefine((qs, ctx) => uniqueIds(qs, ctx))
      .optional(),
    /**
     * Part 1's two fixed systems as whole counts, each showing the study's class totals
     * (tp + fn positives, fp + tn negatives, as its pool is shown). Absent: the built-in
     * systems' rates carried to those totals. The questions may quote them as tokens
     * (`{A.fn}`, `{B.tpr}`, `{positives}`: comprehension-systems.ts).
     */
    comprehensionSystems: z.tuple([FixedSystemInput, FixedSystemInput]).optional(),
    /** The cost-ratio guess page's question; null leaves the page out. */
    guessPrompt: text(2000).nullable().optional(),
    questionnaire: z
      .array(FieldInput)
      .max(40)
      .superRefine((fs, ctx) => uniqueIds(fs, ctx))
      .optional(),
    post: z
      .array(FieldInput)
      .max(40)
      .superRefine((fs, ctx) => uniqueIds(fs, ctx))
      .optional(),
    /** Headings, button labels and the debrief's sentences (any subset; the rest default). */
    labels: PageLabelsInput.optional(),
  })
  .strict();
export type StudyTexts = z.infer<typeof StudyTexts>;

/** Every participant-facing text of a study, as the create form edits them. */
export interface AllStudyTexts {
  readonly title: string;
  readonly words: StudyConfig["words"];
  readonly consentText: string;
  readonly story: StudyConfig["story"];
  readonly comprehension: StudyConfig["comprehension"]["questions"];
  readonly guessPrompt: string | null;
  readonly questionnaire: StudyConfig["questionnaire"];
  readonly post: StudyConfig["post"];
  readonly labels: PageLabels;
}

/** A configuration that may carry its own page labels (absent: the defaults). */
type WithLabels = StudyConfig & { readonly labels?: Partial<PageLabels> };

/**
 * A study's page labels: its own where it set them, the built-in wording elsewhere.
 * @example labelsOf(cancerDiagnosisConfig()).storyHeading // "The task"
 */
export function labelsOf(c: StudyConfig): PageLabels {
  return pageLabels((c as WithLabels).labels);
}

/**
 * The built-in study's texts: what a new study says unless its create request says otherwise
 * (`GET /api/study-defaults` serves them to the create form).
 * @example defaultStudyTexts().words.missed // "missed cancers"
 */
export function defaultStudyTexts(): AllStudyTexts {
  const c = cancerDiagnosisConfig();
  return {
    title: c.title,
    words: c.words,
    consentText: c.consentText,
    story: c.story,
    // The numbers as tokens, so the form's default holds for any pool's class totals.
    comprehension: phase1QuestionTemplates(),
    guessPrompt: c.guessPrompt,
    questionnaire: c.questionnaire,
    post: c.post,
    labels: labelsOf(c),
  };
}

/**
 * Whether a binary study's data are the built-in study's (the bundled breast-cancer data),
 * for which the built-in texts and their numbers were written.
 */
export function hasBuiltInData(c: StudyConfig): boolean {
  // Only a bundled file has this name (an upload is stored under UPLOADED_DATASET).
  return "file" in c.source && c.source.file === CANCER_DATA_FILE;
}

/** The texts of a configuration that `builtInTextsLeft` compares. */
function configTexts(c: StudyConfig): TextsToCheck {
  return {
    words: c.words,
    consentText: c.consentText,
    story: c.story,
    comprehension: c.comprehension.questions,
    guessPrompt: c.guessPrompt,
    post: c.post,
  };
}

/**
 * What of a binary study's texts is still the built-in breast-cancer study's own when its data
 * are not that study's (issue 27 defect 1): such a study is never created, opened or run.
 * Multiclass and fairness studies never start from those texts (empty).
 * @example builtInTextsOf(uploadedStudyWithBuiltInStory) // ["the story"]
 */
export function builtInTextsOf(c: StudyConfig): string[] {
  if ((c.kind ?? "binary") !== "binary" || hasBuiltInData(c)) return [];
  return builtInTextsLeft(configTexts(c), defaultStudyTexts());
}

/**
 * A configuration with a request's texts in place of the defaults (fields left out stay).
 * @example withTexts(config, { guessPrompt: null }).guessPrompt // null
 */
export function withTexts(config: StudyConfig, texts: StudyTexts | undefined): StudyConfig {
  if (texts === undefined) return config;
  return {
    ...config,
    ...(texts.title !== undefined ? { title: texts.title } : {}),
    ...(texts.story !== undefined
      ? {
          story: {
            paragraphs: texts.story.paragraphs,
            costs: texts.story.costs ?? config.story.costs,
          },
        }
      : {}),
    ...(texts.comprehension !== undefined
      ? { comprehension: { ...config.comprehension, questions: texts.comprehension } }
      : {}),
    ...(texts.guessPrompt !== undefined ? { guessPrompt: texts.guessPrompt } : {}),
    ...(texts.questionnaire !== undefined ? { questionnaire: texts.questionnaire } : {}),
    ...(texts.post !== undefined ? { post: texts.post } : {}),
    ...(texts.labels !== undefined
      ? { labels: { ...(config as WithLabels).labels, ...texts.labels } }
      : {}),
  } as StudyConfig;
}

/**
 * Where placeholders are left in a value: the path of every string holding a `PLACEHOLDER`
 * mark or a `{word}` nothing fills in at that path (`tokensAt`), with what was found.
 * @example placeholderPaths({ story: { paragraphs: ["Of {population}"] } }) // [{ path: ["story", "paragraphs", 0], found: "{population}" }]
 */
export function placeholderPaths(
  value: unknown,
  path: (string | number)[] = [],
): { path: (string | number)[]; found: string }[] {
  if (typeof value === "string") {
    const found = placeholderLeft(value, tokensAt(path));
    return found === null ? [] : [{ path, found }];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => placeholderPaths(v, [...path, i]));
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => placeholderPaths(v, [...path, k]));
  return [];
}

/** The texts a participant reads in a configuration (for the placeholder check). */
export function participantTexts(c: StudyConfig): unknown {
  return {
    title: c.title,
    words: c.words,
    consentText: c.consentText,
    story: c.story,
    comprehension: c.comprehension.questions,
    guessPrompt: c.guessPrompt,
    questionnaire: c.questionnaire,
    post: c.post,
    labels: labelsOf(c),
  };
}

/** The parts of a create request `refineCreateSourceAndTexts` checks. */
interface CreateSourceAndTexts {
  readonly name: string;
  readonly kind?: StudyKind;
  readonly template?: "cancer-diagnosis";
  readonly predictionsCsv?: string;
  readonly datasetCsv?: string;
  readonly target?: string;
  readonly dropColumns?: readonly string[];
  readonly words?: Record<string, string | undefined>;
  readonly consentText?: string;
  readonly texts?: StudyTexts;
}

/**
 * The create request's checks on where the data come from and on its texts (part of the
 * `CreateStudyBody` schema): one source at most; `target` with a dataset CSV only; no
 * placeholder left in any text a participant would read (a study that still has one cannot
 * be created, so it can never go live).
 * @example CreateStudyBody.safeParse({ name: "x", texts: { guessPrompt: "[[ask]]" } }).success // false
 */
export function refineCreateSourceAndTexts(body: CreateSourceAndTexts, ctx: z.RefinementCtx): void {
  const sources = (["template", "predictionsCsv", "datasetCsv"] as const).filter(
    (k) => body[k] !== undefined,
  );
  if (sources.length > 1)
    ctx.addIssue({
      code: "custom",
      path: [sources[1]!],
      message: `give one source of data, not ${sources.join(" and ")}`,
    });
  if (!kindRules(body).costStory) {
    if (body.datasetCsv !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["datasetCsv"],
        message: `a ${body.kind} study is made from a bundled dataset, not an upload`,
      });
    // Their pages have no cost story or guess, and their comprehension check is made from
    // their own pool (its questions quote its charts): refuse, not ignore.
    const binaryOnly: [string, unknown][] = [
      ["comprehension", body.texts?.comprehension],
      ["comprehensionSystems", body.texts?.comprehensionSystems],
      ["guessPrompt", body.texts?.guessPrompt],
    ];
    for (const [key, v] of binaryOnly)
      if (v !== undefined)
        ctx.addIssue({
          code: "custom",
          path: ["texts", key],
          message: `${key} applies to binary studies; a ${body.kind} study has no guess page, and its comprehension check is made from its own data`,
        });
    if (body.texts?.story?.costs !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["texts", "story", "costs"],
        message: `the two costs apply to binary studies; a ${body.kind} study's story is its paragraphs`,
      });
  }
  if (body.datasetCsv !== undefined && body.target === undefined)
    ctx.addIssue({
      code: "custom",
      path: ["target"],
      message: "name the label column of the dataset CSV (target)",
    });
  for (const key of ["target", "dropColumns"] as const) {
    if (body[key] !== undefined && body.datasetCsv === undefined)
      ctx.addIssue({
        code: "custom",
        path: [key],
        message: `${key} applies only to a dataset CSV (datasetCsv)`,
      });
  }
  const texts = {
    name: body.name,
    words: body.words ?? {},
    consentText: body.consentText ?? "",
    texts: body.texts ?? {},
  };
  for (const { path, found } of placeholderPaths(texts)) {
    const at = path.slice(path[0] === "texts" ? 1 : 0);
    ctx.addIssue({
      code: "custom",
      path: path[0] === "texts" ? ["texts", ...at] : path,
      message: `a placeholder is left in ${at.join(".")}: ${placeholderAdvice(found)}`,
    });
  }
}

/** `GET /api/study-defaults`: the texts a new study starts from (the built-in study's). */
export const StudyDefaultsReply = z.object({
  /** What a multiclass or fairness study says unless its create request says otherwise. */
  kindTexts: z.object({
    consentText: z.string(),
    questionnaire: z.array(FieldInput),
    post: z.array(FieldInput),
  }),
  /** The two fixed systems the comprehension questions ask about (counts out of 100). */
  comprehensionSystems: z.array(
    z.object({ tp: z.number(), fn: z.number(), fp: z.number(), tn: z.number() }),
  ),
  texts: z.object({
    title: z.string(),
    words: z.record(z.string(), z.string()),
    consentText: z.string(),
    story: z.object({
      paragraphs: z.array(z.string()),
      costs: z.object({ missed: z.string(), falseAlarm: z.string() }),
    }),
    comprehension: z.array(ComprehensionInput),
    guessPrompt: z.string().nullable(),
    questionnaire: z.array(FieldInput),
    post: z.array(FieldInput),
    labels: PageLabelsSchema,
  }),
});
