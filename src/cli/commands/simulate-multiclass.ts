import { multiclassLinearFamily } from "../../elicit/adaptive/families/multiclass.ts";
import {
  evaluateFractionalMetric,
  type FractionalMetric,
} from "../../elicit/multiclass/fractional-grid.ts";
import { offDiagonalPriors } from "../../elicit/multiclass/lfpm.ts";
import type { MulticlassPoint } from "../../elicit/multiclass/point.ts";
import { usesSphere } from "../../elicit/multiclass/spec.ts";
import { fmt } from "../../experiments/format.ts";
import {
  type MulticlassRunReport,
  normalizeMulticlassTruth,
  randomMulticlassTruth,
  simulateMulticlass,
} from "../../experiments/simulate-multiclass.ts";
import { createSpace } from "../../geometry/multiclass/space.ts";
import { findSphere, type Sphere } from "../../geometry/multiclass/sphere.ts";
import { createRng } from "../../math/rng.ts";
import { mean } from "../../math/stats.ts";
import { dot } from "../../math/vector.ts";
import { vectorText } from "../../math/vector-text.ts";
import { describeNoise, type NoiseModel } from "../../oracle/noise.ts";
import { describeRequest, type NoiseRequest, resolveNoise } from "../adaptive-options.ts";
import { CliError } from "../errors.ts";
import { writeText } from "../files.ts";
import {
  classesText,
  loadMulticlassPool,
  type MulticlassFlags,
  multiclassSpecFromFlags,
  parseFractionalTruth,
  parseMulticlassTruth,
} from "../multiclass-options.ts";
import { progressBar } from "../progress.ts";
import { errorStats, errorTable } from "../trial-summary.ts";

/** The multiclass branch of `elicit simulate`. */
export function simulateMulticlassCommand(
  f: MulticlassFlags & { truth?: string; randomTruth?: boolean; json?: boolean; log?: string },
  request: NoiseRequest,
  seed: number,
  trials: number,
): void {
  const spec = multiclassSpecFromFlags(f);
  const { pool, source, classNames } = loadMulticlassPool(f);
  let sphere: Sphere | undefined;
  if (usesSphere(spec.family)) {
    sphere = findSphere(createSpace("offdiag-confusion", pool));
    if (!(sphere.rho > 0)) {
      throw new CliError(
        `no sphere of positive radius fits inside the feasible confusions of ${source}: ${sphere.reason}`,
      );
    }
  }
  let fixed: number[] | FractionalMetric | undefined;
  if (spec.family === "diagonal-linear-fractional" || spec.family === "linear-fractional") {
    if (f.truth === undefined) {
      throw new CliError(
        `${spec.family} needs --truth '{"a":[...],"b":[...]}' (random truths are not drawn for it)`,
      );
    }
    const zeta =
      spec.family === "diagonal-linear-fractional" ? pool.priors : offDiagonalPriors(sphere!);
    fixed = parseFractionalTruth(f.truth, spec.family, pool.k, zeta);
  } else if (f.truth !== undefined) {
    fixed = parseMulticlassTruth(f.truth, spec.family, pool.k);
  }
  const randomFamily = spec.family === "linear" ? "linear" : "diagonal-linear";
  const rng = createRng(seed);
  const bar = progressBar(trials, "simulating");
  const runs: MulticlassRunReport[] = [];
  let noise: NoiseModel = { kind: "none" };
  for (let t = 0; t < trials; t++) {
    const a = fixed ?? randomMulticlassTruth(randomFamily, pool.k, rng);
    if (request.kind === "logistic") {
      // Logistic noise scales to the truth's range over the classifiers optimal for prior draws.
      const value = Array.isArray(a)
        ? (p: MulticlassPoint) => dot(normalizeMulticlassTruth(spec.family, a), p.point)
        : (p: MulticlassPoint) => evaluateFractionalMetric(a as FractionalMetric, p.point);
      noise = resolveNoise(
        request,
        () => multiclassLinearFamily(randomFamily, pool, sphere ? { sphere } : {}),
        value,
      );
    } else noise = request.noise;
    runs.push(simulateMulticlass(spec, a, pool, sphere, noise, seed + t));
    bar.tick();
  }
  bar.stop();
  if (f.log)
    writeText(
      f.log,
      `${JSON.stringify(trials === 1 ? runs[0]!.session : runs.map((r) => r.session), null, 2)}\n`,
      "--log ",
    );
  const strip = (r: MulticlassRunReport) => {
    const { session: _s, questions: _q, ...rest } = r;
    return rest;
  };
  if (trials === 1) {
    const r = runs[0]!;
    if (f.json) {
      console.log(JSON.stringify({ ...strip(r), classes: classNames }, null, 2));
      return;
    }
    const v = (xs: readonly number[]) => vectorText(xs);
    console.log(
      `family      ${r.family} (strategy ${r.strategy}, tolerance ${r.tolerance}), ${pool.k} classes`,
    );
    console.log(`population  ${source} (${pool.n} points)`);
    console.log(`classes     ${classesText(classNames, spec.family)}`);
    if (r.sphere)
      console.log(
        `sphere      radius ${fmt(r.sphere.radius, 5)}, queried at rho = ${fmt(r.sphere.rho, 5)}`,
      );
    console.log(`stakeholder a = ${v(r.truth.a)} with ${describeNoise(noise)}`);
    if (r.truth.b) console.log(`            b = ${v(r.truth.b)}, b0 = ${fmt(r.truth.b0!, 3)}`);
    console.log(`elicited    a = ${v(r.elicited.a)}`);
    if (r.elicited.b)
      console.log(`            b = ${v(r.elicited.b)}, b0 = ${fmt(r.elicited.b0!, 3)}`);
    if (r.error.alphaMean !== undefined) {
      console.log(
        `            elicited/true: alpha ${fmt(r.error.alphaMean, 3)}, sigma ${fmt(r.error.alphaStd!, 3)}`,
      );
    }
    console.log(`questions   ${r.queries}`);
    console.log(`error       linf ${fmt(r.error.linf, 4)}, l2 ${fmt(r.error.l2, 4)}`);
    const open = unresolvedText(r.unresolved, spec.family, classNames);
    if (open) console.log(`warning     ${open}`);
    return;
  }
  const summary = {
    family: spec.family,
    trials,
    queries: mean(runs.map((r) => r.queries)),
    ...(spec.family === "diagonal-linear" || spec.family === "diagonal-linear-fractional"
      ? { unresolved: runs.filter((r) => (r.unresolved?.length ?? 0) > 0).length }
      : {}),
    error: errorStats(
      runs.map((r) => r.error),
      ["linf", "l2"],
    ),
  };
  if (f.json) {
    console.log(JSON.stringify({ summary, classes: classNames, runs: runs.map(strip) }, null, 2));
    return;
  }
  console.log(
    `${trials} trials of ${spec.family} on ${source}, ${describeRequest(request, noise)}; mean questions ${fmt(summary.queries, 1)}`,
  );
  console.log(errorTable(summary.error));
  if (summary.unresolved)
    console.log(
      `${summary.unresolved} of ${trials} runs compared identical systems (the pool's boundary flat there): their weights may be off by more than the tolerance`,
    );
}

/**
 * A DLPM or DLFPM run's warning when its searches met flat stretches of the pool's boundary
 * (`MulticlassRunReport.unresolved`), or undefined when every pair was pinned down. Classes are
 * named by their labels (`classNames`, in the pool's order), not by their indices.
 * @example unresolvedText([{ pair: [0, 1], same: 15 }], "diagonal-linear", ["1", "2", "3"]) // "the search for classes 1 and 2 compared ..."
 */
export function unresolvedText(
  unresolved: MulticlassRunReport["unresolved"],
  family: string,
  classNames: readonly string[],
): string | undefined {
  if (!unresolved || unresolved.length === 0) return undefined;
  const name = (c: number) => classNames[c] ?? String(c);
  const pairs = unresolved.map(
    (u) => `${name(u.pair[0])} and ${name(u.pair[1])} (${u.same} times)`,
  );
  // The adaptive engine asks about mixtures of classifiers, which a flat stretch does not stop.
  const hint =
    family === "diagonal-linear" ? " (--strategy adaptive asks about mixtures of classifiers)" : "";
  return `the search for classes ${pairs.join(", ")} compared identical systems: the pool's boundary is flat there and the paper's rule reads a tie as a direction, so those weights may be off by more than the tolerance${hint}`;
}
