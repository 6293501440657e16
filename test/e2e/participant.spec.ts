// The participant flow in a real browser against a real server.

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { advanceTo, getState, ResearcherClient, tokenOf } from "./api.ts";
import { expect, test } from "./fixtures.ts";
import { ROOT, TestServer } from "./server.ts";
import { answer, phaseOf, position, waitForPhase } from "./ui.ts";

test.describe.configure({ mode: "serial" });

let server: TestServer;
let researcher: ResearcherClient;

test.beforeAll(async () => {
  server = await TestServer.start();
  researcher = await ResearcherClient.login(server.url);
});

test.afterAll(async () => {
  await server?.dispose();
});

/** A fresh participant already at Phase II (the earlier phases answered over HTTP). */
async function atElicitation(page: Page): Promise<string> {
  const [link] = await researcher.invite(1);
  const token = tokenOf(link!);
  await advanceTo(server.url, token, "elicitation");
  await page.goto(`${server.url}/p/${token}`);
  await waitForPhase(page, "elicitation");
  return token;
}

async function answered(token: string): Promise<number> {
  const s = await getState(server.url, token);
  return s.elicitation?.progress.answered ?? Number.NaN;
}

const SHOTS = join(ROOT, "test-results", "screenshots");

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `flow-${name}.png`), fullPage: true });
}

test("a participant completes the whole flow", async ({ page }) => {
  const [link] = await researcher.invite(1);
  await page.goto(link!.replace(/^https?:\/\/[^/]+/, server.url));

  await waitForPhase(page, "consent");
  await shot(page, "1-consent");
  await page.getByRole("button", { name: "I agree to take part" }).click();

  await waitForPhase(page, "questionnaire");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("alert")).toContainText("Please answer");
  // Issue 11: the summary is above the questions and takes focus (not left on the button).
  await expect(page.getByTestId("form-errors")).toBeFocused();
  const summaryBox = (await page.getByTestId("form-errors").boundingBox())!;
  const firstQuestion = (await page.locator("fieldset").first().boundingBox())!;
  expect(summaryBox.y).toBeLessThan(firstQuestion.y);
  await expect(page.locator("fieldset[aria-invalid=true]").first()).toBeVisible();
  await shot(page, "2-questionnaire");
  for (const group of await page.locator("fieldset").all()) {
    await group.locator("input[type=radio]").first().check();
  }
  await page.getByRole("button", { name: "Continue" }).click();

  await waitForPhase(page, "story");
  await expect(page.getByRole("heading", { name: "The task" })).toBeVisible();
  await shot(page, "3-story");
  await page.getByRole("button", { name: /I have read this/ }).click();

  await waitForPhase(page, "comprehension");
  await shot(page, "4-comprehension");
  for (let i = 0; i < 60 && (await phaseOf(page)) === "comprehension"; i++) {
    // After the last check its feedback is shown before the next part (issue 11).
    if (await page.getByTestId("last-feedback").isVisible()) {
      await expect(page.getByTestId("last-feedback")).toContainText("About your last answer");
      await shot(page, "4-comprehension-last-feedback");
      await page.getByRole("button", { name: "Continue to the next part" }).click();
      break;
    }
    const before = await page.locator("main").textContent();
    await page.locator("input[name=comprehension]").first().check();
    await Promise.all([
      page.waitForResponse(
        (r) => r.url().endsWith("/comprehension") && r.request().method() === "POST",
      ),
      page.getByRole("button", { name: "Check my answer" }).click(),
    ]);
    await expect.poll(() => page.locator("main").textContent()).not.toBe(before);
    if (i === 0) await shot(page, "4-comprehension-feedback");
  }
  await expect(page.locator("main")).not.toHaveAttribute("data-phase", "comprehension");

  if ((await phaseOf(page)) === "guess") {
    await shot(page, "5-guess");
    await page.locator("#guess").fill("5");
    await page.getByRole("button", { name: "Continue" }).click();
  }

  await waitForPhase(page, "elicitation");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Which system would you rather your doctor used?",
  );
  const keys = ["ArrowLeft", "A", "ArrowRight", "B", "0", "same"] as const;
  for (let i = 0; i < 200 && (await phaseOf(page)) === "elicitation"; i++) {
    await answer(page, keys[i % keys.length]!);
  }

  await waitForPhase(page, "evaluation");
  // The 15 random pairs and 2 of the participant's own Phase II pairs shown again (issue 26).
  await expect(page.locator(".progress")).toContainText("of 17");
  for (let i = 0; i < 100 && (await phaseOf(page)) === "evaluation"; i++) {
    await answer(page, i % 2 === 0 ? "A" : "ArrowRight");
  }

  await waitForPhase(page, "post");
  await shot(page, "7-post");
  for (const box of await page.locator("textarea, input[type=text], input[type=number]").all()) {
    await box.fill((await box.getAttribute("type")) === "number" ? "3" : "It was clear.");
  }
  await page.getByRole("button", { name: "Finish" }).click();

  await waitForPhase(page, "debrief");
  await expect(page.getByRole("heading", { name: "Thank you!" })).toBeVisible();
  await expect(page.getByTestId("completion-code")).not.toBeEmpty();
  // The result as a range (no decimal past the first) with the guess beside it.
  await expect(page.getByTestId("result")).toContainText("From your comparisons");
  await expect(page.getByTestId("result")).not.toContainText(/\d\.\d\d/);
  await expect(page.getByTestId("guess")).toContainText(
    "Missed cancers: 5 times as bad as false alarms.",
  );
  await shot(page, "8-debrief");
});

test("a refresh in the middle of Phase II continues at the same question", async ({ page }) => {
  await atElicitation(page);
  await answer(page, "A");
  await answer(page, "B");
  const here = await position(page);
  await page.reload();
  await waitForPhase(page, "elicitation");
  await expect.poll(() => position(page)).toBe(here);
  await answer(page, "A");
});

test("a double click records one answer", async ({ page }) => {
  const token = await atElicitation(page);
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/answer")) posts.push(r.url());
  });

  const n0 = await answered(token);
  const before = await position(page);
  await page.getByRole("button", { name: "I prefer A" }).dblclick();
  await expect.poll(() => position(page)).not.toBe(before);
  await page.waitForLoadState("networkidle");
  expect(await answered(token)).toBe(n0 + 1);

  // Two clicks in the same task, before the page can re-render.
  const before2 = await position(page);
  await page.evaluate(() => {
    const b = [...document.querySelectorAll("button")].find((x) => x.textContent === "I prefer B")!;
    b.click();
    b.click();
  });
  await expect.poll(() => position(page)).not.toBe(before2);
  await page.waitForLoadState("networkidle");
  expect(await answered(token)).toBe(n0 + 2);
  expect(posts).toHaveLength(2);

  // The race CI met: the server answered between the two clicks of a double click, the next
  // question was on screen, and its button (in the same place) took the second click. Made
  // certain here: the second half of the double click waits for the next question.
  const before3 = await position(page);
  const box = (await page.getByRole("button", { name: "I prefer A" }).boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down({ clickCount: 1 });
  await page.mouse.up({ clickCount: 1 });
  await expect.poll(() => position(page)).not.toBe(before3);
  await page.waitForLoadState("networkidle");
  const after3 = await position(page);
  await expect(page.getByRole("button", { name: "I prefer A" })).toBeEnabled();
  await page.mouse.down({ clickCount: 2 });
  await page.mouse.up({ clickCount: 2 });
  await page.waitForLoadState("networkidle");
  expect(await answered(token)).toBe(n0 + 3);
  expect(await position(page)).toBe(after3);
  expect(posts).toHaveLength(3);
});

test("undo goes back to the previous question", async ({ page }) => {
  const token = await atElicitation(page);
  await expect(page.getByRole("button", { name: "Undo last answer" })).toBeDisabled();
  await answer(page, "A");
  const first = await position(page);
  const n1 = await answered(token);
  await answer(page, "B");
  expect(await answered(token)).toBe(n1 + 1);
  await page.getByRole("button", { name: "Undo last answer" }).click();
  await expect.poll(() => position(page)).toBe(first);
  expect(await answered(token)).toBe(n1);
  // And the search continues from there.
  await answer(page, "A");
  expect(await answered(token)).toBe(n1 + 1);
});

test("a choice made in a stale second tab is not recorded, and the page says so", async ({
  page,
  context,
}) => {
  const token = await atElicitation(page);
  const stale = await context.newPage();
  await stale.goto(`${server.url}/p/${token}`);
  await waitForPhase(stale, "elicitation");
  await answer(page, "A");
  const n = await answered(token);
  // The second tab still shows the question just answered in the first.
  await stale.getByRole("button", { name: "I prefer B" }).click();
  await expect(stale.getByTestId("duplicate-notice")).toContainText(
    "already been answered, perhaps in another tab or window",
  );
  expect(await answered(token)).toBe(n);
  // Both tabs now show the same question; the next choice is recorded and the notice goes.
  await expect.poll(() => position(stale)).toBe(await position(page));
  await answer(stale, "A");
  await expect(stale.getByTestId("duplicate-notice")).toHaveCount(0);
  expect(await answered(token)).toBe(n + 1);
  await stale.close();
});

test("a server restart in the middle of a session loses nothing", async ({ page }) => {
  const token = await atElicitation(page);
  await answer(page, "A");
  await answer(page, "ArrowRight");
  const here = await position(page);
  const n = await answered(token);
  await server.restart();
  await page.reload();
  await waitForPhase(page, "elicitation");
  await expect.poll(() => position(page)).toBe(here);
  expect(await answered(token)).toBe(n);
  await answer(page, "B");
  expect(await answered(token)).toBe(n + 1);
});

test("the comparison page is legible at 1280 and 390 px (screenshots)", async ({ page }) => {
  await atElicitation(page);
  const dir = join(ROOT, "test-results", "screenshots");
  mkdirSync(dir, { recursive: true });
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    const phone = width < 560;
    // Wide: two flow charts side by side. Phone: two compact count tables side by side.
    await expect(page.locator("figure.flow-chart svg")).toHaveCount(phone ? 0 : 2);
    await expect(page.locator("table.compact-counts")).toHaveCount(phone ? 2 : 0);
    // Let the charts re-measure their containers.
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(dir, `comparison-${width}.png`), fullPage: true });

    // Issue 11: both systems, their trade-off line and both "I prefer" buttons are fully in
    // one viewport without scrolling, and no visible text is under 12 px.
    const fits = await page.evaluate(() => {
      const inside = (e: Element | null) => {
        if (e === null) return false;
        const r = e.getBoundingClientRect();
        return (
          r.width > 0 &&
          r.top >= 0 &&
          r.left >= 0 &&
          r.bottom <= window.innerHeight &&
          r.right <= window.innerWidth
        );
      };
      const systems = [...document.querySelectorAll(".pair .system")];
      const buttons = [...document.querySelectorAll("button")].filter((b) =>
        /^I prefer [AB]$/.test(b.textContent ?? ""),
      );
      let smallest = Number.POSITIVE_INFINITY;
      let smallestText = "";
      for (const e of document.querySelectorAll("body *")) {
        if (e.closest(".visually-hidden") !== null || e.closest("svg") !== null) continue;
        const own = [...e.childNodes].some(
          (n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? "").trim() !== "",
        );
        if (!own || e.getClientRects().length === 0) continue;
        const size = Number.parseFloat(getComputedStyle(e).fontSize);
        if (size < smallest) {
          smallest = size;
          smallestText = (e.textContent ?? "").trim().slice(0, 40);
        }
      }
      for (const svg of document.querySelectorAll<SVGSVGElement>("figure.flow-chart svg")) {
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        for (const t of svg.querySelectorAll("text")) {
          smallest = Math.min(smallest, Number.parseFloat(getComputedStyle(t).fontSize) * scale);
        }
      }
      return {
        scrollY: window.scrollY,
        systems: systems.map(inside),
        buttons: buttons.map(inside),
        tradeOff: inside(document.querySelector("[data-testid=trade-off]")),
        smallest,
        smallestText,
      };
    });
    expect(fits.scrollY).toBe(0);
    expect(fits.systems).toEqual([true, true]);
    expect(fits.buttons).toEqual([true, true]);
    expect(fits.tradeOff).toBe(true);
    expect(fits.smallest, `smallest text: "${fits.smallestText}"`).toBeGreaterThanOrEqual(12);

    const report = await page.evaluate(() => {
      const svgs = [...document.querySelectorAll<SVGSVGElement>("figure.flow-chart svg")];
      let minFont = Number.POSITIVE_INFINITY;
      for (const svg of svgs) {
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        for (const t of svg.querySelectorAll("text")) {
          minFont = Math.min(minFont, Number.parseFloat(getComputedStyle(t).fontSize) * scale);
        }
      }
      const systems = [...document.querySelectorAll(".pair .system")].map((s) =>
        s.getBoundingClientRect(),
      );
      return {
        minFont,
        titles: svgs.map((s) => s.querySelector("title")?.textContent ?? ""),
        descs: svgs.map((s) => (s.querySelector("desc")?.textContent ?? "").length),
        tables: document.querySelectorAll("table.numbers").length,
        captions: [...document.querySelectorAll("table.compact-counts caption")].map(
          (c) => c.textContent ?? "",
        ),
        overflow: document.documentElement.scrollWidth - window.innerWidth,
        wide: [...document.querySelectorAll("body *")]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
          .map((e) => `${e.tagName}.${e.getAttribute("class")}`)
          .slice(0, 5),
        sideBySide: Math.abs(systems[0]!.top - systems[1]!.top) < 2,
      };
    });
    if (phone) {
      expect(report.captions).toEqual([
        "System A: outcomes out of 100 patients",
        "System B: outcomes out of 100 patients",
      ]);
    } else {
      expect(report.minFont).toBeGreaterThanOrEqual(14);
      expect(report.titles).toEqual(["System A", "System B"]);
      expect(Math.min(...report.descs)).toBeGreaterThan(40);
      expect(report.tables).toBe(2);
    }
    expect(report.overflow, `too wide: ${report.wide.join(", ")}`).toBeLessThanOrEqual(0);
    expect(report.sideBySide).toBe(true);
    // Issue 11: "I prefer A" and "I prefer B" sit at the same height side by side, whatever
    // the two systems show.
    const tops = await page
      .getByRole("button", { name: /^I prefer [AB]$/ })
      .evaluateAll((bs) => bs.map((b) => b.getBoundingClientRect().top));
    expect(tops).toHaveLength(2);
    expect(Math.abs(tops[0]! - tops[1]!)).toBeLessThan(1);
    // Whole patients with the study's class totals, and the trade-off in one plain line.
    const counts = await page
      .locator(phone ? "table.compact-counts tr[data-outcome]" : "figure.flow-chart svg g.arrow")
      .evaluateAll((gs) => gs.map((g) => Number(g.getAttribute("data-count"))));
    expect(counts).toHaveLength(8);
    expect(counts.every((n) => Number.isInteger(n))).toBe(true);
    expect(counts.slice(0, 4).reduce((a, b) => a + b, 0)).toBe(100);
    await expect(page.getByTestId("trade-off")).toBeVisible();
    await expect(page.getByTestId("trade-off")).toHaveText(
      /^B: (\d+ (more|fewer)|the same number of) missed cancers? and (\d+ (more|fewer)|the same number of) false alarms? than A, per 100 patients\.$/,
    );
  }
  // Buttons have a visible focus ring.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.keyboard.press("Tab");
  const outline = await page.evaluate(() => {
    const b = [...document.querySelectorAll("button")].find((x) => x.textContent === "I prefer A")!;
    b.focus();
    return getComputedStyle(b).outlineStyle;
  });
  expect(outline).not.toBe("none");
});

test("declining consent withdraws, and an unknown link says so", async ({ page }) => {
  const [link] = await researcher.invite(1);
  await page.goto(`${server.url}/p/${tokenOf(link!)}`);
  await waitForPhase(page, "consent");
  await page.getByRole("button", { name: "I do not agree" }).click();
  await waitForPhase(page, "withdrawn");
  await expect(page.getByRole("heading", { name: "You are not taking part" })).toBeVisible();
  await page.reload();
  await waitForPhase(page, "withdrawn");

  await page.goto(`${server.url}/p/this-token-does-not-exist`);
  await expect(page.getByRole("alert")).toBeVisible();
});
