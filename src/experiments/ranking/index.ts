export {
  accuracyEqualisedOdds,
  FAIR_RANKING_METHODS,
  type FairRankingMethod,
  type FairRankingReproduction,
  formatFairRankingReproduction,
  reproduceFairRanking,
} from "./fair.ts";
export {
  formatGeneralRankingReproduction,
  GENERAL_METHOD_LABELS,
  GENERAL_RANKING_METHODS,
  type GeneralRankingMethod,
  type GeneralRankingOptions,
  type GeneralRankingReproduction,
  generalRates,
  PAPER_TABLE_4,
  randomGeneralTruth,
  reproduceGeneralRanking,
  spreadDiagonal,
} from "./general.ts";
export { kendallTau, minMaxRelevance, ndcg, rankByScore } from "./measures.ts";
export { buildClassifierPool, diagonalRates, type PoolSizes, rateMatrix } from "./pool.ts";
export {
  formatRankingReproduction,
  type RankingOptions,
  type RankingReproduction,
  type RankingScore,
  RankingUnsupportedError,
  reproduceRanking,
} from "./reproduce.ts";
