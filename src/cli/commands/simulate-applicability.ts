import { BINARY_FAMILIES } from "../../elicit/binary/spec.ts";
import { STRATEGY_NAMES } from "../../search/strategy.ts";
import { CliError } from "../errors.ts";
import { FAMILY_NAMES } from "./spec-options.ts";

// Which options of `elicit simulate` a run reads: given to a run that does not read them they
// are refused, instead of being silently ignored (a new user's `--budget 5` on the default
// paper strategy asked 28 questions).

/** What an option's applicability depends on: the family, the strategy, population, noise. */
interface RunKind {
  readonly family: string;
  readonly strategy: string;
  readonly synthetic: string | undefined;
  readonly data: string | undefined;
  readonly noiseKind: string;
}

/** The families of each kind, as `--family` names them. */
const BINARY: readonly string[] = BINARY_FAMILIES;
const DIAGONAL = ["diagonal-linear", "diagonal-linear-fractional"];
const ANGLE_SEARCHES = ["linear", "linear-fractional", "quadratic", "fair-quadratic", "cubic"];
const QPME = ["quadratic", "fair-quadratic", "cubic"];
const SHRINK = `--strategy ${STRATEGY_NAMES.join(", ")}`;

/** An option only some runs read: which (`applies`), how to say so (`where`). */
interface Applicability {
  readonly key: string;
  readonly flag: string;
  readonly applies: (r: RunKind) => boolean;
  readonly where: string;
  /** What of this run to name when it does not apply (default: its family). */
  readonly mismatch?: (r: RunKind) => string;
  /** Said after the run, e.g. what to do instead. */
  readonly note?: string;
}

const byStrategy = (r: RunKind) => `--strategy ${r.strategy}`;
const byFamily = (r: RunKind) =>
  `--family ${r.family}${r.synthetic === undefined ? "" : ` --synthetic ${r.synthetic}`}${r.data === undefined ? "" : ` --data ${r.data}`}`;
/** The strategy when the family takes the option under another strategy, else the family. */
const byFamilyThenStrategy = (applies: (r: RunKind) => boolean) => (r: RunKind) =>
  ["paper", "adaptive"].some((strategy) => applies({ ...r, strategy }))
    ? byStrategy(r)
    : byFamily(r);

function adaptiveOnly(key: string, flag: string): Applicability {
  return {
    key,
    flag,
    applies: (r) => r.strategy === "adaptive",
    where: "--strategy adaptive",
    mismatch: byStrategy,
  };
}

function rule(
  key: string,
  flag: string,
  applies: (r: RunKind) => boolean,
  where: string,
  note = "",
): Applicability {
  return { key, flag, applies, where, note, mismatch: byFamilyThenStrategy(applies) };
}

/**
 * The options of `elicit simulate` that only some runs read. Given on the command line to any
 * other run, they are refused (`checkApplicable`) instead of being silently ignored. The
 * options every run reads (`--truth`, `--noise`, `--seed`, `--tolerance`, ...) and the
 * population's are not listed.
 */
const APPLICABILITY: readonly Applicability[] = [
  adaptiveOnly("budget", "--budget"),
  adaptiveOnly("credibility", "--credibility"),
  adaptiveOnly("answerModel", "--answer-model"),
  adaptiveOnly("displayStep", "--display-step"),
  adaptiveOnly("gridPoints", "--grid-points"),
  adaptiveOnly("asShown", "--as-shown"),
  adaptiveOnly("everyShown", "--every-shown"),
  rule(
    "asShown",
    "--as-shown",
    (r) => ["binary-linear", "binary-threshold", "diagonal-linear", "linear"].includes(r.family),
    "--family binary-linear, binary-threshold, diagonal-linear and linear",
  ),
  rule(
    "everyShown",
    "--every-shown",
    (r) => r.family === "binary-linear" || r.family === "binary-threshold",
    "--family binary-linear and binary-threshold",
  ),
  rule("monotone", "--monotone", (r) => r.family === "binary-linear", "--family binary-linear"),
  rule("grid", "--grid", (r) => r.family === "binary-threshold", "--family binary-threshold"),
  rule(
    "ratio",
    "--ratio",
    (r) => r.family === "binary-linear-fractional",
    "--family binary-linear-fractional",
  ),
  rule(
    "classes",
    "--classes",
    (r) =>
      (r.synthetic === "paper-multiclass" && !BINARY.includes(r.family)) ||
      (r.synthetic === "sphere" && QPME.includes(r.family)),
    "--synthetic paper-multiclass (multiclass families) and --synthetic sphere (quadratic, fair-quadratic, cubic)",
    "; with --data the classes are the target's values",
  ),
  rule("space", "--space", (r) => r.family === "quadratic", "--family quadratic"),
  rule("groups", "--groups", (r) => r.family === "fair-quadratic", "--family fair-quadratic"),
  rule(
    "lambdaOnly",
    "--lambda-only",
    (r) => r.family === "fair-quadratic",
    "--family fair-quadratic",
  ),
  rule("tau", "--tau", (r) => r.family === "fair-quadratic", "--family fair-quadratic"),
  rule(
    "pivot",
    "--pivot",
    (r) => DIAGONAL.includes(r.family) && r.strategy !== "adaptive",
    `--family ${DIAGONAL.join(" and ")} with ${SHRINK}`,
  ),
  ...(
    [
      ["cycles", "--cycles"],
      ["order", "--order"],
    ] as const
  ).map(([key, flag]) =>
    rule(
      key,
      flag,
      (r) => ANGLE_SEARCHES.includes(r.family) && r.strategy !== "adaptive",
      `the angle searches of --family ${ANGLE_SEARCHES.join(", ")}`,
    ),
  ),
  rule(
    "leastSquares",
    "--least-squares",
    (r) => QPME.includes(r.family) && r.strategy !== "adaptive",
    `--family ${QPME.join(", ")} with their searches (not --strategy adaptive)`,
  ),
  {
    key: "noiseWrong",
    flag: "--noise-wrong",
    applies: (r) => r.noiseKind === "feedback",
    where: "--noise-kind feedback",
    mismatch: (r) => `--noise-kind ${r.noiseKind}`,
  },
];

/** The `--noise-kind` choices. */
const NOISE_KINDS = ["feedback", "flip", "logistic"];

/**
 * Refuse what `elicit simulate` would otherwise silently ignore: a bad value of `--order`,
 * `--noise-kind` or `--noise-wrong` (whatever the family), and an option the user gave
 * (`given`: on the command line, not commander's default) that the run does not read, e.g.
 * "--budget applies to --strategy adaptive only (this run: --strategy paper)". An unknown
 * family is left to the family's own error.
 * @example checkApplicable({ family: "binary-linear", strategy: "paper" }, (k) => k === "budget") // throws
 */
export function checkApplicable(
  f: {
    family?: string;
    strategy?: string;
    synthetic?: string;
    data?: string;
    noiseKind?: string;
    noiseWrong?: string;
    order?: string;
  },
  given: (key: string) => boolean,
): void {
  if (given("order") && f.order !== "forward" && f.order !== "reverse")
    throw new CliError(`--order must be forward or reverse, got "${f.order}"`);
  const noiseKind = f.noiseKind ?? "feedback";
  if (!NOISE_KINDS.includes(noiseKind))
    throw new CliError(`--noise-kind must be feedback, flip or logistic, got "${noiseKind}"`);
  const wrong = f.noiseWrong ?? "random";
  if (wrong !== "adversarial" && wrong !== "random")
    throw new CliError(`--noise-wrong must be adversarial or random, got "${wrong}"`);
  const run: RunKind = {
    family: f.family ?? "binary-linear",
    strategy: f.strategy ?? "paper",
    synthetic: f.synthetic,
    data: f.data,
    noiseKind,
  };
  if (!FAMILY_NAMES.includes(run.family)) return;
  for (const o of APPLICABILITY) {
    if (!given(o.key) || o.applies(run)) continue;
    throw new CliError(
      `${o.flag} applies to ${o.where} only (this run: ${(o.mismatch ?? byFamily)(run)})${o.note ?? ""}`,
    );
  }
}
