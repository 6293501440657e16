// Elicit a binary linear metric from a CSV: fit a logistic regression on half of the data,
// draw the questions from its held-out predictions, and let a simulated stakeholder answer.
//
//   node examples/binary-from-csv.mjs [file.csv target positive-label]
//
// Without arguments it uses the bundled breast-cancer data (target column "target",
// positive class "malignant"), which the package exports as
// metric-elicitation/datasets/breast_cancer_wisconsin_diagnostic.csv.
import { readFileSync } from "node:fs";
import {
  angleBetween,
  binaryProcedure,
  describeThreshold,
  evaluateLinear,
} from "metric-elicitation/binary";
import { prepareBinaryFromCsv } from "metric-elicitation/data";
import { simulatedOracle } from "metric-elicitation/oracle";
import { runProcedure } from "metric-elicitation/session";

const [file, target, positive] = process.argv.slice(2);
const csv = file
  ? readFileSync(file, "utf8")
  : readFileSync(
      new URL(
        import.meta.resolve("metric-elicitation/datasets/breast_cancer_wisconsin_diagnostic.csv"),
      ),
      "utf8",
    );
const prepared = prepareBinaryFromCsv(
  csv,
  {
    target: target ?? "target",
    positive: positive ?? (file ? undefined : "malignant"),
    pool: "soft",
  },
  file ?? "breast cancer (diagnostic)",
);
console.log(
  `pool: ${prepared.pool.description}, model test accuracy ${prepared.model.testAccuracy.toFixed(3)}`,
);

// The stakeholder values a true positive 0.6 and a true negative 0.8 (their hidden metric).
const truth = { tp: 0.6, tn: 0.8 };
const oracle = simulatedOracle((p) => evaluateLinear(truth, p.confusion), { kind: "none" }, 1);

const spec = { family: "binary-linear", tolerance: 0.02, strategy: "paper" };
const { result, answers } = runProcedure(binaryProcedure(spec, prepared.pool), oracle.ask);
console.log(`asked ${answers.length} questions`);
console.log(
  `elicited metric: tp ${result.metric.tp.toFixed(4)}, tn ${result.metric.tn.toFixed(4)}`,
);
console.log(
  `true metric: tp ${truth.tp}, tn ${truth.tn}; angle between the two ${angleBetween(truth, result.metric).toFixed(4)} rad`,
);
console.log(`optimal classifier for it: ${describeThreshold(result.classifier)}`);
