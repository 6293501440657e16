import type { Db } from "./db/schema.ts";
import { insertStudy } from "./routes/researcher.ts";
import { sha256 } from "./security/tokens.ts";
import { canonicalJson } from "./study/config.ts";
import { studyData } from "./study/population.ts";
import { cancerDiagnosisConfig } from "./study/template.ts";

/**
 * On first start (no study yet) create the built-in "Cancer diagnosis" study, open in live
 * mode, so `npm start` gives a working study. Returns its id, or null when studies exist.
 */
export async function ensureTemplateStudy(db: Db): Promise<number | null> {
  const any = await db.selectFrom("studies").select("id").limit(1).executeTakeFirst();
  if (any) return null;
  const config = cancerDiagnosisConfig();
  const hash = sha256(canonicalJson(config));
  studyData(hash, config); // fail early if the bundled data are missing
  return insertStudy(db, config.title, null, { config, hash }, "live");
}
