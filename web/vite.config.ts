// Builds the browser UI to web/dist (served by `elicit serve`). `npm run build:web`.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));
const apiTarget = process.env.ELICIT_API ?? "http://127.0.0.1:3000";

export default defineConfig({
  root,
  base: "/",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    reportCompressedSize: false,
  },
  server: {
    proxy: {
      "/api": apiTarget,
      "/healthz": apiTarget,
    },
  },
});
