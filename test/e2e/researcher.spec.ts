// The researcher side in a real browser: sign in, create a study from an uploaded predictions
// CSV, open it, invite, see a finished participant's result, and download the three exports.

import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type MetricRecord, metricWeights } from "../../src/server/participant/metric.ts";
import { type Consensus, consensusLines } from "../../web/src/researcher/Consensus.tsx";
import { advanceTo, tokenOf } from "./api.ts";
import { expect, test } from "./fixtures.ts";
import { RESEARCHER, ROOT, TestServer } from "./server.ts";

let server: TestServer;

test.beforeAll(async () => {
  server = await TestServer.start();
});

test.afterAll(async () => {
  await server?.dispose();
});

/** A deterministic predictions file: 400 rows of label (0/1) and probability. */
function predictionsCsv(): string {
  let seed = 12345;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const rows = ["label,probability"];
  for (let i = 0; i < 400; i++) {
    const y = rand() < 0.35 ? 1 : 0;
    const score = y === 1 ? 0.35 + 0.65 * rand() ** 0.7 : 0.65 * rand() ** 1.5;
    rows.push(`${y},${score.toFixed(4)}`);
  }
  return `${rows.join("\n")}\n`;
}

test("a researcher creates a study from a CSV, invites, sees results and exports", async ({
  page,
}) => {
  await page.goto(server.url);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await page.getByLabel("Email").fill(RESEARCHER.email);
  await page.getByLabel("Password").fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await page.getByLabel("Password").fill(RESEARCHER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Studies" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Cancer diagnosis" })).toBeVisible();

  // Create from an upload; a bad file first gives the parser's message and creates nothing.
  await page.getByRole("link", { name: "Create a study" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Uploaded spam filter");
  await page.getByLabel(/Upload predictions/).check();
  await page.locator("#csv-file").setInputFiles({
    name: "bad.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("label,probability\n1,0.9\n0,1.7\n1,0.4\n"),
  });
  await page.getByRole("button", { name: "Create study" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  expect(page.url()).not.toContain("#/study/");

  await page.locator("#csv-file").setInputFiles({
    name: "predictions.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(predictionsCsv()),
  });
  await expect(page.getByText("predictions.csv: 400 rows, 2 columns")).toBeVisible();
  await page.getByLabel("Positive class (after “Actually …”)").fill("was spam");
  await page.getByLabel("Negative class").fill("was not spam");
  await page.getByLabel("Tolerance").fill("0.05");
  await page.getByLabel("Evaluation pairs (Phase III)").fill("5");
  await page.getByLabel("People the charts count out of (whole people)").fill("200");
  // Issue 27 defect 1: the built-in study's texts (its cancer, its "34 of them") are refused
  // for other data; general texts in the study's words replace them.
  await page.getByRole("button", { name: "Create study" }).click();
  await expect(page.getByRole("alert")).toContainText(
    "these texts are still the built-in breast-cancer study's",
  );
  expect(page.url()).not.toContain("#/study/");
  await page.getByRole("button", { name: "Use general texts written for any data" }).click();
  await expect(page.getByTestId("unchanged-texts")).toHaveCount(0);
  await expect(page.locator("#t-story")).toHaveValue(/those who actually was spam/);
  await page.getByRole("button", { name: "Create study" }).click();
  await expect(page).toHaveURL(/#\/study\/[^/]+$/);
  await expect(page.getByRole("heading", { name: "Uploaded spam filter" })).toBeVisible();
  await expect(page.getByTestId("study-status")).toContainText("draft");

  await page.getByRole("button", { name: "Open live" }).click();
  await expect(page.getByTestId("study-status")).toContainText("live");

  await page.getByLabel("Number of single-use links").fill("2");
  await page.getByRole("button", { name: "Create links" }).click();
  const links = page.getByTestId("invite-links").getByRole("link");
  await expect(links).toHaveCount(2);
  const link = (await links.first().getAttribute("href"))!;
  expect(link).toMatch(/\/p\/[A-Za-z0-9_-]{22,}$/);

  await page.getByRole("button", { name: /Test run/ }).click();
  await expect(page.getByTestId("test-link")).toHaveAttribute("href", /\/p\//);
  // The charts count whole people out of the 200 the study asked for.
  const testLink = (await page.getByTestId("test-link").getAttribute("href"))!;
  const shown = (await advanceTo(server.url, tokenOf(testLink), "elicitation")).elicitation!;
  for (const v of [shown.question.left, shown.question.right]) {
    expect(v.tp + v.fn + v.fp + v.tn).toBe(200);
    expect([v.tp, v.fn, v.fp, v.tn].every(Number.isInteger)).toBe(true);
  }

  // One participant finishes (over HTTP, answering "left" throughout).
  await advanceTo(server.url, tokenOf(link), "debrief");

  await page.reload();
  const table = page.getByTestId("participants");
  await expect(table).toContainText("done");
  await expect(table).toContainText("TP +");
  await expect(page.locator("svg.a0-plot circle")).toHaveCount(1);
  // The dashboard shows what the export holds: a participant who answered "left" throughout.
  mkdirSync(join(ROOT, "test-results", "screenshots"), { recursive: true });
  await page.screenshot({
    path: join(ROOT, "test-results", "screenshots", "researcher-dashboard.png"),
    fullPage: true,
  });
  // On a phone the plot's labels stay legible (issue 11: they were about 8 px) and fit.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.locator("svg.a0-plot circle")).toHaveCount(1);
  for (const text of await page.locator("svg.a0-plot text").all()) {
    const box = (await text.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(12);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  // The consistency column is narrow on a phone: it breaks between the cell's phrases
  // ("0% (0%–15%)", "2 of 2", "leans left"), never inside one.
  const phrases = page.getByTestId("consistency-cell").locator(".unbroken");
  expect(await phrases.count()).toBeGreaterThan(1);
  for (const phrase of await phrases.all())
    expect(await phrase.evaluate((e) => e.getClientRects().length)).toBe(1);
  await page.screenshot({
    path: join(ROOT, "test-results", "screenshots", "researcher-dashboard-390.png"),
    fullPage: true,
  });
  await page.setViewportSize({ width: 1280, height: 900 });

  const dir = join(ROOT, "test-results", "downloads");
  mkdirSync(dir, { recursive: true });
  const files: Record<string, string> = {};
  for (const name of [
    "Every answer (long CSV)",
    "One row per participant (wide CSV)",
    /Everything/,
  ]) {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name }).click(),
    ]);
    const path = join(dir, download.suggestedFilename());
    await download.saveAs(path);
    files[download.suggestedFilename()] = readFileSync(path, "utf8");
  }
  const names = Object.keys(files);
  const answers = files[names.find((n) => n.includes("answers"))!]!;
  const participants = files[names.find((n) => n.includes("participants"))!]!;
  const study = files[names.find((n) => n.endsWith(".json"))!]!;
  expect(answers.trim().split("\n").length).toBeGreaterThan(5);
  expect(participants.trim().split("\n").length).toBeGreaterThanOrEqual(2);
  expect(typeof JSON.parse(study)).toBe("object");
  expect(study).toContain("Uploaded spam filter");
  // The binary study's consensus: study.json's, and the dashboard shows the same lines (the
  // weight on TP, the threshold best for it and whether the participant's own is the same).
  const json = JSON.parse(study) as {
    consensus: Consensus;
    participants: { id: number; summary: { metric: MetricRecord } }[];
  };
  // The participant answered "left" throughout, whatever the sides showed: their answers may
  // be indistinguishable from a coin's, and then the consensus leaves them out unless the
  // researcher includes them (issue 26). Either way they are counted once.
  const flagged = json.consensus.coinLike ?? [];
  expect(json.consensus.n + flagged.length).toBe(1);
  if (flagged.length > 0) {
    await expect(page.getByTestId("participants")).toContainText("like a coin");
    await page.getByLabel("Include participants whose answers a coin could have given").check();
  }
  const studyId = page.url().split("#/study/")[1]!;
  const consensus = (
    (await (
      await page.request.get(`${server.url}/api/studies/${studyId}/consensus?coinLike=include`)
    ).json()) as { consensus: Consensus }
  ).consensus;
  expect(consensus.n).toBe(1);
  // One participant: the consensus weight is their own tp / (tp + tn), with no spread.
  const own = json.participants.find((p) => p.id === consensus.participants[0]);
  const tp = metricWeights(own!.summary.metric).tp;
  expect(consensus.tpWeight!.mean).toBeCloseTo(tp, 12);
  expect(consensus.tpWeight!.min).toBeCloseTo(tp, 12);
  expect(consensus.tpWeight!.max).toBeCloseTo(tp, 12);
  expect(consensus.tpWeight!.sd).toBe(0);
  expect(consensus.best!.agree).toBe(1);
  for (const line of consensusLines(consensus))
    await expect(page.getByTestId("consensus")).toContainText(line);
});
