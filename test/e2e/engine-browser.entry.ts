// Bundled by engine-browser.spec.ts with Vite for the browser (no Node built-ins allowed) and
// run in Chromium: every engine subpath's barrel (src/exports, what metric-elicitation/<name>
// points to), each running an elicitation. The result lands on `window.engineResult`.
import { adaptiveProcedure, binaryLinearFamily } from "../../src/exports/adaptive.ts";
import {
  angleBetween,
  type BinaryPoint,
  binaryProcedure,
  evaluateLinear,
  syntheticPopulation,
} from "../../src/exports/binary.ts";
import {
  parseCsv,
  prepareBinaryFromPredictions,
  syntheticMulticlassPool,
} from "../../src/exports/data.ts";
import { randomFairSetting, simulateFair } from "../../src/exports/fair.ts";
import { type MulticlassPoint, multiclassProcedure } from "../../src/exports/multiclass.ts";
import { createRng, simulatedOracle } from "../../src/exports/oracle.ts";
import { randomQuadraticMetric, simulateQuadratic } from "../../src/exports/quadratic.ts";
import { replay, runProcedure, STRATEGIES } from "../../src/exports/session.ts";

function run() {
  const truth = { tp: 0.6, tn: 0.8 };
  const population = syntheticPopulation(5);
  const spec = { family: "binary-linear", tolerance: 0.02, strategy: "paper" } as const;
  const oracle = simulatedOracle((p: BinaryPoint) => evaluateLinear(truth, p.confusion));
  const binary = runProcedure(binaryProcedure(spec, population), oracle.ask);
  if (binary.result.family !== "binary-linear") throw new Error("not a binary-linear result");
  const replayed = replay(binaryProcedure(spec, population), binary.answers.slice(0, 5));

  const adaptiveOracle = simulatedOracle((p: BinaryPoint) => evaluateLinear(truth, p.confusion));
  const adaptive = runProcedure(
    adaptiveProcedure(binaryLinearFamily(population), { tolerance: 0.02, model: "exact" }),
    adaptiveOracle.ask,
  );

  const hidden = [0.2, 0.5, 0.3];
  const dlpm = runProcedure(
    multiclassProcedure(
      { family: "diagonal-linear", tolerance: 0.01, strategy: "paper" },
      syntheticMulticlassPool(3),
    ),
    (q) => {
      const v = (p: MulticlassPoint) => hidden.reduce((s, w, i) => s + w * p.point[i]!, 0);
      return v(q.first) >= v(q.second) ? "first" : "second";
    },
  );

  const quadraticTruth = randomQuadraticMetric(3, createRng(1), {
    centre: [1 / 3, 1 / 3, 1 / 3],
    rho: 0.2,
    varrho: 1e-3,
  });
  const quadratic = simulateQuadratic(
    quadraticTruth,
    { tolerance: 0.01, strategy: STRATEGIES.lazy },
    { kind: "none" },
    1,
  );
  const { truth: fairTruth, tau } = randomFairSetting(2, 2, 1);
  const fair = simulateFair(
    fairTruth,
    { tolerance: 0.01, strategy: STRATEGIES.lazy, tau },
    { kind: "none" },
    1,
  );

  const csv = parseCsv("label,probability\n1,0.9\n0,0.2\n1,0.7\n");
  const predictions = prepareBinaryFromPredictions("label,probability\n1,0.9\n0,0.2\n", {});

  return {
    binaryQuestions: binary.answers.length,
    binaryAngle: angleBetween(truth, binary.result.metric),
    replayStatus: replayed.status,
    adaptiveAngle: angleBetween(truth, adaptive.result.metric),
    dlpm: dlpm.result.metric,
    quadraticError: quadratic.error,
    fairError: fair.error,
    csvRows: csv.rows.length,
    predictionsPool: predictions.pool.size,
  };
}

const w = window as unknown as { engineResult?: unknown; engineError?: string };
try {
  w.engineResult = run();
} catch (e) {
  w.engineError = String((e as Error).stack ?? e);
}
