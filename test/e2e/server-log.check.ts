// Issue 13: no request log line contains a participant token or a cookie. Runs after every
// other e2e spec (the "server-log" project is the teardown of the "e2e" project in
// playwright.config.ts) and greps the request logs of this run's servers (server-PORT.log in
// E2E_SERVER_LOG_DIR) for every participant token and cookie value the run used
// (secrets.txt), and for any `token=` value or cookie header, redacted or not.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { SECRETS_FILE, serverLogDir } from "./server-log.ts";

/** Header names whose values must never reach the log. */
const SECRET_HEADERS = /^(cookie|set-cookie|authorization)$/i;

/** Keys with a value at any depth of a parsed log line whose name is a secret header. */
function secretHeaderKeys(value: unknown, path = ""): string[] {
  if (value === null || typeof value !== "object") return [];
  const found: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    const at = path === "" ? k : `${path}.${k}`;
    if (SECRET_HEADERS.test(k) && v !== undefined && v !== null && v !== "") found.push(at);
    found.push(...secretHeaderKeys(v, at));
  }
  return found;
}

test("the server's request log holds no participant token and no cookie", () => {
  const dir = serverLogDir();
  expect(dir, "E2E_SERVER_LOG_DIR is set by playwright.config.ts").not.toBeNull();
  const logs = readdirSync(dir!).filter((f) => /^server-\d+\.log$/.test(f));
  expect(logs.length, `server logs in ${dir}`).toBeGreaterThan(0);

  const secretsPath = join(dir!, SECRETS_FILE);
  const secrets = new Map<string, string>(); // value -> kind
  if (existsSync(secretsPath)) {
    for (const line of readFileSync(secretsPath, "utf8").split("\n")) {
      const [kind, value] = line.split("\t");
      if (kind && value) secrets.set(value, kind);
    }
  }
  const kinds = [...secrets.values()];
  // The check means something only if the run used tokens and cookies and its requests were logged.
  expect(kinds.filter((k) => k === "token").length, "participant tokens recorded").toBeGreaterThan(
    0,
  );
  expect(kinds.filter((k) => k === "cookie").length, "cookie values recorded").toBeGreaterThan(0);

  const violations: string[] = [];
  let lines = 0;
  let participantRequests = 0;
  for (const file of logs) {
    const text = readFileSync(join(dir!, file), "utf8");
    text.split("\n").forEach((line, i) => {
      if (line.trim() === "") return;
      lines++;
      const where = `${file}:${i + 1}`;
      if (/\/p\//.test(line)) participantRequests++;
      for (const [value, kind] of secrets) {
        if (line.includes(value)) violations.push(`${where}: ${kind} ${value}`);
      }
      // A query parameter named token (any spelling) must have its value redacted.
      for (const m of line.matchAll(/token=([^&\s"\\]*)/gi)) {
        if (m[1] !== "[redacted]") violations.push(`${where}: token=${m[1]}`);
      }
      // No cookie header, in a JSON field or as text ("cookie: ..." / "elicit_session=...").
      if (/(?:^|[^a-z-])(?:set-)?cookie\s*:\s*[^\s,}]/i.test(line.replace(/"/g, ""))) {
        violations.push(`${where}: cookie header`);
      }
      if (/elicit_session=/i.test(line)) violations.push(`${where}: session cookie`);
      try {
        for (const key of secretHeaderKeys(JSON.parse(line))) violations.push(`${where}: ${key}`);
      } catch {
        /* not a JSON line: the text checks above cover it */
      }
    });
  }
  console.log(
    `server log check: ${lines} lines in ${logs.length} log(s) (${participantRequests} on participant paths), ` +
      `${secrets.size} secret values (${kinds.filter((k) => k === "token").length} token, ` +
      `${kinds.filter((k) => k === "cookie").length} cookie), ${violations.length} found in the log; logs in ${dir}`,
  );
  expect(participantRequests, "participant requests were logged").toBeGreaterThan(0);
  expect(
    violations.length,
    `secrets in the request log (first 20):\n${violations.slice(0, 20).join("\n")}`,
  ).toBe(0);
});
