// The interface every study kind implements, written once (as the engine's `AdaptiveFamily`):
// the server's routes, the participant state machine, the results, the consensus and the
// exports dispatch through `studyKindOf` (registry.ts) and never branch on the kind.

import type {
  Consensus,
  CreateStudyBody,
  ParticipantState,
  ParticipantRow as ParticipantSummary,
} from "../api-schemas.ts";
import type { Db } from "../db/schema.ts";
import type {
  AnyPhaseThreePair,
  Context,
  ElicitationState,
  LogRow,
  Position,
} from "../participant/service.ts";
import type { Doc } from "../study/codebook.ts";
import type { StudyConfig, StudyKind } from "../study/config.ts";
import type { StudyData } from "../study/population.ts";
import type { StudyRecords } from "../study/results.ts";

/** Phase II replayed for a participant: the engine's state and what is left of it. */
export interface Replayed {
  readonly state: ElicitationState;
  readonly estimatedRemaining: number;
  /** The most Phase II questions there can be (the budget); null for the papers' searches. */
  readonly atMost: number | null;
  readonly searchDone?: number;
  readonly remainingAtMost?: number;
}

/** The Phase III progress a comparison page shows. */
export interface PairProgress {
  readonly answered: number;
  readonly total: number;
}

/** A participant's elicited figures as the dashboard, the exports and the consensus read them. */
export type KindSummary = Pick<
  ParticipantSummary,
  "metric" | "ratio" | "agreement" | "agreementDetail" | "consistency" | "range"
> &
  Partial<
    Pick<
      ParticipantSummary,
      "adaptive" | "classWeights" | "classHalfWidths" | "classRanges" | "kindFigures"
    >
  > & {
    /** Binary studies with Phase II done: the debrief's range of `a` in `(1 - a) TP + a TN`. */
    readonly rangeA: { lo: number; hi: number } | null;
    /**
     * Adaptive results (issue 29): the engine's draws of its final belief (200), each as a
     * metric in the form of `metric` (a fair draw without the range: `{ lambda }`, or with
     * `a` and `B`); study.json `summary.beliefDraws`, for `elicit score`'s probabilities.
     */
    readonly beliefDraws?: readonly BeliefDraw[];
  };

/** A draw of the engine's final belief, in the form of the kind's `summary.metric`. */
export type BeliefDraw =
  | { a0: number }
  | { tp: number; tn: number }
  | { weights: number[] }
  | { lambda: number; a?: number[]; B?: Record<string, number[][]> };

/** A finished participant's metric, as `participantSummary` gives it. */
export interface FinishedMetric {
  readonly id: number;
  readonly metric: NonNullable<ParticipantSummary["metric"]>;
}

/** A kind's extra columns of the wide CSV (participants.csv): its elicited figures. */
export interface FigureColumns {
  readonly header: string[];
  readonly values: (s: ParticipantSummary) => unknown[];
  /** The codebook's entries of columns the shared codebook does not document. */
  readonly docs?: Readonly<Record<string, Doc>>;
}

/** A create request's check: when `bad`, the request is refused on `field` with `message`. */
export type CreateCheck = readonly [bad: boolean, field: string, message: string];

/**
 * The parts of a create request the kinds' checks read (the `CreateStudyBody` schema is built
 * from the kinds' rules, so they cannot name its type).
 */
export interface CreateRequestFields {
  readonly datasetCsv?: string | undefined;
  readonly predictionsCsv?: string | undefined;
  readonly dataset?: string | undefined;
  readonly classes?: readonly string[] | undefined;
  readonly target?: string | undefined;
  readonly dropColumns?: readonly string[] | undefined;
  readonly groups?: string | undefined;
  readonly strategy?: string | undefined;
  readonly template?: string | undefined;
}

/** What a create request of a kind may hold, and the kind's own checks of it. */
export interface KindCreateRules {
  /** The kind in the API's documentation of `kind`. */
  readonly describe: string;
  /**
   * The families the kind elicits (the first is its default) and their documentation; with
   * `refusal` and `needs`, a family of another kind is refused with this kind's refusal, and
   * this kind's families in another kind's request with what they need.
   */
  readonly families: {
    readonly list: readonly string[];
    readonly describe: string;
    readonly refusal?: string;
    readonly needs?: string;
  };
  /** The bundled datasets a study of the kind can be made from (`dataset`). */
  readonly datasets: readonly string[];
  /** Request fields that apply to this kind; a field some kind lists applies to no other. */
  readonly fields: readonly string[];
  /** Whether the kind checks an uploaded dataset's label and group columns itself. */
  readonly ownUpload: boolean;
  /**
   * Whether its pages tell the binary cost story (the story's costs, the guess page, Part 1
   * questions written by the researcher); otherwise those texts are refused.
   */
  readonly costStory: boolean;
  /** Whether it offers the papers' searches (adaptive-only options refused with them). */
  readonly searches: boolean;
  /** The kind's own checks of a request of its kind. */
  checks(body: CreateRequestFields): CreateCheck[];
}

/**
 * One kind of study. `P` is the kind's shown point (what an answer-log row stores).
 * @example studyKindOf(config).replay(ctx, ["first", "second"]).state.status // "pending"
 */
export interface StudyKindModule<P = unknown> {
  readonly id: StudyKind;
  /** The participant state's `study.kind` (absent for binary, as before kinds existed). */
  readonly tag?: NonNullable<ParticipantState["study"]["kind"]>;
  /** What its create request may hold, and its checks (the create schema's refinement). */
  readonly create: KindCreateRules;
  /** The study's prepared pool, computed once per configuration hash. */
  data(configHash: string, config: StudyConfig): StudyData;
  /** How the dashboard names the study's data (a bundled file, or what was uploaded). */
  dataLabel(config: StudyConfig): string;
  /** A new study's configuration from a create request (the data prepared once, to check). */
  buildConfig(body: CreateStudyBody): { config: StudyConfig; hash: string };
  /** Phase II replayed from the participant's effective answers. */
  replay(ctx: Context, answers: readonly LogRow["answer"][]): Replayed;
  /** Phase III's questions once Phase II is done (random pairs and repeats). */
  phaseThree(ctx: Context, elicitationRows: readonly LogRow[]): AnyPhaseThreePair[];
  /** A shown point as the answer log stores it, and back. */
  pointJson(p: P): string;
  storedPoint(json: string): P;
  /** Part 1's two systems as the comprehension page shows them. */
  comprehensionSystems(
    ctx: Context,
  ): Pick<NonNullable<ParticipantState["comprehension"]>, "systems" | "kindSystems">;
  /** The pending Phase II question's part of the participant state. */
  elicitationState(
    ctx: Context,
    pos: Position,
    question: { index: number; first: P; second: P; left?: "first" | "second" },
  ): Partial<ParticipantState>;
  /** Phase III question `index`'s part of the participant state. */
  evaluationState(
    ctx: Context,
    index: number,
    pair: { first: P; second: P },
    progress: PairProgress,
  ): Partial<ParticipantState>;
  /** The debrief's part of the participant state (Phase II done). */
  debriefState(db: Db, ctx: Context, pos: Position): Promise<Partial<ParticipantState>>;
  /** The participant's elicited figures for the dashboard and the exports. */
  summary(ctx: Context, pos: Position): KindSummary;
  /** The consensus of the finished participants' metrics (null: none). */
  consensus(rec: StudyRecords, finished: readonly FinishedMetric[]): Consensus | null;
  /** The tidy long export (answers.csv): one row per stored answer. */
  answersCsv(rec: StudyRecords): string;
  /** The kind's elicited-figure columns of participants.csv. */
  figureColumns(rec: StudyRecords): FigureColumns;
  /**
   * The study's class names in the order its metrics use (binary: the negative, then the
   * positive class) and, for fairness studies, its groups in the order of B's keys: study.json
   * `classes` and `groups`.
   */
  labels(rec: StudyRecords): { classes: string[]; groups?: string[] };
}
