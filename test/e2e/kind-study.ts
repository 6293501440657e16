// What the fairness and multiclass specs share: one server per spec file with one study of a
// kind created by a signed-in researcher, test-run participants of it, and finishing a
// participant's Phase II and post-task questions over HTTP.

import type { Page } from "@playwright/test";
import type { ParticipantState } from "../../web/src/api/types.ts";
import { advanceTo, getState, ResearcherClient, tokenOf } from "./api.ts";
import { expect, test } from "./fixtures.ts";
import { TestServer } from "./server.ts";
import { atWidths, pairOffScreen, waitForPhase } from "./ui.ts";

/** The spec's server and study, ready once beforeAll has run. */
export interface ServedStudy {
  /** The server's base URL. */
  readonly url: string;
  /** A new test-run participant of the study; its token. */
  newParticipant(): Promise<string>;
}

/**
 * Call once at a spec's top level: skips the spec when the server or the built web app is
 * missing, runs its tests in order, starts a server, signs a researcher in and creates the
 * study `body` describes (POST /api/studies) before the tests; stops the server after them.
 * @example const study = serveStudy({ name: "Flowers", kind: "multiclass", dataset: "iris" });
 */
export function serveStudy(body: Record<string, unknown>): ServedStudy {
  test.describe.configure({ mode: "serial" });

  let server: TestServer | undefined;
  let researcher: ResearcherClient;
  let studyId: number;

  test.beforeAll(async () => {
    server = await TestServer.start();
    researcher = await ResearcherClient.login(server.url);
    const made = await researcher.request<{ study: { id: number } }>("POST", "/api/studies", body);
    studyId = made.study.id;
  });

  test.afterAll(async () => {
    await server?.dispose();
  });

  const url = () => {
    if (server === undefined) throw new Error("the server starts in beforeAll");
    return server.url;
  };
  return {
    get url() {
      return url();
    },
    async newParticipant() {
      const { link } = await researcher.request<{ link: string }>(
        "POST",
        `/api/studies/${studyId}/test-run`,
      );
      return tokenOf(new URL(link, url()).href);
    },
  };
}

/** A Phase II question of a multiclass or fairness study, as the state carries it. */
type PhaseTwoQuestion = NonNullable<
  ParticipantState["multiclassElicitation"] | ParticipantState["fairElicitation"]
>["question"];

/**
 * Answers Phase II over HTTP by `choose` (default: always "left"), Phase III "left", until
 * both (multiclass or fairness) end; expects the post-task page then, and answers its
 * questions "fine". A 429 is retried (up to 50 times, 300 ms apart).
 * @example await finishOverHttp(study.url, token);
 */
export async function finishOverHttp(
  url: string,
  token: string,
  choose: (q: PhaseTwoQuestion) => "left" | "right" = () => "left",
): Promise<void> {
  const post = async (path: string, body: unknown) => {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${url}/api/p/${token}/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status === 429 && attempt < 50) {
        await new Promise((r) => setTimeout(r, 300));
        continue;
      }
      if (!res.ok) throw new Error(`${res.status}: ${text}`);
      return JSON.parse(text) as ParticipantState;
    }
  };
  let s = await getState(url, token);
  while (s.phase === "elicitation") {
    const q = (s.multiclassElicitation ?? s.fairElicitation)!.question;
    s = await post("answer", { questionId: q.id, choice: choose(q) });
  }
  while (s.phase === "evaluation") {
    const q = (s.multiclassEvaluation ?? s.fairEvaluation)!.question;
    s = await post("evaluation", { questionId: q.id, choice: "left" });
  }
  expect(s.phase).toBe("post");
  await post("post", { answers: Object.fromEntries(s.post!.fields.map((f) => [f.id, "fine"])) });
}

/**
 * Phase III of a multiclass or fairness study in the browser: a test-run participant taken
 * to it over HTTP, the page at 1280 and 390 px (screenshots named `name`) with the stage
 * "Part 3 of 3", the progress "Question 1 of N" and the pair fitting a phone's screen; then
 * one answer by button, after which the state has moved to the second pair.
 * @example await checkPhaseThreePage(page, study, "multiclass-evaluation");
 */
export async function checkPhaseThreePage(
  page: Page,
  study: ServedStudy,
  name: string,
): Promise<void> {
  const token = await study.newParticipant();
  const s = await advanceTo(study.url, token, "evaluation");
  const total = (s.multiclassEvaluation ?? s.fairEvaluation)!.progress.total;
  expect(total).toBe(17);
  await page.goto(`${study.url}/p/${token}`);
  await waitForPhase(page, "evaluation");
  await atWidths(page, name, async (width) => {
    await expect(page.locator(".pair .system")).toHaveCount(2);
    await expect(page.locator("main")).toContainText("Part 3 of 3");
    await expect(page.locator(".progress")).toContainText(`Question 1 of ${total}`);
    if (width < 560) await expect.poll(() => pairOffScreen(page)).toEqual([]);
  });
  await page
    .getByRole("button", { name: /prefer/i })
    .first()
    .click();
  await expect(page.locator(".progress")).toContainText(`Question 2 of ${total}`);
  const after = await getState(study.url, token);
  expect((after.multiclassEvaluation ?? after.fairEvaluation)!.progress.answered).toBe(1);
}
