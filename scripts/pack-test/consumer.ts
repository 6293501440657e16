// Type-checked by scripts/pack-test.sh (strict; TypeScript 7 and 5.9; moduleResolution
// nodenext, node16 and bundler) inside the project that installed the packed tarball: the
// .d.ts files of every subpath resolve and type the API.
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
import type { ServeOptions } from "metric-elicitation/server";
import { type ReplayState, replay, runProcedure } from "metric-elicitation/session";

const spec: BinarySpec = { family: "binary-linear", tolerance: 0.02, strategy: "paper" };
const population = syntheticPopulation(5);
const oracle = simulatedOracle((p: BinaryPoint) =>
  evaluateLinear({ tp: 0.6, tn: 0.8 }, p.confusion),
);
const run = runProcedure(binaryProcedure(spec, population), oracle.ask);
const result: BinaryResult = run.result;
const state: ReplayState<BinaryPoint, BinaryResult> = replay(
  binaryProcedure(spec, population),
  run.answers,
);
// @ts-expect-error: a number is not a BinarySpec (the types are real, not `any`)
binaryProcedure(42, population);
export const used = [
  result,
  state,
  adaptiveProcedure,
  binaryLinearFamily,
  prepareBinaryFromCsv,
  fairQpmeProcedure,
  multiclassProcedure,
  qpmeProcedure,
  0 as unknown as ServeOptions,
];
