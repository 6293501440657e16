import { afterAll, beforeAll, describe, expect } from "vitest";
import { freshStore, SLOW_BACKENDS, startApp, type TestApp, tiers } from "./helpers.ts";
import { FAMILIES, type FuzzWorld, fuzzFamily, fuzzWorld } from "./route-fuzz.ts";

/**
 * Issue 14 item 2, the short version (the sweeps test/sweeps/route-fuzz-{sqlite,postgres}.sweep.ts
 * send thousands per family): generated requests to every route, from the zod schemas plus
 * hostile strings, ids and bodies, 3 at a time, never get a 5xx.
 */
describe.each(SLOW_BACKENDS)("route fuzz: no 5xx (%s)", (kind) => {
  // npm test runs this block on SQLite; on PostgreSQL it runs in the sweep
  // test/sweeps/postgres/route-fuzz.sweep.ts.
  const { it } = tiers(kind);
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
    it(`${family}: 150 generated requests`, async () => {
      const counts = await fuzzFamily(w, family, 150, { batch: 3, refill: false });
      expect([...counts.keys()].every((s) => s < 500)).toBe(true);
    });
  }
});
