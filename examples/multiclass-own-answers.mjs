// A multiclass elicitation answered by your own function. Each question shows two
// classifiers by their diagonal confusions (the fraction of the population each class
// contributes correctly); your function says which it prefers: "first", "second" or "tie".
// Here the answers come from a hidden weighting (class 1 matters most), but they could come
// from a person, a prompt or a cost model.
//
//   node examples/multiclass-own-answers.mjs
//
// The questions are drawn from a pool of class probabilities: here the papers' synthetic
// population with 3 classes. For your own data use `prepareMulticlassFromCsv(text, { target })`
// from metric-elicitation/data; a small dataset gives a small set of achievable confusions and
// a coarser estimate (on the bundled iris.csv, 75 held-out rows, this script's weights come
// back as 0.291, 0.399, 0.310).
import { syntheticMulticlassPool } from "metric-elicitation/data";
import { multiclassProcedure } from "metric-elicitation/multiclass";
import { runProcedure } from "metric-elicitation/session";

const pool = syntheticMulticlassPool(3);

// Your answer function: compare the two points of a question.
const hidden = [0.2, 0.5, 0.3]; // the weight of each class's diagonal confusion
const worth = (p) => hidden.reduce((s, w, i) => s + w * p.point[i], 0);
function myAnswer(question) {
  const a = worth(question.first);
  const b = worth(question.second);
  return Math.abs(a - b) < 1e-12 ? "tie" : a > b ? "first" : "second";
}

const spec = { family: "diagonal-linear", tolerance: 0.01, strategy: "paper" };
const { result, answers } = runProcedure(multiclassProcedure(spec, pool), myAnswer);
console.log(`answered ${answers.length} questions`);
console.log(`elicited weights: ${result.metric.map((w) => w.toFixed(3)).join(", ")}`);
console.log(`hidden weights:   ${hidden.map((w) => w.toFixed(3)).join(", ")}`);
