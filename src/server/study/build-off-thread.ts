// Build a study configuration in a worker thread: parsing a 5 MB upload and fitting a model
// take long enough (about a second) to stall every other request if done on the event loop.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { CreateStudyBody } from "../api-schemas.ts";
import { ApiError } from "../errors.ts";
import type { BuildReply } from "./build-worker.ts";
import type { StudyConfig } from "./config.ts";

/** Builds running at once; more wait their turn (each holds an upload and a model in memory). */
export const MAX_CONCURRENT_BUILDS = 2;

let running = 0;
const waiting: (() => void)[] = [];

async function slot(): Promise<() => void> {
  if (running >= MAX_CONCURRENT_BUILDS) await new Promise<void>((r) => waiting.push(r));
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

/** The URL of tsx's ESM `register` API (its package's `exports["./esm/api"].import`). */
function tsxEsmApi(): string {
  const pkgPath = createRequire(import.meta.url).resolve("tsx/package.json");
  const pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as {
    exports: Record<string, { import?: { default?: string } }>;
  };
  const rel = pkg.exports["./esm/api"]?.import?.default ?? "./dist/esm/api/index.mjs";
  return new URL(rel, pathToFileURL(pkgPath)).href;
}

/**
 * Start the worker: the compiled `.js` beside this file in `dist/`, or in a checkout (this
 * file is `.ts`) a small bootstrap that registers tsx's loader, as bin/elicit.js does, and
 * then imports the `.ts` worker.
 */
function startWorker(body: CreateStudyBody): Worker {
  if (!import.meta.url.endsWith(".ts"))
    return new Worker(new URL("./build-worker.js", import.meta.url), { workerData: body });
  const api = tsxEsmApi();
  const entry = new URL("./build-worker.ts", import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true, workerData: body });
}

/**
 * `buildStudyConfig(body)` (create.ts) run in a worker thread, so the server keeps answering
 * while an upload is parsed and its model fitted. Errors the worker meets in the request
 * (`ApiError`: a malformed CSV, an unknown column) come back as the same `ApiError`; anything
 * else as a plain error (a 500, logged, its text not sent to the client).
 * @example const { config, hash } = await buildStudyConfigOffThread(req.body);
 */
export async function buildStudyConfigOffThread(
  body: CreateStudyBody,
): Promise<{ config: StudyConfig; hash: string }> {
  const release = await slot();
  try {
    const reply = await new Promise<BuildReply>((resolve, reject) => {
      const worker = startWorker(body);
      let settled = false;
      worker.once("message", (m: BuildReply) => {
        settled = true;
        resolve(m);
        void worker.terminate();
      });
      worker.once("error", (e) => {
        settled = true;
        reject(e);
      });
      worker.once("exit", (code) => {
        if (!settled) reject(new Error(`the study build worker exited with code ${code}`));
      });
    });
    if (reply.ok) return { config: reply.config as StudyConfig, hash: reply.hash };
    if (reply.status >= 500) throw new Error(`study build failed: ${reply.message}`);
    throw new ApiError(reply.status, reply.code, reply.message);
  } finally {
    release();
  }
}
