#!/usr/bin/env node
// The `elicit` command. An installed package runs the compiled CLI in dist/ (each command's
// module loads only when that command runs). A development checkout (src/ next to this file)
// runs the TypeScript source through tsx, so `npx elicit` sees the current code with no build
// step; ELICIT_DIST=1 makes it run dist/ too (`npm run bench:cli` does, after `npm run build`,
// and the tests do, after test/build-dist.ts built it). `elicit --version` answers before
// anything else loads.
import { existsSync, readFileSync } from "node:fs";

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  console.log(pkg.version);
} else if (
  process.env.ELICIT_DIST !== "1" &&
  existsSync(new URL("../src/cli/main.ts", import.meta.url)) &&
  (await registerTsx())
) {
  await import("../src/cli/main.ts");
} else {
  await import("../dist/cli/main.js");
}

/** Load TypeScript through tsx (a development dependency); false when it is not installed. */
async function registerTsx() {
  try {
    const { register } = await import("tsx/esm/api");
    register();
    return true;
  } catch {
    return false;
  }
}
