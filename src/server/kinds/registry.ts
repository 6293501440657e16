// Every study kind's module, by its id. Adding a kind is a folder under kinds/, its module
// here and its create rules in catalogue.ts (the type below makes the two lists agree).

import { binaryKind } from "./binary/index.ts";
import type { StudyKind } from "./catalogue.ts";
import { fairKind } from "./fair/index.ts";
import type { StudyKindModule } from "./kind.ts";
import { multiclassKind } from "./multiclass/index.ts";
import { quadraticKind } from "./quadratic/index.ts";

// Built on first use: the kind modules import the participant service, which imports this
// registry, so nothing here may run while the modules are still loading.
let kinds: Record<StudyKind, StudyKindModule> | null = null;

function registry(): Record<StudyKind, StudyKindModule> {
  kinds ??= {
    binary: binaryKind as StudyKindModule,
    multiclass: multiclassKind as StudyKindModule,
    fair: fairKind as StudyKindModule,
    quadratic: quadraticKind as StudyKindModule,
  };
  return kinds;
}

/**
 * The kind module of a study (its configuration or a create request): binary when the kind
 * is absent, as in every configuration stored before kinds.
 * @example studyKindOf({ kind: "fair" }).id // "fair"
 */
export function studyKindOf(of: { readonly kind?: StudyKind | undefined }): StudyKindModule {
  return registry()[of.kind ?? "binary"];
}
