import { describe, expect, it } from "vitest";
import { call } from "./helpers.ts";
import { appPerTest } from "./kind-driver.ts";

// Issue 28 item 8: models too large for a person's questions were not refused. A study whose
// metric has more numbers to find than it may ask questions is refused at creation, saying
// what to change; the same study with a budget that can is created.

describe("issue 28 item 8: a metric its budget cannot pin down is refused (sqlite)", () => {
  const app = appPerTest("sqlite");

  it("defect: models too large for the budget were not refused", async () => {
    const { t, cookie } = app;
    const post = (body: Record<string, unknown>) => call(t, "POST", "/api/studies", body, cookie);
    // Glass has 6 classes: a cost for each of its 30 kinds of mistake needs 30 questions.
    const linear = await post({
      name: "x",
      kind: "multiclass",
      dataset: "glass",
      family: "linear",
      budget: 20,
    });
    expect(linear.status).toBe(400);
    const message = JSON.stringify(linear.body);
    expect(message).toMatch(/30 numbers to find and the study asks at most 20 questions/);
    expect(message).toMatch(/keep fewer classes/);
    expect(message).toMatch(/family diagonal-linear, 6 numbers/);
    expect(message).toMatch(/allow at least 30 questions/);
    expect(
      (
        await post({
          name: "x",
          kind: "multiclass",
          dataset: "glass",
          family: "linear",
          budget: 30,
        })
      ).status,
    ).toBe(200);
    // A quadratic metric of 4 classes has 14 numbers.
    const quadratic = await post({ name: "x", kind: "quadratic", dataset: "vehicle", budget: 10 });
    expect(quadratic.status).toBe(400);
    expect(JSON.stringify(quadratic.body)).toMatch(
      /14 numbers to find .* at most 10 questions.*keep 3 classes/,
    );
    expect(
      (await post({ name: "x", kind: "quadratic", dataset: "vehicle", budget: 14 })).status,
    ).toBe(200);
  }, 120_000);
});
