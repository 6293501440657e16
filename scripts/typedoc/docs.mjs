// `npm run docs`: the API reference (TypeDoc) of the public entry points (typedoc.json: src/index.ts
// and src/exports/*.ts) into docs/api/, run from the project root.
// TypeScript here is the native compiler (7.x), which has no JavaScript compiler API; TypeDoc
// needs one. This folder is a local package (a devDependency, file:scripts/typedoc) with its
// own TypeDoc and TypeScript 5.9, installed in scripts/typedoc/node_modules so that they
// resolve each other and the project's `tsc` stays 7.x.
import { Application } from "typedoc";

const app = await Application.bootstrapWithPlugins({}, undefined);
const project = await app.convert();
if (!project || app.logger.hasErrors()) process.exit(1);
await app.generateOutputs(project);
process.exit(app.logger.hasErrors() ? 1 : 0);
