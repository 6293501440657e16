// The class and group names of a study's data, read the way the server reads them (its
// prepared data, from the configuration frozen in the export): what a report names when the
// export itself does not (nobody finished, or a fairness study's groups).

import { sha256 } from "../server/security/tokens.ts";
import { canonicalJson, type StudyConfig } from "../server/study/config.ts";
import { anyStudyData } from "../server/study/population.ts";
import type { StudyNames } from "./names.ts";
import type { StudyExport } from "./schema.ts";

/**
 * The names of the study's classes (and groups) from its data, or null when they cannot be
 * read: the configuration is not the one its hash names, its bundled file is not a plain file
 * name, or the data do not load (e.g. a bundled dataset this version does not have).
 * @example studyNames(exp)?.groups // ["Black", "White"]
 */
export function studyNames(exp: StudyExport): StudyNames | null {
  const config = exp.study.config as unknown as StudyConfig;
  const file = exp.study.config.source.file;
  if (sha256(canonicalJson(config)) !== exp.study.hash) return null;
  if (file !== undefined && !/^[\w.-]+$/.test(file)) return null;
  try {
    const data = anyStudyData(exp.study.hash, config) as {
      classNames?: string[];
      groupNames?: string[];
      negativeLabel?: string;
      positiveLabel?: string;
    };
    const classes =
      data.classNames ??
      (data.negativeLabel !== undefined && data.positiveLabel !== undefined
        ? [data.negativeLabel, data.positiveLabel]
        : null);
    return classes === null ? null : { classes, groups: data.groupNames ?? [] };
  } catch {
    return null;
  }
}
