// A quadratic study (issue 27 item 3: the UAI 2022 quadratic metric in the browser) in a real
// browser: made in the create form, a participant's comparison page, Phase III and debrief at
// 1280 and 390 px (axe and screenshots), and the dashboard's row stating the debrief's figures.

import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { evaluateQuadratic, type QuadraticMetric } from "../../src/elicit/quadratic/metric.ts";
import type { StudyConfig } from "../../src/server/study/config.ts";
import type { ParticipantRow } from "../../web/src/api/types.ts";
import { formatMetric } from "../../web/src/researcher/metric.ts";
import { advanceTo, getState, ResearcherClient, tokenOf } from "./api.ts";
import { expect, test } from "./fixtures.ts";
import { checkPhaseThreePage, finishOverHttp } from "./kind-study.ts";
import { RESEARCHER, TestServer } from "./server.ts";
import { answer, atWidths, pairOffScreen, waitForPhase } from "./ui.ts";

test.describe.configure({ mode: "serial" });

let server: TestServer | undefined;
let researcher: ResearcherClient;
let studyId = "";

test.beforeAll(async () => {
  server = await TestServer.start();
  researcher = await ResearcherClient.login(server.url);
});

test.afterAll(async () => {
  await server?.dispose();
});

const url = () => server!.url;

/** Serious and critical axe violations of the page as it is: none allowed. */
async function axe(page: Page, where: string): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${where}: ${v.id} (${v.impact}) ${v.help}`);
  expect(bad).toEqual([]);
}

async function signIn(page: Page): Promise<void> {
  await page.goto(url());
  await page.getByLabel("Email").fill(RESEARCHER.email);
  await page.getByLabel("Password").fill(RESEARCHER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Studies" })).toBeVisible();
}

/** A new test-run participant of the study; its token. */
async function newParticipant(): Promise<string> {
  const { link } = await researcher.request<{ link: string }>(
    "POST",
    `/api/studies/${studyId}/test-run`,
  );
  return tokenOf(new URL(link, url()).href);
}

test("a quadratic study from the create form: its kind, bundled datasets and one family", async ({
  page,
}) => {
  await signIn(page);
  await page.getByRole("link", { name: "Create a study" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Flowers, evenly");
  await page.getByLabel(/^Quadratic/).check();
  await page.getByLabel(/^One of the bundled datasets/).check();
  // 3 or 4 classes: glass (6) is not offered.
  const options = await page.locator("#kind-bundled option").allTextContents();
  expect(options.join(" ")).not.toMatch(/glass/);
  await page.getByLabel("Bundled dataset", { exact: true }).selectOption("iris");
  await expect(page.getByLabel(/^A weight per class and the cost of uneven results/)).toBeChecked();
  await atWidths(page, "quadratic-create", async (width) => {
    await page.waitForTimeout(150); // let a resize re-render settle
    await axe(page, `create @${width}`);
  });
  await page.getByRole("button", { name: "Create study" }).click();
  await expect(page).toHaveURL(/#\/study\/[^/]+$/, { timeout: 60_000 });
  await expect(page.getByRole("heading", { name: "Flowers, evenly" })).toBeVisible();
  studyId = page.url().split("/").pop()!;
  const json = (await (
    await page.request.get(`${url()}/api/studies/${studyId}/export/study.json`)
  ).json()) as { study: { config: StudyConfig } };
  expect(json.study.config.kind).toBe("quadratic");
  expect(json.study.config.spec).toMatchObject({ family: "quadratic", tolerance: 0.1, budget: 30 });
});

test("the quadratic comparison: whole counts of 100 per class at 1280 and 390 px, answered by button", async ({
  page,
}) => {
  const token = await newParticipant();
  await advanceTo(url(), token, "elicitation");
  await page.goto(`${url()}/p/${token}`);
  await waitForPhase(page, "elicitation");
  await atWidths(page, "quadratic-comparison", async (width) => {
    await expect(page.locator(".pair .system")).toHaveCount(2);
    if (width < 560) await expect.poll(() => pairOffScreen(page)).toEqual([]);
    const heads = await page.locator(".mc-head").allTextContents();
    expect(heads).toHaveLength(6);
    for (const h of heads) {
      const m = /(\d+) of 100 right \((\d+)%\)/.exec(h);
      expect(m, h).not.toBeNull();
      expect(m![1]).toBe(m![2]);
    }
    await page.waitForTimeout(150);
    await axe(page, `comparison @${width}`);
  });
  await expect(page.locator(".progress")).toContainText("Question 1 of at most 30");
  await answer(page, "A");
  await expect(page.locator(".progress")).toContainText("Question 2 of at most 30");
});

test("the quadratic Phase III page: part 3 of 3, its pairs at 1280 and 390 px", async ({
  page,
}) => {
  await checkPhaseThreePage(page, { url: url(), newParticipant }, "quadratic-evaluation");
});

// A person who judges the rates shown by a quadratic metric: uneven results between the first
// two classes cost them (always answering "left" may leave a metric under which one more
// person right is worth nothing, whose debrief rightly says the imbalance is not stated).
const PERSON: QuadraticMetric = {
  a: [0.6, 0.5, 0.4],
  B: [
    [-1.5, 0.8, 0],
    [0.8, -1.5, 0],
    [0, 0, -0.4],
  ],
};

test("the quadratic debrief says which classes matter and what uneven results cost; the dashboard states the same", async ({
  page,
}) => {
  const token = await newParticipant();
  await advanceTo(url(), token, "elicitation");
  await finishOverHttp(url(), token, (q) => {
    if (q.kind !== "multiclass") throw new Error("a quadratic study asks multiclass questions");
    const left = evaluateQuadratic(PERSON, q.left.rates);
    return left >= evaluateQuadratic(PERSON, q.right.rates) ? "left" : "right";
  });
  const d = (await getState(url(), token)).multiclassDebrief!;
  expect(d.kindFigures!.text).toMatch(/^Uneven results between classes cost you/);
  await page.goto(`${url()}/p/${token}`);
  await waitForPhase(page, "debrief");
  await atWidths(page, "quadratic-debrief", async (width) => {
    await expect(page.getByTestId("result")).toContainText(d.summary);
    await expect(page.getByTestId("result")).toContainText(d.kindFigures!.text);
    await expect(page.locator("ul.mc-weights li")).toHaveCount(3);
    await expect(page.getByTestId("completion-code")).toHaveText(d.completionCode);
    await page.waitForTimeout(150);
    await axe(page, `debrief @${width}`);
  });

  // The dashboard's row: the debrief's weights per case and its imbalance, in a few words.
  const rows = (
    await researcher.request<{ participants: ParticipantRow[] }>(
      "GET",
      `/api/studies/${studyId}/participants`,
    )
  ).participants;
  const row = rows.find((r) => r.completionCode === d.completionCode)!;
  expect(row.classWeights).toEqual(d.classWeights);
  expect(row.kindFigures).toEqual(d.kindFigures);
  const text = formatMetric(row.metric, row.adaptive?.unidentified, row);
  expect(text).toContain(d.kindFigures!.short);
  await signIn(page);
  await page.goto(`${url()}/#/study/${studyId}`);
  await expect(page.getByRole("heading", { name: "Flowers, evenly" })).toBeVisible();
  await atWidths(page, "quadratic-dashboard", async (width) => {
    await expect(page.locator("main")).toContainText(text);
    await expect(page.getByTestId("no-plot")).toBeVisible();
    await page.waitForTimeout(150);
    await axe(page, `dashboard @${width}`);
  });
});
