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

/** Worker threads at most (each holds an upload and a model in memory while it builds). */
export const MAX_CONCURRENT_BUILDS = 2;

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
 * Start a worker: the compiled `.js` beside this file in `dist/`, or in a checkout (this file
 * is `.ts`) a small bootstrap that registers tsx's loader, as bin/elicit.js does, and then
 * imports the `.ts` worker.
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith(".ts"))
    return new Worker(new URL("./build-worker.js", import.meta.url));
  const api = tsxEsmApi();
  const entry = new URL("./build-worker.ts", import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true });
}

interface Pending {
  resolve(r: BuildReply): void;
  reject(e: Error): void;
}

/**
 * One long-lived worker and the requests it has not answered yet. It does not keep the
 * process alive while idle (unref), and a worker that dies fails its pending requests and is
 * replaced on the next one.
 */
class BuildWorker {
  private readonly worker = startWorker();
  readonly pending = new Map<number, Pending>();
  dead = false;

  constructor() {
    this.worker.unref();
    this.worker.on("message", (m: BuildReply) => {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (this.pending.size === 0) this.worker.unref();
      p?.resolve(m);
    });
    const fail = (e: Error) => {
      this.dead = true;
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    };
    this.worker.on("error", fail);
    this.worker.on("exit", (code) => fail(new Error(`the study build worker exited (${code})`)));
  }

  /** Ends the thread; its pending requests fail as on any other exit. */
  async stop(): Promise<void> {
    await this.worker.terminate();
  }

  build(id: number, body: CreateStudyBody): Promise<BuildReply> {
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, body });
    });
  }
}

const workers: BuildWorker[] = [];
let nextId = 1;

/** The live worker with the fewest requests in hand, starting one while fewer than the limit. */
function pickWorker(): BuildWorker {
  for (let i = workers.length - 1; i >= 0; i--) if (workers[i]!.dead) workers.splice(i, 1);
  const idle = workers.find((w) => w.pending.size === 0);
  if (idle) return idle;
  if (workers.length < MAX_CONCURRENT_BUILDS) {
    const w = new BuildWorker();
    workers.push(w);
    return w;
  }
  return workers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
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
  const reply = await pickWorker().build(nextId++, body);
  if (reply.ok) return { config: reply.config as StudyConfig, hash: reply.hash };
  if (reply.status >= 500) throw new Error(`study build failed: ${reply.message}`);
  throw new ApiError(reply.status, reply.code, reply.message);
}

/**
 * End every build worker now (a server shutting down; the tests of a worker that dies): the
 * requests they hold fail with "the study build worker exited", and the next request starts
 * a new worker.
 * @example await stopBuildWorkers();
 */
export async function stopBuildWorkers(): Promise<void> {
  const all = workers.splice(0, workers.length);
  await Promise.all(all.map((w) => w.stop()));
}
