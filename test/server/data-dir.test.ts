import { existsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeDataDir } from "../../src/server/db/connect.ts";
import { serve } from "../../src/server/serve.ts";
import { capturedStderr } from "../capture-stderr.ts";
import { tempDir } from "../temp-dir.ts";

describe("elicit serve's data folder and start-up line", () => {
  it("creates missing parents; names a file in the way; never hangs where folders cannot be made", () => {
    const root = tempDir("elicit-data-dir-");
    const nested = join(root, "a", "b", "c");
    makeDataDir(nested);
    expect(statSync(nested).isDirectory()).toBe(true);
    makeDataDir(nested); // already there: fine
    const file = join(root, "file");
    writeFileSync(file, "x");
    expect(() => makeDataDir(join(file, "data"))).toThrow(
      `cannot use the data folder ${join(file, "data")}: ${file} is a file, not a folder`,
    );
    // Node's recursive mkdir retried this forever (the audit's `serve --data-dir /proc/x`).
    if (existsSync("/proc/self")) {
      expect(() => makeDataDir("/proc/elicit-test/data")).toThrow(
        "cannot create the data folder /proc/elicit-test: folders cannot be created there",
      );
    }
  });

  it("with --port 0 the start-up line names the port the system chose", async () => {
    const { value: app, text } = await capturedStderr(() =>
      serve({
        port: 0,
        host: "127.0.0.1",
        dataDir: tempDir("elicit-port-"),
        log: false,
        interactive: false,
      }),
    );
    const address = app.server.address();
    await app.close();
    const port = typeof address === "object" && address ? address.port : 0;
    expect(port).toBeGreaterThan(0);
    expect(text).toContain(`listening on http://127.0.0.1:${port}/`);
  });
});
