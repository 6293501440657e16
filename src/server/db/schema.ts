import type { Generated, Kysely } from "kysely";

/**
 * The tables of the web app. Times are ISO-8601 strings (portable between SQLite and
 * PostgreSQL), booleans are 0/1 integers and structured values are JSON text.
 */
export interface SettingsTable {
  key: string;
  value: string;
}

export interface ResearchersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  created_at: string;
}

/** Researcher cookie sessions; `id` is the SHA-256 of the secret session token. */
export interface SessionsTable {
  id: string;
  researcher_id: number;
  created_at: string;
  expires_at: string;
}

export type StudyStatus = "draft" | "pilot" | "live";

export interface StudiesTable {
  id: Generated<number>;
  name: string;
  owner_id: number | null;
  status: StudyStatus;
  /** The frozen configuration (JSON) and the SHA-256 of its canonical form. */
  config: string;
  config_hash: string;
  created_at: string;
  opened_at: string | null;
  /**
   * A draft's create request (JSON, as POST or PUT /api/studies took it), for editing the
   * draft in the create form; null once the study is opened (and for drafts made before).
   */
  draft_request: string | null;
}

export type ParticipantStatus = "invited" | "started" | "done" | "withdrawn";

export interface ParticipantsTable {
  id: Generated<number>;
  study_id: number;
  /** SHA-256 of the link token; the token itself is never stored. */
  token_hash: string;
  status: ParticipantStatus;
  seed: number;
  test: number;
  /** Invited while the study was in pilot mode. */
  pilot: Generated<number>;
  created_at: string;
  started_at: string | null;
  consented_at: string | null;
  questionnaire_at: string | null;
  story_at: string | null;
  comprehension_at: string | null;
  guess_at: string | null;
  post_at: string | null;
  finished_at: string | null;
  withdrawn_at: string | null;
  completion_code: string | null;
  /** Answers and undos stored so far (each adds one): the answer log's version. */
  log_version: Generated<number>;
}

/**
 * The append-only answer log of Phases II and III. Undo sets `undone_at` (a soft marker);
 * rows are never deleted. `revision` counts earlier rows at the same (phase, index), so a
 * double submit collides on the unique key instead of being stored twice.
 */
export interface AnswersTable {
  id: Generated<number>;
  participant_id: number;
  phase: "elicitation" | "evaluation";
  question_index: number;
  revision: number;
  stage: string;
  first_point: string;
  second_point: string;
  /** "first-left": the procedure's first point was shown on the left. */
  placement: "first-left" | "first-right";
  choice: "left" | "right" | "same";
  answer: "first" | "second" | "tie";
  config_hash: string;
  shown_at: string;
  answered_at: string;
  undone_at: string | null;
}

/** Questionnaire and post-task (free-text) answers. */
export interface ResponsesTable {
  id: Generated<number>;
  participant_id: number;
  form: "questionnaire" | "post";
  field_id: string;
  value: string;
  created_at: string;
}

export interface ComprehensionTable {
  id: Generated<number>;
  participant_id: number;
  question_id: string;
  attempt: number;
  answer: string;
  correct: number;
  created_at: string;
}

export interface GuessesTable {
  participant_id: number;
  ratio: number | null;
  created_at: string;
}

export interface Database {
  settings: SettingsTable;
  researchers: ResearchersTable;
  sessions: SessionsTable;
  studies: StudiesTable;
  participants: ParticipantsTable;
  answers: AnswersTable;
  responses: ResponsesTable;
  comprehension: ComprehensionTable;
  guesses: GuessesTable;
}

export type Db = Kysely<Database>;
export type DbKind = "sqlite" | "postgres";
