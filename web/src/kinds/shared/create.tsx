// The create form's part of a kind of several classes, built from what the kind says of
// itself (ClassKindSpec): the shared data fields and texts, the request, the consent texts.

import type { CreateKind } from "../kind.ts";
import type { ClassKindSpec } from "./class-kind.ts";
import { ClassKindDataFields } from "./DataFields.tsx";
import { KindTextsSection, kindStartConsent } from "./KindTexts.tsx";
import { CLASS_KIND_MANAGED, classKindRequest } from "./request.ts";

/**
 * The `create` part of a kind of several classes.
 * @example const multiclass = { id: "multiclass", ..., create: classKindCreate(spec) }
 */
export function classKindCreate(spec: ClassKindSpec): CreateKind {
  return {
    families: spec.families,
    // Every source but a bundled dataset is a file whose columns the form offers.
    readsColumns: () => true,
    startConsent: kindStartConsent,
    serverConsent: (_source, defaults) =>
      defaults.kindTexts?.consentText ?? defaults.texts.consentText,
    managed: CLASS_KIND_MANAGED,
    dataSection: (p) => <ClassKindDataFields spec={spec} {...p} />,
    textsSection: (p) => <KindTextsSection {...p} />,
    request: classKindRequest(spec),
  };
}
