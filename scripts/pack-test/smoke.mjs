// Run by scripts/pack-test.sh inside an empty project that installed the packed tarball:
// import every public subpath by the package's name and run an elicitation through them.
// Prints one "ok <what>" or "FAIL <what>: <why>" line per check.
import { readFileSync } from "node:fs";

const SUBPATHS = [
  "metric-elicitation",
  "metric-elicitation/binary",
  "metric-elicitation/multiclass",
  "metric-elicitation/quadratic",
  "metric-elicitation/fair",
  "metric-elicitation/session",
  "metric-elicitation/oracle",
  "metric-elicitation/data",
  "metric-elicitation/adaptive",
  "metric-elicitation/server",
];

const mods = {};
for (const name of SUBPATHS) {
  try {
    const m = await import(name);
    const n = Object.keys(m).length;
    if (n === 0) throw new Error("no exports");
    mods[name] = m;
    console.log(`ok import ${name} (${n} exports)`);
  } catch (e) {
    console.log(`FAIL import ${name}: ${e.message}`);
  }
}

async function check(what, run) {
  try {
    console.log(`ok ${what}: ${await run()}`);
  } catch (e) {
    console.log(`FAIL ${what}: ${e.message}`);
  }
}

await check("binary elicitation on the bundled data", () => {
  const { binaryProcedure, evaluateLinear, angleBetween } = mods["metric-elicitation/binary"];
  const { prepareBinaryFromCsv } = mods["metric-elicitation/data"];
  const { simulatedOracle } = mods["metric-elicitation/oracle"];
  const { runProcedure, replay } = mods["metric-elicitation/session"];
  {
    const url = import.meta.resolve(
      "metric-elicitation/datasets/breast_cancer_wisconsin_diagnostic.csv",
    );
    const csv = readFileSync(new URL(url), "utf8");
    const { pool } = prepareBinaryFromCsv(csv, {
      target: "target",
      positive: "malignant",
      pool: "soft",
    });
    const truth = { tp: 0.6, tn: 0.8 };
    const oracle = simulatedOracle((p) => evaluateLinear(truth, p.confusion));
    const spec = { family: "binary-linear", tolerance: 0.02, strategy: "paper" };
    const { result, answers } = runProcedure(binaryProcedure(spec, pool), oracle.ask);
    const angle = angleBetween(truth, result.metric);
    if (!(angle < 0.1)) throw new Error(`angle error ${angle}`);
    const again = replay(binaryProcedure(spec, pool), answers);
    if (again.status !== "done" || again.result.metric.tp !== result.metric.tp) {
      throw new Error("the replayed log does not give the same metric");
    }
    return `${answers.length} questions, angle error ${angle.toFixed(4)} rad, replay agrees`;
  }
});

await check("adaptive engine (binary linear family)", () => {
  const { adaptiveProcedure, binaryLinearFamily } = mods["metric-elicitation/adaptive"];
  const { syntheticPopulation, evaluateLinear } = mods["metric-elicitation/binary"];
  const { simulatedOracle } = mods["metric-elicitation/oracle"];
  const { runProcedure } = mods["metric-elicitation/session"];
  if (typeof adaptiveProcedure !== "function" || typeof binaryLinearFamily !== "function") {
    throw new Error("adaptiveProcedure / binaryLinearFamily missing");
  }
  const population = syntheticPopulation(5);
  const oracle = simulatedOracle((p) => evaluateLinear({ tp: 0.6, tn: 0.8 }, p.confusion));
  const family = binaryLinearFamily(population);
  const procedure = adaptiveProcedure(family, { tolerance: 0.02, model: "exact" });
  const { result, answers } = runProcedure(procedure, oracle.ask);
  const m = result.metric;
  return `${answers.length} questions, tp ${m.tp.toFixed(3)} tn ${m.tn.toFixed(3)}`;
});
