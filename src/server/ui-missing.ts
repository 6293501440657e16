/** The page served at `/` and `/p/...` when the browser UI has not been built. */
export function missingUiPage(): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>metric-elicitation: UI bundle missing</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}code{background:#eee;padding:0 .2em}</style>
</head>
<body>
<h1>The browser UI has not been built</h1>
<p>The server is running and its API works (see <a href="/openapi.json">/openapi.json</a> and
<a href="/healthz">/healthz</a>), but the UI bundle <code>web/dist</code> is missing.</p>
<p>Build it with <code>npm run build:web</code> (or <code>npx vite build web</code>) and reload this page.</p>
</body>
</html>
`;
}
