// What each study kind tells the report (as server/kinds/ does for the server and
// web/src/kinds/ for the browser): how it names what was elicited, states a participant's
// result and the consensus, and which figures its plots show. The report's sections ask the
// kind (registry.ts) and never branch on it.

import type { Consensus } from "../../server/api-schemas.ts";
import type { ExportParticipant, StudyExport } from "../schema.ts";

/** Everything a kind needs besides the participant: the export and the names it uses. */
export interface ReportContext {
  readonly exp: StudyExport;
  /** The class names in the study's order (consensus or study data; generic when unknown). */
  readonly classes: readonly string[];
  /** A fairness study's group names in order (generic when unknown); empty for other kinds. */
  readonly groups: readonly string[];
}

/** A number axis: its ends, its label and how its values print. */
export interface Axis {
  readonly min: number;
  readonly max: number;
  readonly label: string;
  readonly format: (x: number) => string;
}

/** One participant's figure on a panel: the value stated and the range the answers leave. */
export interface FigurePoint {
  readonly participant: ExportParticipant;
  readonly value: number;
  readonly low: number;
  readonly high: number;
}

/**
 * One plot of the participants' results: a figure (a binary study's weight on true positives,
 * a class's weight per case, lambda) per participant, and the consensus mean with its spread
 * (sd) when the consensus states one.
 */
export interface FigurePanel {
  readonly title: string;
  readonly axis: Axis;
  readonly consensus: { readonly mean: number; readonly sd: number | null } | null;
  readonly points: readonly FigurePoint[];
}

/** A bar of the recommended classifier's plot: a share right (0..1) with its label. */
export interface Bar {
  readonly label: string;
  readonly value: number;
  /** Bars of one group (a fairness study's group) are drawn together under this heading. */
  readonly group?: string;
}

/** A study kind as the report shows it. */
export interface ReportKind {
  /** What the kind is, in the create form's words. */
  label: string;
  /** What a participant's result is (the family's metric), one sentence. */
  elicits(ctx: ReportContext): string;
  /** A participant's result in the participants table, as the dashboard states it. */
  metricText(p: ExportParticipant, ctx: ReportContext): string;
  /**
   * A column of its own for the range of a participant's result (a binary study's cost
   * ratios); absent when `metricText` states the range.
   */
  range?: { heading: string; text(p: ExportParticipant, ctx: ReportContext): string };
  /** What the participant's debrief said of their result (the server's own sentences). */
  debrief(p: ExportParticipant, ctx: ReportContext): string | null;
  /** The plots of the participants' results (one per figure). */
  panels(ctx: ReportContext, finished: readonly ExportParticipant[]): FigurePanel[];
  /** The consensus's figures in lines of text (the dashboard's wording). */
  consensusLines(c: Consensus, ctx: ReportContext): string[];
  /**
   * The recommended classifier (`consensus.best`) in words and as bars of its shares right;
   * null when the kind's consensus recommends none.
   */
  best(c: Consensus, ctx: ReportContext): { lines: string[]; bars: Bar[] } | null;
}
