import type { KindCreateRules } from "../kind.ts";

/** What a binary study's create request may hold, and its checks. */
export const binaryRules = {
  describe: "binary (default): two classes, the cost of a missed positive against a false alarm",
  families: {
    list: ["binary-threshold", "binary-linear"],
    describe: "binary-threshold (default) or binary-linear for binary studies",
  },
  datasets: [],
  fields: ["positive"],
  ownUpload: false,
  costStory: true,
  searches: true,
  checks: () => [],
} as const satisfies KindCreateRules;
