import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKENDS, freshStore, startApp, type TestApp } from "../server/helpers.ts";
import { FAMILIES, type FuzzWorld, fuzzFamily, fuzzWorld } from "../server/route-fuzz.ts";

/**
 * Issue 14 item 2: a property-based fuzz of every route, 10,000 generated requests per route
 * family (fast-check over the zod schemas of src/server/api-schemas.ts plus hostile strings:
 * NUL, very long, formula prefixes, huge ids), on SQLite and, with TEST_DATABASE_URL, on
 * PostgreSQL. Not one may get a 5xx. Prints one line per family with the status counts.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);

describe.each(BACKENDS)("route fuzz, %s", (kind) => {
  let t: TestApp;
  let w: FuzzWorld;
  beforeAll(async () => {
    t = await startApp(await freshStore(kind));
    w = await fuzzWorld(t);
  });
  afterAll(async () => {
    await t.close();
  });

  for (const family of Object.keys(FAMILIES)) {
    it(`${family}: ${RUNS} generated requests, no 5xx`, async () => {
      const t0 = performance.now();
      const counts = await fuzzFamily(w, family, RUNS);
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      const errors = [...counts].filter(([s]) => s >= 500).reduce((a, [, n]) => a + n, 0);
      const byStatus = [...counts]
        .sort((a, b) => a[0] - b[0])
        .map(([s, n]) => `${s}: ${n}`)
        .join(", ");
      console.log(
        `fuzz ${kind} ${family}: ${total} requests, ${errors} 5xx (${byStatus}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
      expect(errors).toBe(0);
    });
  }
});
