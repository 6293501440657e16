// Playwright's `test` with a browser context that records every participant token in a
// request URL and every cookie value sent or set (see server-log.ts), so that
// server-log.check.ts can grep the server's request log for them.

import { test as base } from "@playwright/test";
import { recordCookieHeader, recordSecret, recordTokensIn } from "./server-log.ts";

export { expect } from "@playwright/test";

export const test = base.extend({
  context: async ({ context }, use) => {
    const pending: Promise<unknown>[] = [];
    context.on("request", (req) => {
      recordTokensIn(req.url());
      pending.push(
        req
          .allHeaders()
          .then((h) => recordCookieHeader(h.cookie))
          .catch(() => {}),
      );
    });
    context.on("response", (res) => {
      pending.push(
        res
          .headerValue("set-cookie")
          .then(recordCookieHeader)
          .catch(() => {}),
      );
    });
    await use(context);
    await Promise.allSettled(pending);
    for (const c of await context.cookies().catch(() => [])) recordSecret("cookie", c.value);
  },
});
