// A small fetch wrapper for the JSON API (docs/web-api.md).

import type { ParticipantState } from "./types.ts";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/**
 * A JSON request to the server; every method but GET sends a JSON body (`{}` when none is
 * given: the server takes state-changing requests only as application/json).
 * @example await api("DELETE", "/api/studies/7")
 */
export async function api<T>(
  method: "GET" | "POST" | "PUT" | "DELETE",
  path: string,
  body?: unknown,
): Promise<T> {
  const init: RequestInit = { method, credentials: "same-origin", headers: {} };
  if (method !== "GET") {
    init.headers = { "content-type": "application/json" };
    init.body = JSON.stringify(body ?? {});
  }
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(
      0,
      "network",
      "Could not reach the server. Check your connection and try again.",
    );
  }
  const text = await res.text();
  let data: unknown = {};
  if (text !== "") {
    try {
      data = JSON.parse(text);
    } catch {
      data = {};
    }
  }
  if (!res.ok) {
    const err = (data as { error?: { code?: string; message?: string } }).error;
    throw new ApiError(
      res.status,
      err?.code ?? `http_${res.status}`,
      err?.message ?? res.statusText,
    );
  }
  return data as T;
}

/** Participant POSTs return the new state, `{ state }`, or nothing useful; normalise. */
export function stateFrom(res: unknown): ParticipantState | null {
  if (res !== null && typeof res === "object") {
    if ("phase" in res && typeof (res as { phase: unknown }).phase === "string") {
      return res as ParticipantState;
    }
    if ("state" in res) return stateFrom((res as { state: unknown }).state);
  }
  return null;
}

export function errorMessage(e: unknown): string {
  if (e instanceof ApiError) return e.message;
  if (e instanceof Error) return e.message;
  return String(e);
}
