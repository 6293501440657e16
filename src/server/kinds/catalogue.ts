// What every study kind's create request may hold (each kind's rules.ts), for the API's
// schemas: light on purpose (no engine, no database), so the schemas can be built from it when
// they load. The kinds' modules are in registry.ts; a kind is a line in each.

import { binaryRules } from "./binary/rules.ts";
import { fairRules } from "./fair/rules.ts";
import type { KindCreateRules } from "./kind.ts";
import { multiclassRules } from "./multiclass/rules.ts";
import { quadraticRules } from "./quadratic/rules.ts";

/** Every kind's create rules by its id, in the order the API documents them. */
export const KIND_RULES = {
  binary: binaryRules,
  multiclass: multiclassRules,
  fair: fairRules,
  quadratic: quadraticRules,
} as const satisfies Record<string, KindCreateRules>;

/** A kind of study: binary (the default, absent in stored configurations), or another. */
export type StudyKind = keyof typeof KIND_RULES;

type Rules = (typeof KIND_RULES)[StudyKind];

/** Every kind's id. @example STUDY_KINDS[0] // "binary" */
export const STUDY_KINDS = Object.keys(KIND_RULES) as [StudyKind, ...StudyKind[]];

/** A family some kind elicits. */
export type KindFamily = Rules["families"]["list"][number];

/** Every kind's families, in the kinds' order. */
export const KIND_FAMILIES = STUDY_KINDS.flatMap((k) => KIND_RULES[k].families.list) as unknown as [
  KindFamily,
  ...KindFamily[],
];

/** A bundled dataset some kind can be made from. */
export type BundledDataset = Rules["datasets"][number];

/** Every kind's bundled datasets. */
export const BUNDLED_DATASETS = [
  ...new Set(STUDY_KINDS.flatMap((k) => KIND_RULES[k].datasets as readonly string[])),
] as [BundledDataset, ...BundledDataset[]];

/**
 * A kind's create rules: binary when the kind is absent.
 * @example kindRules({}).costStory // true
 */
export function kindRules(of: { readonly kind?: StudyKind | undefined }): KindCreateRules {
  return KIND_RULES[of.kind ?? "binary"];
}
