// Types of the HTTP contract in docs/web-api.md (the server is authoritative).

export type Phase =
  | "consent"
  | "questionnaire"
  | "story"
  | "comprehension"
  | "guess"
  | "elicitation"
  | "evaluation"
  | "post"
  | "debrief"
  | "withdrawn";

/** The study's own words for classes and outcomes ("had cancer", "missed cancers"). */
export interface StudyWords {
  positive: string;
  negative: string;
  predictedPositive: string;
  predictedNegative: string;
  missed: string;
  falseAlarm: string;
  question: string;
  systemNoun: string;
}

/** One system (classifier) as counts out of 100 and class-conditional rates. */
export interface SystemView {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  tpr: number;
  tnr: number;
  threshold: number;
}

export interface Comparison {
  id: number;
  left: SystemView;
  right: SystemView;
}

export interface Field {
  id: string;
  label: string;
  kind: "single" | "text" | "number";
  options?: string[];
  required: boolean;
}

export type Choice = "left" | "right" | "same";

export interface ParticipantState {
  phase: Phase;
  study: { title: string; words: StudyWords };
  consent?: { text: string };
  questionnaire?: { fields: Field[] };
  story?: { paragraphs: string[]; costs: { missed: string; falseAlarm: string } };
  comprehension?: {
    question: { id: string; prompt: string; options: string[] };
    index: number;
    total: number;
    systems?: [SystemView, SystemView];
    attemptsLeft: number;
  };
  guess?: { prompt: string };
  elicitation?: {
    question: Comparison;
    /** `atMost`: adaptive studies, the most questions there can be in all. */
    progress: { answered: number; estimatedRemaining: number; atMost?: number };
    canUndo: boolean;
  };
  evaluation?: { question: Comparison; progress: { answered: number; total: number } };
  post?: { fields: Field[] };
  debrief?: {
    summary: string;
    metric: { a0: number } | { tp: number; tn: number };
    ratio: number | null;
    agreement: number | null;
    completionCode: string;
  };
  duplicate?: boolean;
}

export interface ComprehensionResult {
  correct: boolean;
  feedback: string;
  state: ParticipantState;
}

export interface Researcher {
  id: string | number;
  email: string;
}

/** The contract leaves StudySummary open; these are the fields the UI reads when present. */
export interface StudySummary {
  id: string | number;
  name?: string;
  title?: string;
  status?: string;
  mode?: string;
  createdAt?: string;
  participants?: number;
  [key: string]: unknown;
}

export interface ParticipantRow {
  id: string | number;
  status: string;
  startedAt: string | null;
  finishedAt: string | null;
  metric: unknown;
  guess: number | null;
  agreement: number | null;
  seconds: number | null;
  test: boolean;
}

export interface CreateStudyBody {
  name: string;
  template?: "cancer-diagnosis";
  predictionsCsv?: string;
  positive?: string;
  words?: Partial<StudyWords>;
  tolerance?: number;
  strategy?: "paper" | "lazy" | "bisect" | "adaptive";
  /** adaptive only: most questions (5..100, default 30). */
  budget?: number;
  /** adaptive only: credibility of the credible region (0.5..0.99, default 0.9). */
  credibility?: number;
  evaluationPairs?: number;
  consentText?: string;
}
