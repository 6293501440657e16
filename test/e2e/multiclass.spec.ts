// A multiclass study (issue 12, first slice) in a real browser: the k x k comparison page at
// 1280 and 390 px, answering by button and keyboard, undo, and the debrief in words.

import { advanceTo, getState } from "./api.ts";
import { expect, test } from "./fixtures.ts";
import { checkPhaseThreePage, finishOverHttp, serveStudy } from "./kind-study.ts";
import {
  answerByButtonAndKey,
  atWidths,
  pairOffScreen,
  screenshot,
  WIDTHS,
  waitForPhase,
} from "./ui.ts";

const study = serveStudy({ name: "Flowers", kind: "multiclass", dataset: "iris" });

/** A test-run participant of the multiclass study, at Phase II (earlier phases over HTTP). */
async function atElicitation(): Promise<string> {
  const token = await study.newParticipant();
  await advanceTo(study.url, token, "elicitation");
  return token;
}

test("the multiclass comparison: whole counts of 100 per class, legible at 1280 and 390 px, button, keyboard and undo", async ({
  page,
}) => {
  const token = await atElicitation();
  await page.goto(`${study.url}/p/${token}`);
  await waitForPhase(page, "elicitation");
  await atWidths(page, "multiclass-comparison", async (width) => {
    await expect(page.locator(".pair .system")).toHaveCount(2);
    // Issue 12: on a phone both systems and both buttons fit one screen, side by side.
    if (width < 560) await expect.poll(() => pairOffScreen(page)).toEqual([]);
    // Three true classes per system, each "N of 100 right (N%)" with the same N twice.
    const heads = await page.locator(".mc-head").allTextContents();
    expect(heads).toHaveLength(6);
    for (const h of heads) {
      const m = /(\d+) of 100 right \((\d+)%\)/.exec(h);
      expect(m, h).not.toBeNull();
      expect(m![1]).toBe(m![2]);
    }
  });
  await answerByButtonAndKey(page);
  await page.getByRole("button", { name: "Undo last answer" }).click();
  await expect(page.locator(".progress")).toContainText("Question 2 of at most 25");
  expect((await getState(study.url, token)).multiclassElicitation!.progress.answered).toBe(1);
});

test("the multiclass debrief says in words which mistakes the participant minds most", async ({
  page,
}) => {
  const token = await atElicitation();
  await finishOverHttp(study.url, token);
  const d = (await getState(study.url, token)).multiclassDebrief!;
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await page.goto(`${study.url}/p/${token}`);
    await waitForPhase(page, "debrief");
    await expect(page.getByTestId("result")).toContainText(d.summary);
    await expect(page.locator("ul.mc-weights li")).toHaveCount(3);
    // Phase III's agreement M, as the state has it.
    await expect(page.getByTestId("agreement")).toContainText(
      `of your own choices in the last part (${Math.round(d.agreement! * (d.agreementDetail!.pairs - d.agreementDetail!.ties - d.agreementDetail!.metricTies))} of`,
    );
    await expect(page.getByTestId("completion-code")).toHaveText(d.completionCode);
    await screenshot(page, `multiclass-debrief-${width}`);
  }
});

test("the multiclass Phase III page: part 3 of 3, its pairs at 1280 and 390 px, answered by button", async ({
  page,
}) => {
  await checkPhaseThreePage(page, study, "multiclass-evaluation");
});
