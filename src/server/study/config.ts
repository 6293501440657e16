import type { BinarySpec } from "../../elicit/binary/spec.ts";

/** The study's own words for classes and outcomes (see docs/web-api.md). */
export interface StudyWords {
  readonly positive: string;
  readonly negative: string;
  readonly predictedPositive: string;
  readonly predictedNegative: string;
  readonly missed: string;
  readonly falseAlarm: string;
  readonly question: string;
  readonly systemNoun: string;
}

/** A questionnaire or post-task field. */
export interface Field {
  readonly id: string;
  readonly label: string;
  readonly kind: "single" | "text" | "number";
  readonly options?: readonly string[];
  readonly required: boolean;
}

/** A fixed system of Phase I, as counts out of 100. */
export interface FixedSystem {
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
  readonly tn: number;
}

export interface ComprehensionQuestion {
  readonly id: string;
  readonly prompt: string;
  readonly options: readonly string[];
  readonly correct: string;
  /** Shown after a wrong answer (explains how to read the chart). */
  readonly explanation: string;
}

/** Where the candidate classifiers come from. */
export type StudySource =
  | {
      readonly kind: "dataset";
      readonly file: string;
      readonly sha256: string;
      readonly target: string;
      readonly positive: string;
      readonly dropColumns: readonly string[];
      readonly splitSeed: number;
    }
  | {
      readonly kind: "predictions";
      readonly csv: string;
      readonly positive?: string;
    };

/**
 * Everything that defines a study. Frozen at creation: its SHA-256 (of the canonical JSON) is
 * stored with the study and with every answer.
 */
export interface StudyConfig {
  readonly version: 1;
  readonly title: string;
  readonly template: "cancer-diagnosis" | null;
  readonly source: StudySource;
  readonly pool: "labelled" | "soft";
  readonly spec: BinarySpec;
  readonly words: StudyWords;
  readonly consentText: string;
  readonly questionnaire: readonly Field[];
  readonly story: {
    readonly paragraphs: readonly string[];
    readonly costs: { readonly missed: string; readonly falseAlarm: string };
  };
  readonly comprehension: {
    readonly systems: readonly [FixedSystem, FixedSystem];
    readonly questions: readonly ComprehensionQuestion[];
    readonly maxAttempts: number;
  };
  /** G3: the participant's own cost-ratio guess; null skips the page. */
  readonly guessPrompt: string | null;
  readonly evaluationPairs: number;
  readonly post: readonly Field[];
}

/** JSON with object keys sorted, so equal configurations hash equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
