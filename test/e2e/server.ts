// Starts a real `elicit serve` on a free port with a temporary data directory, for the
// browser tests. Stop and start again on the same directory to test a restart.

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serverLogDir } from "./server-log.ts";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(ROOT, "bin", "elicit.js");

export const RESEARCHER = { email: "researcher@example.org", password: "correct horse battery" };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      const port = typeof addr === "object" && addr !== null ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export class TestServer {
  private proc: ChildProcess | null = null;
  private log = "";

  private constructor(
    readonly dataDir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /**
   * A fresh data directory with one researcher account, and a running server. Throws when the
   * built UI is missing (`npm run test:e2e` builds it first; a bare `npx playwright test`
   * does not): the pages would otherwise fail one by one on a placeholder.
   */
  static async start(): Promise<TestServer> {
    const ui = join(ROOT, "web", "dist", "index.html");
    if (!existsSync(ui)) throw new Error(`${ui} is missing: run npm run build:web first`);
    const dataDir = mkdtempSync(join(tmpdir(), "elicit-e2e-"));
    const pw = join(dataDir, "password.txt");
    writeFileSync(pw, `${RESEARCHER.password}\n`);
    execFileSync(
      process.execPath,
      [
        BIN,
        "admin",
        "create-user",
        "--email",
        RESEARCHER.email,
        "--password-file",
        pw,
        "--data-dir",
        dataDir,
      ],
      { cwd: ROOT, stdio: "pipe", env: { ...process.env, DATABASE_URL: "" } },
    );
    const server = new TestServer(dataDir, await freePort());
    await server.boot();
    return server;
  }

  private async boot(): Promise<void> {
    const env = { ...process.env, DATABASE_URL: "", PORT: "", HOST: "" };
    // Under playwright.config.ts the request log (pino JSON on stdout) goes to this run's log
    // directory, for server-log.check.ts to grep; elsewhere the server runs with --quiet.
    const logDir = serverLogDir();
    const logFile = logDir === null ? null : join(logDir, `server-${this.port}.log`);
    const proc = spawn(
      process.execPath,
      [
        BIN,
        "serve",
        "--port",
        String(this.port),
        "--host",
        "127.0.0.1",
        "--data-dir",
        this.dataDir,
        ...(logFile === null ? ["--quiet"] : []),
      ],
      { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] },
    );
    this.proc = proc;
    proc.stdout?.on("data", (d) => {
      if (logFile !== null) appendFileSync(logFile, d);
      this.log += String(d);
    });
    proc.stderr?.on("data", (d) => {
      this.log += String(d);
    });
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null) throw new Error(`elicit serve exited early:\n${this.log}`);
      try {
        const r = await fetch(`${this.url}/healthz`);
        if (r.ok) return;
      } catch {
        /* not up yet */
      }
      await new Promise((res) => setTimeout(res, 150));
    }
    throw new Error(`elicit serve did not become healthy:\n${this.log}`);
  }

  /** Stop the process (SIGTERM, then SIGKILL after 10 s). */
  async stop(): Promise<void> {
    const proc = this.proc;
    this.proc = null;
    if (proc === null || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => proc.kill("SIGKILL"), 10_000);
      proc.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      proc.kill("SIGTERM");
    });
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.boot();
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  output(): string {
    return this.log;
  }
}
