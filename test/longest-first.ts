import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * A vitest sequencer that starts the costliest files first (`costs`: worker seconds per file,
 * relative to the project's root, measured on the 2-core machine), then the others in
 * vitest's own order. Without a results cache (a fresh clone, as in CI) vitest runs the
 * larger files first, and size says little of a file's cost: a file whose set-up computes a
 * paper's tables in its `describe` body or a `beforeAll` looks cheap by its tests' times and
 * ran last, one worker alone for its last seconds. A stale figure only makes the order less
 * good, never a result different.
 *
 * @example
 * // vitest.config.ts
 * export default defineConfig({
 *   test: { sequence: { sequencer: longestFirst({ "test/slow.test.ts": 30 }) } },
 * });
 */
export function longestFirst(costs: Readonly<Record<string, number>>): typeof BaseSequencer {
  return class LongestFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const base = await super.sort(files);
      const cost = (f: TestSpecification) =>
        costs[relative(f.project.config.root, f.moduleId).split("\\").join("/")] ?? 0;
      // Array.prototype.sort is stable: equal costs (the unlisted files) keep vitest's order.
      return [...base].sort((a, b) => cost(b) - cost(a));
    }
  };
}
