// Replay an answer log. A procedure is a deterministic function of (spec, population,
// answers so far), so a stored list of answers is the whole session: `replay` tells where it
// stands (the next question, or the result) without asking anything. This is how a server or
// a terminal session resumes an elicitation.
//
//   node examples/replay-answer-log.mjs [session.json]
//
// session.json is a log as `elicit simulate --truth '{"tp":0.6,"tn":0.8}' --log session.json`
// writes it ({ spec, seed, answers }, questions drawn from the bundled breast-cancer data).
// Without it, the script records a log first with a simulated stakeholder.
import { readFileSync } from "node:fs";
import { binaryProcedure, evaluateLinear } from "metric-elicitation/binary";
import { prepareBinaryFromCsv } from "metric-elicitation/data";
import { simulatedOracle } from "metric-elicitation/oracle";
import { replay, runProcedure } from "metric-elicitation/session";

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

let log;
if (process.argv[2]) {
  log = JSON.parse(readFileSync(process.argv[2], "utf8"));
} else {
  const spec = { family: "binary-linear", tolerance: 0.02, strategy: "paper" };
  const oracle = simulatedOracle((p) => evaluateLinear({ tp: 0.6, tn: 0.8 }, p.confusion));
  const { answers } = runProcedure(binaryProcedure(spec, pool), oracle.ask);
  log = { spec, answers };
}
const procedure = binaryProcedure(log.spec, pool);
console.log(`log: ${log.spec.family}, ${log.answers.length} answers`);

// Halfway through: the session is waiting for an answer to this question.
const half = replay(procedure, log.answers.slice(0, 10));
if (half.status !== "pending") throw new Error("expected a pending question after 10 answers");
const q = half.question;
const rates = (p) => `TP ${p.confusion.tp.toFixed(3)} TN ${p.confusion.tn.toFixed(3)}`;
console.log(
  `after 10 answers: question ${q.index + 1} (${q.stage}): ${rates(q.first)} or ${rates(q.second)}?`,
);

// The whole log: the session is finished, with the same result as the live run.
const done = replay(procedure, log.answers);
if (done.status !== "done") throw new Error("expected the full log to finish the procedure");
const m = done.result.metric;
console.log(
  `all ${done.questions.length} answers: elicited tp ${m.tp.toFixed(4)}, tn ${m.tn.toFixed(4)}`,
);
