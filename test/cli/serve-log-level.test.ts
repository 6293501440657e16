import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runMemoryOf } from "../../src/cli/commands/serve.ts";

// `elicit serve --log-level` / LOG_LEVEL (issue 13 item 6): info logs a line per request,
// warn none of them; a bad level is a one-line error before anything starts.
const BIN = fileURLToPath(new URL("../../bin/elicit.js", import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      s.close(() => resolve(typeof a === "object" && a ? a.port : 0));
    });
  });
}

/** Start `elicit serve` with `env`, GET /healthz once, stop it; its stdout (the JSON log). */
async function logOfOneRequest(env: Record<string, string>, args: string[] = []) {
  const dataDir = mkdtempSync(join(tmpdir(), "elicit-loglevel-"));
  dirs.push(dataDir);
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [BIN, "serve", "--port", String(port), "--data-dir", dataDir, ...args],
    { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => {
    stdout += d;
  });
  child.stderr!.on("data", (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  try {
    const until = Date.now() + 60_000;
    for (;;) {
      try {
        const r = await fetch(`http://127.0.0.1:${port}/healthz`);
        expect(r.status).toBe(200);
        break;
      } catch (e) {
        if (child.exitCode !== null) throw new Error(`elicit serve exited: ${stderr}`);
        if (Date.now() > until) throw e;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  } finally {
    child.kill("SIGTERM");
  }
  await exited;
  return stdout;
}

describe("elicit serve --log-level / LOG_LEVEL", () => {
  it("info (the default) logs the request, LOG_LEVEL=warn does not", async () => {
    const info = await logOfOneRequest({ LOG_LEVEL: "" });
    expect(info).toContain('"url":"/healthz"');
    const warn = await logOfOneRequest({ LOG_LEVEL: "warn" });
    expect(warn).not.toContain("/healthz");
    expect(warn).not.toContain("incoming request");
    const flag = await logOfOneRequest({ LOG_LEVEL: "info" }, ["--log-level", "error"]);
    expect(flag).not.toContain("/healthz");
  }, 180_000);

  it("a level pino does not know is a one-line error and exit 2, nothing started", () => {
    const r = spawnSync(process.execPath, [BIN, "serve", "--port", "0"], {
      env: { ...process.env, LOG_LEVEL: "loud" },
      encoding: "utf8",
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(
      'elicit: error: --log-level (or LOG_LEVEL) must be one of silent, fatal, error, warn, info, debug, trace, not "loud"',
    );
    expect(r.stdout).toBe("");
  }, 60_000);
});

describe("elicit serve --run-memory / RUN_MEMORY_MB", () => {
  it("takes a whole number of MB from 16 to 65536; anything else is a one-line error and exit 2", () => {
    expect(runMemoryOf("256")).toBe(256);
    expect(runMemoryOf("16")).toBe(16);
    for (const bad of ["8", "0x100", "1e3", "100000", "", "256.5"])
      expect(() => runMemoryOf(bad), bad).toThrow("--run-memory");
    const r = spawnSync(process.execPath, [BIN, "serve", "--port", "0", "--run-memory", "8"], {
      encoding: "utf8",
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(
      'elicit: error: --run-memory: "8" is not a number of MB from 16 to 65536',
    );
    expect(r.stdout).toBe("");
  }, 60_000);
});
