import { describe, expect, it } from "vitest";
import {
  ANSWER_MODEL_CHOICES,
  ANSWER_MODEL_NAMES,
  answerLogLikelihood,
  EXACT_MODEL,
  flipModel,
  HUMAN_MODEL,
  LEARNED_BLUNT_LEAN_MODEL,
  parseAnswerModel,
  TIE_BANDS,
} from "../../../src/elicit/adaptive/answer-model.ts";
import { isStudyAnswerModel, STUDY_ANSWER_MODELS } from "../../../src/server/study/config.ts";
import { inWords } from "../../../src/words.ts";

describe("answer models: their names (one list for help text, errors and parsing)", () => {
  it("parses every listed name, and flips:P; an unknown name's error lists them all", () => {
    for (const name of ANSWER_MODEL_NAMES) expect(parseAnswerModel(name), name).toBeDefined();
    expect(parseAnswerModel("exact")).toBe(EXACT_MODEL);
    expect(parseAnswerModel("learned-blunt-lean")).toBe(LEARNED_BLUNT_LEAN_MODEL);
    expect(parseAnswerModel("flips:0.1")).toEqual(flipModel(0.1));
    expect(() => parseAnswerModel("toString")).toThrow(/unknown answer model/);
    expect(() => parseAnswerModel("sharp")).toThrow(
      'unknown answer model "sharp": use exact, human, learned, learned-sharp, learned-lean, learned-blunt-lean, learned-tiring, learned-flipping, learned-flipping-moderate, learned-sharp-checked, learned-flips-checked or flips:P (e.g. flips:0.05)',
    );
    expect(ANSWER_MODEL_CHOICES.endsWith("learned-flips-checked or flips:P")).toBe(true);
  });

  it("lists names as 'a, b or c'; a study's models are all but exact", () => {
    expect(inWords(["a"], "or")).toBe("a");
    expect(inWords(["a", "b"], "or")).toBe("a or b");
    expect(inWords(["a", "b", "c"], "or")).toBe("a, b or c");
    expect(inWords([], "or")).toBe("");
    expect(STUDY_ANSWER_MODELS).toEqual(ANSWER_MODEL_NAMES.filter((n) => n !== "exact"));
    expect(isStudyAnswerModel("learned-lean")).toBe(true);
    expect(isStudyAnswerModel("exact")).toBe(false);
    expect(isStudyAnswerModel("flips:0.1")).toBe(false);
  });
});

describe("answer models: what a 'tie' says (issue 26)", () => {
  it("the human model keeps a tie 5-10% of the range apart plausible; the exact model does not", () => {
    // A tie-band person says "about the same" for differences under 5-10% of the range.
    for (const d of [0.05, 0.07, 0.1]) {
      expect(answerLogLikelihood(HUMAN_MODEL, "tie", d)).toBeGreaterThan(Math.log(0.3));
      expect(answerLogLikelihood(EXACT_MODEL, "tie", d)).toBeLessThan(-12);
    }
    // ... but a tie on a pair the whole range apart stays nearly ruled out.
    expect(answerLogLikelihood(HUMAN_MODEL, "tie", 1)).toBeLessThan(Math.log(0.002));
  });

  it("is the equal mixture of the bands, largest at no difference, symmetric, falling", () => {
    const w = HUMAN_MODEL.tieWidth;
    const direct = (d: number) =>
      Math.log(
        TIE_BANDS.reduce((s, m) => s + Math.exp(-0.5 * (d / (w * m)) ** 2), 0) / TIE_BANDS.length,
      );
    let previous = Infinity;
    for (const d of [0, 0.005, 0.02, 0.05, 0.2, 0.5, 1]) {
      const ll = answerLogLikelihood(HUMAN_MODEL, "tie", d);
      expect(ll).toBeCloseTo(direct(d), 12);
      expect(answerLogLikelihood(HUMAN_MODEL, "tie", -d)).toBe(ll);
      expect(ll).toBeLessThan(previous + (d === 0 ? Infinity : 0));
      previous = ll;
    }
    expect(answerLogLikelihood(HUMAN_MODEL, "tie", 0)).toBe(0);
  });
});
