// Accessibility in a real browser (issue 11 item 6): axe (@axe-core/playwright, every rule it
// runs by default) on every participant page of a binary, a multiclass, a fair and a quadratic study and on every
// researcher page, at 1280 and 390 px; no serious or critical violation may remain. Then one
// participant goes through a whole binary study with the keyboard alone (Tab, Shift+Tab,
// Space, Enter and typing; no mouse, no arrow keys).

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import type { ParticipantState, Phase } from "../../web/src/api/types.ts";
import { advanceTo, getState, ResearcherClient, tokenOf } from "./api.ts";
import { expect, test } from "./fixtures.ts";
import { RESEARCHER, ROOT, TestServer } from "./server.ts";
import { waitForPhase } from "./ui.ts";

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

const SHOTS = join(ROOT, "test-results", "screenshots");
const WIDTHS = [1280, 390] as const;

/** Serious and critical axe violations of the page as it is, one line each. */
async function seriousViolations(page: Page, where: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${where}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(", ")}`,
    );
}

/** Check the page at both widths; returns the problems found. */
async function checkPage(page: Page, name: string): Promise<string[]> {
  const problems: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(150); // let a resize re-render settle
    problems.push(...(await seriousViolations(page, `${name} @${width}`)));
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `a11y-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  return problems;
}

/** A participant of `studyId` (an invite, or a test run when the study is not open). */
async function participantLink(studyId: number | string, testRun: boolean): Promise<string> {
  if (!testRun) return (await researcher.invite(1, studyId))[0]!;
  const { link } = await researcher.request<{ link: string }>(
    "POST",
    `/api/studies/${studyId}/test-run`,
  );
  return new URL(link, server.url).href;
}

/** POST as a participant over HTTP (retrying on the rate limit). */
async function send(token: string, path: string, body: unknown): Promise<ParticipantState> {
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
    const parsed = JSON.parse(text) as ParticipantState | { state: ParticipantState };
    return "state" in parsed ? parsed.state : parsed;
  }
}

/**
 * Move a participant to `target` over HTTP: `advanceTo` for every kind's common phases, the
 * multiclass questions (answered "left") and the post-task form here.
 */
async function reach(token: string, target: Phase): Promise<void> {
  for (let step = 0; step < 200; step++) {
    const s = await getState(server.url, token);
    if (s.phase === target) return;
    const other = s.multiclassElicitation ?? s.fairElicitation;
    if (s.phase === "elicitation" && other) {
      await send(token, "answer", { questionId: other.question.id, choice: "left" });
    } else {
      // Common phases with advanceTo; a multiclass or fair participant stops at its questions.
      const order: readonly Phase[] = [
        "consent",
        "questionnaire",
        "story",
        "comprehension",
        "guess",
        "elicitation",
      ];
      const before = order.includes(s.phase) && s.phase !== "elicitation";
      await advanceTo(
        server.url,
        token,
        before && !order.includes(target) ? "elicitation" : target,
      );
    }
  }
  throw new Error(`did not reach ${target}`);
}

/** Every page of a multiclass or fairness study, in order. */
const KIND_PHASES: readonly Phase[] = [
  "consent",
  "questionnaire",
  "story",
  "comprehension",
  "elicitation",
  "evaluation",
  "post",
  "debrief",
];

/** Visit each phase of one participant in order (earlier phases over HTTP) and run axe. */
async function auditParticipant(
  page: Page,
  link: string,
  phases: readonly Phase[],
  prefix: string,
): Promise<string[]> {
  const token = tokenOf(link);
  const problems: string[] = [];
  for (const phase of phases) {
    await reach(token, phase);
    await page.goto(link);
    await waitForPhase(page, phase);
    if (phase === "comprehension" && prefix === "binary") {
      // The worked example opens Part 1 (issue 11).
      await expect(page.getByTestId("worked-example")).toBeVisible();
    } else if (phase === "comprehension") {
      // A multiclass or fairness study's Part 1 draws its own two systems (issue 27).
      await expect(page.getByTestId("kind-systems").locator(".system")).toHaveCount(2);
    }
    problems.push(...(await checkPage(page, `${prefix}-${phase}`)));
  }
  return problems;
}

test("axe: no serious or critical violation on any participant page (binary, multiclass, fair, quadratic)", async ({
  page,
}) => {
  const live = (await researcher.studies()).find((s) => s.status === "live")!;
  const binary = await auditParticipant(
    page,
    await participantLink(live.id, false),
    [
      "consent",
      "questionnaire",
      "story",
      "comprehension",
      "guess",
      "elicitation",
      "evaluation",
      "post",
      "debrief",
    ],
    "binary",
  );
  const made = await researcher.request<{ study: { id: number } }>("POST", "/api/studies", {
    name: "Flowers",
    kind: "multiclass",
    dataset: "iris",
  });
  const multiclass = await auditParticipant(
    page,
    await participantLink(made.study.id, true),
    KIND_PHASES,
    "multiclass",
  );
  const fairStudy = await researcher.request<{ study: { id: number } }>("POST", "/api/studies", {
    name: "Releases",
    kind: "fair",
    dataset: "arrests",
    groups: "colour",
  });
  const fair = await auditParticipant(
    page,
    await participantLink(fairStudy.study.id, true),
    KIND_PHASES,
    "fair",
  );
  const quadraticStudy = await researcher.request<{ study: { id: number } }>(
    "POST",
    "/api/studies",
    { name: "Flowers, evenly", kind: "quadratic", dataset: "iris" },
  );
  const quadratic = await auditParticipant(
    page,
    await participantLink(quadraticStudy.study.id, true),
    KIND_PHASES,
    "quadratic",
  );
  expect([...binary, ...multiclass, ...fair, ...quadratic]).toEqual([]);
});

test("axe: no serious or critical violation on any researcher page", async ({ page }) => {
  const problems: string[] = [];
  await page.goto(server.url);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  problems.push(...(await checkPage(page, "researcher-login")));
  // A refused sign-in shows its error: checked too.
  await page.getByLabel("Email").fill(RESEARCHER.email);
  await page.getByLabel("Password").fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  problems.push(...(await checkPage(page, "researcher-login-error")));
  await page.getByLabel("Password").fill(RESEARCHER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Studies" })).toBeVisible();
  problems.push(...(await checkPage(page, "researcher-dashboard")));
  await page.getByRole("link", { name: "Create a study" }).click();
  await expect(page.locator("#csv-file, form").first()).toBeVisible();
  problems.push(...(await checkPage(page, "researcher-create")));

  // The study page with participants in every state, invite links and the plot.
  const live = (await researcher.studies()).find((s) => s.status === "live")!;
  const [done, midway] = await researcher.invite(2, live.id);
  await advanceTo(server.url, tokenOf(done!), "debrief");
  await advanceTo(server.url, tokenOf(midway!), "elicitation");
  await page.goto(`${server.url}/#/study/${live.id}`);
  await expect(page.getByTestId("participants")).toBeVisible();
  await page.getByLabel("Number of single-use links").fill("2");
  await page.getByRole("button", { name: "Create links" }).click();
  await expect(page.getByTestId("invite-links")).toBeVisible();
  await expect(page.getByTestId("unused-invites")).toBeVisible();
  problems.push(...(await checkPage(page, "researcher-study")));

  // Invite links after a reload: listed, and one re-issued from the page.
  await page.reload();
  const unused = page.getByTestId("unused-invites");
  await expect(unused).toBeVisible();
  const first = unused.getByRole("button", { name: /New link for participant/ }).first();
  await first.click();
  await expect(unused.getByRole("link").first()).toHaveAttribute("href", /\/p\//);
  expect(problems).toEqual([]);
});

/** Press Tab (or Shift+Tab) until the focused element matches; fails after `limit` presses. */
async function tabTo(
  page: Page,
  matches: (el: { tag: string; name: string; type: string }) => boolean,
  what: string,
  limit = 80,
): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    const el = await page.evaluate(() => {
      const a = document.activeElement as HTMLElement | null;
      const label =
        a?.getAttribute("aria-label") ??
        (a instanceof HTMLInputElement ? a.labels?.[0]?.textContent : null) ??
        a?.textContent ??
        "";
      return {
        tag: a?.tagName.toLowerCase() ?? "",
        name: label.trim(),
        type: (a as HTMLInputElement | null)?.type ?? "",
      };
    });
    if (matches(el)) return;
  }
  throw new Error(`Tab never reached ${what}`);
}

const button = (name: RegExp) => (el: { tag: string; name: string }) =>
  el.tag === "button" && name.test(el.name);

/** Answer a form page (questionnaire, post-task) with the keyboard: first option, typed text. */
async function fillFormByKeyboard(page: Page): Promise<void> {
  // Every control in tab order: a radio group takes one Tab (Space checks the focused radio,
  // the first), a text or number field gets typed into; then Enter on the submit button.
  const submit = /^(Continue|Finish)$/;
  for (let i = 0; i < 200; i++) {
    await page.keyboard.press("Tab");
    const el = await page.evaluate(() => {
      const a = document.activeElement as HTMLInputElement | HTMLTextAreaElement | null;
      return {
        tag: a?.tagName.toLowerCase() ?? "",
        type: (a as HTMLInputElement | null)?.type ?? "",
        text: a?.textContent?.trim() ?? "",
        value: (a as HTMLInputElement | null)?.value ?? "",
        checked: (a as HTMLInputElement | null)?.checked ?? false,
      };
    });
    if (el.tag === "input" && el.type === "radio" && !el.checked)
      await page.keyboard.press("Space");
    else if (el.tag === "input" && el.type === "number" && el.value === "")
      await page.keyboard.type("30");
    else if ((el.tag === "input" && el.type === "text") || el.tag === "textarea") {
      if (el.value === "") await page.keyboard.type("fine");
    } else if (el.tag === "button" && submit.test(el.text)) {
      await page.keyboard.press("Enter");
      return;
    }
  }
  throw new Error("Tab never reached the form's submit button");
}

test("a keyboard-only participant completes a binary study (Tab, Space, Enter)", async ({
  page,
}) => {
  const live = (await researcher.studies()).find((s) => s.status === "live")!;
  const [link] = await researcher.invite(1, live.id);
  await page.goto(link!);
  await waitForPhase(page, "consent");
  await tabTo(page, button(/^I agree to take part/), "the consent button");
  await page.keyboard.press("Enter");
  await waitForPhase(page, "questionnaire");
  await fillFormByKeyboard(page);
  await waitForPhase(page, "story");
  await tabTo(page, button(/continue/i), "the story's continue button");
  await page.keyboard.press("Enter");
  await waitForPhase(page, "comprehension");
  // Part 1: the first option of each question (Space), then Enter on "Check my answer"
  // (wrong answers use up the attempts and move on); the last answer's feedback has its own
  // "Continue to the next part".
  for (let i = 0; i < 40; i++) {
    if (await page.getByTestId("last-feedback").isVisible()) {
      await tabTo(page, button(/^Continue to the next part/), "the last feedback's Continue");
      await page.keyboard.press("Enter");
      break;
    }
    const phase = await page.locator("main[data-phase]").getAttribute("data-phase");
    if (phase !== "comprehension") break;
    await tabTo(page, (el) => el.type === "radio", "an answer");
    await page.keyboard.press("Space");
    await tabTo(page, button(/^Check my answer/), "the check button");
    await page.keyboard.press("Enter");
    await page.waitForTimeout(400);
  }
  await waitForPhase(page, "guess");
  await tabTo(page, (el) => el.type === "number" || el.type === "text", "the guess field");
  await page.keyboard.type("4");
  await page.keyboard.press("Enter");
  await waitForPhase(page, "elicitation");
  // Phase II and III: Tab to "I prefer A" / "I prefer B" alternately and press Enter or Space.
  let n = 0;
  for (let i = 0; i < 80; i++) {
    const phase = await page.locator("main[data-phase]").getAttribute("data-phase");
    if (phase !== "elicitation" && phase !== "evaluation") break;
    const before = await page.locator(".pair[data-question-id]").getAttribute("data-question-id");
    const target = n++ % 2 === 0 ? /^I prefer A/ : /^I prefer B/;
    await tabTo(page, button(target), String(target));
    await page.keyboard.press(n % 3 === 0 ? "Space" : "Enter");
    await expect
      .poll(async () => {
        const p = await page.locator("main[data-phase]").getAttribute("data-phase");
        const q = await page
          .locator(".pair[data-question-id]")
          .getAttribute("data-question-id", { timeout: 500 })
          .catch(() => null);
        return `${p}|${q}`;
      })
      .not.toBe(`${phase}|${before}`);
  }
  await waitForPhase(page, "post");
  await fillFormByKeyboard(page);
  await waitForPhase(page, "debrief");
  await expect(page.getByTestId("completion-code")).not.toBeEmpty();
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, "a11y-keyboard-debrief-1280.png"), fullPage: true });
});
