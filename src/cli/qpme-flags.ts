import { writeFileSync } from "node:fs";
import {
  STRATEGIES,
  STRATEGY_NAMES,
  type Strategy,
  type StrategyName,
} from "../search/strategy.ts";
import { CliError } from "./errors.ts";

/** The validated search flags of the QPME families (quadratic, cubic, fair-quadratic). */
export interface QpmeSearchFlags {
  /** The name the user chose (printed). */
  readonly name: StrategyName;
  /** The strategy that runs: the QPME paper's own counting is at most 3 questions per halving. */
  readonly strategy: Strategy;
  readonly tolerance: number;
}

/**
 * Validate `--strategy` (default lazy) and `--tolerance` (default `defaultTolerance`) for the
 * QPME families.
 * `paper` maps to our `lazy` ShrinkInterval: the UAI 2022 paper's Table 1 counts at most three
 * questions per halving.
 * @example qpmeSearchFlags({ strategy: "paper" }).strategy === STRATEGIES.lazy // true
 */
export function qpmeSearchFlags(
  f: { strategy?: string; tolerance?: string },
  defaultTolerance = 0.01,
): QpmeSearchFlags {
  const name = (f.strategy ?? "lazy") as StrategyName;
  if (!STRATEGY_NAMES.includes(name)) throw new CliError(`unknown --strategy "${f.strategy}"`);
  const tolerance = f.tolerance === undefined ? defaultTolerance : Number(f.tolerance);
  if (!(tolerance > 0 && tolerance < 1)) throw new CliError("--tolerance must be in (0, 1)");
  return { name, strategy: name === "paper" ? STRATEGIES.lazy : STRATEGIES[name], tolerance };
}

/**
 * Write the replayable sessions of some runs to `--log FILE` (nothing without a path).
 * @example writeSessionLog(f.log, runs)
 */
export function writeSessionLog(
  path: string | undefined,
  runs: readonly { readonly session: unknown }[],
): void {
  if (!path) return;
  try {
    writeFileSync(
      path,
      `${JSON.stringify(
        runs.map((r) => r.session),
        null,
        2,
      )}\n`,
    );
  } catch (e) {
    throw new CliError(`cannot write --log ${path}: ${(e as Error).message}`);
  }
}

/**
 * A run report without its session (the session goes to `--log`, not to the printed JSON).
 * @example withoutSession({ session: {}, queries: 3 }) // { queries: 3 }
 */
export function withoutSession<R extends { readonly session: unknown }>(r: R): Omit<R, "session"> {
  const { session: _s, ...rest } = r;
  return rest;
}
