import type { Db } from "./db/schema.ts";
import { studyData } from "./kinds/binary/data.ts";
import { insertStudy } from "./routes/researcher.ts";
import { sha256 } from "./security/tokens.ts";
import { canonicalJson } from "./study/config.ts";
import { CANCER_PAPER_SPEC, cancerDiagnosisConfig } from "./study/template.ts";

/**
 * On first start (no study yet) create the built-in "Cancer diagnosis" study, open in live
 * mode, so `npm start` gives a working study. Returns its id, or null when studies exist.
 * `strategy` "paper" makes it with the user-study paper's own search instead of the adaptive
 * engine (for reproducing the paper's flow; the default is "adaptive").
 * @example await ensureTemplateStudy(db) // 1 on an empty database, null afterwards
 */
export async function ensureTemplateStudy(
  db: Db,
  strategy: "adaptive" | "paper" = "adaptive",
): Promise<number | null> {
  const any = await db.selectFrom("studies").select("id").limit(1).executeTakeFirst();
  if (any) return null;
  const builtIn = cancerDiagnosisConfig();
  // The paper's version: its search and its Phase III of random pairs only (no repeats).
  const { retestPairs: _, ...paper } = builtIn;
  const config = strategy === "paper" ? { ...paper, spec: CANCER_PAPER_SPEC } : builtIn;
  const hash = sha256(canonicalJson(config));
  studyData(hash, config); // fail early if the bundled data are missing
  // Two servers starting on one empty database must not both create it: the study is created
  // in the transaction that claims the settings key, which only one of them can insert.
  try {
    return await db.transaction().execute(async (trx) => {
      await trx.insertInto("settings").values({ key: BOOTSTRAP_KEY, value: "done" }).execute();
      return insertStudy(trx, config.title, null, { config, hash }, "live");
    });
  } catch (e) {
    const claimed = await db
      .selectFrom("settings")
      .select("key")
      .where("key", "=", BOOTSTRAP_KEY)
      .executeTakeFirst();
    if (claimed) return null; // another server did it
    throw e;
  }
}

/** The settings key that records the built-in study's creation. */
const BOOTSTRAP_KEY = "builtin_study_created";
