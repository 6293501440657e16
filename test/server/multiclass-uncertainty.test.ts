import { describe, expect, it } from "vitest";
import {
  uncertaintySentence,
  weightHalfWidths,
} from "../../src/server/kinds/multiclass/participant.ts";
import { formatMetric } from "../../web/src/researcher/metric.ts";

// Where the adaptive engine cannot pin a multiclass weight down to the tolerance, the debrief
// says which classes in words and the dashboard prints the weight's half-width, from the same
// summary.adaptive.unidentified the export carries.

describe("weights the answers do not pin down", () => {
  it("maps the engine's a0, a1, ... to classes, ignoring names of other families", () => {
    expect(
      weightHalfWidths(
        [
          { name: "a2", halfWidth: 0.11 },
          { name: "a0", halfWidth: 0.07 },
          { name: "lambda", halfWidth: 0.2 },
          { name: "a9", halfWidth: 0.3 },
        ],
        3,
      ),
    ).toEqual([0.07, null, 0.11]);
    expect(weightHalfWidths([], 3)).toEqual([null, null, null]);
  });

  it("names the uncertain classes in the debrief, and says nothing when none is", () => {
    expect(uncertaintySentence([null, null], ["a", "b"])).toBe("");
    expect(uncertaintySentence([null, 0.08, null], ["x", "y", "z"])).toBe(
      "Your answers do not settle every weight precisely: the weight of “y” could be noticeably higher or lower, so read its place in this order as approximate.",
    );
    const all = uncertaintySentence([0.1, 0.2, 0.3], ["x", "y", "z"]);
    expect(all).toContain("do not settle any of the weights precisely");
    expect(all).toContain("“x”, “y” and “z”");
    expect(all).toContain("their place");
  });

  it("prints the half-width beside each flagged weight on the dashboard", () => {
    expect(formatMetric({ weights: [0.5, 0.3, 0.2] }, [{ name: "a1", halfWidth: 0.0812 }])).toBe(
      "class weights 0.500, 0.300 ±0.081, 0.200",
    );
    expect(formatMetric({ weights: [0.5, 0.5] })).toBe("class weights 0.500, 0.500");
    // Other families' names leave a binary metric as it was.
    expect(formatMetric({ tp: 0.8, tn: 0.2 }, [{ name: "theta", halfWidth: 0.1 }])).toBe(
      "0.800 TP + 0.200 TN",
    );
  });
});
