// Page helpers for the participant flow.

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, type Page } from "@playwright/test";
import { ROOT } from "./server.ts";

export async function phaseOf(page: Page): Promise<string | null> {
  return page.locator("main[data-phase]").getAttribute("data-phase");
}

/**
 * Where the participant is: phase, question id and progress text (changes after every answer).
 * Read in one step inside the page: reading the parts one by one races the re-render after an
 * answer (the pair can disappear between two reads, and the second read then waits for it).
 */
export async function position(page: Page): Promise<string> {
  return page.evaluate(() => {
    const phase = document.querySelector("main[data-phase]")?.getAttribute("data-phase") ?? null;
    const pair = document.querySelector(".pair[data-question-id]");
    if (!pair) return `${phase}`;
    const progress = document.querySelector(".progress")?.textContent ?? "";
    return `${phase}|${pair.getAttribute("data-question-id")}|${progress}`;
  });
}

/** Answer the comparison on screen and wait until the next page is shown. */
export async function answer(
  page: Page,
  how: "A" | "B" | "same" | "ArrowLeft" | "ArrowRight" | "0",
) {
  await expect(page.locator(".pair[data-question-id]")).toBeVisible();
  const before = await position(page);
  if (how === "A") await page.getByRole("button", { name: "I prefer A" }).click();
  else if (how === "B") await page.getByRole("button", { name: "I prefer B" }).click();
  else if (how === "same")
    await page.getByRole("button", { name: "They seem about the same" }).click();
  else await page.keyboard.press(how);
  await expect.poll(() => position(page), { timeout: 15_000 }).not.toBe(before);
}

export async function waitForPhase(page: Page, phase: string) {
  await expect(page.locator("main[data-phase]")).toHaveAttribute("data-phase", phase);
}

/** The two widths every page is checked at: a laptop and a phone (width, height in px). */
export const WIDTHS = [
  [1280, 900],
  [390, 844],
] as const;

/** The page is no wider than the window (nothing scrolls sideways). */
export async function noOverflow(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
  );
  expect(overflow).toBe(false);
}

/**
 * A full-page screenshot in test-results/screenshots/{name}.png.
 * @example await screenshot(page, `fair-comparison-${width}`);
 */
export async function screenshot(page: Page, name: string) {
  const dir = join(ROOT, "test-results", "screenshots");
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

/**
 * The page at each of WIDTHS: sets the window's size, runs `check`, expects nothing to scroll
 * sideways and saves the screenshot `{name}-{width}`.
 * @example await atWidths(page, "fair-story", async () => { await page.goto(url); … });
 */
export async function atWidths(
  page: Page,
  name: string,
  check: (width: number) => Promise<void>,
): Promise<void> {
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await check(width);
    await noOverflow(page);
    await screenshot(page, `${name}-${width}`);
  }
}

/**
 * On the first comparison of at most 25: answers A with its button and B with the Right key,
 * and the page then shows question 3.
 * @example await answerByButtonAndKey(page);
 */
export async function answerByButtonAndKey(page: Page): Promise<void> {
  await expect(page.locator(".progress")).toContainText("Question 1 of at most 25");
  await answer(page, "A");
  await answer(page, "ArrowRight");
  await expect(page.locator(".progress")).toContainText("Question 3 of at most 25");
}

/**
 * Whether both systems of the pair and both "I prefer" buttons lie wholly inside the viewport,
 * scrolled to the top: a participant sees and answers the pair without scrolling. Returns what
 * does not fit ([] when all does).
 * @example expect(await pairOffScreen(page)).toEqual([]);
 */
export async function pairOffScreen(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    window.scrollTo(0, 0);
    const out: string[] = [];
    const check = (e: Element, what: string) => {
      const r = e.getBoundingClientRect();
      if (
        !(
          r.width > 0 &&
          r.top >= 0 &&
          r.left >= 0 &&
          r.bottom <= window.innerHeight &&
          r.right <= window.innerWidth
        )
      )
        out.push(`${what}: ${Math.round(r.top)}..${Math.round(r.bottom)} of ${window.innerHeight}`);
    };
    for (const e of document.querySelectorAll(".pair .system")) check(e, "system");
    for (const b of document.querySelectorAll("button"))
      if (/^I prefer [AB]$/.test(b.textContent ?? "")) check(b, b.textContent ?? "");
    return out;
  });
}
