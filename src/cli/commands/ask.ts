import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Command } from "commander";
import { z } from "zod";
import { RATIO_METHODS, type RatioMethod } from "../../elicit/binary/fractional.ts";
import type { BinaryPoint } from "../../elicit/binary/point.ts";
import {
  BINARY_FAMILIES,
  type BinaryFamily,
  type BinarySpec,
  binaryProcedure,
  paperQuestionCount,
} from "../../elicit/binary/spec.ts";
import { replay } from "../../elicit/session.ts";
import { metricRecord } from "../../experiments/simulate-binary.ts";
import { describeThreshold } from "../../geometry/binary/threshold-classifier.ts";
import { createRng } from "../../math/rng.ts";
import { ANSWERS, type Answer, type Question } from "../../search/question.ts";
import { STRATEGY_NAMES, type StrategyName } from "../../search/strategy.ts";
import { CliError, guarded } from "../errors.ts";
import { type ClassWords, fmt, sideBySide, systemLines } from "../format.ts";
import {
  addPopulationOptions,
  loadBinaryPopulation,
  type PopulationFlags,
} from "../population-options.ts";
import { addSpecOptions, type SpecFlags, specFromFlags } from "./spec-options.ts";

const sessionSchema = z.object({
  spec: z
    .object({
      family: z.enum(BINARY_FAMILIES as [BinaryFamily, ...BinaryFamily[]]),
      tolerance: z.number().positive(),
      strategy: z.enum(STRATEGY_NAMES as [StrategyName, ...StrategyName[]]),
      ratio: z.enum(RATIO_METHODS as [RatioMethod, ...RatioMethod[]]).optional(),
    })
    .passthrough(),
  seed: z.number().int(),
  answers: z.array(z.enum(ANSWERS as [Answer, ...Answer[]])),
});

/** Whether the first point is shown on the left, seeded per question. */
export function firstOnLeft(seed: number, index: number): boolean {
  return createRng(`${seed}:${index}`).next() < 0.5;
}

function showQuestion(
  q: Question<BinaryPoint>,
  zeta: number,
  words: ClassWords,
  left: boolean,
  total: number,
) {
  const [l, r] = left ? [q.first, q.second] : [q.second, q.first];
  console.log(`\nQuestion ${q.index + 1} of about ${total}. Which system would you rather use?`);
  console.log(
    sideBySide(
      systemLines(`System A  ${describeThreshold(l.classifier, 3)}`, l.confusion, zeta, words),
      systemLines(`System B  ${describeThreshold(r.classifier, 3)}`, r.confusion, zeta, words),
    ),
  );
}

/** `elicit ask`. */
export function registerAsk(program: Command): void {
  const cmd = program
    .command("ask")
    .description(
      "elicit your own metric: answer which of two classifiers you prefer, in the terminal",
    );
  addPopulationOptions(cmd);
  addSpecOptions(cmd);
  cmd
    .option("--session <file>", "save answers here after every question, and resume from it")
    .option("--seed <n>", "seed of the left/right placement", "1")
    .action((f: PopulationFlags & SpecFlags & { session?: string; seed: string }) =>
      guarded(async () => {
        const { population, prepared } = loadBinaryPopulation(f);
        let spec: BinarySpec = specFromFlags(f);
        let seed = Number(f.seed);
        let answers: Answer[] = [];
        if (f.session && existsSync(f.session)) {
          const parsed = sessionSchema.safeParse(JSON.parse(readFileSync(f.session, "utf8")));
          if (!parsed.success) throw new CliError(`${f.session} is not a session file`);
          spec = parsed.data.spec as unknown as BinarySpec;
          seed = parsed.data.seed;
          answers = parsed.data.answers;
          console.log(`Resuming ${f.session}: ${answers.length} answers so far.`);
        }
        const save = () => {
          if (f.session)
            writeFileSync(f.session, `${JSON.stringify({ spec, seed, answers }, null, 2)}\n`);
        };
        const words: ClassWords = {
          positive: prepared?.positiveLabel ?? "positive",
          negative: prepared?.negativeLabel ?? "negative",
        };
        const procedure = binaryProcedure(spec, population);
        const total = paperQuestionCount({ ...spec, strategy: "paper" });
        console.log(
          "Keys: 1 = A, 2 = B, 0 = about the same, u = undo, q = quit (answers are kept).",
        );
        const rl = createInterface({ input: process.stdin, terminal: false });
        const lines = rl[Symbol.asyncIterator]();
        try {
          for (;;) {
            const state = replay(procedure, answers);
            if (state.status === "done") {
              const result = state.result;
              console.log(`\nDone after ${answers.length} answers.`);
              console.log(
                `Your metric: ${Object.entries(metricRecord(result))
                  .map(([k, v]) => `${k} = ${fmt(v, 3)}`)
                  .join(", ")}`,
              );
              if (
                result.family === "binary-linear" &&
                result.metric.tp > 0 &&
                result.metric.tn > 0
              ) {
                console.log(
                  `In words: missing a ${words.positive} case is about ${fmt(result.metric.tp / result.metric.tn, 1)} times as bad as a false alarm.`,
                );
              }
              console.log(
                `Best classifier for you on this data: ${describeThreshold(result.classifier)}`,
              );
              save();
              return;
            }
            const q = state.question;
            const left = firstOnLeft(seed, q.index);
            showQuestion(q, population.zeta, words, left, total);
            let answer: Answer | null = null;
            while (answer === null) {
              process.stdout.write("Your choice [1/2/0/u/q]: ");
              const next = await lines.next();
              if (next.done) {
                save();
                console.log("\nInput ended; answers saved.");
                return;
              }
              const key = next.value.trim().toLowerCase();
              if (key === "q") {
                save();
                console.log("Stopped; answers saved.");
                return;
              }
              if (key === "u") {
                if (answers.length === 0) console.log("Nothing to undo.");
                else {
                  answers = answers.slice(0, -1);
                  save();
                  break;
                }
                continue;
              }
              if (key === "0") answer = "tie";
              else if (key === "1") answer = left ? "first" : "second";
              else if (key === "2") answer = left ? "second" : "first";
              else console.log("Please type 1, 2, 0, u or q.");
            }
            if (answer !== null) {
              answers = [...answers, answer];
              save();
            }
          }
        } finally {
          rl.close();
        }
      }),
    );
}
