import type { Command } from "commander";
import { fmt, table } from "../../experiments/format.ts";
import { createSpace } from "../../geometry/multiclass/space.ts";
import { SPACE_KINDS, type SpaceKind } from "../../geometry/multiclass/space-kind.ts";
import { findSphere } from "../../geometry/multiclass/sphere.ts";
import { CliError, guarded } from "../errors.ts";
import { loadMulticlassPool, type MulticlassFlags } from "../multiclass-options.ts";

/**
 * `--space` as `sphere` takes it: a space kind, or its name spelt out as `simulate --space`
 * spells the rates (diagonal-rates, off-diagonal-rates; likewise the confusions).
 * @example sphereSpace("off-diagonal-rates") // "offdiag-rates"
 */
export function sphereSpace(name: string): SpaceKind | undefined {
  const kind = name.replace(/^off-diagonal-/, "offdiag-").replace(/^diagonal-/, "diag-");
  return SPACE_KINDS.includes(kind as SpaceKind) ? (kind as SpaceKind) : undefined;
}

/** `elicit sphere`. */
export function registerSphere(program: Command): void {
  program
    .command("sphere")
    .description(
      "radius and axis extents of the largest ball found inside the feasible set (Algorithm 3)",
    )
    .option("--data <file>", "CSV with features and a target column")
    .option("--target <column>", "target column (at least 3 classes)")
    .option("--drop <column...>", "feature columns to ignore")
    .option("--synthetic <name>", "paper-multiclass instead of --data")
    .option("--classes <k>", "classes of the synthetic population", "3")
    .option(
      "--space <kind>",
      `statistics: ${SPACE_KINDS.join(", ")} (or spelt out: diagonal-rates, off-diagonal-rates, ...)`,
      "offdiag-confusion",
    )
    .option("--margin <m>", "safety margin: queries use rho = margin * radius", "0.95")
    .option("--json", "print JSON on stdout")
    .action((f: MulticlassFlags & { space: string; margin: string; json?: boolean }) =>
      guarded(() => {
        const space = sphereSpace(f.space);
        if (space === undefined) {
          throw new CliError(
            `unknown --space "${f.space}"; choose ${SPACE_KINDS.join(", ")} (or spelt out: diagonal-rates, off-diagonal-rates, ...)`,
          );
        }
        const margin = Number(f.margin);
        if (!(margin > 0 && margin <= 1)) throw new CliError("--margin must be in (0, 1]");
        const { pool, source, classNames } = loadMulticlassPool(f, {
          tooFewClasses:
            "sphere needs a target of at least 3 classes (the multiclass feasible set): give --target a column with 3 or more classes",
        });
        const t0 = performance.now();
        const s = findSphere(createSpace(space, pool), { margin });
        const ms = performance.now() - t0;
        if (f.json) {
          console.log(
            JSON.stringify(
              {
                source,
                space: s.kind,
                k: s.k,
                dim: s.dim,
                radius: s.radius,
                rho: s.rho,
                reason: s.reason,
                axes: s.axes.map((a) => ({
                  axis: a.axis,
                  pair: a.pair,
                  plus: a.plus,
                  minus: a.minus,
                })),
                milliseconds: ms,
              },
              null,
              2,
            ),
          );
          return;
        }
        console.log(
          `${source}: ${pool.k} classes (${classNames.join(", ")}), ${pool.n} held-out points, space ${s.kind} (dim ${s.dim})`,
        );
        if (!(s.radius > 0)) {
          console.log(`no ball of positive radius: ${s.reason}`);
          process.exitCode = 1;
          return;
        }
        console.log(
          `radius ${fmt(s.radius, 6)}; queries use rho = ${fmt(s.rho, 6)} (margin ${margin}); ${ms.toFixed(0)} ms`,
        );
        console.log(
          table(
            ["axis", "entry (true, predicted)", "+ extent", "- extent"],
            s.axes.map((a) => [
              String(a.axis),
              a.pair ? `(${classNames[a.pair[0]]}, ${classNames[a.pair[1]]})` : "-",
              fmt(a.plus, 5),
              fmt(a.minus, 5),
            ]),
          ),
        );
      }),
    );
}
