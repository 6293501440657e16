import { describe, expect, it } from "vitest";
import {
  type AnswerModel,
  HUMAN_MODEL,
  LEARNED_BLUNT_LEAN_MODEL,
  LEARNED_FLIPPING_MODEL,
  LEARNED_LAPSES,
  LEARNED_LEAN_MODEL,
  LEARNED_MODEL,
  LEARNED_MODERATE_FLIPPING_MODEL,
  LEARNED_TIRING_MODEL,
  parseAnswerModel,
} from "../../../src/elicit/adaptive/answer-model.ts";
import { ParticleBelief } from "../../../src/elicit/adaptive/belief.ts";
import { adaptiveProcedure } from "../../../src/elicit/adaptive/engine.ts";
import { binaryLinearFamily } from "../../../src/elicit/adaptive/families/binary.ts";
import type { BinaryPoint } from "../../../src/elicit/binary/point.ts";
import { runProcedure } from "../../../src/elicit/session.ts";
import { syntheticPopulation } from "../../../src/geometry/binary/synthetic.ts";
import { createRng } from "../../../src/math/rng.ts";
import { angleToLinear, evaluateLinear } from "../../../src/metrics/binary-linear.ts";
import { simulatedOracle } from "../../../src/oracle/simulated-oracle.ts";

// Issue 26 item 2: the `learned` model infers the person's lapse jointly with the metric.

/** A 600-particle belief (or a grid of `o.grid` points) over `o.dim` positive weights. */
function beliefOf(o: { dim: number; grid?: number }, model: AnswerModel, seed: number) {
  return new ParticleBelief({
    dim: o.dim,
    signs: Array.from({ length: o.dim }, () => 1),
    model,
    particles: 600,
    rng: createRng(seed),
    ...(o.grid ? { grid: o.grid } : {}),
  });
}

/** The person a binary-linear run learns from a noise-free answerer, under `model`. */
function noiseFreePerson(
  model:
    | "learned-lean"
    | "learned-blunt-lean"
    | "learned-tiring"
    | "learned-flipping"
    | "learned-flipping-moderate",
) {
  const truth = angleToLinear(0.6);
  return runProcedure(
    adaptiveProcedure(binaryLinearFamily(syntheticPopulation()), {
      tolerance: 0.02,
      model,
      seed: 4,
    }),
    simulatedOracle((p: BinaryPoint) => evaluateLinear(truth, p.confusion)).ask,
  ).result.person!;
}

/** A belief fed `n` answers on random differences: by `truth`'s sign, or by a coin. */
function fed(
  o: { dim: number; grid?: number },
  answerer: "consistent" | "coin",
  n: number,
  seed: number,
) {
  const b = beliefOf(o, LEARNED_MODEL, seed);
  const truth = Array.from({ length: o.dim }, (_, i) => 1 + i);
  const rng = createRng(`${seed}:answers`);
  for (let j = 0; j < n; j++) {
    const delta = Float64Array.from({ length: o.dim }, () => rng.normal() * 0.3);
    const value = truth.reduce((s, t, i) => s + t * delta[i]!, 0);
    const first = answerer === "coin" ? rng.next() < 0.5 : value > 0;
    b.observe(delta, first ? "first" : "second");
  }
  return b;
}

function meanLapse(post: Float64Array): number {
  return LEARNED_LAPSES.levels.reduce((s, l, i) => s + l * post[i]!, 0);
}

const priorMean = meanLapse(Float64Array.from(LEARNED_LAPSES.prior));

describe("the learned answer model (issue 26 item 2)", () => {
  it("is named `learned`, a human model whose lapse has a prior over levels", () => {
    expect(parseAnswerModel("learned")).toBe(LEARNED_MODEL);
    expect(LEARNED_MODEL.kind).toBe("human");
    const sum = LEARNED_LAPSES.prior.reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(1, 12);
    if (LEARNED_MODEL.kind === "human") expect(LEARNED_MODEL.lapse).toBeCloseTo(priorMean, 12);
  });

  for (const shape of [
    { name: "grid (one free parameter)", dim: 2, grid: 4096 },
    { name: "particles (three parameters)", dim: 3 },
  ]) {
    it(`${shape.name}: a consistent answerer's lapse falls below the prior, a coin's rises`, () => {
      for (const seed of [1, 2, 3]) {
        const consistent = fed(shape, "consistent", 30, seed).lapsePosterior()!;
        const coin = fed(shape, "coin", 30, seed).lapsePosterior()!;
        expect(consistent.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
        expect(coin.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
        expect(meanLapse(consistent)).toBeLessThan(priorMean);
        expect(meanLapse(coin)).toBeGreaterThan(priorMean);
        // The coin level (the highest) gains on its prior for the coin, and loses for the
        // consistent answerer.
        const top = LEARNED_LAPSES.levels.length - 1;
        expect(coin[top]!).toBeGreaterThan(LEARNED_LAPSES.prior[top]!);
        expect(consistent[top]!).toBeLessThan(LEARNED_LAPSES.prior[top]! / 10);
      }
    });
  }

  it("particles weigh the levels as the exact grid does: their lapse posteriors agree on one free parameter", () => {
    // The particles marginalise the level in their weights (not the one each carries), so
    // their posterior over the kinds of person is the grid's up to the positions' sampling:
    // 0.007 at most here, where weighing each particle's carried level left 0.025.
    let worst = 0;
    for (const seed of [1, 2, 3]) {
      for (const answerer of ["consistent", "coin"] as const) {
        const grid = fed({ dim: 2, grid: 4096 }, answerer, 30, seed).lapsePosterior()!;
        const particles = fed({ dim: 2 }, answerer, 30, seed).lapsePosterior()!;
        for (let j = 0; j < grid.length; j++)
          worst = Math.max(worst, Math.abs(grid[j]! - particles[j]!));
      }
    }
    expect(worst).toBeLessThan(0.015);
  });

  it("a fixed model keeps no lapse posterior, and the engine reports the person only when learned", () => {
    const b = new ParticleBelief({
      dim: 2,
      signs: [1, 1],
      model: HUMAN_MODEL,
      particles: 100,
      rng: createRng(1),
    });
    expect(b.lapsePosterior()).toBeUndefined();
    const pop = syntheticPopulation();
    const truth = angleToLinear(0.6);
    const run = (model: "human" | "learned") =>
      runProcedure(
        adaptiveProcedure(binaryLinearFamily(pop), { tolerance: 0.02, model, seed: 4 }),
        simulatedOracle((p: BinaryPoint) => evaluateLinear(truth, p.confusion)).ask,
      ).result;
    expect(run("human").person).toBeUndefined();
    const person = run("learned").person!;
    expect(person.levels.map((l) => l.lapse)).toEqual([...LEARNED_LAPSES.levels]);
    expect(person.levels.reduce((s, l) => s + l.probability, 0)).toBeCloseTo(1, 9);
    // A noise-free answerer is believed to slip less than the prior says.
    expect(person.lapse).toBeLessThan(priorMean);
    expect(person.coin).toBeLessThan(0.01);
    // No level of `learned` leans to a side: no lean reported.
    expect(person.lean).toBeUndefined();
  });

  it("with leaning people in the prior, the engine reports the lean's probability by side", () => {
    const person = noiseFreePerson("learned-lean");
    // The two leaning levels are the last two of LEAN_LAPSES (left, then right).
    const [left, right] = person.levels.slice(-2).map((l) => l.probability);
    expect(person.lean).toEqual({ left, right });
    // A noise-free answerer leans nowhere.
    expect(left! + right!).toBeLessThan(0.5);
    // No level of `learned-lean` tires: none reported.
    expect(person.tiring).toBeUndefined();
  });
});

/** The kinds of person of a named learned model, checking that the name parses to `expected`. */
function lapsesOf(name: string, expected: AnswerModel) {
  const model = parseAnswerModel(name);
  expect(model).toBe(expected);
  const lean = LEARNED_LEAN_MODEL.kind === "human" ? LEARNED_LEAN_MODEL.lapses : undefined;
  const lapses = model.kind === "human" ? model.lapses : undefined;
  if (!lean || !lapses) throw new Error(`${name}: no kinds of person`);
  return { lean, lapses };
}

describe("learned-tiring: the learned-lean model with a person who tires (issue 26 item 2)", () => {
  it("is named, adds one tiring level to learned-lean's, and the engine reports its probability", () => {
    const { lean, lapses: tiring } = lapsesOf("learned-tiring", LEARNED_TIRING_MODEL);
    expect(tiring!.levels.slice(0, -1)).toEqual(lean!.levels);
    expect(tiring!.fatigue!.filter((f) => f > 0)).toHaveLength(1);
    expect(tiring!.prior.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    const person = noiseFreePerson("learned-tiring");
    // The tiring kind is the last level; a noise-free answerer does not tire, nor lean.
    expect(person.tiring).toBe(person.levels.at(-1)!.probability);
    expect(person.tiring!).toBeLessThan(0.5);
    expect(person.lean!.left + person.lean!.right).toBeLessThan(0.5);
  });
});

describe("learned-flipping: learned-lean with a sharp flipper (binary-threshold studies)", () => {
  it("is named, adds one sharp level with a high lapse to learned-lean's, and a noise-free answerer is not taken for it", () => {
    const { lean, lapses: flipping } = lapsesOf("learned-flipping", LEARNED_FLIPPING_MODEL);
    expect(flipping!.levels.slice(0, -1)).toEqual(lean!.levels);
    expect(flipping!.side!.slice(0, -1)).toEqual(lean!.side);
    expect(flipping!.side!.at(-1)).toBe(0);
    // The flipper reads every count right (as sharp as the careful reader) but slips often.
    expect(flipping!.sharpness!.at(-1)).toBe(Math.max(...lean!.sharpness!));
    expect(flipping!.levels.at(-1)!).toBeGreaterThan(0.3);
    expect(flipping!.levels.at(-1)!).toBeLessThan(1);
    expect(flipping!.prior.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    // The others keep learned-lean's proportions.
    const others = flipping!.prior.slice(0, -1);
    others.forEach((w, j) => {
      expect(w / others[0]!).toBeCloseTo(lean!.prior[j]! / lean!.prior[0]!, 12);
    });
    // A noise-free answerer ends far likelier careful than flipping, and leans nowhere.
    const person = noiseFreePerson("learned-flipping");
    const flipper = person.levels.at(-1)!.probability;
    expect(flipper).toBeLessThan(0.5 * flipping!.prior.at(-1)!);
    expect(person.coin).toBeLessThan(0.1);
    expect(person.lean!.left + person.lean!.right).toBeLessThan(0.5);
  });
});

describe("learned-flipping-moderate: learned-flipping with a less sharp flipper (binary-linear studies)", () => {
  it("is named, differs from learned-flipping only in its flipper's sharpness, and a noise-free answerer is not taken for it", () => {
    const { lapses: sharp } = lapsesOf("learned-flipping", LEARNED_FLIPPING_MODEL);
    const { lean, lapses: moderate } = lapsesOf(
      "learned-flipping-moderate",
      LEARNED_MODERATE_FLIPPING_MODEL,
    );
    expect(moderate!.levels).toEqual(sharp!.levels);
    expect(moderate!.prior).toEqual(sharp!.prior);
    expect(moderate!.side).toEqual(sharp!.side);
    expect(moderate!.sharpness!.slice(0, -1)).toEqual(sharp!.sharpness!.slice(0, -1));
    // The flipper reads near pairs more sharply than the temperature, less than the careful
    // reader.
    expect(moderate!.sharpness!.at(-1)).toBe(3);
    expect(moderate!.sharpness!.at(-1)!).toBeLessThan(Math.max(...lean!.sharpness!));
    const person = noiseFreePerson("learned-flipping-moderate");
    expect(person.levels.at(-1)!.probability).toBeLessThan(0.5 * moderate!.prior.at(-1)!);
    expect(person.coin).toBeLessThan(0.1);
    expect(person.lean!.left + person.lean!.right).toBeLessThan(0.5);
  });
});

describe("learned-blunt-lean: learned-lean with blunter leaning people (lambda studies)", () => {
  it("is named, keeps learned-lean's levels and weights, and only its leaning levels are blunter", () => {
    const { lean, lapses: blunt } = lapsesOf("learned-blunt-lean", LEARNED_BLUNT_LEAN_MODEL);
    expect(blunt!.levels).toEqual(lean!.levels);
    expect(blunt!.prior).toEqual(lean!.prior);
    expect(blunt!.side).toEqual(lean!.side);
    blunt!.sharpness!.forEach((x, j) => {
      if (lean!.side![j] !== 0) expect(x).toBeLessThan(lean!.sharpness![j]!);
      else expect(x).toBe(lean!.sharpness![j]);
    });
    // A noise-free answerer leans nowhere under it either.
    const person = noiseFreePerson("learned-blunt-lean");
    expect(person.lean!.left + person.lean!.right).toBeLessThan(0.5);
  });
});

describe("a person who leans to one side of the screen (issue 26 item 2)", () => {
  const leaning = {
    kind: "human" as const,
    temperature: 0.05,
    lapse: 0.1,
    tieWidth: 0.01,
    lapses: { levels: [0.1, 0.1, 0.1], prior: [1 / 3, 1 / 3, 1 / 3], side: [0, 0.1, -0.1] },
  };

  /**
   * A belief fed 30 answers on small random differences, each pair's first point on a seeded
   * side: the truth's sign, the left point on pairs nearer than 0.1 (else the truth's sign),
   * or with no side given.
   */
  function fedLeaning(
    o: { dim: number; grid?: number },
    answerer: "truth" | "left" | "unplaced-left",
    seed: number,
  ) {
    const b = beliefOf(o, leaning, seed);
    const truth = Array.from({ length: o.dim }, (_, i) => (1 + i) / Math.hypot(1, 2, 3));
    const rng = createRng(`${seed}:leaning`);
    for (let j = 0; j < 30; j++) {
      const delta = Float64Array.from({ length: o.dim }, () => rng.normal() * 0.1);
      const value = truth.reduce((s, t, i) => s + t * delta[i]!, 0);
      const left = rng.next() < 0.5 ? "first" : "second";
      const near = Math.abs(value) < 0.1;
      const first = answerer === "truth" || !near ? value > 0 : left === "first";
      b.observe(delta, first ? "first" : "second", answerer === "unplaced-left" ? undefined : left);
    }
    return b;
  }

  for (const shape of [
    { name: "grid (one free parameter)", dim: 2, grid: 4096 },
    { name: "particles (three parameters)", dim: 3 },
  ]) {
    it(`${shape.name}: answers that follow the left side make the left lean likelier; the truth's answers the level without one`, () => {
      for (const seed of [1, 2, 3]) {
        const left = fedLeaning(shape, "left", seed).lapsePosterior()!;
        const truth = fedLeaning(shape, "truth", seed).lapsePosterior()!;
        expect(left[1]!).toBeGreaterThan(0.6);
        expect(left[1]!).toBeGreaterThan(10 * left[2]!);
        expect(truth[0]!).toBeGreaterThan(Math.max(truth[1]!, truth[2]!));
        // Without the sides, a lean cannot act: the two lean levels stay equal, on a grid and
        // for particles alike (their weights marginalise the level: carried levels differed
        // by up to 0.06).
        const unplaced = fedLeaning(shape, "unplaced-left", seed).lapsePosterior()!;
        expect(Math.abs(unplaced[1]! - unplaced[2]!)).toBeLessThan(1e-9);
      }
    });
  }

  it("a lean that is not a finite number is refused", () => {
    expect(
      () =>
        new ParticleBelief({
          dim: 2,
          signs: [1, 1],
          model: { ...leaning, lapses: { ...leaning.lapses, side: [0, Number.NaN, 0] } },
          particles: 10,
          rng: createRng(1),
        }),
    ).toThrow(/side lean/);
  });
});

describe("a person whose noise grows as they tire (issue 26 item 2)", () => {
  const tiring = {
    kind: "human" as const,
    temperature: 0.05,
    lapse: 0.02,
    tieWidth: 0.01,
    lapses: { levels: [0.02, 0.02], prior: [0.5, 0.5], fatigue: [0, 0.1] },
  };

  /**
   * A belief fed 50 answers on random differences: by the truth's sign with probit noise of
   * the model's width (0.085, near a logistic temperature of 0.05), constant (steady) or
   * growing 10% per question (tiring).
   */
  function fedTiring(
    o: { dim: number; grid?: number },
    answerer: "steady" | "tiring",
    seed: number,
  ) {
    const b = beliefOf(o, tiring, seed);
    // A unit direction: the noise is then on the scale the belief measures differences in.
    const raw = Array.from({ length: o.dim }, (_, i) => 1 + i);
    const truth = raw.map((x) => x / Math.hypot(...raw));
    const rng = createRng(`${seed}:tiring`);
    for (let t = 0; t < 50; t++) {
      const delta = Float64Array.from({ length: o.dim }, () => rng.normal() * 0.1);
      const value = truth.reduce((s, w, i) => s + w * delta[i]!, 0);
      const sigma = 0.085 * (answerer === "tiring" ? 1 + 0.1 * t : 1);
      b.observe(delta, value + sigma * rng.normal() > 0 ? "first" : "second");
    }
    return b;
  }

  for (const shape of [
    { name: "grid (one free parameter)", dim: 2, grid: 4096 },
    { name: "particles (three parameters)", dim: 3 },
  ]) {
    it(`${shape.name}: answers that grow noisier make the tiring kind likelier than steady answers do`, () => {
      let tiredMean = 0;
      let steadyMean = 0;
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        const tired = fedTiring(shape, "tiring", seed).lapsePosterior()![1]!;
        const steady = fedTiring(shape, "steady", seed).lapsePosterior()![1]!;
        // The same differences and noise draws, only its width growing: never less likely.
        expect(tired).toBeGreaterThan(steady);
        tiredMean += tired / 6;
        steadyMean += steady / 6;
      }
      // From a prior of 1/2 each: up for the tiring person, down for the steady one.
      expect(tiredMean).toBeGreaterThan(0.6);
      expect(steadyMean).toBeLessThan(0.25);
    });
  }

  it("a fatigue that is negative or not a finite number is refused", () => {
    for (const bad of [-0.1, Number.POSITIVE_INFINITY, Number.NaN]) {
      expect(
        () =>
          new ParticleBelief({
            dim: 2,
            signs: [1, 1],
            model: { ...tiring, lapses: { ...tiring.lapses, fatigue: [0, bad] } },
            particles: 10,
            rng: createRng(1),
          }),
      ).toThrow(/fatigue/);
    }
  });
});

describe("every level's likelihood after the moves (the grouped pass, issue 26 CI time)", () => {
  it("equals the likelihood computed level by level, to the bit, with ties, sides and fatigue", () => {
    // Levels sharing their sharpness, lean and fatigue share one exp per answer in the
    // grouped pass; these five make three groups, one of them alone, ties among the answers.
    const model: AnswerModel = {
      kind: "human",
      temperature: 0.05,
      lapse: 0.1,
      tieWidth: 0.01,
      lapses: {
        levels: [0.02, 0.1, 1, 0.1, 0.02],
        prior: [0.3, 0.3, 0.1, 0.15, 0.15],
        sharpness: [1, 1, 1, 1, 1.5],
        side: [0, 0, 0, 0.1, 0],
        fatigue: [0, 0, 0, 0, 0.05],
      },
    };
    type Inside = {
      size: number;
      level: Uint8Array;
      partLL: Float64Array;
      softAnswers(): unknown;
      softLogLikelihood(
        p: number,
        b: Float64Array,
        uu: number,
        uv: number,
        rb: undefined,
        soft: unknown,
        t: number,
      ): number;
      u: Float64Array;
    };
    const b = beliefOf({ dim: 3 }, model, 5);
    const inside = b as unknown as Inside;
    const rng = createRng(9);
    let compared = 0;
    for (let q = 0; q < 24; q++) {
      const delta = Float64Array.from({ length: 3 }, () => rng.normal());
      const r = rng.next();
      b.observe(
        delta,
        r < 0.15 ? "tie" : r < 0.6 ? "first" : "second",
        r < 0.4 ? "first" : "second",
      );
      if (q % 6 !== 5) continue;
      const soft = inside.softAnswers();
      const none = new Float64Array(q + 1);
      for (let p = 0; p < inside.size; p += 7) {
        let uu = 0;
        for (let i = 0; i < 3; i++) uu += inside.u[p * 3 + i]! ** 2;
        const own = inside.level[p]!;
        for (let j = 0; j < 5; j++) {
          if (j === own) continue;
          inside.level[p] = j;
          const one = inside.softLogLikelihood(p, none, uu, 0, undefined, soft, 0);
          inside.level[p] = own;
          expect(inside.partLL[p * 5 + j]).toBe(one);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
