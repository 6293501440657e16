import { describe } from "vitest";
import { fuzzSweep } from "../server/route-fuzz.ts";

/**
 * Issue 14 item 2: a property-based fuzz of every route on SQLite, 10,000 generated requests
 * per route family (fast-check over the zod schemas of src/server/api-schemas.ts plus hostile
 * strings: NUL, very long, formula prefixes, huge ids). Not one may get a 5xx.
 */
describe("route fuzz, sqlite", () => fuzzSweep("sqlite"));
