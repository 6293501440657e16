// What a kind asked about several classes (multiclass, fair; later quadratic) says of itself
// so that the create form's shared parts (DataFields.tsx, KindTexts.tsx, request.ts) can be
// written once: its data's texts, bundled datasets, families and its own fields and checks.

import type { FunctionComponent } from "preact";
import type { CreateStudyBody } from "../../api/types.ts";
import type { FormKindFamily, FormKindSource } from "../../researcher/draft-form.ts";
import type { CreateForm, CreateSectionProps, FamilyChoice, StudyKindId } from "../kind.ts";

/** A dataset bundled with the server, as the form's select offers it. */
export interface BundledDataset {
  name: NonNullable<CreateStudyBody["dataset"]>;
  /** The option's text. */
  text: string;
  /** A fairness dataset's group columns. */
  groups?: readonly string[];
}

/** How a kind of several classes fills in the create form's shared data fields. */
export interface ClassKindSpec {
  id: StudyKindId;
  /** The data fieldset's legend. */
  legend: string;
  /** What a predictions CSV has besides `label` and the `p_<class>` columns (e.g. ", a group column"). */
  predictionsExtra: string;
  bundled: readonly BundledDataset[];
  families: readonly FamilyChoice[];
  /** The tolerance field's label for the family chosen. */
  toleranceLabel(family: FormKindFamily): string;
  /** The kind's own fields in the data grid, after the label column (fair: the group column). */
  GridFields?: FunctionComponent<CreateSectionProps>;
  /** The kind's own fields after the grid (multiclass: the classes to keep). */
  AfterGrid?: FunctionComponent<CreateSectionProps>;
  /**
   * The kind's own request fields for data from `source`, after the shared checks (the file,
   * the label column), or why they cannot be sent.
   */
  extras(form: CreateForm, source: FormKindSource): Partial<CreateStudyBody> | { error: string };
}
