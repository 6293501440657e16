// The engine subpaths are browser-safe (issue 13): Vite bundles them for the browser, with a
// plugin that fails the build on any Node built-in (`node:fs`, `fs`, ...), and Chromium runs
// the bundle, an elicitation per subpath (engine-browser.entry.ts). No server involved.
import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { build, type Rollup } from "vite";

const entry = fileURLToPath(new URL("./engine-browser.entry.ts", import.meta.url));
const builtins = new Set(builtinModules);

async function bundle(): Promise<string> {
  const out = await build({
    configFile: false,
    logLevel: "silent",
    plugins: [
      {
        name: "no-node-builtins",
        enforce: "pre",
        resolveId(id, importer) {
          if (id.startsWith("node:") || builtins.has(id.split("/")[0]!)) {
            throw new Error(`${importer ?? "?"} imports the Node built-in "${id}"`);
          }
          return null;
        },
      },
    ],
    build: {
      write: false,
      target: "es2022",
      minify: false,
      lib: { entry, formats: ["es"], fileName: "engine" },
    },
  });
  const outputs = (Array.isArray(out) ? out : [out]) as Rollup.RollupOutput[];
  const chunks = outputs.flatMap((o) => o.output).filter((c) => c.type === "chunk");
  expect(chunks).toHaveLength(1);
  return (chunks[0] as Rollup.OutputChunk).code;
}

test("the engine subpaths bundle with Vite for the browser and run in Chromium", async ({
  page,
}) => {
  const code = await bundle();
  expect(code).not.toContain("__vite-browser-external");
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.setContent("<!doctype html><title>engine</title>");
  await page.addScriptTag({ type: "module", content: code });
  await page.waitForFunction(
    () => {
      const w = window as unknown as { engineResult?: unknown; engineError?: string };
      return w.engineResult !== undefined || w.engineError !== undefined;
    },
    undefined,
    { timeout: 120_000 },
  );
  const { result, error } = await page.evaluate(() => {
    const w = window as unknown as { engineResult?: unknown; engineError?: string };
    return { result: w.engineResult, error: w.engineError };
  });
  expect(error).toBeUndefined();
  expect(errors).toEqual([]);
  const r = result as {
    binaryQuestions: number;
    binaryAngle: number;
    replayStatus: string;
    adaptiveAngle: number;
    dlpm: number[];
    quadraticError: { a: number; B: number };
    fairError: { a: number; B: number; lambda: number };
    csvRows: number;
    predictionsPool: number;
  };
  expect(r.binaryQuestions).toBe(28);
  expect(r.binaryAngle).toBeLessThan(0.02);
  expect(r.replayStatus).toBe("pending");
  expect(r.adaptiveAngle).toBeLessThan(0.05);
  expect(r.dlpm.map((w) => Math.round(w * 100) / 100)).toEqual([0.2, 0.5, 0.3]);
  expect(r.quadraticError.a).toBeLessThan(0.1);
  expect(r.fairError.lambda).toBeLessThan(0.1);
  expect(r.csvRows).toBe(3);
  expect(r.predictionsPool).toBe(2);
});
