// A multiclass study (issue 12, first slice) in a real browser: the k x k comparison page at
// 1280 and 390 px, answering by button and keyboard, undo, and the debrief in words.

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import type { ParticipantState } from "../../web/src/api/types.ts";
import { advanceTo, getState, ResearcherClient, tokenOf } from "./api.ts";
import { expect, test } from "./fixtures.ts";
import { ROOT, SERVER_MISSING, TestServer, UI_MISSING } from "./server.ts";
import { answer, waitForPhase } from "./ui.ts";

test.skip(SERVER_MISSING, "src/server is not there yet");
test.skip(UI_MISSING, "web/dist is missing: run npm run build:web first");
test.describe.configure({ mode: "serial" });

let server: TestServer;
let researcher: ResearcherClient;
let studyId: number;

test.beforeAll(async () => {
  server = await TestServer.start();
  researcher = await ResearcherClient.login(server.url);
  const made = await researcher.request<{ study: { id: number } }>("POST", "/api/studies", {
    name: "Flowers",
    kind: "multiclass",
    dataset: "iris",
  });
  studyId = made.study.id;
});

test.afterAll(async () => {
  await server?.dispose();
});

const SHOTS = join(ROOT, "test-results", "screenshots");

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `multiclass-${name}.png`), fullPage: true });
}

/** A test-run participant of the multiclass study, at Phase II (earlier phases over HTTP). */
async function atElicitation(): Promise<string> {
  const { link } = await researcher.request<{ link: string }>(
    "POST",
    `/api/studies/${studyId}/test-run`,
  );
  const token = tokenOf(new URL(link, server.url).href);
  await advanceTo(server.url, token, "elicitation");
  return token;
}

/** Answer "left" over HTTP until Phase II ends, then the post-task questions. */
async function finishOverHttp(token: string): Promise<void> {
  const post = async (path: string, body: unknown) => {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${server.url}/api/p/${token}/${path}`, {
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
  let s = await getState(server.url, token);
  while (s.phase === "elicitation") {
    s = await post("answer", { questionId: s.multiclassElicitation!.question.id, choice: "left" });
  }
  expect(s.phase).toBe("post");
  await post("post", { answers: Object.fromEntries(s.post!.fields.map((f) => [f.id, "fine"])) });
}

test("the multiclass comparison: whole counts of 100 per class, legible at 1280 and 390 px, button, keyboard and undo", async ({
  page,
}) => {
  const token = await atElicitation();
  await page.goto(`${server.url}/p/${token}`);
  await waitForPhase(page, "elicitation");
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expect(page.locator(".pair .system")).toHaveCount(2);
    // Three true classes per system, each "N of 100 right (N%)" with the same N twice.
    const heads = await page.locator(".mc-head").allTextContents();
    expect(heads).toHaveLength(6);
    for (const h of heads) {
      const m = /(\d+) of 100 right \((\d+)%\)/.exec(h);
      expect(m, h).not.toBeNull();
      expect(m![1]).toBe(m![2]);
    }
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
    );
    expect(overflow).toBe(false);
    await shot(page, `comparison-${width}`);
  }
  await expect(page.locator(".progress")).toContainText("Question 1 of at most 25");
  await answer(page, "A");
  await answer(page, "ArrowRight");
  await expect(page.locator(".progress")).toContainText("Question 3 of at most 25");
  await page.getByRole("button", { name: "Undo last answer" }).click();
  await expect(page.locator(".progress")).toContainText("Question 2 of at most 25");
  expect((await getState(server.url, token)).multiclassElicitation!.progress.answered).toBe(1);
});

test("the multiclass debrief says in words which mistakes the participant minds most", async ({
  page,
}) => {
  const token = await atElicitation();
  await finishOverHttp(token);
  const d = (await getState(server.url, token)).multiclassDebrief!;
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(`${server.url}/p/${token}`);
    await waitForPhase(page, "debrief");
    await expect(page.getByTestId("result")).toContainText(d.summary);
    await expect(page.locator("ul.mc-weights li")).toHaveCount(3);
    await expect(page.getByTestId("completion-code")).toHaveText(d.completionCode);
    await shot(page, `debrief-${width}`);
  }
});
