// Worker thread (build-off-thread.ts): build study configurations from create requests (parse
// the upload, fit the model, check the pool) away from the server's event loop. One worker
// serves many requests, one message each, so its modules load once.

import { parentPort } from "node:worker_threads";
import type { CreateStudyBody } from "../api-schemas.ts";
import { ApiError } from "../errors.ts";
import { buildStudyConfig } from "./create.ts";

/** A request to the worker: the create request's body and an id to answer under. */
export interface BuildRequest {
  readonly id: number;
  readonly body: CreateStudyBody;
}

/** What the worker posts back: the built configuration, or the error to send the client. */
export type BuildReply = { readonly id: number } & (
  | { readonly ok: true; readonly config: unknown; readonly hash: string }
  | { readonly ok: false; readonly status: number; readonly code: string; readonly message: string }
);

function run({ id, body }: BuildRequest): BuildReply {
  try {
    const { config, hash } = buildStudyConfig(body);
    return { id, ok: true, config, hash };
  } catch (e) {
    if (e instanceof ApiError)
      return { id, ok: false, status: e.status, code: e.code, message: e.message };
    return {
      id,
      ok: false,
      status: 500,
      code: "internal",
      message: e instanceof Error ? e.message : String(e),
    };
  }
}

parentPort?.on("message", (m: BuildRequest) => parentPort!.postMessage(run(m)));
