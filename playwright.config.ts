// Browser end-to-end tests (test/e2e) against a real `elicit serve`, in Debian's Chromium.
// Run with `npm run test:e2e` (builds web/dist first). Never `npx playwright install`.
import { mkdirSync, mkdtempSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";

// One directory per run for the servers' request logs and the secrets the run used
// (test/e2e/server-log.ts); set once in the runner, inherited by the workers.
if (!process.env.E2E_SERVER_LOG_DIR) {
  const results = fileURLToPath(new URL("test-results", import.meta.url));
  mkdirSync(results, { recursive: true });
  process.env.E2E_SERVER_LOG_DIR = mkdtempSync(`${results}/e2e-server-log-`);
}

export default defineConfig({
  testDir: "test/e2e",
  // The specs, then (as their teardown, so also after a failure) the check that the servers'
  // request logs hold no participant token and no cookie.
  projects: [
    {
      name: "e2e",
      testMatch: "**/*.spec.ts",
      testIgnore: "**/report.spec.ts",
      teardown: "server-log",
    },
    { name: "server-log", testMatch: "**/server-log.check.ts" },
    // `elicit report`'s pages, opened from files: no server, so no request log to check.
    { name: "report", testMatch: "**/report.spec.ts" },
  ],
  outputDir: "test-results/e2e",
  timeout: 180_000,
  expect: { timeout: 15_000 },
  // Two files at a time (their tests in order): every spec starts its own server on a free
  // port with its own data directory. On the 2-core machine this took the suite from about 8.5
  // to 6 minutes.
  workers: 2,
  fullyParallel: false,
  retries: 0,
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    viewport: { width: 1280, height: 900 },
    screenshot: "only-on-failure",
    trace: "off",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
      ],
    },
  },
});
