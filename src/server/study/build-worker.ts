// Worker thread entry (build-off-thread.ts): build a study configuration from a create request
// (parse the upload, fit the model, check the pool) away from the server's event loop.

import { parentPort, workerData } from "node:worker_threads";
import type { CreateStudyBody } from "../api-schemas.ts";
import { ApiError } from "../errors.ts";
import { buildStudyConfig } from "./create.ts";

/** What the worker posts back: the built configuration, or the error to send the client. */
export type BuildReply =
  | { readonly ok: true; readonly config: unknown; readonly hash: string }
  | {
      readonly ok: false;
      readonly status: number;
      readonly code: string;
      readonly message: string;
    };

function run(body: CreateStudyBody): BuildReply {
  try {
    const { config, hash } = buildStudyConfig(body);
    return { ok: true, config, hash };
  } catch (e) {
    if (e instanceof ApiError)
      return { ok: false, status: e.status, code: e.code, message: e.message };
    return {
      ok: false,
      status: 500,
      code: "internal",
      message: e instanceof Error ? e.message : String(e),
    };
  }
}

parentPort?.postMessage(run(workerData as CreateStudyBody));
