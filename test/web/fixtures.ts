import type { StudyWords, SystemView } from "../../web/src/api/types.ts";

export const words: StudyWords = {
  positive: "had cancer",
  negative: "did not have cancer",
  predictedPositive: "Predicted high risk",
  predictedNegative: "Predicted low risk",
  missed: "missed cancers",
  falseAlarm: "false alarms",
  question: "Which system would you rather your doctor used?",
  systemNoun: "system",
};

export function system(tp: number, fn: number, fp: number, tn: number): SystemView {
  return { tp, fn, fp, tn, tpr: tp / (tp + fn), tnr: tn / (fp + tn), threshold: 0.5 };
}
