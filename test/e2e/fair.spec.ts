// A fairness study (issue 12) in a real browser: the comparison page (each group's correct
// counts of 100 per true answer, everyone's share, the gaps, the trade-off line) at 1280 and
// 390 px, answering by button and keyboard, undo, and the debrief stating lambda as a range.

import { fairTradeOff, points } from "../../web/src/participant/FairComparisonView.tsx";
import { advanceTo, getState } from "./api.ts";
import { expect, test } from "./fixtures.ts";
import { checkPhaseThreePage, finishOverHttp, serveStudy } from "./kind-study.ts";
import { answerByButtonAndKey, atWidths, pairOffScreen, waitForPhase } from "./ui.ts";

const study = serveStudy({
  name: "Release decisions",
  kind: "fair",
  dataset: "arrests",
  groups: "colour",
});

test("the fairness story page names the groups and shows no binary cost boxes", async ({
  page,
}) => {
  const token = await study.newParticipant();
  await advanceTo(study.url, token, "story");
  await atWidths(page, "fair-story", async () => {
    await page.goto(`${study.url}/p/${token}`);
    await waitForPhase(page, "story");
    await expect(page.locator("main")).toContainText("colour: “Black”, “White”");
    await expect(page.locator(".costs")).toHaveCount(0);
  });
});

test("the fairness comparison: each group's counts of 100, everyone, the gaps and the trade-off line as the state has them, at 1280 and 390 px; button, keyboard and undo", async ({
  page,
}) => {
  const token = await study.newParticipant();
  await advanceTo(study.url, token, "elicitation");
  const q = (await getState(study.url, token)).fairElicitation!.question;
  await page.goto(`${study.url}/p/${token}`);
  await waitForPhase(page, "elicitation");
  await atWidths(page, "fair-comparison", async (width) => {
    await expect(page.locator(".pair .system")).toHaveCount(2);
    // Issue 12: on a phone both systems and both buttons fit one screen, side by side.
    if (width < 560) await expect.poll(() => pairOffScreen(page)).toEqual([]);
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
      await expect(sys.locator("tr.fair-everyone")).toContainText(
        `${v.overall[0]!.toFixed(1)}% right`,
      );
      await expect(sys.locator("tr.fair-gap")).toContainText(points(v.gaps[1]!));
    }
    await expect(page.getByTestId("trade-off")).toHaveText(
      fairTradeOff(q.left, q.right, "System", q.classes),
    );
  });
  await answerByButtonAndKey(page);
  await page.getByRole("button", { name: "Undo last answer" }).click();
  await expect(page.locator(".progress")).toContainText("Question 2 of at most 25");
  expect((await getState(study.url, token)).fairElicitation!.progress.answered).toBe(1);
});

test("the fairness debrief states lambda as a range and in words", async ({ page }) => {
  const token = await study.newParticipant();
  await advanceTo(study.url, token, "elicitation");
  await finishOverHttp(study.url, token);
  const d = (await getState(study.url, token)).fairDebrief!;
  expect(d.summary).toContain(`Your trade-off lambda is ${d.metric.lambda.toFixed(2)}`);
  await atWidths(page, "fair-debrief", async () => {
    await page.goto(`${study.url}/p/${token}`);
    await waitForPhase(page, "debrief");
    await expect(page.getByTestId("result")).toContainText(d.summary);
    await expect(page.locator(".fair-point")).toHaveCount(1);
    await expect(page.getByTestId("completion-code")).toHaveText(d.completionCode);
  });
});

test("the fairness Phase III page: part 3 of 3, its pairs at 1280 and 390 px, answered by button", async ({
  page,
}) => {
  await checkPhaseThreePage(page, study, "fair-evaluation");
});
