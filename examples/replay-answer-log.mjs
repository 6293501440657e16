// Replay an answer log. A procedure is a deterministic function of (spec, population,
// answers so far), so a stored list of answers is the whole session: `replay` tells where it
// stands (the next question, or the result) without asking anything. This is how a server or
// a terminal session resumes an elicitation.
//
//   node examples/replay-answer-log.mjs [session.json]
//
// session.json is a log as `elicit simulate --truth '{"tp":0.6,"tn":0.8}' --log session.json`
// writes it ({ spec, seed, answers }, questions drawn from the bundled breast-cancer data):
// a binary family (binary-linear, binary-linear-fractional, binary-threshold) with
// --strategy paper, lazy or bisect, or binary-linear and binary-threshold with --strategy
// adaptive (the adaptive engine replays the same way, from its spec and seed). A log of
// --trials N holds N sessions: the first is replayed.
// Without it, the script records a log first with a simulated stakeholder.
import { readFileSync } from "node:fs";
import {
  adaptiveProcedure,
  binaryLinearFamily,
  binaryThresholdFamily,
} from "metric-elicitation/adaptive";
import { binaryProcedure, evaluateLinear } from "metric-elicitation/binary";
import { prepareBinaryFromCsv } from "metric-elicitation/data";
import { simulatedOracle } from "metric-elicitation/oracle";
import { replay, runProcedure, STRATEGY_NAMES } from "metric-elicitation/session";

const BINARY_FAMILIES = ["binary-linear", "binary-linear-fractional", "binary-threshold"];
const ADAPTIVE_FAMILIES = ["binary-linear", "binary-threshold"];
const READS = `binary logs of --strategy ${STRATEGY_NAMES.join(", ")} (${BINARY_FAMILIES.join(", ")}) or adaptive (${ADAPTIVE_FAMILIES.join(", ")})`;

/** Stop with one line on stderr and exit code 1 (no stack trace). */
function refuse(message) {
  console.error(`replay-answer-log: ${message}`);
  process.exit(1);
}

// The population `elicit simulate` uses by default: the bundled data, soft labels.
const csv = readFileSync(
  new URL(
    import.meta.resolve("metric-elicitation/datasets/breast_cancer_wisconsin_diagnostic.csv"),
  ),
  "utf8",
);
const { pool } = prepareBinaryFromCsv(csv, {
  target: "target",
  positive: "malignant",
  pool: "soft",
});

/**
 * The procedure a logged spec describes: the ShrinkInterval searches (`binaryProcedure`) or
 * the adaptive engine on the same family, with the log's settings and seed.
 */
function procedureOf(spec, seed) {
  if (spec.strategy !== "adaptive") return binaryProcedure(spec, pool);
  // A log of --as-shown / --every-shown runs says so in its spec when it records them.
  const display = {
    displayStep: spec.displayStep,
    asShown: spec.asShown ?? false,
    everyShown: spec.everyShown ?? false,
  };
  const family =
    spec.family === "binary-linear"
      ? binaryLinearFamily(pool, { ...display, monotone: spec.monotone ?? "increasing" })
      : binaryThresholdFamily(pool, { ...display, grid: spec.grid ?? 0 });
  return adaptiveProcedure(family, {
    tolerance: spec.tolerance,
    budget: spec.budget,
    credibility: spec.credibility,
    model: spec.model,
    seed,
    ...(spec.gridPoints !== undefined ? { gridPoints: spec.gridPoints } : {}),
  });
}

let log;
if (process.argv[2]) {
  const file = process.argv[2];
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    refuse(`cannot read ${file}: ${e.message}`);
  }
  try {
    log = JSON.parse(text);
  } catch {
    refuse(`${file} is not JSON`);
  }
  if (Array.isArray(log)) {
    console.log(`${file} holds ${log.length} sessions (--trials); replaying the first`);
    log = log[0];
  }
  const spec = log?.spec;
  if (!(spec && Array.isArray(log.answers)))
    refuse(`${file} is not an answer log ({ spec, seed, answers }); this example reads ${READS}`);
  const strategies = spec.strategy === "adaptive" ? ["adaptive"] : STRATEGY_NAMES;
  const families = spec.strategy === "adaptive" ? ADAPTIVE_FAMILIES : BINARY_FAMILIES;
  if (!(strategies.includes(spec.strategy) && families.includes(spec.family)))
    refuse(
      `${file} is a log of --family ${spec.family} --strategy ${spec.strategy}; this example reads ${READS}`,
    );
} else {
  const spec = { family: "binary-linear", tolerance: 0.02, strategy: "paper" };
  const oracle = simulatedOracle((p) => evaluateLinear({ tp: 0.6, tn: 0.8 }, p.confusion));
  const { answers } = runProcedure(binaryProcedure(spec, pool), oracle.ask);
  log = { spec, seed: 1, answers };
}
const procedure = procedureOf(log.spec, log.seed ?? 1);
console.log(`log: ${log.spec.family} (${log.spec.strategy}), ${log.answers.length} answers`);

/** Where the session stands after `answers`, or a one-line refusal if they do not fit it. */
function replayed(answers) {
  try {
    return replay(procedure, answers);
  } catch (e) {
    if (e instanceof RangeError)
      refuse(`${e.message}: was the log written on another population than the bundled data?`);
    throw e;
  }
}

// Halfway through: the session is waiting for an answer to this question.
const halfway = Math.min(10, Math.floor(log.answers.length / 2));
const half = replayed(log.answers.slice(0, halfway));
if (half.status !== "pending") refuse(`expected a pending question after ${halfway} answers`);
const q = half.question;
const rates = (p) => `TP ${p.confusion.tp.toFixed(3)} TN ${p.confusion.tn.toFixed(3)}`;
console.log(
  `after ${halfway} answers: question ${q.index + 1} (${q.stage}): ${rates(q.first)} or ${rates(q.second)}?`,
);

// The whole log: the session is finished, with the same result as the live run.
const done = replayed(log.answers);
if (done.status !== "done")
  refuse(
    "the log ends before the procedure does: was it written on another population than the bundled data?",
  );
// binary-threshold's ShrinkInterval search reports a0 itself, the others a metric.
const metric = done.result.metric ?? { a0: done.result.a0 };
const weights = Object.entries(metric)
  .filter(([, v]) => typeof v === "number")
  .map(([k, v]) => `${k} ${v.toFixed(4)}`)
  .join(", ");
console.log(`all ${done.questions.length} answers: elicited ${weights}`);
