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
import { shownCounts } from "../../elicit/binary/display.ts";
import { RATIO_METHODS, type RatioMethod } from "../../elicit/binary/fractional.ts";
import type { BinaryPoint } from "../../elicit/binary/point.ts";
import {
  BINARY_FAMILIES,
  type BinaryFamily,
  type BinarySpec,
  binaryProcedure,
  paperQuestionCount,
} from "../../elicit/binary/spec.ts";
import { type Procedure, replay, withAutoAnswers } from "../../elicit/session.ts";
import {
  type ClassWords,
  fmt,
  sideBySide,
  systemLines,
  textFrame,
} from "../../experiments/format.ts";
import { metricRecord } from "../../experiments/simulate-binary.ts";
import { bayesClassifier } from "../../geometry/binary/bayes.ts";
import type { BinaryPopulation } from "../../geometry/binary/population.ts";
import { describeThreshold } from "../../geometry/binary/threshold-classifier.ts";
import { createRng } from "../../math/rng.ts";
import { normalizeLinear } from "../../metrics/binary-linear.ts";
import { ANSWERS, type Answer, type Question, type QuestionDraft } from "../../search/question.ts";
import { STRATEGY_NAMES } from "../../search/strategy.ts";
import {
  type AnswerDifference,
  consistentRange,
  costRatioOf,
  type MetricRecord,
  ratioRange,
} from "../../server/participant/metric.ts";
import {
  type AdaptiveFlags,
  adaptiveSettingsFromFlags,
  addAdaptiveOptions,
  describeUnidentified,
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
  /**
   * Whether questions whose two systems print alike were answered "about the same" unasked
   * (not in `answers`); absent in files from before, whose answers include them.
   */
  skipsSame: z.boolean().optional(),
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
  /** The belief reads the answers as about the counts shown (absent in older sessions). */
  readonly asShown?: boolean;
  readonly everyShown?: boolean;
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
  skipsSame: boolean,
): Procedure<BinaryPoint, AskOutcome> {
  if (spec.strategy !== "adaptive") {
    const searched = binaryProcedure(spec, population);
    // The papers' searches may ask about two systems that print alike; the person could only
    // say "about the same", so they are answered so unasked (as a web study does).
    const procedure = skipsSame
      ? withAutoAnswers(searched, (q) => (looksTheSame(q, population.zeta) ? "tie" : undefined))
      : searched;
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
        ...(spec.asShown ? { asShown: true } : {}),
        ...(spec.everyShown ? { everyShown: true } : {}),
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
      ...(spec.asShown ? { asShown: true } : {}),
      ...(spec.everyShown ? { everyShown: true } : {}),
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

/**
 * A system's caught and cleared counts as the question prints them, in tenths of a person of
 * 100 (`systemLines`' frame): what the person judges, and what their answers are checked on.
 * @example shownTenths(point, 0.3438) // { tp: 312, tn: 590 }: "caught 31.2", "cleared 59.0"
 */
export function shownTenths(p: BinaryPoint, zeta: number): { tp: number; tn: number } {
  const s = shownCounts(p.confusion, textFrame(zeta));
  return { tp: s.tp, tn: s.tn };
}

/** Whether the two systems of `q` print alike (every count shown the same). */
function looksTheSame(q: QuestionDraft<BinaryPoint>, zeta: number): boolean {
  const a = shownTenths(q.first, zeta);
  const b = shownTenths(q.second, zeta);
  return a.tp === b.tp && a.tn === b.tn;
}

/**
 * The answers as constraints on the shown counts (first minus second), for `consistentRange`:
 * the metrics `(1 - a) TP + a TN` that give every answer on what the person saw.
 */
function shownDifferences(
  questions: readonly Question<BinaryPoint>[],
  answers: readonly Answer[],
  zeta: number,
): AnswerDifference[] {
  return questions.map((q, i) => {
    const a = shownTenths(q.first, zeta);
    const b = shownTenths(q.second, zeta);
    return { dTp: a.tp - b.tp, dTn: a.tn - b.tn, answer: answers[i]! };
  });
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
      systemLines("System A", l.confusion, zeta, words),
      systemLines("System B", r.confusion, zeta, words),
    ),
  );
}

/**
 * The adaptive credible region around `metric` as cost ratios for a person: the threshold
 * family's `a0 +- radius` and the linear family's angle `theta +- radius` (`tp = cos theta`,
 * `tn = sin theta`, so the ratio `tp / tn` is `cot theta`), both through `(1 - a) / a` of the
 * equivalent `a`. Undefined for a metric with a negative weight.
 * @example credibleRatios({ a0: 0.25 }, 0.05) // "2.3 to 4.0 times" (a0 from 0.2 to 0.3)
 */
export function credibleRatios(metric: Record<string, number>, radius: number): string | undefined {
  let lo: number;
  let hi: number;
  if (metric.a0 !== undefined) {
    lo = metric.a0 - radius;
    hi = metric.a0 + radius;
  } else if (metric.tp !== undefined && metric.tn !== undefined) {
    if (!(metric.tp >= 0 && metric.tn >= 0)) return undefined;
    // a = tn / (tp + tn) = tan theta / (1 + tan theta), increasing in theta.
    const theta = Math.atan2(metric.tn, metric.tp);
    const aOf = (t: number) => Math.sin(t) / (Math.sin(t) + Math.cos(t));
    lo = aOf(Math.max(0, theta - radius));
    hi = aOf(Math.min(Math.PI / 2, theta + radius));
  } else return undefined;
  const r = ratioRange(Math.max(0, lo), Math.min(1, hi));
  return r.high === null
    ? `at least ${fmt(r.low, 1)} times`
    : `${fmt(r.low, 1)} to ${fmt(r.high, 1)} times`;
}

/** The display step of `elicit ask`'s counts: a tenth of a person of 100. */
const ASK_DISPLAY_STEP = 0.001;

/**
 * The result read on the counts the person saw (as a web study's debrief reads it): the
 * metrics `(1 - a) TP + a TN` that give the most of their answers on those counts, the
 * procedure's point moved into them when it lies outside (with the best classifier of the
 * moved point), and one line with that range as cost ratios. Undefined for the fractional
 * family and decreasing utilities, which that range does not describe.
 */
function onShownCounts(
  spec: AskSpec,
  result: AskOutcome,
  questions: readonly Question<BinaryPoint>[],
  answers: readonly Answer[],
  population: BinaryPopulation,
):
  | {
      metric: MetricRecord;
      moved: boolean;
      classifier: BinaryPoint["classifier"];
      rangeLine: string;
    }
  | undefined {
  if (spec.family === "binary-linear-fractional" || spec.monotone === "decreasing") return;
  const differences = shownDifferences(questions, answers, population.zeta);
  const range = consistentRange(differences);
  const m = result.metric;
  const a = "a0" in m ? m.a0! : m.tn! / (m.tp! + m.tn!);
  const at = Math.min(range.hi, Math.max(range.lo, a));
  const moved = at !== a;
  const metric: MetricRecord = !moved
    ? "a0" in m
      ? { a0: m.a0! }
      : { tp: m.tp!, tn: m.tn! }
    : "a0" in m
      ? { a0: at }
      : normalizeLinear({ tp: 1 - at, tn: at });
  const counted = differences.filter((d) => d.answer !== "tie" && (d.dTp !== 0 || d.dTn !== 0));
  const r = ratioRange(range.lo, range.hi);
  const span =
    r.high === null
      ? `at least ${fmt(r.low, 1)} times`
      : `${fmt(r.low, 1)} to ${fmt(r.high, 1)} times`;
  const against =
    range.violations > 0
      ? ` (${range.violations} of your ${counted.length} choices go against every such metric: the range is where the fewest do)`
      : "";
  return {
    metric,
    moved,
    classifier: moved ? bayesClassifier({ tp: 1 - at, tn: at }) : result.classifier,
    rangeLine: `Your answers on the counts shown allow missing a case being ${span} as bad as a false alarm${against}.`,
  };
}

/** `elicit ask`. */
export function registerAsk(program: Command): void {
  const cmd = program
    .command("ask")
    .description(
      "elicit your own metric: answer which of two classifiers you prefer, in the terminal",
    )
    .addHelpText(
      "after",
      "\nExit status: 0 when done, 1 when stopped before the end (q or end of input; with --session the answers are kept to resume), 2 on bad input.",
    );
  addPopulationOptions(cmd);
  addSpecOptions(cmd);
  // ask's own: binary families only, and adaptive unless --strategy says otherwise.
  for (const o of cmd.options) {
    if (o.long === "--family") {
      o.description = `metric family: ${BINARY_FAMILIES.join(", ")} (ask takes the binary families only)`;
    }
    if (o.long === "--strategy") {
      o.default(
        "adaptive",
        "adaptive; paper for binary-linear-fractional, which has no adaptive strategy",
      );
      o.description = `question strategy: adaptive (asks and reads your answers on the counts shown, allowing for slips; see --budget, --credibility, --answer-model) or the papers' searches ${STRATEGY_NAMES.join(", ")} (computed on the exact rates behind the counts and taking every answer as exact; their point is then checked against your answers as shown)`;
    }
  }
  cmd.setOptionValueWithSource("strategy", "adaptive", "default");
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
          // Binary families only: said before any data is read (a multiclass CSV's error
          // would otherwise be about its labels).
          if (f.family !== undefined && !(BINARY_FAMILIES as string[]).includes(f.family)) {
            throw new CliError(
              `elicit ask takes a binary family (${BINARY_FAMILIES.join(", ")}); --family ${f.family} is not one (elicit simulate runs the others)`,
            );
          }
          const { population, prepared } = loadBinaryPopulation(f);
          // Adaptive unless --strategy says otherwise: it asks and reads the answers on the
          // counts shown. The papers' searches compute on the exact rates behind them, which a
          // person answering on the screen can contradict (issue 26); the fractional family
          // has no adaptive strategy.
          const strategy =
            command.getOptionValueSource("strategy") === "cli"
              ? (f.strategy ?? "adaptive")
              : f.family === "binary-linear-fractional"
                ? "paper"
                : "adaptive";
          let spec: AskSpec;
          if (strategy === "adaptive") {
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
              // The counts are shown to a tenth of a person of 100: the engine never asks two
              // systems that print alike and reads every answer as about what was printed.
              displayStep: f.displayStep === undefined ? ASK_DISPLAY_STEP : settings.displayStep,
              asShown: true,
              ...(settings.everyShown ? { everyShown: true } : {}),
              ...(base.monotone ? { monotone: base.monotone } : {}),
              ...(base.grid !== undefined ? { grid: base.grid } : {}),
              ...(settings.gridPoints !== undefined ? { gridPoints: settings.gridPoints } : {}),
            };
          } else spec = specFromFlags({ ...f, strategy });
          let seed = Number(f.seed);
          let answers: Answer[] = [];
          let skipsSame = true;
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
            skipsSame = parsed.data.skipsSame ?? false;
            console.log(`Resuming ${f.session}: ${answers.length} answers so far.`);
          }
          const save = () => {
            if (!f.session) return;
            // Write a temporary file and rename it over the session: a crash mid-write never
            // leaves a truncated session.
            const tmp = `${f.session}.tmp-${process.pid}`;
            const record = { spec, seed, data: population.description, skipsSame, answers };
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
          const procedure = askProcedure(spec, population, seed, skipsSame);
          if (spec.strategy !== "adaptive") {
            console.log(
              `Note: --strategy ${spec.strategy} is the papers' search. It computes on the exact rates behind the counts shown and takes every answer as exact, so its point can go against answers given on the counts; it is checked against yours and moved into what they allow. The default, --strategy adaptive, asks and reads your answers on the counts shown and allows for slips.`,
            );
          }
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
                const shown = onShownCounts(spec, result, state.questions, answers, population);
                const metric = shown?.metric ?? result.metric;
                console.log(
                  `Your metric: ${Object.entries(metric)
                    .map(([k, v]) => `${k} = ${fmt(v, 3)}`)
                    .join(", ")}`,
                );
                if (shown?.moved) {
                  console.log(
                    `(The search's own point, ${Object.entries(result.metric)
                      .map(([k, v]) => `${k} = ${fmt(v, 3)}`)
                      .join(
                        ", ",
                      )}, goes against answers you gave on the counts shown; this is the nearest metric that does not.)`,
                  );
                }
                const ratio = shown ? costRatioOf(metric as MetricRecord) : null;
                const lin = result.linear;
                if (ratio !== null) {
                  console.log(
                    `In words: missing a ${words.positive} case is about ${fmt(ratio, 1)} times as bad as a false alarm.`,
                  );
                } else if (!shown && lin && lin.tp > 0 && lin.tn > 0) {
                  console.log(
                    `In words: missing a ${words.positive} case is about ${fmt(lin.tp / lin.tn, 1)} times as bad as a false alarm.`,
                  );
                }
                if (shown) console.log(shown.rangeLine);
                const a = result.adaptive;
                if (a) {
                  const band = credibleRatios(result.metric, a.credible.radius);
                  console.log(
                    band
                      ? `Confidence: with probability ${a.credible.level}, missing a ${words.positive} case is ${band} as bad as a false alarm for you (the engine's credible region: within ${fmt(a.credible.radius, 4)} ${a.credible.errorName} of this; stopped: ${a.stop}).`
                      : `Confidence: with probability ${a.credible.level} your metric is within ${fmt(a.credible.radius, 4)} (${a.credible.errorName}) of this (stopped: ${a.stop}).`,
                  );
                  console.log(
                    `Probability that the classifier below is the best for you: ${fmt(a.pOptimal, 2)}.`,
                  );
                  if (a.unidentified.length > 0)
                    console.log(`Still uncertain: ${describeUnidentified(a.unidentified)}.`);
                }
                console.log(
                  `Best classifier for you on this data: ${describeThreshold(shown?.classifier ?? result.classifier)}`,
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
                // Not finished: exit 1, so a script tells it from a finished elicitation.
                if (next.done) {
                  save();
                  console.log(`\nInput ended; ${savedNote()}.`);
                  process.exitCode = 1;
                  return;
                }
                const key = next.value.trim().toLowerCase();
                if (key === "q") {
                  save();
                  console.log(`Stopped; ${savedNote()}.`);
                  process.exitCode = 1;
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
