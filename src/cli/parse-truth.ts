import { z } from "zod";
import type { BinaryFamily } from "../elicit/binary/spec.ts";
import type { BinaryTruth } from "../elicit/binary/truth.ts";
import { assumption2Violations, impliedQ0 } from "../metrics/binary-fractional.ts";
import { CliError } from "./errors.ts";

const finite = z.number().finite();
const linear = z.object({ tp: finite, tn: finite }).strict();
const fractional = z
  .object({ p11: finite, p00: finite, q11: finite, q00: finite, q0: finite.optional() })
  .strict();
const threshold = z.object({ a0: finite.min(0).max(1) }).strict();

const EXAMPLES: Record<BinaryFamily, string> = {
  "binary-linear": '{"tp":0.6,"tn":0.8}',
  "binary-linear-fractional": '{"p11":1,"p00":0,"q11":0.5,"q00":-0.5,"q0":0.5}',
  "binary-threshold": '{"a0":0.3}',
};

/**
 * What is wrong with the weights of a linear binary metric `tp * TP + tn * TN`, or
 * `undefined` when they can be elicited: shared by `--truth` and `demo --tp/--tn`.
 * @example linearWeightsProblem(1, -1) // "weights of opposite signs make ..."
 */
export function linearWeightsProblem(tp: number, tn: number): string | undefined {
  if (tp === 0 && tn === 0) return "at least one weight must be non-zero";
  // The metric then rewards one kind of success and penalises the other, so predicting one
  // class for everyone is optimal: there is nothing to elicit.
  if (tp * tn < 0)
    return "weights of opposite signs make a trivial classifier optimal; use weights of one sign";
  return undefined;
}

function fail(family: BinaryFamily, why: string): never {
  throw new CliError(`malformed --truth for ${family}: ${why}; e.g. --truth '${EXAMPLES[family]}'`);
}

/**
 * Parse and check `--truth` for a family. `zeta` is the population's prior, needed to check
 * (or fill in) `q0` under Assumption 2.
 */
export function parseBinaryTruth(text: string, family: BinaryFamily, zeta: number): BinaryTruth {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    fail(family, "not valid JSON");
  }
  const schema = {
    "binary-linear": linear,
    "binary-linear-fractional": fractional,
    "binary-threshold": threshold,
  }[family];
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    fail(family, `${issue.path.join(".") || "value"}: ${issue.message}`);
  }
  if (family === "binary-linear") {
    const m = parsed.data as z.infer<typeof linear>;
    const problem = linearWeightsProblem(m.tp, m.tn);
    if (problem !== undefined) fail(family, problem);
    return { family, metric: m };
  }
  if (family === "binary-threshold") return { family, a0: (parsed.data as { a0: number }).a0 };
  const f = parsed.data as z.infer<typeof fractional>;
  const metric = { ...f, q0: f.q0 ?? impliedQ0(f.p11, f.p00, f.q11, f.q00, zeta) };
  const violations = assumption2Violations(metric, zeta);
  if (violations.length > 0) {
    fail(
      family,
      `${violations.join("; ")} (Assumption 2, prior zeta = ${zeta.toPrecision(4)}; omit q0 to have it computed)`,
    );
  }
  return { family, metric };
}
