// A fairness study (issue 12) in a real browser: the comparison page (each group's correct
// counts of 100 per true answer, everyone's share, the gaps, the trade-off line) at 1280 and
// 390 px, answering by button and keyboard, undo, and the debrief stating lambda as a range.

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import type { ParticipantState } from "../../web/src/api/types.ts";
import { fairTradeOff } from "../../web/src/participant/FairComparisonView.tsx";
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
    name: "Release decisions",
    kind: "fair",
    dataset: "arrests",
    groups: "colour",
  });
  studyId = made.study.id;
});

test.afterAll(async () => {
  await server?.dispose();
});

const SHOTS = join(ROOT, "test-results", "screenshots");

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `fair-${name}.png`), fullPage: true });
}

const WIDTHS = [
  [1280, 900],
  [390, 844],
] as const;

async function newParticipant(): Promise<string> {
  const { link } = await researcher.request<{ link: string }>(
    "POST",
    `/api/studies/${studyId}/test-run`,
  );
  return tokenOf(new URL(link, server.url).href);
}

async function noOverflow(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
  );
  expect(overflow).toBe(false);
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
    s = await post("answer", { questionId: s.fairElicitation!.question.id, choice: "left" });
  }
  expect(s.phase).toBe("post");
  await post("post", { answers: Object.fromEntries(s.post!.fields.map((f) => [f.id, "fine"])) });
}

test("the fairness story page names the groups and shows no binary cost boxes", async ({
  page,
}) => {
  const token = await newParticipant();
  await advanceTo(server.url, token, "story");
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await page.goto(`${server.url}/p/${token}`);
    await waitForPhase(page, "story");
    await expect(page.locator("main")).toContainText("colour: “Black”, “White”");
    await expect(page.locator(".costs")).toHaveCount(0);
    await noOverflow(page);
    await shot(page, `story-${width}`);
  }
});

test("the fairness comparison: each group's counts of 100, everyone, the gaps and the trade-off line as the state has them, at 1280 and 390 px; button, keyboard and undo", async ({
  page,
}) => {
  const token = await newParticipant();
  await advanceTo(server.url, token, "elicitation");
  const q = (await getState(server.url, token)).fairElicitation!.question;
  await page.goto(`${server.url}/p/${token}`);
  await waitForPhase(page, "elicitation");
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await expect(page.locator(".pair .system")).toHaveCount(2);
    // Two groups x two true answers per system, whole counts of 100, in the state's order.
    const counts = await page.locator(".fair-count").allTextContents();
    const expected = [q.left, q.right].flatMap((v) =>
      v.counts.flatMap((row) => row.map((n) => `${n} of 100 right`)),
    );
    expect(counts).toEqual(expected);
    for (const [side, v] of [
      ["left", q.left],
      ["right", q.right],
    ] as const) {
      const sys = page.locator(`.system[data-side="${side}"]`);
      await expect(sys.locator("tr.fair-everyone")).toContainText(`${v.overall[0]}% right`);
      await expect(sys.locator("tr.fair-gap")).toContainText(`${v.gaps[1]} points`);
    }
    await expect(page.getByTestId("trade-off")).toHaveText(fairTradeOff(q.left, q.right, "System"));
    await noOverflow(page);
    await shot(page, `comparison-${width}`);
  }
  await expect(page.locator(".progress")).toContainText("Question 1 of at most 25");
  await answer(page, "A");
  await answer(page, "ArrowRight");
  await expect(page.locator(".progress")).toContainText("Question 3 of at most 25");
  await page.getByRole("button", { name: "Undo last answer" }).click();
  await expect(page.locator(".progress")).toContainText("Question 2 of at most 25");
  expect((await getState(server.url, token)).fairElicitation!.progress.answered).toBe(1);
});

test("the fairness debrief states lambda as a range and in words", async ({ page }) => {
  const token = await newParticipant();
  await advanceTo(server.url, token, "elicitation");
  await finishOverHttp(token);
  const d = (await getState(server.url, token)).fairDebrief!;
  expect(d.summary).toContain(`Your trade-off lambda is ${d.metric.lambda.toFixed(2)}`);
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await page.goto(`${server.url}/p/${token}`);
    await waitForPhase(page, "debrief");
    await expect(page.getByTestId("result")).toContainText(d.summary);
    await expect(page.locator(".fair-point")).toHaveCount(1);
    await expect(page.getByTestId("completion-code")).toHaveText(d.completionCode);
    await noOverflow(page);
    await shot(page, `debrief-${width}`);
  }
});
