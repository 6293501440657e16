import { writeFileSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Writes what a sweep printed to `docs/figures/<id>.txt`, the output `npm run readme:check`
 * compares the README's quoted figures with (issue 25). The first line names the command that
 * reruns it. Call it in the test that asserts those figures, before the assertions (a failing
 * run still leaves what it printed), and assert every figure a document quotes.
 * @param sweep the sweep's `import.meta.url`
 * @param test the test's name filter (`-t`)
 */
export function recordFigures(id: string, sweep: string, test: string, text: string): void {
  const file = `test/sweeps/${basename(fileURLToPath(sweep))}`;
  const command = `$ npx vitest run --config vitest.sweeps.config.ts ${file} -t ${JSON.stringify(test)}`;
  const out = fileURLToPath(new URL(`../../docs/figures/${id}.txt`, import.meta.url));
  writeFileSync(out, `${command}\n${text.endsWith("\n") ? text : `${text}\n`}`);
}
