import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, onTestFinished } from "vitest";

const dirs: string[] = [];
// Registered in every test file that imports this helper (as in test/server/helpers.ts).
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * A fresh, empty directory under the OS temp dir, removed with everything in it: made inside a
 * test (or a `beforeEach`), when that test finishes; made anywhere else (at module or describe
 * level, or in a `beforeAll`), after the last test of the file.
 * @example
 * const dir = tempDir("elicit-cli-"); // shared by the file's tests, removed after them all
 * it("writes a log", () => {
 *   const log = join(tempDir("elicit-log-"), "log.json"); // removed when this test finishes
 * });
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  } catch {
    dirs.push(dir); // not inside a test: onTestFinished throws
  }
  return dir;
}
