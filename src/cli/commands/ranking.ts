import type { Command } from "commander";
import {
  formatFairRankingReproduction,
  reproduceFairRanking,
} from "../../experiments/ranking/fair.ts";
import {
  formatGeneralRankingReproduction,
  reproduceGeneralRanking,
} from "../../experiments/ranking/general.ts";
import {
  formatRankingReproduction,
  RankingUnsupportedError,
  reproduceRanking,
} from "../../experiments/ranking/reproduce.ts";
import { STRATEGY_NAMES, type StrategyName } from "../../search/strategy.ts";
import { CliError, guarded } from "../errors.ts";
import { readText } from "../files.ts";
import { progressBar } from "../progress.ts";

/** Flags of `elicit reproduce ranking`. */
interface RankingFlags {
  data?: string;
  target?: string;
  groups?: string;
  metrics: string;
  seed: string;
  strategy: string;
  rates: string;
  json?: boolean;
}

/**
 * `elicit reproduce ranking --data FILE.csv --target COLUMN [--groups COLUMN | --rates general]
 * [--json]`:
 * UAI 2022 Appendix H.2 (Figure 9) on a real dataset — rank a pool of trained classifiers by
 * random true quadratic metrics and compare with the rankings by the QPME-elicited metric, the
 * true linear part and accuracy (NDCG with exponential gain, Kendall tau); with `--groups`,
 * the same for fair metrics (Table 3) against "linear with no fairness" and "accuracy with
 * equalised odds"; with `--rates general`, true metrics of the general (off-diagonal) rates
 * and the four elicitations of Table 4 (LPME and QPME over diagonal and over general rates).
 */
export function registerReproduceRanking(reproduce: Command): void {
  reproduce
    .command("ranking")
    .description(
      "UAI 2022 App. H.2 / Tables 3-4: rank trained classifiers by true vs elicited (fair) quadratic metrics (NDCG, Kendall tau)",
    )
    .option("--data <file>", "CSV dataset")
    .option("--target <column>", "target column")
    .option(
      "--groups <column>",
      "group column: rank by fair metrics (Table 3; fair QPME on the data's group query space)",
    )
    .option("--metrics <n>", "random true metrics", "100")
    .option("--seed <n>", "seed of the split, the classifier pool and the metrics", "1")
    .option("--strategy <name>", `question strategy (${STRATEGY_NAMES.join(", ")})`, "lazy")
    .option(
      "--rates <rates>",
      "diagonal (true metrics of the diagonal rates, Figure 9) or general (of the off-diagonal rates: Table 4's four elicitations)",
      "diagonal",
    )
    .option("--json", "print JSON on stdout")
    .action((f: RankingFlags) =>
      guarded(() => {
        // Every option's value first, then what is missing: a typo is reported at once, not
        // only after --data and --target are given.
        const metrics = Number(f.metrics);
        if (!Number.isInteger(metrics) || metrics < 1)
          throw new CliError("--metrics must be a positive integer");
        const seed = Number(f.seed);
        if (!Number.isInteger(seed)) throw new CliError("--seed must be an integer");
        if (!STRATEGY_NAMES.includes(f.strategy as StrategyName))
          throw new CliError(
            `unknown --strategy "${f.strategy}"; choose ${STRATEGY_NAMES.join(", ")}`,
          );
        if (f.rates !== "diagonal" && f.rates !== "general")
          throw new CliError(`--rates must be diagonal or general, got "${f.rates}"`);
        if (f.rates === "general" && f.groups !== undefined)
          throw new CliError("--rates general takes no --groups (Table 4 has no fairness version)");
        if (!f.data) throw new CliError("reproduce ranking needs --data FILE.csv");
        if (!f.target) throw new CliError("reproduce ranking needs --target COLUMN");
        const dataText = readText(f.data, "data file");
        const options = {
          dataText,
          target: f.target,
          metrics,
          seed,
          strategy: f.strategy as StrategyName,
        };
        if (f.groups !== undefined) {
          const result = reproduceFairRanking({ ...options, groups: f.groups });
          console.log(
            f.json ? JSON.stringify(result, null, 2) : formatFairRankingReproduction(result),
          );
          return;
        }
        if (f.rates === "general") {
          const bar = progressBar(metrics, "reproduce ranking --rates general");
          let general: ReturnType<typeof reproduceGeneralRanking>;
          try {
            general = reproduceGeneralRanking({ ...options, onMetric: () => bar.tick() });
          } finally {
            bar.stop();
          }
          console.log(
            f.json ? JSON.stringify(general, null, 2) : formatGeneralRankingReproduction(general),
          );
          return;
        }
        let result: ReturnType<typeof reproduceRanking>;
        try {
          result = reproduceRanking(options);
        } catch (e) {
          if (e instanceof RankingUnsupportedError) throw new CliError(e.message);
          throw e;
        }
        console.log(f.json ? JSON.stringify(result, null, 2) : formatRankingReproduction(result));
      }),
    );
}
