// Type-checked by scripts/pack-test.sh as a browser project would: no @types/node, the DOM
// library, full checking of the shipped .d.ts (skipLibCheck off). The engine subpaths must
// type-check with no Node.js types at all (`metric-elicitation/server` is Node only and is
// left out).
import { adaptiveProcedure, binaryLinearFamily } from "metric-elicitation/adaptive";
import {
  type BinaryPoint,
  type BinaryResult,
  type BinarySpec,
  binaryProcedure,
  evaluateLinear,
  syntheticPopulation,
} from "metric-elicitation/binary";
import { prepareBinaryFromCsv } from "metric-elicitation/data";
import { fairQpmeProcedure } from "metric-elicitation/fair";
import { multiclassProcedure } from "metric-elicitation/multiclass";
import { simulatedOracle } from "metric-elicitation/oracle";
import { qpmeProcedure } from "metric-elicitation/quadratic";
import { replay, runProcedure } from "metric-elicitation/session";

const spec: BinarySpec = { family: "binary-linear", tolerance: 0.02, strategy: "paper" };
const oracle = simulatedOracle((p: BinaryPoint) =>
  evaluateLinear({ tp: 0.6, tn: 0.8 }, p.confusion),
);
const run = runProcedure(binaryProcedure(spec, syntheticPopulation(5)), oracle.ask);
const result: BinaryResult = run.result;
// @ts-expect-error: a string is not a BinarySpec (the types are real, not `any`)
binaryProcedure("binary-linear", syntheticPopulation(5));
document.title = `${run.answers.length} questions`;
export const used = [
  result,
  replay,
  adaptiveProcedure,
  binaryLinearFamily,
  prepareBinaryFromCsv,
  fairQpmeProcedure,
  multiclassProcedure,
  qpmeProcedure,
];
