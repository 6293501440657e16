import { it } from "vitest";
// Every test of test/server/route-fuzz.test.ts on PostgreSQL (with TEST_DATABASE_URL, as .ci/run
// sets): npm test runs that file on SQLite plus a PostgreSQL smoke (its `test(...)` cases);
// here, in the sweeps tier, its back ends are PostgreSQL only (SLOW_BACKENDS in helpers.ts).
import "../../server/route-fuzz.test.ts";

if (!process.env.TEST_DATABASE_URL) it.skip("needs TEST_DATABASE_URL (PostgreSQL)", () => {});
