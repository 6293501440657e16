// Writes the report's fixtures, real study.json exports of every kind (study-fixtures.ts), to
// a directory: `npx tsx test/report/write-fixtures.ts DIR [name ...]` writes DIR/NAME.json.
// The browser test (test/e2e/report.spec.ts) runs it in its setup.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, type FixtureName, studyExports } from "./study-fixtures.ts";

const [dir, ...names] = process.argv.slice(2);
if (!dir) {
  process.stderr.write("usage: tsx test/report/write-fixtures.ts DIR [name ...]\n");
  process.exit(2);
}
const chosen = (names.length > 0 ? names : FIXTURES) as FixtureName[];
for (const n of chosen) if (!FIXTURES.includes(n)) throw new Error(`no fixture ${n}`);
mkdirSync(dir, { recursive: true });
const exports = await studyExports(chosen);
for (const [name, text] of Object.entries(exports)) writeFileSync(join(dir, `${name}.json`), text);
