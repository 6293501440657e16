// Types of the HTTP contract (docs/web-api.md), derived from the server's zod schemas so the
// two cannot drift. Type-only imports: nothing of the server reaches the browser bundle.
import type { z } from "zod";
import type * as S from "../../../src/server/api-schemas.ts";

export type Phase = z.infer<typeof S.Phase>;
/** The study's own words for classes and outcomes ("had cancer", "missed cancers"). */
export type StudyWords = z.infer<typeof S.StudyWords>;
/** One system (classifier) as counts out of 100 and class-conditional rates. */
export type SystemView = z.infer<typeof S.SystemView>;
export type Comparison = z.infer<typeof S.Comparison>;
/** A multiclass system: 100 cases of every true class, where it put them, the share right. */
export type MulticlassView = z.infer<typeof S.MulticlassView>;
export type MulticlassComparison = z.infer<typeof S.MulticlassComparison>;
/** A fairness system: every group's correct counts of 100 per true class, overall, gaps. */
export type FairView = z.infer<typeof S.FairView>;
export type FairComparison = z.infer<typeof S.FairComparison>;
export type Field = z.infer<typeof S.Field>;
export type Choice = z.infer<typeof S.AnswerBody>["choice"];
export type ParticipantState = z.infer<typeof S.ParticipantState>;
export type ComprehensionResult = z.infer<typeof S.ComprehensionReply>;
export type Researcher = z.infer<typeof S.ResearcherReply>["researcher"];
export type StudySummary = z.infer<typeof S.StudySummary>;
export type ParticipantRow = z.infer<typeof S.ParticipantRow>;
export type CreateStudyBody = z.input<typeof S.CreateStudyBody>;
