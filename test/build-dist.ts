import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Vitest's global set-up (vitest.config.ts and vitest.sweeps.config.ts): compiles src/ to
 * dist/ (`tsc -p tsconfig.build.json`, about 2 s) before any test runs, and the configs set
 * ELICIT_DIST=1 for the test workers, so every test that spawns `bin/elicit.js` runs the
 * compiled CLI an installed package runs, built from the current source. Through tsx each
 * spawn spent about 0.2 s more loading modules: the CLI test files took 134 s of worker time
 * instead of 88 s.
 *
 * The type-check is a stage of its own (`npx tsc --noEmit`): a type error here still emits
 * the JavaScript (tsc's default), so it is reported and the tests run on; a build that emits
 * no CLI fails the run.
 *
 * @example
 * // vitest.config.ts
 * export default defineConfig({ test: { globalSetup: ["test/build-dist.ts"], env: { ELICIT_DIST: "1" } } });
 */
export default function buildDist(): void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const main = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
  // A fresh dist/, as `npm run build` makes it: no module left from a file since removed.
  rmSync(fileURLToPath(new URL("../dist", import.meta.url)), { recursive: true, force: true });
  const tsc = fileURLToPath(new URL("../node_modules/.bin/tsc", import.meta.url));
  const r = spawnSync(tsc, ["-p", "tsconfig.build.json"], { cwd: root, encoding: "utf8" });
  if (r.status !== 0) {
    process.stderr.write(
      `test/build-dist.ts: tsc -p tsconfig.build.json exited ${r.status}${r.error ? ` (${r.error.message})` : ""}; the tests run on what it emitted\n${r.stdout}${r.stderr}`,
    );
  }
  if (!existsSync(main)) throw new Error(`test/build-dist.ts: the build emitted no ${main}`);
}
