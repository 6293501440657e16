import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Command } from "commander";
import { z } from "zod";
import {
  ANSWER_MODEL_CHOICES,
  type AnswerModelName,
  parseAnswerModel,
} from "../../elicit/adaptive/answer-model.ts";
import { type AdaptiveResult, adaptiveProcedure } from "../../elicit/adaptive/engine.ts";
import {
  binaryLinearFamily,
  binaryThresholdFamily,
} from "../../elicit/adaptive/families/binary.ts";
import { RATIO_METHODS, type RatioMethod } from "../../elicit/binary/fractional.ts";
import type { BinaryPoint } from "../../elicit/binary/point.ts";
import {
  BINARY_FAMILIES,
  type BinaryFamily,
  type BinarySpec,
  binaryProcedure,
  paperQuestionCount,
} from "../../elicit/binary/spec.ts";
import { type Procedure, replay } from "../../elicit/session.ts";
import { type ClassWords, fmt, sideBySide, systemLines } from "../../experiments/format.ts";
import { metricRecord } from "../../experiments/simulate-binary.ts";
import type { BinaryPopulation } from "../../geometry/binary/population.ts";
import { describeThreshold } from "../../geometry/binary/threshold-classifier.ts";
import { createRng } from "../../math/rng.ts";
import { ANSWERS, type Answer, type Question } from "../../search/question.ts";
import { STRATEGY_NAMES } from "../../search/strategy.ts";
import {
  type AdaptiveFlags,
  adaptiveSettingsFromFlags,
  addAdaptiveOptions,
  describeUnidentified,
  isAdaptive,
  rejectFractionalAdaptive,
} from "../adaptive-options.ts";
import { CliError, guarded } from "../errors.ts";
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
      strategy: z.enum(["adaptive", ...STRATEGY_NAMES] as [string, ...string[]]),
      ratio: z.enum(RATIO_METHODS as [RatioMethod, ...RatioMethod[]]).optional(),
      budget: z.number().int().positive().optional(),
      credibility: z.number().gt(0).lt(1).optional(),
      model: z
        .string()
        .refine((m) => {
          try {
            parseAnswerModel(m);
            return true;
          } catch {
            return false;
          }
        }, `the answer model must be ${ANSWER_MODEL_CHOICES}`)
        .optional(),
      displayStep: z.number().gt(0).lt(1).optional(),
    })
    .passthrough(),
  seed: z.number().int(),
  /** The population the answers were given on (its description); absent in older files. */
  data: z.string().optional(),
  answers: z.array(z.enum(ANSWERS as [Answer, ...Answer[]])),
});

/** The spec of an adaptive session (recorded in the session file). */
interface AdaptiveAskSpec {
  readonly family: "binary-linear" | "binary-threshold";
  readonly strategy: "adaptive";
  readonly tolerance: number;
  readonly budget: number;
  readonly credibility: number;
  readonly model: AnswerModelName;
  readonly displayStep: number;
  readonly monotone?: "increasing" | "decreasing";
  readonly grid?: number;
  readonly gridPoints?: number;
}

type AskSpec = BinarySpec | AdaptiveAskSpec;

/** Outcome of a session, in the terms `elicit ask` prints. */
interface AskOutcome {
  readonly metric: Record<string, number>;
  readonly linear?: { readonly tp: number; readonly tn: number };
  readonly classifier: BinaryPoint["classifier"];
  readonly adaptive?: AdaptiveResult<BinaryPoint, unknown>;
}

/** The procedure of a spec, with its result in common terms. */
function askProcedure(
  spec: AskSpec,
  population: BinaryPopulation,
  seed: number,
): Procedure<BinaryPoint, AskOutcome> {
  if (spec.strategy !== "adaptive") {
    const procedure = binaryProcedure(spec, population);
    return (ask) => {
      const result = procedure(ask);
      return {
        metric: metricRecord(result),
        ...(result.family === "binary-linear" ? { linear: result.metric } : {}),
        classifier: result.classifier,
      };
    };
  }
  const options = {
    tolerance: spec.tolerance,
    budget: spec.budget,
    credibility: spec.credibility,
    model: spec.model,
    seed,
    ...(spec.gridPoints !== undefined ? { gridPoints: spec.gridPoints } : {}),
  };
  if (spec.family === "binary-linear") {
    const procedure = adaptiveProcedure(
      binaryLinearFamily(population, {
        displayStep: spec.displayStep,
        monotone: spec.monotone ?? "increasing",
      }),
      options,
    );
    return (ask) => {
      const r = procedure(ask);
      return {
        metric: { tp: r.metric.tp, tn: r.metric.tn },
        linear: r.metric,
        classifier: r.recommended.classifier,
        adaptive: r,
      };
    };
  }
  const procedure = adaptiveProcedure(
    binaryThresholdFamily(population, {
      displayStep: spec.displayStep,
      ...(spec.grid !== undefined ? { grid: spec.grid } : {}),
    }),
    options,
  );
  return (ask) => {
    const r = procedure(ask);
    return { metric: { a0: r.metric.a0 }, classifier: r.recommended.classifier, adaptive: r };
  };
}

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
  addAdaptiveOptions(cmd);
  cmd
    .option("--session <file>", "save answers here after every question, and resume from it")
    .option("--seed <n>", "seed of the left/right placement", "1")
    .action(
      (
        f: PopulationFlags & SpecFlags & AdaptiveFlags & { session?: string; seed: string },
        command: Command,
      ) =>
        guarded(async () => {
          const { population, prepared } = loadBinaryPopulation(f);
          let spec: AskSpec;
          if (isAdaptive(f)) {
            rejectFractionalAdaptive(f.family);
            const base = specFromFlags({ ...f, strategy: undefined });
            // A person answers: the human answer model unless --answer-model says otherwise.
            const settings = adaptiveSettingsFromFlags(f, base.tolerance, true);
            spec = {
              family: base.family as AdaptiveAskSpec["family"],
              strategy: "adaptive",
              tolerance: settings.tolerance,
              budget: settings.budget,
              credibility: settings.credibility,
              model: settings.model,
              displayStep: settings.displayStep,
              ...(base.monotone ? { monotone: base.monotone } : {}),
              ...(base.grid !== undefined ? { grid: base.grid } : {}),
              ...(settings.gridPoints !== undefined ? { gridPoints: settings.gridPoints } : {}),
            };
          } else spec = specFromFlags(f);
          let seed = Number(f.seed);
          let answers: Answer[] = [];
          if (f.session && existsSync(f.session)) {
            const parsed = sessionSchema.safeParse(JSON.parse(readFileSync(f.session, "utf8")));
            if (!parsed.success) throw new CliError(`${f.session} is not a session file`);
            spec = parsed.data.spec as unknown as AskSpec;
            if (spec.strategy === "adaptive") {
              rejectFractionalAdaptive(spec.family);
              const s = parsed.data.spec;
              if (
                s.budget === undefined ||
                s.credibility === undefined ||
                s.model === undefined ||
                s.displayStep === undefined
              ) {
                throw new CliError(
                  `${f.session} is an adaptive session without its budget, credibility, model or display step`,
                );
              }
            }
            // Never resume silently on other data or with other settings: the answers were
            // given to other questions.
            const stored = parsed.data.data;
            if (stored !== undefined && stored !== population.description)
              throw new CliError(
                `${f.session} was answered on "${stored}", not on "${population.description}": use the same data, or another --session file`,
              );
            const explicit = (name: string) => command.getOptionValueSource(name) === "cli";
            const clash = (
              [
                ["family", spec.family, f.family],
                ["strategy", spec.strategy, f.strategy],
                [
                  "tolerance",
                  spec.tolerance,
                  f.tolerance === undefined ? undefined : Number(f.tolerance),
                ],
              ] as const
            ).find(([name, had, given]) => explicit(name) && given !== undefined && had !== given);
            if (clash)
              throw new CliError(
                `${f.session} is a session with --${clash[0]} ${clash[1]}; --${clash[0]} ${clash[2]} does not match (leave it out to resume, or use another --session file)`,
              );
            seed = parsed.data.seed;
            answers = parsed.data.answers;
            console.log(`Resuming ${f.session}: ${answers.length} answers so far.`);
          }
          const save = () => {
            if (!f.session) return;
            // Write a temporary file and rename it over the session: a crash mid-write never
            // leaves a truncated session.
            const tmp = `${f.session}.tmp-${process.pid}`;
            const record = { spec, seed, data: population.description, answers };
            writeFileSync(tmp, `${JSON.stringify(record, null, 2)}\n`);
            renameSync(tmp, f.session);
          };
          // Only say "saved" when something was: without --session the answers are gone.
          const savedNote = () =>
            f.session
              ? `answers saved to ${f.session}`
              : "answers NOT saved (run with --session FILE to keep them and resume)";
          const words: ClassWords = {
            positive: prepared?.positiveLabel ?? "positive",
            negative: prepared?.negativeLabel ?? "negative",
          };
          const procedure = askProcedure(spec, population, seed);
          const total =
            spec.strategy === "adaptive"
              ? spec.budget
              : paperQuestionCount({ ...spec, strategy: "paper" });
          // Promise to keep the answers only when they are saved (see savedNote).
          console.log(
            `Keys: 1 = A, 2 = B, 0 = about the same, u = undo, q = quit (${f.session ? `answers are kept in ${f.session}` : "answers are not kept without --session FILE"}).`,
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
                  `Your metric: ${Object.entries(result.metric)
                    .map(([k, v]) => `${k} = ${fmt(v, 3)}`)
                    .join(", ")}`,
                );
                const lin = result.linear;
                if (lin && lin.tp > 0 && lin.tn > 0) {
                  console.log(
                    `In words: missing a ${words.positive} case is about ${fmt(lin.tp / lin.tn, 1)} times as bad as a false alarm.`,
                  );
                }
                const a = result.adaptive;
                if (a) {
                  console.log(
                    `Confidence: with probability ${a.credible.level} your metric is within ${fmt(a.credible.radius, 4)} (${a.credible.errorName}) of this (stopped: ${a.stop}).`,
                  );
                  console.log(
                    `Probability that the classifier below is the best for you: ${fmt(a.pOptimal, 2)}.`,
                  );
                  if (a.unidentified.length > 0)
                    console.log(`Still uncertain: ${describeUnidentified(a.unidentified)}.`);
                }
                console.log(
                  `Best classifier for you on this data: ${describeThreshold(result.classifier)}`,
                );
                save();
                return;
              }
              const q = state.question;
              // The adaptive engine places its questions itself (its answer model weighs a
              // lean to one side with the side shown); the papers' searches by the seed.
              const left = q.left !== undefined ? q.left === "first" : firstOnLeft(seed, q.index);
              showQuestion(q, population.zeta, words, left, total);
              let answer: Answer | null = null;
              while (answer === null) {
                process.stdout.write("Your choice [1/2/0/u/q]: ");
                const next = await lines.next();
                if (next.done) {
                  save();
                  console.log(`\nInput ended; ${savedNote()}.`);
                  return;
                }
                const key = next.value.trim().toLowerCase();
                if (key === "q") {
                  save();
                  console.log(`Stopped; ${savedNote()}.`);
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
