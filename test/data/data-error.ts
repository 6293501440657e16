import { DataError } from "../../src/data/errors.ts";

/** The DataError `fn` throws (any other error is rethrown; none fails the test). */
export function errorOf(fn: () => unknown): DataError {
  try {
    fn();
  } catch (e) {
    if (e instanceof DataError) return e;
    throw e;
  }
  throw new Error("expected a DataError");
}
