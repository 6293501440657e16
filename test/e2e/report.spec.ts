// `elicit report` in Chromium (issue 29 item 3): real study.json exports of every kind (made by
// test/report/write-fixtures.ts through the server), each turned into its report by the CLI,
// opened from a file at 1280 and 390 px: no axe violation, nothing wider than the window,
// nothing loaded from the network, a hostile title shown as text, screenshots saved as
// test-results/screenshots/report-{kind}-{width}.png. Needs no web server.

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { AxeBuilder } from "@axe-core/playwright";
import { expect, test } from "./fixtures.ts";
import { ROOT } from "./server.ts";
import { atWidths } from "./ui.ts";

const KINDS = ["binary", "multiclass", "fair", "quadratic", "nobody"] as const;

test.describe.configure({ mode: "serial" });

let dir: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = mkdtempSync(join(tmpdir(), "elicit-report-e2e-"));
  execFileSync(
    process.execPath,
    ["--import", "tsx", join(ROOT, "test", "report", "write-fixtures.ts"), dir, ...KINDS],
    { cwd: ROOT, stdio: "pipe" },
  );
  for (const kind of KINDS) {
    execFileSync(
      process.execPath,
      [
        join(ROOT, "bin", "elicit.js"),
        "report",
        join(dir, `${kind}.json`),
        "--out",
        join(dir, `${kind}.html`),
      ],
      { cwd: ROOT, stdio: "pipe" },
    );
  }
});

test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

for (const kind of KINDS) {
  test(`the ${kind} report at 1280 and 390 px: no axe violation, no overflow, no network`, async ({
    page,
  }) => {
    const url = pathToFileURL(join(dir, `${kind}.html`)).href;
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const study = JSON.parse(readFileSync(join(dir, `${kind}.json`), "utf8")) as {
      study: { name: string };
    };
    await atWidths(page, `report-${kind}`, async (width) => {
      await page.goto(url);
      // The study's title (the binary study's is `<script>alert(1)</script> ...`) as text.
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(study.study.name);
      await expect(page.getByRole("heading", { name: "Consensus" })).toBeVisible();
      // One drawing of each plot shows: the wide one on a desktop, the narrow one on a phone.
      const shown = width > 720 ? ".plot-wide" : ".plot-narrow";
      const hidden = width > 720 ? ".plot-narrow" : ".plot-wide";
      if (kind !== "nobody") {
        await expect(page.locator(`${shown} svg`).first()).toBeVisible();
        await expect(page.locator(`${hidden} svg`).first()).toBeHidden();
        // Plot text stays at least 14 px on screen (each drawing is shown at about its size).
        const smallest = await page
          .locator(`${shown} svg`)
          .evaluateAll((svgs) =>
            Math.min(
              ...svgs.map((s) => s.getBoundingClientRect().width / Number(s.getAttribute("width"))),
            ),
          );
        expect(smallest * 14).toBeGreaterThanOrEqual(13.5);
      } else {
        await expect(page.getByTestId("nobody").first()).toContainText("Nobody has finished yet");
        await expect(page.locator("svg")).toHaveCount(0);
      }
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scroll).toBeLessThanOrEqual(width);
      const axe = await new AxeBuilder({ page }).analyze();
      expect(
        axe.violations.map(
          (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
        ),
      ).toEqual([]);
    });
    expect(dialogs).toEqual([]);
    expect(requests.every((r) => r === url)).toBe(true);
  });
}
