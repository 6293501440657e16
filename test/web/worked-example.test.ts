import { describe, expect, it } from "vitest";
import { DEFAULT_PAGE_LABELS } from "../../src/server/study/page-label-defaults.ts";
import { workedExample } from "../../web/src/participant/worked-example.ts";
import { system, words } from "./fixtures.ts";

/**
 * Issue 11 (smaller defects): there was no worked example before Part 1. The comprehension
 * page's first question now opens with one, read off System A's numbers in the study's words.
 */
describe("workedExample", () => {
  const lines = workedExample(system(31, 3, 7, 59), words, "System A");

  it("reads the class totals, the right and wrong flows and the two mistakes off the numbers", () => {
    expect(lines).toHaveLength(4);
    expect(lines[0]).toContain("the 100 people");
    expect(lines[1]).toBe(
      "Of the 34 people who had cancer, System A predicted high risk for 31 (91%) and predicted low risk for 3: those 3 are missed cancers.",
    );
    expect(lines[2]).toBe(
      "Of the 66 people who did not have cancer, System A predicted low risk for 59 (89%) and predicted high risk for 7: those 7 are false alarms.",
    );
    expect(lines[3]).toContain("3 missed cancers and 7 false alarms");
  });

  it("speaks the study's own words (a diabetes study never says cancer)", () => {
    const diabetes = {
      ...words,
      positive: "developed diabetes",
      negative: "did not develop diabetes",
      predictedPositive: "Flagged for screening",
      predictedNegative: "Not flagged",
      missed: "missed diabetes cases",
      falseAlarm: "unneeded screenings",
    };
    const text = workedExample(system(20, 5, 10, 65), diabetes, "Model A").join(" ");
    expect(text).not.toMatch(/cancer|high risk|low risk/i);
    expect(text).toContain(
      "Of the 25 people who developed diabetes, Model A flagged for screening for 20 (80%)",
    );
    expect(text).toContain("those 10 are unneeded screenings");
  });

  it("says the study's own sentences where its page labels set them", () => {
    const lines = workedExample(system(31, 3, 7, 59), words, "Systeem A", {
      ...DEFAULT_PAGE_LABELS,
      workedExamplePositives:
        "Van de {positives} mensen die {positive}: {tp} ({tpr}) en {fn} gemist.",
      workedExampleSo: "{name}: {fn} {missed}, {fp} {falseAlarm}, {total} mensen.",
    });
    expect(lines[1]).toBe("Van de 34 mensen die had cancer: 31 (91%) en 3 gemist.");
    expect(lines[3]).toBe("Systeem A: 3 missed cancers, 7 false alarms, 100 mensen.");
    expect(lines[0]).toContain("Read Systeem A from left to right");
  });
});
