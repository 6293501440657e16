import type { Command } from "commander";
import { formatDatasetReport } from "../../data/report.ts";
import type { BinarySpec } from "../../elicit/binary/spec.ts";
import { fmt } from "../../experiments/format.ts";
import { simulateBinary } from "../../experiments/simulate-binary.ts";
import { describeThreshold } from "../../geometry/binary/threshold-classifier.ts";
import { fullConfusion } from "../../metrics/binary-confusion.ts";
import { CliError, guarded } from "../errors.ts";
import { linearWeightsProblem } from "../parse-truth.ts";
import { loadBinaryPopulation, numberOption } from "../population-options.ts";

/** `elicit demo` (what `npm start` runs). */
export function registerDemo(program: Command): void {
  program
    .command("demo")
    .description(
      "a step-by-step elicitation on the bundled breast-cancer data with a simulated doctor",
    )
    .option("--tp <w>", "the simulated doctor's weight on caught cancers", "0.8")
    .option("--tn <w>", "the simulated doctor's weight on cleared healthy patients", "0.6")
    .action((f: { tp: string; tn: string }) =>
      guarded(() => {
        // Checked before anything is printed: a bad weight would otherwise show as NaN and
        // fail only after all the questions.
        const truth = { tp: numberOption(f.tp, "--tp", 0), tn: numberOption(f.tn, "--tn", 0) };
        const problem = linearWeightsProblem(truth.tp, truth.tn);
        if (problem !== undefined) throw new CliError(`--tp ${f.tp} --tn ${f.tn}: ${problem}`);
        const { population, prepared } = loadBinaryPopulation({});
        const p = prepared!;
        console.log(
          "metric-elicitation demo: which classification mistakes matter more to a doctor?\n",
        );
        for (const line of formatDatasetReport(p.report!)) console.log(`  ${line}`);
        console.log(
          `  model: logistic regression trained on ${p.model!.trainSize} patients, ` +
            `held-out accuracy ${(100 * p.model!.testAccuracy).toFixed(1)}% on ${p.model!.testSize}`,
        );
        const norm = Math.hypot(truth.tp, truth.tn);
        console.log(
          `\nThe simulated doctor secretly scores a system by ${fmt(truth.tp / norm, 2)} x caught cancers + ` +
            `${fmt(truth.tn / norm, 2)} x cleared healthy patients.`,
        );
        console.log(
          "Each question shows two systems as counts out of 100 patients; the doctor picks one.\n",
        );
        const spec: BinarySpec = {
          family: "binary-linear",
          tolerance: 0.02,
          strategy: "paper",
          // As simulate: negative weights make a metric that falls with TP and TN, whose
          // boundary is the other half of the feasible set.
          monotone: truth.tp + truth.tn < 0 ? "decreasing" : "increasing",
        };
        const show = (c: Parameters<typeof fullConfusion>[0]) => {
          const m = fullConfusion(c, population.zeta);
          return `caught ${fmt(100 * m.tp, 1)}, missed ${fmt(100 * m.fn, 1)}, false alarms ${fmt(100 * m.fp, 1)}`;
        };
        const word = { first: "prefers A", second: "prefers B", tie: "about the same" } as const;
        // The paper's search halves the angle below what the pool's steps can show, so some of
        // its late pairs are the same system twice as shown: said on the line and counted.
        let sameShown = 0;
        const report = simulateBinary(
          spec,
          { family: "binary-linear", metric: truth },
          population,
          { kind: "none" },
          1,
          {
            onQuestion: (q, answer) => {
              const a = show(q.first.confusion);
              const b = show(q.second.confusion);
              const same = a === b;
              if (same) sameShown++;
              console.log(
                `Q${String(q.index + 1).padStart(2)}  A: ${a} | B: ${b}  -> ${word[answer]}${same ? " (the same as shown)" : ""}`,
              );
            },
            onShrink: (s) => {
              console.log(
                `     halving ${s.halving}: angle interval now [${fmt(s.lo, 4)}, ${fmt(s.hi, 4)}] rad (width ${fmt(s.hi - s.lo, 4)})`,
              );
            },
          },
        );
        const e = report.elicited as { tp: number; tn: number };
        console.log(
          `\nElicited metric after ${report.queries} questions: ${fmt(e.tp, 3)} TP + ${fmt(e.tn, 3)} TN`,
        );
        console.log(
          `True metric (normalised):          ${fmt(report.truth.tp!, 3)} TP + ${fmt(report.truth.tn!, 3)} TN`,
        );
        console.log(`Angle error: ${fmt((report.error as { angle: number }).angle, 4)} rad`);
        if (sameShown > 0) {
          console.log(
            `${sameShown} of ${report.queries} questions showed the same system twice as rounded here: the paper's search halves the angle past what these counts can show (the web studies compute on the counts they show and never ask such a pair).`,
          );
        }
        console.log(
          `Optimal classifier for the elicited metric: ${describeThreshold(report.classifier)} ` +
            `(predict ${p.positiveLabel} when the model's probability is at ${report.classifier.direction === "ge" ? "least" : "most"} ${fmt(report.classifier.threshold, 3)})`,
        );
        console.log(
          "\nNext: `npx elicit ask` to answer the questions yourself, `npx elicit --help` for more.",
        );
      }),
    );
}
