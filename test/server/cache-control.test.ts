import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { studyWithTestRun } from "./driver.ts";
import { BACKENDS, freshStore, signIn, startApp, type TestApp } from "./helpers.ts";

/**
 * Issue 14, Why 10: API responses and exports had no cache-control. Signed in, every export and
 * every researcher and participant read answers 200 with `cache-control: no-store`, so no
 * browser or proxy cache keeps participants' data or tokens.
 */
describe.each(BACKENDS)("cache-control on API answers and exports (%s)", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(await freshStore(kind));
  });
  afterAll(async () => {
    await t.close();
  });

  it("every export and API read, signed in, is sent with cache-control: no-store", async () => {
    const cookie = await signIn(t);
    const { id, token } = await studyWithTestRun(t, cookie, { strategy: "paper" });
    const urls = [
      "/api/auth/me",
      "/api/studies",
      `/api/studies/${id}`,
      `/api/studies/${id}/participants`,
      `/api/studies/${id}/invites`,
      `/api/studies/${id}/export/answers.csv`,
      `/api/studies/${id}/export/participants.csv`,
      `/api/studies/${id}/export/study.json`,
      `/api/studies/${id}/export/codebook.csv`,
      `/api/p/${token}`,
    ];
    for (const url of urls) {
      const r = await t.app.inject({ url, headers: { cookie } });
      expect(r.statusCode, url).toBe(200);
      expect(r.headers["cache-control"], url).toBe("no-store");
    }
  });
});
