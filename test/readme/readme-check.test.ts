import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  blocks,
  checkReadme,
  figureIds,
  loadFigure,
  mask,
  numbers,
} from "../../scripts/readme-check.ts";

/**
 * Issue 25, item 3: `npm run readme:check` passes on the README and fails when a quoted figure
 * is edited or a measured figure is written outside a figures block. Runs the check on the
 * committed outputs in docs/figures (no command is run here; `npm run readme:check -- --run`
 * re-runs the cheap ones, and the sweeps rewrite theirs).
 */
const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const ids = figureIds();
const cache = new Map(ids.map((id) => [id, loadFigure(id)]));
const check = (readme: string) => checkReadme(readme, (id) => cache.get(id), ids).problems;

/** `readme` with the text at [start, end) replaced. */
const splice = (readme: string, start: number, end: number, text: string) =>
  readme.slice(0, start) + text + readme.slice(end);

describe("readme:check", () => {
  it("passes on the README against the committed outputs", () => {
    expect(check(README)).toEqual([]);
    expect(blocks(README).blocks.length).toBeGreaterThan(20);
  });

  it("fails when a quoted sweep figure is edited (the lambda study's max error back to its stale 0.0485)", () => {
    // The lambda study's max error as noisy-http-b prints it now (README, "max 0.0723"), in
    // its block (the same digits may stand elsewhere in the README).
    const b = blocks(README).blocks.find((x) => x.ids.includes("noisy-http-b"))!;
    const at = README.indexOf("0.0723", b.start);
    expect(at).toBeGreaterThan(b.start);
    expect(at).toBeLessThan(b.end);
    const problems = check(splice(README, at, at + 6, "0.0485"));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^README\.md:\d+: 0\.0485 is not printed in docs\/figures\/noisy-http-b\.txt; nearest printed: /,
    );
  });

  it("fails when a count is edited (50 of 50 -> 47 of 50)", () => {
    const b = blocks(README).blocks.find((x) => x.ids.includes("noisy-http-b"))!;
    const at = README.indexOf("50 of 50", b.start);
    expect(at).toBeLessThan(b.end);
    const problems = check(splice(README, at, at + 2, "47"));
    expect(problems.join("\n")).toContain("47 is not printed in docs/figures/noisy-http-b.txt");
  });

  it("fails when a quoted output is edited (one figure of `npx elicit reproduce binary`)", () => {
    const at = README.indexOf("0.0345        0.1133");
    expect(at).toBeGreaterThan(0);
    const problems = check(splice(README, at, at + 6, "0.0344"));
    expect(problems.join("\n")).toMatch(
      /the quoted output differs from docs\/figures\/reproduce-binary\.txt/,
    );
  });

  it("fails on a measured figure outside any block, and on an unknown output", () => {
    const at = README.indexOf("## Data");
    const outside = check(
      splice(README, at, at, "The median error was 0.0123 in 9 of 10 runs.\n\n"),
    );
    expect(outside.join("\n")).toMatch(/0\.0123 outside any figures block/);
    expect(outside.join("\n")).toMatch(/"9 of 10" outside any figures block/);
    const unknown = check(
      splice(README, at, at, "<!-- figures: no-such-output -->1<!-- /figures -->\n"),
    );
    expect(unknown.join("\n")).toContain("no docs/figures/no-such-output.txt");
  });

  /**
   * Every quoted decimal with 3 or more significant digits, its last digit moved by 5 (never a
   * rounding neighbour), fails the check. A shorter one (0.25, 0.001) can coincide with another
   * figure of the same output section: at least 95% of those must fail too.
   */
  it("fails when a decimal figure quoted in a block changes in its last digit", () => {
    const masked = mask(README);
    const { blocks: found } = blocks(README);
    const quoted = numbers(masked).filter(
      (t) => t.decimals > 0 && found.some((b) => t.start >= b.start && t.end <= b.end),
    );
    expect(quoted.length).toBeGreaterThan(300);
    const significant = (t: { text: string }) =>
      t.text.split("e")[0]!.replace(/[-.]/g, "").replace(/^0+/, "").length;
    const missed: string[] = [];
    const missedShort: string[] = [];
    let short = 0;
    for (const t of quoted) {
      if (significant(t) < 3) short++;
      const end =
        t.start + t.text.length - (t.text.includes("e") ? t.text.split("e")[1]!.length + 1 : 0);
      const last = Number(README[end - 1]);
      const edited = splice(README, end - 1, end, String((last + 5) % 10));
      if (check(edited).length > 0) continue;
      const where = `${t.text} (README.md:${README.slice(0, t.start).split("\n").length})`;
      (significant(t) < 3 ? missedShort : missed).push(where);
    }
    expect(missed).toEqual([]);
    expect(missedShort.length, `short figures not caught: ${missedShort}`).toBeLessThanOrEqual(
      0.05 * short,
    );
  });
});
