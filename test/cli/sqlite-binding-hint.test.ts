import { describe, expect, it } from "vitest";
import { describeError, sqliteBindingHint } from "../../src/cli/errors.ts";

// The errors better-sqlite3 raises when its compiled binary is missing (install script not
// run) or built for another Node.js, as Node and the `bindings` package word them.
const missing = new Error(
  "Could not locate the bindings file. Tried:\n → /app/node_modules/better-sqlite3/build/better_sqlite3.node\n → /app/node_modules/better-sqlite3/build/Release/better_sqlite3.node",
);
const otherNode = new Error(
  "The module '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 127. This version of Node.js requires\nNODE_MODULE_VERSION 115.",
);

describe("sqliteBindingHint", () => {
  it("tells the user what to run when better-sqlite3 has no usable binary, in one line", () => {
    for (const e of [missing, otherNode]) {
      const message = describeError(e);
      expect(message).toBe(sqliteBindingHint(e));
      expect(message).toContain("npm rebuild better-sqlite3");
      expect(message).toContain("npm install-scripts approve better-sqlite3");
      expect(message).toContain("DATABASE_URL");
      expect(message).not.toContain("\n");
    }
  });

  it("leaves every other error's message alone", () => {
    const other = new Error("Could not locate the bindings file for some_other_module.node");
    expect(sqliteBindingHint(other)).toBeUndefined();
    expect(describeError(other)).toBe(other.message);
    expect(describeError(new Error("listen EADDRINUSE: address already in use"))).toBe(
      "listen EADDRINUSE: address already in use",
    );
  });
});
