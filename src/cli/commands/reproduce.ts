import type { Command } from "commander";
import { fmt, table } from "../../experiments/format.ts";
import {
  type BinaryReproduction,
  reproduceBinary,
  type Table2Row,
} from "../../experiments/reproduce-binary.ts";
import type { StrategyName } from "../../search/strategy.ts";
import { STRATEGY_NAMES } from "../../search/strategy.ts";
import { CliError, guarded } from "../errors.ts";
import { loadBinaryPopulation } from "../population-options.ts";
import { registerReproduceQuadratic } from "./quadratic.ts";
import { registerReproduceRanking } from "./ranking.ts";
import { registerReproduceAdaptive } from "./reproduce-adaptive.ts";
import { registerReproduceFair } from "./reproduce-fair.ts";
import { registerReproduceMulticlass } from "./reproduce-multiclass.ts";
import { registerReproducePeople } from "./reproduce-people.ts";

const pair = (m: { tp: number; tn: number }) => `(${fmt(m.tp, 2)},${fmt(m.tn, 2)})`;
const lfpm = (m: Record<string, number>) =>
  `(${fmt(m.p11!, 2)},${fmt(m.p00!, 2)}),(${fmt(m.q11!, 2)},${fmt(m.q00!, 2)},${fmt(m.q0!, 2)})`;

function table2(rows: readonly Table2Row[], paperColumns: boolean): string {
  return table(
    [
      "true metric",
      ...(paperColumns ? ["paper elicited", "alpha", "sigma"] : []),
      "ours elicited",
      "alpha",
      "sigma",
      "queries",
    ],
    rows.map((r) => {
      const e = r.run.error as { alphaMean: number; alphaStd: number };
      return [
        lfpm(r.truth as unknown as Record<string, number>),
        ...(paperColumns
          ? [
              lfpm(r.paper as unknown as Record<string, number>),
              fmt(r.paperAlpha, 2),
              fmt(r.paperSigma, 3),
            ]
          : []),
        lfpm(r.run.elicited),
        fmt(e.alphaMean, 3),
        fmt(e.alphaStd, 3),
        String(r.run.queries),
      ];
    }),
  );
}

/** The pole method's rows: the same answers as the paper's procedure, p11 where the lines meet. */
function poleTable(rows: readonly Table2Row[]): string {
  const errors = (r: Table2Row["run"]) => {
    const e = r.error as { alphaMean: number; alphaStd: number; p11: number };
    return [fmt(e.alphaMean, 3), fmt(e.alphaStd, 3), fmt(e.p11, 3)];
  };
  return table(
    [
      "true metric",
      "grid (paper) elicited",
      "alpha",
      "sigma",
      "p11 err",
      "pole elicited",
      "alpha",
      "sigma",
      "p11 err",
    ],
    rows.map((r) => [
      lfpm(r.truth as unknown as Record<string, number>),
      lfpm(r.run.elicited),
      ...errors(r.run),
      lfpm(r.pole.elicited),
      ...errors(r.pole),
    ]),
  );
}

function ratioComparison(c: BinaryReproduction["ratioComparison"]): string {
  const row = (name: string, e: typeof c.grid) => [
    name,
    fmt(e.p11Mean, 4),
    fmt(e.p11Max, 4),
    fmt(e.sigmaMean, 4),
    fmt(e.sigmaMedian, 4),
  ];
  return table(
    ["p11 from", "mean p11 err", "max p11 err", "mean sigma", "median sigma"],
    [row("grid (Algorithm 3)", c.grid), row("pole", c.pole)],
  );
}

/** Text rendering of the binary reproduction. */
export function formatBinaryReproduction(r: BinaryReproduction): string {
  const out: string[] = [];
  out.push(`AISTATS 2019 binary metric elicitation, strategy "${r.strategy}"`, "");
  out.push(
    "Table 1. LPM elicitation at tolerance 0.02 rad, synthetic X ~ U[-1,1], eta = 1/(1+e^(5x))",
  );
  out.push(
    table(
      ["algorithm", "true m*", "paper m-hat", "ours m-hat", "angle error (rad)", "queries"],
      r.table1.map((row) => [
        String(row.algorithm),
        pair(row.truth),
        pair(row.paper),
        pair(row.run.elicited as { tp: number; tn: number }),
        fmt((row.run.error as { angle: number }).angle, 4),
        String(row.run.queries),
      ]),
    ),
  );
  out.push("");
  out.push(
    "Table 2. LFPM elicitation, synthetic rows (tolerance 0.05 rad, k = 2000, Delta = 0.01);",
  );
  out.push(
    "alpha, sigma: mean and std of elicited/true on the upper boundary (1000 evenly spaced thresholds, less those where the true metric is 0)",
  );
  out.push(table2(r.table2, true));
  out.push("");
  out.push(
    "Beyond the paper: p11 where the two supporting lines meet (the pole method), same answers",
  );
  out.push(poleTable(r.table2));
  out.push("");
  const c = r.ratioComparison;
  out.push(
    `${c.trials} random LFPMs (p11 ~ U[0,1], q from Assumption 2), tolerance ${c.tolerance}, same answers for both; pole sigma lower in ${c.poleSigmaLower}/${c.trials}`,
  );
  out.push(ratioComparison(c));
  for (const real of r.realData) {
    out.push("");
    out.push(`Real data: ${real.population}`);
    out.push(
      "28 random LPMs per tolerance; failure = angle error above the tolerance (paper's Appendix C measure)",
    );
    out.push(
      table(
        ["tolerance", "failures", "mean angle error", "mean queries"],
        real.lpm.map((row) => [
          fmt(row.tolerance, 2),
          `${row.failures}/${row.trials}`,
          fmt(row.meanAngle, 4),
          fmt(row.meanQueries, 1),
        ]),
      ),
    );
    out.push("");
    out.push(
      "Table 2's metrics on the real data (q0 recomputed for the data's prior; the paper used Magic, not available here)",
    );
    out.push(table2(real.lfpm, false));
    out.push("The same answers, p11 by the pole method:");
    out.push(poleTable(real.lfpm));
  }
  return out.join("\n");
}

/** `elicit reproduce`. */
export function registerReproduce(program: Command): void {
  const reproduce = program.command("reproduce").description("reproduce the source papers' tables");
  registerReproduceMulticlass(reproduce);
  registerReproduceRanking(reproduce);
  registerReproduceFair(reproduce);
  registerReproduceQuadratic(reproduce);
  registerReproduceAdaptive(reproduce);
  registerReproducePeople(reproduce);
  reproduce
    .command("binary")
    .description("AISTATS 2019 Tables 1 and 2 (synthetic) and the breast-cancer real-data runs")
    .option("--strategy <name>", `question strategy: ${STRATEGY_NAMES.join(", ")}`, "paper")
    .option("--no-real", "skip the real-data runs")
    .option("--json", "print JSON on stdout")
    .action((f: { strategy: string; real: boolean; json?: boolean }) =>
      guarded(() => {
        if (!STRATEGY_NAMES.includes(f.strategy as StrategyName)) {
          throw new CliError(
            `unknown --strategy "${f.strategy}"; choose ${STRATEGY_NAMES.join(", ")}`,
          );
        }
        // The paper computes confusions on held-out labels; the soft pool is our recommended default.
        const reals = f.real
          ? (["labelled", "soft"] as const).map((pool) => loadBinaryPopulation({ pool }).population)
          : [];
        const result = reproduceBinary(f.strategy as StrategyName, reals);
        if (f.json) {
          const strip = <T extends { run: { session: unknown }; pole?: { session: unknown } }>(
            rows: readonly T[],
          ) =>
            rows.map(({ run: { session: _s, ...run }, pole, ...rest }) => {
              if (pole === undefined) return { ...rest, run };
              const { session: _p, ...poleRun } = pole;
              return { ...rest, run, pole: poleRun };
            });
          console.log(
            JSON.stringify(
              {
                ...result,
                table1: strip(result.table1),
                table2: strip(result.table2),
                realData: result.realData.map((real) => ({ ...real, lfpm: strip(real.lfpm) })),
              },
              null,
              2,
            ),
          );
        } else console.log(formatBinaryReproduction(result));
      }),
    );
}
