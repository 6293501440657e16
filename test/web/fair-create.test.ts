import { describe, expect, it } from "vitest";
import { bundledDefault, fairSpec } from "../../web/src/kinds/fair/create.tsx";
import { INITIAL_FORM } from "../../web/src/researcher/CreateStudy.tsx";

describe("the create form's fairness group column", () => {
  it("defect: a bundled dataset's default group column is taken, as the API takes it", () => {
    const arrests = { ...INITIAL_FORM, kindSource: "bundled" as const, bundled: "arrests" };
    // The audit: "Please choose the group column", though the README names colour the default.
    expect(bundledDefault(arrests)).toBe("colour");
    expect(fairSpec.extras(arrests, "bundled")).toEqual({ groups: "colour" });
    expect(fairSpec.extras({ ...arrests, bundled: "titanic" }, "bundled")).toEqual({
      groups: "sex",
    });
    // A choice made is kept; an upload still asks for its column.
    expect(fairSpec.extras({ ...arrests, groups: "sex" }, "bundled")).toEqual({ groups: "sex" });
    expect(fairSpec.extras({ ...INITIAL_FORM, kindSource: "dataset" }, "dataset")).toEqual({
      error: "Please choose the group column of the dataset.",
    });
  });
});
