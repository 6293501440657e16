// A k = 5 multiclass study (issue 12: glass without its smallest class, `classes`) in a real
// browser: the story, the comparison page (five true classes per system, whole counts of
// 100) at 1280 and 390 px, answering by button and keyboard, and the debrief with five weights.

import { advanceTo, getState } from "./api.ts";
import { expect, test } from "./fixtures.ts";
import { finishOverHttp, serveStudy } from "./kind-study.ts";
import { answerByButtonAndKey, atWidths, pairOffScreen, waitForPhase } from "./ui.ts";

const CLASSES = ["1", "2", "3", "5", "7"];
/** The same classes as participants read them (glass's labels are codes: `classLabels`). */
const SHOWN = [
  "building windows (float glass)",
  "building windows (other glass)",
  "vehicle windows",
  "containers",
  "headlamps",
];
const study = serveStudy({
  name: "Glass types",
  kind: "multiclass",
  dataset: "glass",
  classes: CLASSES,
});

test("the k = 5 story and comparison: five true classes per system, whole counts of 100, legible at 1280 and 390 px; button and keyboard", async ({
  page,
}) => {
  const token = await study.newParticipant();
  await advanceTo(study.url, token, "story");
  await atWidths(page, "multiclass-k5-story", async () => {
    await page.goto(`${study.url}/p/${token}`);
    await waitForPhase(page, "story");
    await expect(page.locator(".costs")).toHaveCount(0);
  });
  await advanceTo(study.url, token, "elicitation");
  const q = (await getState(study.url, token)).multiclassElicitation!.question;
  expect(q.classes).toEqual(SHOWN);
  await page.goto(`${study.url}/p/${token}`);
  await waitForPhase(page, "elicitation");
  await atWidths(page, "multiclass-k5-comparison", async (width) => {
    await expect(page.locator(".pair .system")).toHaveCount(2);
    // Issue 12: on a phone both systems and both buttons fit one screen, side by side.
    if (width < 560) await expect.poll(() => pairOffScreen(page)).toEqual([]);
    const heads = await page.locator(".mc-head").allTextContents();
    expect(heads).toHaveLength(10);
    const expected = [q.left, q.right].flatMap((v) => v.counts.map((row, i) => row[i]));
    heads.forEach((h, n) => {
      const m = /(\d+) of 100 right \((\d+)%\)/.exec(h);
      expect(m, h).not.toBeNull();
      expect(Number(m![1])).toBe(expected[n]);
      expect(m![1]).toBe(m![2]);
    });
  });
  await answerByButtonAndKey(page);
  expect((await getState(study.url, token)).multiclassElicitation!.progress.answered).toBe(2);
});

test("the k = 5 debrief names the mistake minded most and shows five weights", async ({ page }) => {
  const token = await study.newParticipant();
  await advanceTo(study.url, token, "elicitation");
  await finishOverHttp(study.url, token);
  const d = (await getState(study.url, token)).multiclassDebrief!;
  expect(d.classes).toEqual(SHOWN);
  await atWidths(page, "multiclass-k5-debrief", async () => {
    await page.goto(`${study.url}/p/${token}`);
    await waitForPhase(page, "debrief");
    await expect(page.getByTestId("result")).toContainText(d.summary);
    await expect(page.locator("ul.mc-weights li")).toHaveCount(5);
  });
});
