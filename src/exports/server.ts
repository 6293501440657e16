/**
 * `metric-elicitation/server`: the web app (Fastify) behind `elicit serve`. Node only.
 *
 * @module metric-elicitation/server
 */
export { type AppOptions, buildApp, normalizePublicUrl } from "../server/app.ts";
export { type DbOptions, type OpenedDb, openDb } from "../server/db/connect.ts";
export { type ServeOptions, serve } from "../server/serve.ts";
