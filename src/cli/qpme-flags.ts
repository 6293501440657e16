import {
  STRATEGIES,
  STRATEGY_NAMES,
  type Strategy,
  type StrategyName,
} from "../search/strategy.ts";
import { strategiesFor, strategyError } from "./commands/spec-options.ts";
import { CliError } from "./errors.ts";
import { writeText } from "./files.ts";

/** The validated search flags of the QPME families (quadratic, cubic, fair-quadratic). */
export interface QpmeSearchFlags {
  /** The name the user chose (printed); `pairs` is QPME's own (see `QpmeOptions.gradients`). */
  readonly name: StrategyName | "pairs";
  /** The strategy that runs: the QPME paper's own counting is at most 3 questions per halving. */
  readonly strategy: Strategy;
  readonly tolerance: number;
  /** `--cycles`: sweeps over the k - 1 angles of every LPME run (default 3, UAI 2022's T = 3(k - 1)). */
  readonly cycles: number;
  /** `--order`: `forward` (default, the paper's) or `reverse` (last angle first). */
  readonly order: "forward" | "reverse";
  /** `--least-squares`: `least-squares`; otherwise `ratios` (the corrected ratio formula). */
  readonly reconstruction: "ratios" | "least-squares";
  /** `lpme` (the paper's angle search), or `pairs` with `--strategy pairs`. */
  readonly gradients: "lpme" | "pairs";
}

/** The raw QPME flags (commander's option values). */
export interface QpmeRawFlags {
  strategy?: string;
  tolerance?: string;
  cycles?: string;
  order?: string;
  leastSquares?: boolean;
}

/** Default `--cycles` of the QPME families (UAI 2022: T = 3(k - 1), three sweeps). */
export const QPME_DEFAULT_CYCLES = 3;

/**
 * Validate `--strategy` (default lazy), `--tolerance` (default `defaultTolerance`),
 * `--cycles` (default 3), `--order` (default forward) and `--least-squares` for the QPME
 * families; `family` names the choices in the error for an unknown strategy.
 * `paper` maps to our `lazy` ShrinkInterval: the UAI 2022 paper's Table 1 counts at most three
 * questions per halving.
 * @example qpmeSearchFlags({ strategy: "paper" }).strategy === STRATEGIES.lazy // true
 */
export function qpmeSearchFlags(
  f: QpmeRawFlags,
  defaultTolerance = 0.01,
  family: "quadratic" | "fair-quadratic" | "cubic" = "quadratic",
): QpmeSearchFlags {
  const name = (f.strategy ?? "lazy") as StrategyName | "pairs";
  // pairs passes here for every family: `onlyLpmeSearch` explains why cubic and fair refuse it.
  if (name !== "pairs" && !STRATEGY_NAMES.includes(name)) throw strategyError(f.strategy, family);
  const tolerance = f.tolerance === undefined ? defaultTolerance : Number(f.tolerance);
  if (!(tolerance > 0 && tolerance < 1)) throw new CliError("--tolerance must be in (0, 1)");
  const cycles = f.cycles === undefined ? QPME_DEFAULT_CYCLES : Number(f.cycles);
  if (!(Number.isInteger(cycles) && cycles >= 1)) {
    throw new CliError(`--cycles must be a positive integer, got "${f.cycles}"`);
  }
  const order = f.order ?? "forward";
  if (order !== "forward" && order !== "reverse") {
    throw new CliError(`--order must be forward or reverse, got "${f.order}"`);
  }
  return {
    name,
    // `pairs` runs no ShrinkInterval search; the field stays a valid strategy for the types.
    strategy: name === "paper" || name === "pairs" ? STRATEGIES.lazy : STRATEGIES[name],
    tolerance,
    cycles,
    order,
    reconstruction: f.leastSquares ? "least-squares" : "ratios",
    gradients: name === "pairs" ? "pairs" : "lpme",
  };
}

/**
 * The options the QPME procedures take from the validated flags.
 * @example qpmeOptions(qpmeSearchFlags({ cycles: "1" })).cycles // 1
 */
export function qpmeOptions(s: QpmeSearchFlags): {
  tolerance: number;
  strategy: Strategy;
  cycles: number;
  order: "forward" | "reverse";
  reconstruction: "ratios" | "least-squares";
  gradients: "lpme" | "pairs";
} {
  return {
    tolerance: s.tolerance,
    strategy: s.strategy,
    cycles: s.cycles,
    order: s.order,
    reconstruction: s.reconstruction,
    gradients: s.gradients,
  };
}

/**
 * `--strategy pairs` is QPME's own gradient search: refused for the families built on the
 * paper's LPME runs (cubic, fair-quadratic), which would otherwise run another search.
 * @example onlyLpmeSearch(qpmeSearchFlags({ strategy: "pairs" }), "cubic") // throws CliError
 */
export function onlyLpmeSearch(s: QpmeSearchFlags, family: string): void {
  if (s.gradients === "pairs")
    throw new CliError(
      `--strategy pairs is for --family quadratic; ${family} runs the paper's LPME searches (choose ${strategiesFor(family).join(", ")})`,
    );
}

/**
 * The QPME settings a report and its logged session record (beside strategy and tolerance).
 * @example qpmeRecord(qpmeSearchFlags({})) // { cycles: 3, order: "forward", reconstruction: "ratios" }
 */
export function qpmeRecord(s: QpmeSearchFlags): {
  cycles: number;
  order: "forward" | "reverse";
  reconstruction: "ratios" | "least-squares";
  gradients?: "pairs";
} {
  // `gradients` only with pairs, so the records of the paper's search stay as they were.
  return {
    cycles: s.cycles,
    order: s.order,
    reconstruction: s.reconstruction,
    ...(s.gradients === "pairs" ? { gradients: "pairs" as const } : {}),
  };
}

/**
 * The strategy as the text output names it: `paper` runs the QPME paper's own counting (at most
 * three questions per halving: our `lazy`, which the JSON records), so the line says so.
 * @example strategyText(qpmeSearchFlags({ strategy: "paper" })) // "paper (the QPME paper's counting: lazy, at most 3 questions per halving)"
 */
export function strategyText(s: QpmeSearchFlags): string {
  return s.name === "paper"
    ? "paper (the QPME paper's counting: lazy, at most 3 questions per halving)"
    : s.name;
}

/** One line for the text output: `cycles 3 (forward), ratios reconstruction`. */
export function describeQpme(s: QpmeSearchFlags): string {
  if (s.gradients === "pairs")
    return `gradients from symmetric pairs, ${s.reconstruction} reconstruction`;
  return `cycles ${s.cycles} (${s.order}), ${s.reconstruction} reconstruction`;
}

/**
 * Write the replayable sessions of some runs to `--log FILE` (nothing without a path), each
 * with the settings in `extra` (e.g. `qpmeRecord(search)`) beside its seed and answers.
 * @example writeSessionLog(f.log, runs, qpmeRecord(search))
 */
export function writeSessionLog(
  path: string | undefined,
  runs: readonly { readonly session: unknown }[],
  extra: Readonly<Record<string, unknown>> = {},
): void {
  if (!path) return;
  writeText(
    path,
    `${JSON.stringify(
      runs.map((r) => ({ ...(r.session as object), ...extra })),
      null,
      2,
    )}\n`,
    "--log ",
  );
}

/**
 * A run report without its session (the session goes to `--log`, not to the printed JSON).
 * @example withoutSession({ session: {}, queries: 3 }) // { queries: 3 }
 */
export function withoutSession<R extends { readonly session: unknown }>(r: R): Omit<R, "session"> {
  const { session: _s, ...rest } = r;
  return rest;
}
