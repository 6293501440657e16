import type { Command } from "commander";
import type { FractionalMetric } from "../../elicit/multiclass/fractional-grid.ts";
import { fmt, table } from "../../experiments/format.ts";
import {
  type MulticlassReproduction,
  reproduceMulticlass,
} from "../../experiments/reproduce-multiclass.ts";
import {
  type FractionalReproductionRow,
  type MulticlassFractionalReproduction,
  reproduceMulticlassFractional,
} from "../../experiments/reproduce-multiclass-fractional.ts";
import { STRATEGY_NAMES, type StrategyName } from "../../search/strategy.ts";
import { CliError, guarded } from "../errors.ts";
import { positiveTrials } from "../figure-options.ts";

/** Two decimals, a weight that rounds to zero printed 0.00 whatever its sign (not -0.00). */
const fmt2 = (x: number) => fmt(x, 2).replace(/^-(0\.0+)$/, "$1");
const vec = (xs: readonly number[]) => `(${xs.map(fmt2).join(",")})`;

const frac = (m: FractionalMetric) => `${vec(m.a)} ${vec(m.b)} ${fmt2(m.b0)}`;

/** Text rendering of Tables 8-10. */
export function formatFractionalReproduction(r: MulticlassFractionalReproduction): string {
  const out: string[] = [];
  const section = (title: string, rows: readonly FractionalReproductionRow[]) => {
    out.push("", title);
    out.push(
      table(
        [
          "true (a) (b) b0",
          "paper alpha/sigma",
          "ours elicited (a) (b) b0",
          "ours alpha/sigma",
          "ideal alpha/sigma",
          "queries",
          ...(rows[0]?.firstPivot ? ["pivot 0: sigma, queries"] : []),
        ],
        rows.map((row) => [
          frac(row.truth),
          `${fmt(row.paper.alpha, 2)} / ${fmt(row.paper.sigma, 3)}`,
          frac(row.run.elicited),
          `${fmt(row.run.alpha, 3)} / ${fmt(row.run.sigma, 3)}`,
          `${fmt(row.ideal.alpha, 3)} / ${fmt(row.ideal.sigma, 3)}`,
          String(row.run.queries),
          ...(row.firstPivot ? [`${fmt(row.firstPivot.sigma, 3)}, ${row.firstPivot.queries}`] : []),
        ]),
      ),
    );
  };
  section(
    "Table 8. DLFPM, k = 3 (pivot-selection pass; last column: class 0 as pivot, as Algorithm 5 is printed)",
    r.table8,
  );
  section("Table 9. DLFPM, k = 4", r.table9);
  section(
    "Table 10. LFPM over off-diagonal confusions, k = 3 (zeta = 0.75 as the appendix's b0 imply)",
    r.table10,
  );
  out.push(
    "alpha, sigma: mean and std of elicited/true on Algorithm 5's (7's) points; 'ideal' is the truth's own",
    "representative in the appendix's normalisation (sum b = 0): answers identify the metric only up to that choice.",
  );
  return out.join("\n");
}

/** Text rendering of the multiclass reproduction. */
export function formatMulticlassReproduction(r: MulticlassReproduction): string {
  const out: string[] = [];
  out.push(`NeurIPS 2019 multiclass metric elicitation (appendix F), strategy "${r.strategy}"`);
  out.push(
    "Synthetic population: X ~ U[-1,1], eta_i(x) ∝ exp(2 i x) (ALGORITHMS.md A.7), eps = 0.01",
    "",
  );
  out.push("Table 5. DLPM elicitation");
  out.push(
    table(
      ["k", "true a*", "paper a-hat", "ours a-hat", "max |error|", "queries"],
      r.table5.map((row) => [
        String(row.k),
        vec(row.truth),
        vec(row.paper),
        vec(row.run.elicited.a),
        fmt(row.run.error.linf, 4),
        String(row.run.queries),
      ]),
    ),
  );
  out.push("", "Table 6. LPM elicitation on the sphere (2 forward cycles)");
  out.push(
    table(
      ["k", "true a*", "ours a-hat", "max |error|", "queries", "sphere rho"],
      r.table6.map((row) => [
        String(row.k),
        vec(row.run.truth.a),
        vec(row.run.elicited.a),
        fmt(row.run.error.linf, 4),
        String(row.run.queries),
        row.radius.toExponential(3),
      ]),
    ),
  );
  out.push(
    "",
    `Table 7. LPM elicitation (k = 4) as the query sphere shrinks: fraction of ${r.table7.trials} random a* with max |a* - a-hat| <= omega`,
  );
  out.push(
    table(
      ["radius", ...r.table7.omegas.map((w) => `omega ${w}`)],
      r.table7.rows.map((row) => [
        row.radius.toExponential(3),
        ...row.fractions.map((f) => fmt(f, 2)),
      ]),
    ),
  );
  out.push(
    "(appendix at 1.250e-12 / 1.875e-12 / 2.500e-12: 0.03-0.94 / 0.09-0.98 / 0.12-0.99; in our runs values that close are exact ties)",
  );
  return out.join("\n");
}

/** `elicit reproduce multiclass`. */
export function registerReproduceMulticlass(reproduce: Command): void {
  reproduce
    .command("multiclass")
    .description(
      "NeurIPS 2019 appendix Tables 5-10 (DLPM, LPM, sphere size, DLFPM, LFPM) on the synthetic population",
    )
    .option("--strategy <name>", `question strategy: ${STRATEGY_NAMES.join(", ")}`, "paper")
    .option("--trials <n>", "random metrics per sphere radius for Table 7", "100")
    .option("--json", "print JSON on stdout")
    .action((f: { strategy: string; trials: string; json?: boolean }) =>
      guarded(() => {
        if (!STRATEGY_NAMES.includes(f.strategy as StrategyName)) {
          throw new CliError(
            `unknown --strategy "${f.strategy}"; choose ${STRATEGY_NAMES.join(", ")}`,
          );
        }
        const trials = positiveTrials(f.trials);
        const r = reproduceMulticlass(f.strategy as StrategyName, trials);
        const fractional = reproduceMulticlassFractional(f.strategy as StrategyName);
        if (f.json) {
          const strip = <
            T extends { run: { session: unknown; questions: unknown; classifier: unknown } },
          >(
            rows: T[],
          ) =>
            rows.map(
              ({ run: { session: _s, questions: _q, classifier: _c, ...run }, ...rest }) => ({
                ...rest,
                run,
              }),
            );
          console.log(
            JSON.stringify(
              { ...r, table5: strip(r.table5), table6: strip(r.table6), ...fractional },
              null,
              2,
            ),
          );
        } else
          console.log(
            `${formatMulticlassReproduction(r)}\n${formatFractionalReproduction(fractional)}`,
          );
      }),
    );
}
