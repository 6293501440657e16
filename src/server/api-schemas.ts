import { z } from "zod";
import { inWords } from "../words.ts";
import {
  BUNDLED_DATASETS,
  KIND_FAMILIES,
  KIND_RULES,
  kindRules,
  STUDY_KINDS,
} from "./kinds/catalogue.ts";
import { WORD_MAX_CHARS } from "./study/general-texts.ts";
import { PageLabelsSchema } from "./study/page-labels.ts";
import { atMostChars, refineCreateSourceAndTexts, StudyTexts } from "./study/texts.ts";

/**
 * The zod schemas of docs/web-api.md: request bodies are validated with them and responses
 * serialised through them; `/openapi.json` is generated from them.
 */

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export const Phase = z.enum([
  "consent",
  "questionnaire",
  "story",
  "comprehension",
  "guess",
  "elicitation",
  "evaluation",
  "post",
  "debrief",
  "withdrawn",
]);
export type Phase = z.infer<typeof Phase>;

export const StudyWords = z.object({
  positive: z.string(),
  negative: z.string(),
  predictedPositive: z.string(),
  predictedNegative: z.string(),
  missed: z.string(),
  falseAlarm: z.string(),
  question: z.string(),
  systemNoun: z.string(),
  /** What the people counted are called, plural ("patients", the default when absent). */
  people: z.string().optional(),
});

/**
 * A create request's words: any of them, each within its limit (`WORD_MAX_CHARS`), refused
 * with a plain "at most N characters". Stored studies' words are read back without limits.
 */
export const StudyWordsInput = z.object(
  Object.fromEntries(
    Object.entries(WORD_MAX_CHARS).map(([k, max]) => [
      k,
      z.string().max(max, atMostChars(max)).optional(),
    ]),
  ) as { [K in keyof typeof WORD_MAX_CHARS]: z.ZodOptional<z.ZodString> },
);

export const Field = z.object({
  id: z.string(),
  label: z.string(),
  kind: z.enum(["single", "text", "number"]),
  options: z.array(z.string()).optional(),
  required: z.boolean(),
});

export const SystemView = z.object({
  tp: z.number(),
  fp: z.number(),
  fn: z.number(),
  tn: z.number(),
  tpr: z.number(),
  tnr: z.number(),
  threshold: z.number(),
});
export type SystemView = z.infer<typeof SystemView>;

export const Comparison = z.object({ id: z.number().int(), left: SystemView, right: SystemView });
export type Comparison = z.infer<typeof Comparison>;

/**
 * A multiclass system as shown: `counts[i][j]` people of true class i (out of 100 in every
 * row, whole people) predicted as class j; `rates[i]` = `counts[i][i] / 100`.
 */
export const MulticlassView = z.object({
  counts: z.array(z.array(z.number().int())),
  rates: z.array(z.number()),
});
export type MulticlassView = z.infer<typeof MulticlassView>;

/** A multiclass question: two systems over the study's classes (in order). */
export const MulticlassComparison = z.object({
  kind: z.literal("multiclass"),
  id: z.number().int(),
  classes: z.array(z.string()),
  left: MulticlassView,
  right: MulticlassView,
});
export type MulticlassComparison = z.infer<typeof MulticlassComparison>;

/**
 * A system of a fairness study as shown: `counts[g][i]` people of group g and true class i
 * (out of 100, whole people) it gets right; `overall[i]` the percentage right of everyone of
 * class i (the groups weighted by their share of the class, from the counts, one decimal);
 * `gaps[i]` the largest difference between two groups' counts in class i.
 */
export const FairView = z.object({
  counts: z.array(z.array(z.number().int())),
  overall: z.array(z.number()),
  gaps: z.array(z.number().int()),
});
export type FairView = z.infer<typeof FairView>;

/** A fairness question: two systems over the study's groups and classes (in order). */
export const FairComparison = z.object({
  kind: z.literal("fair"),
  id: z.number().int(),
  classes: z.array(z.string()),
  groups: z.array(z.string()),
  left: FairView,
  right: FairView,
});
export type FairComparison = z.infer<typeof FairComparison>;

export const Metric = z.union([
  z.object({ a0: z.number() }),
  z.object({ tp: z.number(), tn: z.number() }),
  /** Multiclass diagonal-linear: one weight per class on its correct count, summing to 1. */
  z.object({ weights: z.array(z.number()) }),
  /**
   * Fairness, the whole metric (fair-quadratic; before the lambda-only record, which would
   * strip a and B): lambda with its range, the costs `a` per class and the violation weights
   * `B` per group pair ("0-1"), in normalizeFair's normalisation (|a| = 1, half the sum of B's
   * Frobenius norms 1).
   */
  z.object({
    lambda: z.number(),
    low: z.number(),
    high: z.number(),
    a: z.array(z.number()),
    B: z.record(z.string(), z.array(z.array(z.number()))),
  }),
  /** Fairness: the trade-off lambda and the range its credible region leaves (2 decimals). */
  z.object({ lambda: z.number(), low: z.number(), high: z.number() }),
]);

/**
 * Agreement M between the elicited metric and the participant's own Phase III answers, both
 * ways: `all` over every pair, `undecided` over the pairs the participant's result range does
 * not decide in advance (some metric of the range prefers each system); "about the same"
 * answers are counted (`ties`, `undecidedTies`) and left out of both shares.
 */
export const AgreementDetail = z.object({
  all: z.number().nullable(),
  undecided: z.number().nullable(),
  pairs: z.number().int(),
  ties: z.number().int(),
  undecidedPairs: z.number().int(),
  undecidedTies: z.number().int(),
  metricTies: z.number().int(),
});

/**
 * How consistently a participant answered (issue 26; participant/consistency.ts): the share of
 * Phase III answers against their own result with its 90% interval, the Phase II pairs shown
 * again and how many got the same answer, and whether a coin could have done as well.
 */
export const ConsistencySchema = z.object({
  /** `phase-three`: counted answers and repeats; `answer-model`: the learned lapse (multiclass, fairness). */
  basis: z.enum(["phase-three", "answer-model"]),
  counted: z.number().int(),
  /**
   * What `against` counts against: the result, or in a binary study the metric of the range
   * the Phase II answers allow that explains the most answers (absent: the result).
   */
  versus: z.enum(["result", "range"]).optional(),
  against: z.number().int(),
  errorRate: z.number().nullable(),
  errorLow: z.number().nullable(),
  errorHigh: z.number().nullable(),
  retestPairs: z.number().int(),
  retestSame: z.number().int(),
  coinP: z.number().nullable(),
  coinLike: z.boolean(),
  /**
   * Told from a coin's answers at 0.05 but not at 0.01 (`NEAR_COIN_LEVEL`): marked on the
   * dashboard, kept in the consensus (absent from exports made before it).
   */
  nearCoin: z.boolean().optional(),
  /**
   * The side the learned answer model finds the participant leaning to on close pairs (null:
   * none; absent from exports made before it).
   */
  leansTo: z.enum(["left", "right"]).nullable().optional(),
});

/**
 * A study kind's own figures beyond the shared ones, by name (a quadratic study's imbalance
 * cost), with the sentence that states them: the same on the debrief, the dashboard, study.json
 * and participants.csv (the kind's columns).
 */
export const KindFigures = z.object({
  values: z.record(z.string(), z.number()),
  text: z.string(),
  /** The same figures in a few words, for the dashboard's table. */
  short: z.string(),
});

export type KindFigures = z.infer<typeof KindFigures>;

export const ParticipantState = z.object({
  phase: Phase,
  study: z.object({
    title: z.string(),
    words: StudyWords,
    /** Multiclass and fairness studies only (absent: binary): no cost story. */
    kind: z.enum(["multiclass", "fair"]).optional(),
    /** false when the study has no Phase III (no evaluation pairs); absent otherwise. */
    phaseThree: z.literal(false).optional(),
    /** The pages' headings, buttons and fixed sentences in the study's own words (issue 11). */
    labels: PageLabelsSchema.optional(),
  }),
  consent: z.object({ text: z.string() }).optional(),
  questionnaire: z.object({ fields: z.array(Field) }).optional(),
  story: z
    .object({
      paragraphs: z.array(z.string()),
      costs: z.object({ missed: z.string(), falseAlarm: z.string() }),
    })
    .optional(),
  comprehension: z
    .object({
      question: z.object({ id: z.string(), prompt: z.string(), options: z.array(z.string()) }),
      index: z.number().int(),
      total: z.number().int(),
      systems: z.tuple([SystemView, SystemView]).optional(),
      /**
       * Multiclass and fairness studies: the two systems the questions are about, drawn as
       * the study's comparison pages draw them (instead of `systems`).
       */
      kindSystems: z
        .union([
          z.object({
            kind: z.literal("multiclass"),
            classes: z.array(z.string()),
            left: MulticlassView,
            right: MulticlassView,
          }),
          z.object({
            kind: z.literal("fair"),
            classes: z.array(z.string()),
            groups: z.array(z.string()),
            left: FairView,
            right: FairView,
          }),
        ])
        .optional(),
      attemptsLeft: z.number().int(),
    })
    .optional(),
  guess: z.object({ prompt: z.string() }).optional(),
  elicitation: z
    .object({
      question: Comparison,
      progress: z.object({
        answered: z.number().int(),
        /**
         * Questions left, the one shown included: adaptive, what the budget leaves (an upper
         * bound); the papers' searches, an estimate that can fall short or run over.
         */
        estimatedRemaining: z.number().int(),
        /** Adaptive studies: the most questions there can be in all (the study's budget). */
        atMost: z.number().int().optional(),
        /** The papers' searches: the share of the search done (halvings completed / needed). */
        searchDone: z.number().min(0).max(1).optional(),
        /** The papers' searches: a true upper bound of the questions left, the one shown included. */
        remainingAtMost: z.number().int().optional(),
      }),
      canUndo: z.boolean(),
    })
    .optional(),
  evaluation: z
    .object({
      question: Comparison,
      progress: z.object({ answered: z.number().int(), total: z.number().int() }),
    })
    .optional(),
  post: z.object({ fields: z.array(Field) }).optional(),
  debrief: z
    .object({
      summary: z.string(),
      metric: Metric,
      ratio: z.number().nullable(),
      /**
       * The cost ratios (missed positive / false alarm) of every metric that gives the Phase II
       * answers (the fewest contradicted, if any are), rounded outward as printed; `high` null
       * when unbounded. `summary` states it in words.
       */
      range: z.object({ low: z.number(), high: z.number().nullable() }),
      /** The participant's own guess of the ratio before the comparisons (null: skipped). */
      guess: z.number().nullable(),
      /** M over all Phase III pairs ("about the same" left out): `agreementDetail.all`. */
      agreement: z.number().nullable(),
      agreementDetail: AgreementDetail,
      /** Binary studies: how consistently the participant answered (with the repeats). */
      consistency: ConsistencySchema.optional(),
      completionCode: z.string(),
    })
    .optional(),
  /**
   * Multiclass studies' Phase II (instead of `elicitation`, whose views are binary): the
   * pending question, answered with the same `answer` and `undo` requests.
   */
  multiclassElicitation: z
    .object({
      question: MulticlassComparison,
      progress: z.object({
        answered: z.number().int(),
        estimatedRemaining: z.number().int(),
        atMost: z.number().int(),
      }),
      canUndo: z.boolean(),
    })
    .optional()
    .describe("multiclass studies' pending question: two systems as counts of 100 per true class"),
  /**
   * Multiclass studies' Phase III (instead of `evaluation`): the pending evaluation pair,
   * answered with the same `evaluation` request.
   */
  multiclassEvaluation: z
    .object({
      question: MulticlassComparison,
      progress: z.object({ answered: z.number().int(), total: z.number().int() }),
    })
    .optional()
    .describe("multiclass studies' pending Phase III pair"),
  /** Multiclass studies' debrief (instead of `debrief`, whose cost ratio is binary). */
  multiclassDebrief: z
    .object({
      /** In words: the mistake the participant minds most, and least. */
      summary: z.string(),
      /** The elicited diagonal-linear weights (on the joint confusions), summing to 1. */
      metric: z.object({ weights: z.array(z.number()) }),
      /**
       * The participant's consistency: from Phase III (its pairs and repeats) when the study
       * has one, else from the learned answer model (null: a fixed model, no Phase III).
       */
      consistency: ConsistencySchema.nullable().optional(),
      /** Studies with Phase III: M over all pairs ("about the same" left out). */
      agreement: z.number().nullable().optional(),
      /** Studies with Phase III: M both ways with the "about the same" counts. */
      agreementDetail: AgreementDetail.optional(),
      /**
       * Per class, the credible half-width of its weight (the metric's measure) where the
       * answers did not pin it down to the study's tolerance, else null; the export's
       * summary.adaptive.unidentified names the same weights.
       */
      halfWidths: z.array(z.number().nullable()),
      classes: z.array(z.string()),
      /**
       * The weights per shown rate (a person of each class predicted right), summing to 1;
       * linear studies: each true class's share of the cost of its people's mistakes.
       */
      classWeights: z.array(z.number()),
      /**
       * Per class, the range of `classWeights` over the belief the answers left (its
       * credibility, 0.9 by default); always holds the weight.
       */
      classRanges: z.array(z.object({ low: z.number(), high: z.number() })).optional(),
      /** A kind's own figures (`KindFigures`), as the summary states them. */
      kindFigures: KindFigures.optional(),
      /**
       * Linear studies: every kind of mistake (a true `from` taken for `to`), its share of the
       * per-person cost (the shares sum to 1) and, where the answers did not pin its weight
       * down, the weight's credible half-width (the metric's measure).
       */
      mistakes: z
        .array(
          z.object({
            from: z.string(),
            to: z.string(),
            share: z.number(),
            halfWidth: z.number().nullable(),
          }),
        )
        .optional(),
      completionCode: z.string(),
    })
    .optional(),
  /**
   * Fairness studies' Phase II (instead of `elicitation`): the pending question, answered
   * with the same `answer` and `undo` requests.
   */
  fairElicitation: z
    .object({
      question: FairComparison,
      progress: z.object({
        answered: z.number().int(),
        estimatedRemaining: z.number().int(),
        atMost: z.number().int(),
      }),
      canUndo: z.boolean(),
    })
    .optional()
    .describe(
      "fair studies' pending question: two systems as every group's correct counts of 100 per true class, everyone's share right and the gaps between groups",
    ),
  /**
   * Fairness studies' Phase III (instead of `evaluation`): the pending evaluation pair,
   * answered with the same `evaluation` request.
   */
  fairEvaluation: z
    .object({
      question: FairComparison,
      progress: z.object({ answered: z.number().int(), total: z.number().int() }),
    })
    .optional()
    .describe("fair studies' pending Phase III pair"),
  /** Fairness studies' debrief: the trade-off lambda as a range, in words. */
  fairDebrief: z
    .object({
      summary: z.string(),
      /** lambda (unrounded) and the range [low, high] the answers leave (2 decimals, outward). */
      metric: z.object({ lambda: z.number(), low: z.number(), high: z.number() }),
      groups: z.array(z.string()),
      classes: z.array(z.string()),
      /** Correct decisions in 100 (every class) worth closing a 10-point gap of groups 1-2. */
      gapWorth: z.number().nullable(),
      /**
       * The participant's consistency: from Phase III (its pairs and repeats) when the study
       * has one, else from the learned answer model (null: a fixed model, no Phase III).
       */
      consistency: ConsistencySchema.nullable().optional(),
      /** Studies with Phase III: M over all pairs ("about the same" left out). */
      agreement: z.number().nullable().optional(),
      /** Studies with Phase III: M both ways with the "about the same" counts. */
      agreementDetail: AgreementDetail.optional(),
      /**
       * fair-quadratic studies: the elicited costs per class and gap weights per group pair,
       * and the coordinates the answers left open (credible half-width above the tolerance;
       * names a1.., B12_11.., lambda).
       */
      full: z
        .object({
          a: z.array(z.number()),
          B: z.record(z.string(), z.array(z.array(z.number()))),
          unidentified: z.array(z.object({ name: z.string(), halfWidth: z.number() })),
        })
        .optional(),
      completionCode: z.string(),
    })
    .optional()
    .describe(
      "fair studies' debrief: lambda, the range the answers leave, in words; fair-quadratic studies also the costs per class and the gap weights, with what the answers left open",
    ),
  /** Set when a submission was stale or repeated and stored nothing. */
  duplicate: z.boolean().optional(),
});
export type ParticipantState = z.infer<typeof ParticipantState>;

export const TokenParams = z.object({ token: z.string().min(1).max(200) });
/** Row ids are 32-bit integers in both databases (PostgreSQL `integer`): larger ids do not exist. */
export const MAX_ID = 2_147_483_647;
export const IdParams = z.object({ id: z.coerce.number().int().positive().max(MAX_ID) });

export const Choice = z.enum(["left", "right", "same"]);
export const AnswerBody = z.object({ questionId: z.number().int().min(0), choice: Choice });
export const UndoBody = z.object({ questionId: z.number().int().min(0) });
export const ConsentBody = z.object({ agree: z.boolean() });
export const FormBody = z.object({
  answers: z.record(z.string().max(100), z.string().max(10_000)),
});
export const ComprehensionBody = z.object({
  questionId: z.string().max(100),
  answer: z.string().max(1000),
});
export const ComprehensionReply = z.object({
  correct: z.boolean(),
  feedback: z.string(),
  state: ParticipantState,
});
export const GuessBody = z.object({ ratio: z.number().positive().max(1e6).nullable() });

export const LoginBody = z.object({
  email: z.string().min(3).max(320),
  password: z.string().min(1).max(1000),
});
export const Researcher = z.object({ id: z.number().int(), email: z.string() });
export const ResearcherReply = z.object({ researcher: Researcher });

export const StudySummary = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(["draft", "pilot", "live"]),
  template: z.string().nullable(),
  /** The study's kind (binary for studies from before kinds). */
  kind: z.enum(STUDY_KINDS),
  family: z.string(),
  tolerance: z.number(),
  strategy: z.string(),
  /** Adaptive studies: the most Phase II questions. */
  budget: z.number().int().optional(),
  /** Adaptive studies: the credibility of the reported credible region. */
  credibility: z.number().optional(),
  evaluationPairs: z.number().int(),
  configHash: z.string(),
  createdAt: z.string(),
  openedAt: z.string().nullable(),
  /** Number of participants (test runs included). */
  participants: z.number().int(),
  /** Participants by status, test runs excluded; `testRuns` counts those (any status). */
  counts: z.object({
    invited: z.number().int(),
    started: z.number().int(),
    done: z.number().int(),
    withdrawn: z.number().int(),
    testRuns: z.number().int(),
  }),
  /** Where the candidate classifiers come from, e.g. "breast_cancer_wisconsin_original.csv". */
  data: z.string(),
  words: StudyWords,
});
export type StudySummary = z.infer<typeof StudySummary>;

/** Upper bound of an uploaded predictions CSV. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

/**
 * A create request's checks that hold whatever its kind: a field that applies to some kinds
 * only is refused with the others, and a kind's family is one of its own, and only there.
 */
function kindChecks(body: CreateStudyBody): [boolean, string, string][] {
  const kind = body.kind ?? "binary";
  const fieldOwners = new Map<string, string[]>();
  for (const k of STUDY_KINDS)
    for (const f of KIND_RULES[k].fields) fieldOwners.set(f, [...(fieldOwners.get(f) ?? []), k]);
  const foreign = [...fieldOwners].map(([field, owners]): [boolean, string, string] => [
    !owners.includes(kind) && body[field as keyof CreateStudyBody] !== undefined,
    field,
    `${field} applies only to ${inWords(owners)} studies`,
  ]);
  const family = body.family;
  const families = STUDY_KINDS.flatMap((k): [boolean, string, string][] => {
    const f: { list: readonly string[]; refusal?: string; needs?: string } = KIND_RULES[k].families;
    if (f.refusal === undefined || f.needs === undefined) return [];
    const own = f.list.includes(family ?? "");
    return [
      [k === kind && family !== undefined && !own, "family", f.refusal],
      [k !== kind && own, "family", `${family} needs ${f.needs}`],
    ];
  });
  return [...foreign, ...families];
}

export const CreateStudyBody = z
  .object({
    // The create form shows these messages as they are: plain sentences, not zod's own.
    name: z.string().trim().min(1, "must not be empty").max(200, atMostChars(200)),
    template: z.literal("cancer-diagnosis").optional(),
    /**
     * A predictions CSV (the user's own model): binary `label,probability`; multiclass and fair
     * `label` and one `p_<class>` column per class, fair also the group column named by `groups`.
     */
    predictionsCsv: z
      .string()
      .max(MAX_UPLOAD_BYTES, "the predictions CSV is larger than 5 MB")
      .optional()
      .describe(
        "a predictions CSV, the user's own model: binary studies label,probability; multiclass and fair studies label and one p_<class> column per class (rows summing to 1), fair studies also the group column named by groups",
      ),
    positive: z.string().max(200, atMostChars(200)).optional(),
    words: StudyWordsInput.optional(),
    /**
     * binary (default), multiclass (k = 3..6, a bundled dataset, diagonal-linear) or fair
     * (the accuracy-fairness trade-off lambda on a bundled dataset with a group column).
     */
    kind: z
      .enum(STUDY_KINDS)
      .optional()
      .describe(STUDY_KINDS.map((k) => KIND_RULES[k].describe).join("; ")),
    dataset: z.enum(BUNDLED_DATASETS).optional(),
    /** multiclass only: keep the rows of these classes of the dataset (3 to 6 of them). */
    classes: z
      .array(z.string().min(1, "must not be empty").max(200, atMostChars(200)))
      .min(3)
      .max(6)
      .optional(),
    /**
     * fair only: the group column (arrests: colour (default), sex; titanic: sex,
     * passengerClass; a dataset CSV: required, any column with at least two values).
     */
    groups: z.string().max(200, atMostChars(200)).optional(),
    /**
     * What is elicited: binary-threshold (default) or binary-linear (binary), diagonal-linear
     * (multiclass, default) or linear (multiclass: a cost per kind of mistake), fair-lambda (fair, default: lambda with equal costs and gap weights) or
     * fair-quadratic (fair: the whole metric, default 30 questions and tolerance 0.1).
     */
    family: z
      .enum(KIND_FAMILIES)
      .optional()
      .describe(`${STUDY_KINDS.map((k) => KIND_RULES[k].families.describe).join("; ")}`),
    tolerance: z.number().positive().max(0.5).optional(),
    /**
     * The adaptive engine (default, issue 26: it asks about the counts as shown) or the
     * papers' searches (paper, lazy, bisect), which assume exact answers on unrounded rates.
     */
    strategy: z
      .enum(["paper", "lazy", "bisect", "adaptive"])
      .optional()
      .describe(
        "adaptive (default): the engine asks about the counts as shown; paper, lazy, bisect: the papers' searches, which compute on unrounded rates and assume exact answers",
      ),
    /** adaptive only: the most Phase II questions (default 30). */
    budget: z.number().int().min(5).max(100).optional(),
    /** adaptive only: credibility of the reported credible region (default 0.9). */
    credibility: z.number().min(0.5).max(0.99).optional(),
    /** Phase III's random pairs (default: binary 15, multiclass and fair 15; 0: no Phase III). */
    evaluationPairs: z
      .number()
      .int()
      .min(0)
      .max(100)
      .optional()
      .describe(
        "Phase III: random trade-offs asked after the elicitation to measure how well the elicited metric predicts the person's own choices (agreement M) and how consistently they answer (0..100, default 15; 0: no Phase III)",
      ),
    /** adaptive studies: Phase II pairs shown again in Phase III (default 2). */
    retestPairs: z
      .number()
      .int()
      .min(0)
      .max(3)
      .optional()
      .describe(
        "studies with the adaptive strategy (every multiclass and fair study): how many of the participant's own Phase II pairs Phase III shows again (test-retest; 0..3, default 2)",
      ),
    /** People the charts show counts out of (default 100): whole people, fixed class totals. */
    population: z.number().int().min(20).max(10_000).optional(),
    consentText: z.string().max(20_000, atMostChars(20_000)).optional(),
    /** A dataset CSV (features and a label column): the server fits the model as `elicit fit`. */
    datasetCsv: z.string().max(MAX_UPLOAD_BYTES, "the dataset CSV is larger than 5 MB").optional(),
    /**
     * datasetCsv only: the label column (multiclass: 3 to 6 classes, or more with `classes`),
     * and columns to leave out of the features.
     */
    target: z.string().trim().min(1, "must not be empty").max(200, atMostChars(200)).optional(),
    dropColumns: z
      .array(z.string().max(200, atMostChars(200)))
      .max(1000, "at most 1000 columns")
      .optional(),
    /** Every participant-facing text beyond `words` (study/texts.ts); the template's otherwise. */
    texts: StudyTexts.optional(),
  })
  .superRefine((body, ctx) => {
    const kind = kindRules(body);
    // A kind made from an uploaded dataset CSV checks it itself (label and group columns);
    // the shared checks see the rest of the request.
    refineCreateSourceAndTexts(
      kind.ownUpload
        ? { ...body, datasetCsv: undefined, target: undefined, dropColumns: undefined }
        : body,
      ctx,
    );
    const checks = [...kind.checks(body), ...kindChecks(body)];
    for (const [bad, key, message] of checks) {
      if (bad) ctx.addIssue({ code: "custom", path: [key], message });
    }
    // Options of the adaptive engine mean nothing to the searches: refuse rather than drop them.
    for (const key of ["budget", "credibility", "retestPairs"] as const) {
      const adaptive = body.strategy === undefined || body.strategy === "adaptive";
      if (body[key] !== undefined && !adaptive && kind.searches) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `${key} applies only to the adaptive strategy`,
        });
      }
    }
  });
export type CreateStudyBody = z.infer<typeof CreateStudyBody>;

/**
 * A multiclass or fairness study's consensus: the elicited metrics of the participants who
 * finished (test runs and pilot participants left out) aggregated, with their spread (sd is
 * the population standard deviation, dividing by n).
 */
export const Consensus = z.object({
  /** Participants aggregated, and their ids. */
  n: z.number().int(),
  participants: z.array(z.number().int()),
  /**
   * Finished participants whose answers cannot be told apart from a coin's (by Phase III, or
   * in a multiclass or fairness study without one by the learned answer model:
   * `consistency.coinLike`): left out of the consensus unless asked for
   * (`?coinLike=include`, then `coinLikeIncluded`), listed here either way.
   */
  coinLike: z.array(z.number().int()).optional(),
  coinLikeIncluded: z.boolean().optional(),
  /**
   * Binary and fair: the class names in the order of `best.rates` (binary: the negative,
   * then the positive label); multiclass: in `weights.classes`.
   */
  classes: z.array(z.string()).optional(),
  /** Multiclass: per class (in the study's class order) the mean weight and its spread. */
  weights: z
    .object({
      classes: z.array(z.string()),
      mean: z.array(z.number()),
      sd: z.array(z.number()),
      min: z.array(z.number()),
      max: z.array(z.number()),
    })
    .optional(),
  /**
   * Multiclass: the classifier best for the mean weights on the study's pool (predict
   * argmax_i mean_i eta_i(x)): each class's share right (in the class order), its accuracy,
   * and how many of the n participants' own best classifier labels every case the same way.
   */
  best: z
    .object({
      rates: z.array(z.number()),
      accuracy: z.number(),
      agree: z.number().int(),
      /**
       * Binary: the classifier is "positive when P(positive) >= threshold" (rates in the
       * order negative, positive).
       */
      threshold: z.number().optional(),
      /**
       * Fair: each group's share right per class of the group-wise classifiers optimal for
       * the consensus metric (`rates` is everyone's, groups weighted by their share of each
       * class), as whole people of 100 the participants' screens show; `gaps` per class
       * the largest difference between two groups.
       */
      groupRates: z.array(z.array(z.number())).optional(),
      gaps: z.array(z.number()).optional(),
    })
    .optional(),
  /**
   * Binary: the weight on true positives (tp / (tp + tn) of each participant's metric) mean,
   * median and spread: the consensus metric is mean TP + (1 - mean) TN.
   */
  tpWeight: z
    .object({
      mean: z.number(),
      median: z.number(),
      sd: z.number(),
      min: z.number(),
      max: z.number(),
    })
    .optional(),
  /**
   * Fair (fair-quadratic): the consensus whole metric, the participants' costs a, violation
   * weights B and lambda averaged and normalised again (normalizeFair).
   */
  fairMetric: z
    .object({
      a: z.array(z.number()),
      B: z.record(z.string(), z.array(z.array(z.number()))),
      lambda: z.number(),
    })
    .optional(),
  /** Fairness: the trade-off lambda's mean, median and spread. */
  lambda: z
    .object({
      mean: z.number(),
      median: z.number(),
      sd: z.number(),
      min: z.number(),
      max: z.number(),
    })
    .optional(),
});
export type Consensus = z.infer<typeof Consensus>;

export const OpenBody = z.object({ mode: z.enum(["pilot", "live"]) });
export const InvitesBody = z.object({ count: z.number().int().min(1).max(1000) });

/** What the adaptive engine says about its own result (see src/elicit/adaptive/engine.ts). */
export const AdaptiveOutcome = z.object({
  /** Why it stopped: tolerance, decision-sufficient, budget or no-informative-question. */
  stop: z.string(),
  /** Questions asked. */
  questions: z.number().int(),
  /** Every plausible metric lies within `radius` of the elicited one with probability `level`. */
  credible: z.object({ level: z.number(), radius: z.number(), errorName: z.string() }),
  /** Probability that the recommended classifier is the best one for the participant. */
  pOptimal: z.number(),
  /** Answers the belief treats as slips. */
  inconsistent: z.number().int(),
  /** Coordinates left uncertain beyond the tolerance, with their credible half-widths. */
  unidentified: z.array(z.object({ name: z.string(), halfWidth: z.number() })),
  model: z.string(),
});
export type AdaptiveOutcome = z.infer<typeof AdaptiveOutcome>;

export const ParticipantRow = z.object({
  id: z.number().int(),
  status: z.enum(["invited", "started", "done", "withdrawn"]),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  metric: Metric.nullable(),
  ratio: z.number().nullable(),
  guess: z.number().nullable(),
  /**
   * Multiclass studies: per true class, the share of the weight a case of that class carries
   * (the debrief's `classWeights`, summing to 1; participants.csv `class_weight_N`).
   */
  classWeights: z.array(z.number()).optional(),
  /**
   * Multiclass studies: per class, the credible half-width where the answers did not pin its
   * weight down, else null (the debrief's "(uncertain)"; participants.csv
   * `class_weight_N_uncertain`).
   */
  classHalfWidths: z.array(z.number().nullable()).optional(),
  /**
   * Multiclass studies: per class, the range of its weight per case over the belief the
   * answers left (its credibility, 0.9 by default; the debrief's range; participants.csv
   * `class_weight_N_low`, `_high`).
   */
  classRanges: z.array(z.object({ low: z.number(), high: z.number() })).optional(),
  /** A kind's own figures (`KindFigures`), as the participant's debrief states them. */
  kindFigures: KindFigures.optional(),
  /** M over all Phase III pairs ("about the same" left out): `agreementDetail.all`. */
  agreement: z.number().nullable(),
  /** M both ways with the "about the same" counts; null before Phase III is answered. */
  agreementDetail: AgreementDetail.nullable().optional(),
  /**
   * Once Phase III is answered, from its pairs and repeats (`ConsistencySchema`); multiclass
   * and fairness studies without Phase III, from the learned answer model (null: none).
   */
  consistency: ConsistencySchema.nullable().optional(),
  /**
   * Binary studies, once Phase II is done: the debrief's range of cost ratios (missed positive
   * / false alarm, rounded outward as printed; `high` null when unbounded).
   */
  range: z.object({ low: z.number(), high: z.number().nullable() }).nullable().optional(),
  seconds: z.number().nullable(),
  test: z.boolean(),
  /** Invited while the study was in pilot mode (analyse separately). */
  pilot: z.boolean(),
  /** Shown to the participant at the debrief (to check against a recruiting platform). */
  completionCode: z.string().nullable(),
  /** Phase II answers stored so far (live progress). */
  answered: z.number().int(),
  phase: Phase,
  /** Adaptive studies, once Phase II is done: how and how confidently the engine stopped. */
  adaptive: AdaptiveOutcome.nullable().optional(),
});
export type ParticipantRow = z.infer<typeof ParticipantRow>;
