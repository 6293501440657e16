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
