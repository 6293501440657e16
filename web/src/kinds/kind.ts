// The interface every study kind implements in the web app, written once. The create form
// (researcher/CreateStudy.tsx), the draft form (researcher/draft-form.ts) and the participant
// pages (participant/ParticipantApp.tsx) dispatch through `webKindOf` (registry.ts) and never
// branch on the kind themselves: adding a kind is a folder under kinds/ and a registry line.

import type { ComponentChildren, FunctionComponent } from "preact";
import type { CreateStudyBody, Field, ParticipantRow, ParticipantState } from "../api/types.ts";
import type { FormFields, FormKindFamily, FormSource } from "../researcher/draft-form.ts";
import type { EditableTexts, StudyDefaults } from "../researcher/StudyTextsEditor.tsx";

/** A study kind's id as a create request names it ("binary" when a request names none). */
export type StudyKindId = NonNullable<CreateStudyBody["kind"]>;

/**
 * The create form's state: every field of `FormFields`, the texts still null while the
 * defaults load.
 */
export type CreateForm = Omit<FormFields, "texts" | "kindQuestionnaire" | "kindPost"> & {
  texts: EditableTexts | null;
  kindQuestionnaire: Field[] | null;
  kindPost: Field[] | null;
};

/** A change to the create form: the fields to set, or a function of the form giving them. */
export type FormPatch = Partial<CreateForm> | ((form: CreateForm) => Partial<CreateForm>);

/** A column of the chosen CSV with its distinct values (at most 50), read in the browser. */
export interface CsvColumn {
  name: string;
  values: string[];
}

/** What a kind's parts of the create form get from the form. */
export interface CreateSectionProps {
  form: CreateForm;
  update: (patch: FormPatch) => void;
  /** GET /api/study-defaults (null until it has loaded). */
  defaults: StudyDefaults | null;
  /** The chosen CSV's columns (none until a file is read, or when the kind reads none). */
  columns: CsvColumn[];
  /** Reads the file chosen in a file input into `form.csv`. */
  onFile: (e: Event) => void;
  /** Why the chosen file was not taken (too large, empty), or null. */
  fileError: string | null;
  /** Forgets the chosen file (another source was picked). */
  clearFile: () => void;
  setError: (error: string | null) => void;
}

/** A family the create form offers, with the tolerance and budget a new study starts from. */
export interface FamilyChoice {
  id: FormKindFamily;
  /** The radio button's text. */
  text: string;
  tolerance: string;
  budget: string;
}

/** The create form's part of a kind. */
export interface CreateKind {
  /** The families the form offers, the default first (none: the form asks for no family). */
  families: readonly FamilyChoice[];
  /** Whether the form reads the chosen CSV's columns (for its label and group pickers). */
  readsColumns(form: CreateForm): boolean;
  /** The consent text the form starts from (undefined while the defaults load). */
  startConsent(defaults: StudyDefaults | null): string | undefined;
  /** The consent text the server gives a request of this kind that sets none. */
  serverConsent(source: FormSource, defaults: StudyDefaults): string;
  /** The request fields and `texts` entries the form edits (a draft keeps all others). */
  managed: {
    fields: readonly (keyof CreateStudyBody)[];
    texts: readonly string[];
  };
  /**
   * The kind's fields before the consent text: its data, words and procedure. Render
   * functions, not components, so that kinds drawn by the same component (multiclass, fair)
   * keep its elements when the kind picked changes, as one component did before.
   */
  dataSection(p: CreateSectionProps): ComponentChildren;
  /** The kind's texts after the consent text (with their notices). */
  textsSection(p: CreateSectionProps): ComponentChildren;
  /**
   * The create request for the form, or why it cannot be sent (the first problem, as the
   * form says it). The study's name is checked before.
   */
  request(
    form: CreateForm,
    ctx: { defaults: StudyDefaults | null; fileError: string | null },
  ): { body: CreateStudyBody } | { error: string };
}

/**
 * What a participant's phase page takes: the state, whether a request is under way, and how
 * to send one.
 */
export interface PageProps {
  state: ParticipantState;
  busy: boolean;
  post: (path: string, body: unknown) => Promise<unknown>;
}

/** The participant pages' part of a kind. */
export interface ParticipantKind {
  /**
   * Whether a state carries this kind's own payload (its question, pair, systems or
   * debrief): how a state that does not name its kind is told apart.
   */
  carries(state: ParticipantState): boolean;
  /** Under the story's paragraphs (binary: what each mistake means); none when undefined. */
  StoryAside?: FunctionComponent<{ state: ParticipantState }>;
  /** Part 1's systems above the question; `noun` is the capitalised system noun. */
  ComprehensionSystems: FunctionComponent<{ state: ParticipantState; noun: string }>;
  /**
   * Phase II's comparison page. Render functions, not components, so that Phase III's page is
   * the same view element as Phase II's: moving on keeps the focus and the view's state.
   */
  elicitation(p: PageProps): ComponentChildren;
  /** Phase III's comparison page. */
  evaluation(p: PageProps): ComponentChildren;
  /** The last page: the result, the agreement and the completion code. */
  Debrief: FunctionComponent<{ state: ParticipantState }>;
}

/** The dashboard's part of a kind: the axis its participants' metrics are plotted on. */
export interface DashboardKind {
  /**
   * "tp-weight": the weight on true positives (binary); "lambda": the trade-off lambda
   * (fair); null: the metric does not fit one axis (the table and the consensus show it).
   */
  axis: "tp-weight" | "lambda" | null;
  /** A participant row's elicited metric in the participants table, as its debrief states it. */
  metricText(row: ParticipantRow): string;
}

/**
 * One kind of study as the web app shows it; `Id` its id.
 * @example webKindOf("fair").label // "Fairness: how much accuracy to give up ..."
 */
export interface WebStudyKind<Id extends StudyKindId = StudyKindId> {
  id: Id;
  /** Its text in the create form's kind picker. */
  label: string;
  create: CreateKind;
  participant: ParticipantKind;
  dashboard: DashboardKind;
}
