import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { registerReproduceRanking } from "../../src/cli/commands/ranking.ts";
import { recordFigures } from "./figures.ts";

// Issue 29 item 4: UAI 2022 Table 4 (ranking when the true metric is quadratic in the general
// rates) with `npx elicit reproduce ranking --rates general`, at the command's defaults (100
// metrics, seed 1, 40 classifiers). The README quotes both outputs (figures blocks
// ranking-general-arrests and ranking-general-vehicle); every quoted figure is asserted here.

/** What `elicit reproduce ranking ARGS` prints on stdout, run in-process. */
async function elicit(args: string[]): Promise<string> {
  const program = new Command().exitOverride();
  registerReproduceRanking(program.command("reproduce"));
  const out: string[] = [];
  vi.spyOn(console, "log").mockImplementation((s: unknown) => void out.push(String(s)));
  process.exitCode = undefined;
  await program.parseAsync(["node", "elicit", "reproduce", "ranking", ...args]);
  expect(process.exitCode).toBeUndefined();
  return out.join("\n");
}

afterEach(() => vi.restoreAllMocks());

/** One dataset's run: its figures file, the lines its output must hold and the table's rows. */
interface TableCase {
  readonly name: string;
  readonly title: string;
  readonly args: readonly string[];
  readonly lines: readonly string[];
  readonly rows: readonly string[];
}

const CASES: readonly TableCase[] = [
  {
    name: "arrests",
    title: "arrests (k = 2, as the paper's Adult and Default)",
    args: ["--data", "data/arrests.csv", "--target", "released"],
    lines: [
      "k = 2 classes (No, Yes), 3135 train / 2091 test rows",
      "100 random quadratic metrics of the q = 2 general (off-diagonal) rates",
      "QPME runs warned: quadratic-diagonal 23, quadratic-general 14",
    ],
    rows: [
      "linear-diagonal           67.8   0.9858 (0.0388)    0.9043 (0.1709)",
      "linear-general            67.8   0.9858 (0.0388)    0.9043 (0.1709)",
      "quadratic-diagonal       270.5   1.0000 (0.0000)    0.9977 (0.0106)",
      "quadratic-general        270.5   1.0000 (0.0001)    0.9978 (0.0085)",
    ],
  },
  {
    name: "vehicle",
    title: "vehicle (k = 4: the diagonal rates no longer determine the matrix)",
    args: ["--data", "data/vehicle.csv", "--target", "Class"],
    lines: [
      "k = 4 classes (bus, opel, saab, van), 507 train / 339 test rows",
      "100 random quadratic metrics of the q = 12 general (off-diagonal) rates",
      "QPME runs warned: quadratic-diagonal 23, quadratic-general 0",
    ],
    rows: [
      "linear-diagonal          203.9   0.9960 (0.0042)    0.8252 (0.0760)",
      "linear-general           749.3   0.9989 (0.0010)    0.9171 (0.0244)",
      "quadratic-diagonal      1224.1   0.9949 (0.0079)    0.8226 (0.0992)",
      "quadratic-general      10489.8   1.0000 (0.0001)    0.9851 (0.0104)",
    ],
  },
];

describe("UAI 2022 Table 4: reproduce ranking --rates general", () => {
  for (const c of CASES) {
    it(c.title, async () => {
      const text = await elicit(["--rates", "general", ...c.args]);
      recordFigures(`ranking-general-${c.name}`, import.meta.url, c.name, text);
      for (const line of [...c.lines, ...c.rows]) expect(text).toContain(line);
    });
  }
});
