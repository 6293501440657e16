// The server's request log during an e2e run, and the secrets the run used (issue 13: no
// request log line contains a participant token or a cookie). playwright.config.ts makes one
// directory per run (E2E_SERVER_LOG_DIR); every TestServer appends its pino JSON lines
// (stdout) to server-PORT.log there, and the tests record each participant token and cookie
// value they see in secrets.txt. server-log.check.ts runs after all the other specs and greps
// the logs for them.

import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

/** This run's log directory, or null when the tests run without playwright.config.ts. */
export function serverLogDir(): string | null {
  const dir = process.env.E2E_SERVER_LOG_DIR;
  if (!dir) return null;
  mkdirSync(dir, { recursive: true });
  return dir;
}

export const SECRETS_FILE = "secrets.txt";

/** Remember a secret the run used (a participant token, a cookie value), with its variants. */
export function recordSecret(kind: "token" | "cookie", value: string | null | undefined): void {
  const dir = serverLogDir();
  if (dir === null || !value) return;
  const variants = new Set<string>([value]);
  try {
    variants.add(decodeURIComponent(value));
  } catch {
    /* not URI-encoded */
  }
  // A signed cookie is TOKEN.SIGNATURE: each long part is a secret on its own.
  for (const v of [...variants]) for (const part of v.split(".")) variants.add(part);
  const lines = [...variants]
    .filter((v) => v.length >= 8)
    .map((v) => `${kind}\t${v}\n`)
    .join("");
  if (lines !== "") appendFileSync(join(dir, SECRETS_FILE), lines);
}

/** Record the token of every participant path (`/p/TOKEN`, `/api/p/TOKEN/...`) in a URL. */
export function recordTokensIn(url: string): void {
  const path = new URL(url, "http://localhost").pathname;
  for (const m of path.matchAll(/(?:^|\/)p\/([^/?#]+)/g)) recordSecret("token", m[1]);
}

/** Record the cookie values of a `Cookie` request header or `Set-Cookie` response header. */
export function recordCookieHeader(header: string | null | undefined): void {
  if (!header) return;
  for (const line of header.split(/\n/)) {
    // Set-Cookie: NAME=VALUE; Path=/ ...   Cookie: A=1; B=2
    const pairs = /;\s*(path|expires|max-age|domain|samesite|httponly|secure)\b/i.test(line)
      ? [line.split(";")[0]!]
      : line.split(";");
    for (const pair of pairs) {
      const eq = pair.indexOf("=");
      if (eq > 0) recordSecret("cookie", pair.slice(eq + 1).trim());
    }
  }
}
