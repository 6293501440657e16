// A study created from an uploaded dataset CSV, in a real browser from creation to export
// (issue 11, "Done when"): the researcher uploads the Pima diabetes data, writes the study's
// own texts with the live preview, opens it live and issues a link; a simulated participant
// with a known metric (a missed case 3 times as bad as a needless test: a0 = 0.25 in
// a0 TN + (1 - a0) TP) answers every page through the UI; the researcher exports. The exported
// metric is within the study's tolerance of the truth, the dashboard, the debrief and the
// exports agree, no page mentions cancer, and every distinct page is saved at 1280 and 390 px.

import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { truthfulAnswer } from "../../src/oracle/noise.ts";
import type { SystemView } from "../../web/src/api/types.ts";
import { formatMetric, formatRange } from "../../web/src/researcher/metric.ts";
import {
  DIABETES_CONSENT,
  DIABETES_CSV_PATH,
  DIABETES_TEXTS,
  DIABETES_WORDS,
  shownQuestion,
} from "../server/diabetes-study.ts";
import { getState, ResearcherClient, tokenOf } from "./api.ts";
import { expect, test } from "./fixtures.ts";
import { RESEARCHER, ROOT, TestServer } from "./server.ts";
import { answer, phaseOf, waitForPhase } from "./ui.ts";

let server: TestServer;

test.beforeAll(async () => {
  server = await TestServer.start();
});

test.afterAll(async () => {
  await server?.dispose();
});

const SHOTS = join(ROOT, "test-results", "screenshots");

/** The page at 1280 and at 390 px wide (full height), then back to 1280. */
async function shots(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `upload-${name}-1280.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(SHOTS, `upload-${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The page's visible text must not mention cancer (the built-in study's words). */
async function noCancer(page: Page, where: string) {
  const text = (await page.locator("body").textContent()) ?? "";
  expect(text.match(/cancer/gi), `${where}: ${text.slice(0, 200)}`).toBeNull();
}

/** The truth: a0 TN + (1 - a0) TP with a0 = 0.25 (missed cases 3 times as bad). */
const A0 = 0.25;

test("a study from an uploaded dataset CSV, from creation to export", async ({ page, browser }) => {
  test.setTimeout(600_000);
  await page.goto(server.url);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await shots(page, "00-sign-in");
  await page.getByLabel("Email").fill(RESEARCHER.email);
  await page.getByLabel("Password").fill(RESEARCHER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Studies" })).toBeVisible();
  await shots(page, "00-studies");

  // --- Create: the dataset, the words, the texts (with a placeholder first), the preview.
  await page.getByRole("link", { name: "Create a study" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Diabetes screening");
  await page.getByLabel(/Upload a dataset/).check();
  // Texts written for the built-in study are pointed out in a study of other data.
  await expect(page.getByTestId("unchanged-texts")).toContainText("the story");
  await expect(page.getByTestId("unchanged-texts")).toContainText("4 comprehension questions");
  await page.locator("#dataset-file").setInputFiles(DIABETES_CSV_PATH);
  await expect(page.getByText("pima_indians_diabetes.csv: 768 rows, 9 columns")).toBeVisible();
  await page.locator("#target").selectOption("diabetes");
  await page.locator("#dataset-positive").selectOption("pos");
  for (const [key, v] of Object.entries(DIABETES_WORDS)) await page.locator(`#w-${key}`).fill(v);
  await page.locator("#consent").fill(DIABETES_CONSENT);
  await page.locator("#t-title").fill(DIABETES_TEXTS.title);
  await page.locator("#t-story").fill("[[Describe the clinic and who is screened]]");
  await page.locator("#t-cost-missed").fill(DIABETES_TEXTS.story.costs.missed);
  await page.locator("#t-cost-false").fill(DIABETES_TEXTS.story.costs.falseAlarm);
  // The built-in study has four comprehension questions; this one asks two of its own.
  while ((await page.locator("[id^=cq-][id$=-prompt]").count()) > 2) {
    await page.getByRole("button", { name: "Remove question 3" }).first().click();
  }
  for (const [i, q] of DIABETES_TEXTS.comprehension.entries()) {
    await page.locator(`#cq-${i}-prompt`).fill(q.prompt);
    await page.locator(`#cq-${i}-options`).fill(q.options.join("\n"));
    await page.locator(`#cq-${i}-correct`).selectOption(q.correct);
    await page.locator(`#cq-${i}-explanation`).fill(q.explanation);
  }
  await page.locator("#t-guess").fill(DIABETES_TEXTS.guessPrompt);
  // The built-in post-task questions ask about missing a cancer: rewrite the first.
  await page.locator("#post-0-label").fill(DIABETES_TEXTS.post[0].label);
  await page.getByLabel("Evaluation pairs (Phase III)").fill("5");

  const preview = page.getByTestId("preview");
  await expect(preview).toContainText("Still to be written");
  await expect(preview).toContainText("story paragraph 1");
  await page.getByRole("button", { name: "Create study" }).click();
  await expect(page.getByRole("alert")).toContainText(
    "Placeholders are left in: story paragraph 1",
  );
  expect(page.url()).not.toContain("#/study/");
  await page.locator("#t-story").fill(DIABETES_TEXTS.story.paragraphs.join("\n\n"));
  await expect(preview).toContainText("No placeholders left.");
  // Nothing of the built-in study's own is left (the post-task questions Q2-Q6 it kept name no
  // disease): the notice that would refuse the study is gone (issue 27 defect 1).
  await expect(page.getByTestId("unchanged-texts")).toHaveCount(0);
  await expect(preview).toContainText(DIABETES_TEXTS.story.paragraphs[1]);
  await expect(preview).toContainText("What missed diabetes cases mean");
  await expect(preview).toContainText(
    "B: 6 more missed diabetes cases and 9 fewer needless glucose tests than A, per 100 adults.",
  );
  await expect(preview).toContainText(
    "For you, missed diabetes cases are between 2 and 3 times as bad as needless glucose tests.",
  );
  await shots(page, "0-create");
  await page.getByRole("button", { name: "Create study" }).click();
  await expect(page).toHaveURL(/#\/study\/[^/]+$/, { timeout: 60_000 });
  await expect(page.getByRole("heading", { name: "Diabetes screening" })).toBeVisible();
  await shots(page, "0-study-draft");
  await page.getByRole("button", { name: "Open live" }).click();
  await expect(page.getByTestId("study-status")).toContainText("live");
  await page.getByLabel("Number of single-use links").fill("1");
  await page.getByRole("button", { name: "Create links" }).click();
  const linkEl = page.getByTestId("invite-links").getByRole("link");
  await expect(linkEl).toHaveCount(1);
  const link = new URL((await linkEl.getAttribute("href"))!, server.url).href;
  const token = tokenOf(link);
  const studyId = page.url().split("/").pop()!;

  const researcher = await ResearcherClient.login(server.url);
  const config = (
    await researcher.request<{ study: { config: { spec: { tolerance: number } } } }>(
      "GET",
      `/api/studies/${studyId}/export/study.json`,
    )
  ).study.config;
  // The simulated participant weighs what the page shows: whole people out of 100.
  const value = (v: SystemView) => A0 * v.tn + (1 - A0) * v.tp;
  const choose = (l: SystemView, r: SystemView): "A" | "B" | "same" => {
    const a = truthfulAnswer(value(l), value(r));
    return a === "first" ? "A" : a === "second" ? "B" : "same";
  };

  // --- The participant, in a fresh browser context, through the UI.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const p = await context.newPage();
  await p.goto(link);
  await waitForPhase(p, "consent");
  await expect(p.locator("main")).toContainText(DIABETES_CONSENT);
  await noCancer(p, "consent");
  await shots(p, "1-consent");
  await p.getByRole("button", { name: "I agree to take part" }).click();

  await waitForPhase(p, "questionnaire");
  await noCancer(p, "questionnaire");
  await shots(p, "2-questionnaire");
  for (const group of await p.locator("fieldset").all()) {
    const radio = group.locator("input[type=radio]");
    if ((await radio.count()) > 0) await radio.first().check();
  }
  await p.getByRole("button", { name: "Continue" }).click();

  await waitForPhase(p, "story");
  await expect(p.locator("main")).toContainText(DIABETES_TEXTS.story.paragraphs[0]);
  await expect(p.locator("main")).toContainText(DIABETES_TEXTS.story.costs.missed);
  await noCancer(p, "story");
  await shots(p, "3-story");
  await p.getByRole("button", { name: /I have read this/ }).click();

  await waitForPhase(p, "comprehension");
  let first = true;
  for (let i = 0; i < 20 && (await phaseOf(p)) === "comprehension"; i++) {
    if (await p.getByTestId("last-feedback").isVisible()) {
      await noCancer(p, "last feedback");
      await shots(p, "4-comprehension-last-feedback");
      await p.getByRole("button", { name: "Continue to the next part" }).click();
      break;
    }
    const prompt = ((await p.locator("legend").first().textContent()) ?? "").trim();
    // The questions' numbers are tokens, filled in from the two systems the page shows.
    const shown = (await getState(server.url, token)).comprehension;
    expect(shown?.question.prompt, prompt).toBe(prompt);
    // (The form gives its questions ids of its own: find this one by its prompt.)
    const raw = DIABETES_TEXTS.comprehension.find((x) => x.prompt === prompt);
    expect(raw, prompt).toBeDefined();
    const q = shownQuestion(raw!.id, shown!.systems!);
    expect(q.prompt).toBe(prompt);
    // Part 1's systems show the pool's class totals, as every comparison does (35 + 65 of 100).
    for (const v of shown!.systems!) expect([v.tp + v.fn, v.fp + v.tn]).toEqual([35, 65]);
    await noCancer(p, "comprehension");
    if (first) await shots(p, "4-comprehension");
    // The first answer is wrong, to see the study's own feedback.
    const pick = first ? q.options.find((o) => o !== q.correct)! : q.correct;
    await p.getByRole("radio", { name: pick, exact: true }).check();
    const before = await p.locator("main").textContent();
    await p.getByRole("button", { name: "Check my answer" }).click();
    await expect.poll(() => p.locator("main").textContent()).not.toBe(before);
    if (first) {
      // A wrong answer with tries left gets the explanation without the answer (up to ":").
      await expect(p.locator(".feedback")).toContainText(q.explanation.split(":")[0]!);
      await noCancer(p, "comprehension feedback");
      await shots(p, "4-comprehension-feedback");
      first = false;
    }
  }

  await waitForPhase(p, "guess");
  await expect(p.locator("main")).toContainText(DIABETES_TEXTS.guessPrompt);
  await noCancer(p, "guess");
  await shots(p, "5-guess");
  await p.locator("#guess").fill("3");
  await p.getByRole("button", { name: "Continue" }).click();

  await waitForPhase(p, "elicitation");
  await expect(p.getByRole("heading", { level: 1 })).toHaveText(DIABETES_WORDS.question);
  await expect(p.getByTestId("trade-off")).toContainText("per 100 adults");
  await noCancer(p, "elicitation");
  await shots(p, "6-elicitation");
  for (let i = 0; i < 200 && (await phaseOf(p)) === "elicitation"; i++) {
    const s = await getState(server.url, token);
    const q = s.elicitation!.question;
    await expect(p.locator(".pair")).toHaveAttribute("data-question-id", String(q.id));
    await answer(p, choose(q.left, q.right));
  }
  await waitForPhase(p, "evaluation");
  await noCancer(p, "evaluation");
  await shots(p, "7-evaluation");
  for (let i = 0; i < 100 && (await phaseOf(p)) === "evaluation"; i++) {
    const s = await getState(server.url, token);
    const q = s.evaluation!.question;
    await expect(p.locator(".pair")).toHaveAttribute("data-question-id", String(q.id));
    await answer(p, choose(q.left, q.right));
  }

  await waitForPhase(p, "post");
  await expect(p.locator("main")).toContainText(DIABETES_TEXTS.post[0].label);
  await noCancer(p, "post");
  await shots(p, "8-post");
  for (const box of await p.locator("textarea").all()) await box.fill("A missed case is worse.");
  await p.getByRole("button", { name: "Finish" }).click();

  await waitForPhase(p, "debrief");
  await noCancer(p, "debrief");
  await shots(p, "9-debrief");
  const debriefText = (await p.getByTestId("result").locator(".result-text").textContent()) ?? "";
  await context.close();

  // --- The researcher: dashboard and exports.
  await page.reload();
  const table = page.getByTestId("participants");
  await expect(table).toContainText("done");
  await shots(page, "10-dashboard");
  const dir = join(ROOT, "test-results", "downloads");
  mkdirSync(dir, { recursive: true });
  const files: Record<string, string> = {};
  for (const name of ["One row per participant (wide CSV)", /Everything/]) {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name }).click(),
    ]);
    const path = join(dir, `upload-${download.suggestedFilename()}`);
    await download.saveAs(path);
    files[download.suggestedFilename()] = readFileSync(path, "utf8");
  }
  const json = JSON.parse(files[Object.keys(files).find((n) => n.endsWith(".json"))!]!);
  const participant = json.participants.find((x: { status: string }) => x.status === "done");
  const summary = participant.summary as {
    metric: { a0: number };
    ratio: number;
    range: { low: number; high: number | null };
  };
  const tolerance = config.spec.tolerance;
  console.log(
    `upload e2e: true a0 ${A0}, exported a0 ${summary.metric.a0}, tolerance ${tolerance}; debrief "${debriefText}"; range ${JSON.stringify(summary.range)}, ratio ${summary.ratio}`,
  );
  // The known metric recovered within the study's tolerance.
  expect(Math.abs(summary.metric.a0 - A0)).toBeLessThanOrEqual(tolerance);
  // The dashboard shows the exported metric and the exported range, in the same form.
  await expect(table).toContainText(formatMetric(summary.metric));
  await expect(table).toContainText(formatRange(summary.range));
  // The debrief states the same range, which holds the participant's true ratio (3).
  const bound = (x: number) => (x >= 10 ? String(x) : x.toFixed(1).replace(/\.0$/, ""));
  expect(debriefText).toContain("missed diabetes cases");
  expect(debriefText).toContain(`between ${bound(summary.range.low)} and`);
  expect(summary.range.high).not.toBeNull();
  expect(debriefText).toContain(`and ${bound(summary.range.high!)} times`);
  expect(summary.range.low).toBeLessThanOrEqual((1 - A0) / A0);
  expect(summary.range.high!).toBeGreaterThanOrEqual((1 - A0) / A0);
  // participants.csv carries the same metric.
  const csv = files[Object.keys(files).find((n) => n.includes("participants"))!]!;
  const [head, ...rows] = csv.trim().split("\n");
  const cols = head!.split(",");
  const row = rows.map((r) => r.split(",")).find((r) => r[cols.indexOf("status")] === "done")!;
  expect(Number(row[cols.indexOf("elicited_tn")])).toBeCloseTo(summary.metric.a0, 6);
  expect(Number(row[cols.indexOf("elicited_tp")])).toBeCloseTo(1 - summary.metric.a0, 6);
});
