#!/usr/bin/env node
// Runs the TypeScript CLI directly through tsx (no build step). `elicit --version` answers
// before tsx and the CLI load (they take most of a second).
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  console.log(pkg.version);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli/main.ts");
}
