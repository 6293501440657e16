// Run by scripts/pack-test.sh inside the empty project that installed the packed tarball:
// start the installed `npx elicit serve` on a free port with a fresh data directory, then
// check that GET /healthz reports the database, that / serves the web app's page and that the
// script the page loads is served too; stop the server with SIGTERM. Prints one
// "ok <what>" or "FAIL <what>: <why>" line per check. Usage: node serve.mjs DATA_DIR
import { spawn } from "node:child_process";
import { createServer } from "node:net";

const dataDir = process.argv[2];
if (!dataDir) {
  console.log("FAIL serve.mjs: usage: node serve.mjs DATA_DIR");
  process.exit(1);
}

/** A port nothing listens on now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
let output = "";
const child = spawn(
  "npx",
  ["--no-install", "elicit", "serve", "--port", String(port), "--data-dir", dataDir, "--quiet"],
  // Its own process group: the stop below signals npx and the node it starts together, as
  // Ctrl-C in a terminal does (npx does not pass a SIGTERM on to its child).
  { stdio: ["ignore", "pipe", "pipe"], detached: true },
);
child.stdout.on("data", (d) => {
  output += d;
});
child.stderr.on("data", (d) => {
  output += d;
});
const exited = new Promise((resolve) =>
  child.on("exit", (code, signal) => resolve({ code, signal })),
);
let running = true;
exited.then(() => {
  running = false;
});

/** GET `path` once the server answers (up to 60 s from the start). */
async function get(path) {
  const until = Date.now() + 60_000;
  for (;;) {
    try {
      return await fetch(base + path);
    } catch (e) {
      if (!running)
        throw new Error(`elicit serve exited: ${output.trim().split("\n").slice(-3).join(" | ")}`);
      if (Date.now() > until) throw new Error(`no answer on ${base} after 60 s (${e.message})`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

async function check(what, run) {
  try {
    console.log(`ok ${what}: ${await run()}`);
    return true;
  } catch (e) {
    console.log(`FAIL ${what}: ${e.message}`);
    return false;
  }
}

await check("npx elicit serve answers GET /healthz", async () => {
  const r = await get("/healthz");
  const body = await r.text();
  if (r.status !== 200) throw new Error(`status ${r.status}: ${body}`);
  const json = JSON.parse(body);
  if (json.ok !== true || json.db !== "sqlite") throw new Error(`unexpected body ${body}`);
  return body;
});

await check("npx elicit serve serves the web app (/ and the script it loads)", async () => {
  const r = await get("/");
  const html = await r.text();
  if (r.status !== 200) throw new Error(`GET / status ${r.status}`);
  if (!html.includes("<title>Metric elicitation</title>"))
    throw new Error("GET / is not the app's page");
  const script = html.match(/<script[^>]*src="([^"]+\.js)"/)?.[1];
  if (!script) throw new Error("GET / names no script");
  const s = await get(script);
  const type = s.headers.get("content-type") ?? "";
  const size = (await s.arrayBuffer()).byteLength;
  if (s.status !== 200 || !type.includes("javascript") || size < 1000) {
    throw new Error(`GET ${script}: status ${s.status}, ${type}, ${size} bytes`);
  }
  return `GET / ${html.length} bytes, GET ${script} ${size} bytes (${type})`;
});

const stopGroup = (sig) => {
  try {
    process.kill(-child.pid, sig);
  } catch {
    // the group is gone already
  }
};
stopGroup("SIGINT");
const killer = setTimeout(() => stopGroup("SIGKILL"), 10_000);
const { code, signal } = await exited;
clearTimeout(killer);
await check("npx elicit serve stops on Ctrl-C (SIGINT to its process group)", async () => {
  if (signal === "SIGKILL") throw new Error("did not stop within 10 s of SIGINT");
  // npx itself ends by the signal; the server must have closed its port.
  const until = Date.now() + 10_000;
  for (;;) {
    try {
      await fetch(`${base}/healthz`);
    } catch {
      return `npx ended (${code ?? signal}), port ${port} closed`;
    }
    if (Date.now() > until) throw new Error(`port ${port} still answers 10 s after SIGINT`);
    await new Promise((r) => setTimeout(r, 250));
  }
});
stopGroup("SIGKILL"); // nothing of the group may outlive the check
