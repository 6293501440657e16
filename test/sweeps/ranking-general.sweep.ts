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

describe("UAI 2022 Table 4: reproduce ranking --rates general", () => {
  it("arrests (k = 2, as the paper's Adult and Default)", async () => {
    const text = await elicit([
      ...["--rates", "general", "--data", "data/arrests.csv", "--target", "released"],
    ]);
    recordFigures("ranking-general-arrests", import.meta.url, "arrests", text);
    expect(text).toContain("k = 2 classes (No, Yes), 3135 train / 2091 test rows");
    expect(text).toContain(
      "100 random quadratic metrics of the q = 2 general (off-diagonal) rates",
    );
    expect(text).toContain("QPME runs warned: quadratic-diagonal 23, quadratic-general 14");
    const rows = [
      "linear-diagonal           67.8   0.9858 (0.0388)    0.9043 (0.1709)",
      "linear-general            67.8   0.9858 (0.0388)    0.9043 (0.1709)",
      "quadratic-diagonal       270.5   1.0000 (0.0000)    0.9977 (0.0106)",
      "quadratic-general        270.5   1.0000 (0.0001)    0.9978 (0.0085)",
    ];
    for (const row of rows) expect(text).toContain(row);
  });

  it("vehicle (k = 4: the diagonal rates no longer determine the matrix)", async () => {
    const text = await elicit([
      ...["--rates", "general", "--data", "data/vehicle.csv", "--target", "Class"],
    ]);
    recordFigures("ranking-general-vehicle", import.meta.url, "vehicle", text);
    expect(text).toContain("k = 4 classes (bus, opel, saab, van), 507 train / 339 test rows");
    expect(text).toContain(
      "100 random quadratic metrics of the q = 12 general (off-diagonal) rates",
    );
    expect(text).toContain("QPME runs warned: quadratic-diagonal 23, quadratic-general 0");
    const rows = [
      "linear-diagonal          203.9   0.9960 (0.0042)    0.8252 (0.0760)",
      "linear-general           749.3   0.9989 (0.0010)    0.9171 (0.0244)",
      "quadratic-diagonal      1224.1   0.9949 (0.0079)    0.8226 (0.0992)",
      "quadratic-general      10489.8   1.0000 (0.0001)    0.9851 (0.0104)",
    ];
    for (const row of rows) expect(text).toContain(row);
  });
});
