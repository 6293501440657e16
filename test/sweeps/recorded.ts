import { createHash, type Hash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";

/**
 * Recorded sweep computations: the sweeps' costly pure computations (a people cell, a
 * yardstick searcher, a calibration run) stored in `test/sweeps/recorded/<sweep>.json`, each
 * beside a hash of everything its result can depend on. A sweep's assertions always run; what
 * the recording saves is recomputing results whose inputs did not change.
 *
 * The hash covers `src/`, `data/`, the sweep file itself, the lockfile and the Node version,
 * arch and platform; a computation gets nothing else (its `args` are part of its key). A
 * TypeScript file counts as the JavaScript it compiles to (esbuild, whose version the
 * lockfile holds): its comments, layout and types are not inputs, so a note added to a
 * sweep's known gaps leaves its recordings current. The
 * engine is pure (no clock, no `Math.random`), so equal inputs give equal results, bit for
 * bit; that is checked on every run, not assumed: a random share of the recorded results
 * (`ELICIT_SWEEP_CHECK_SHARE`, default 0.05, at least one per sweep file) is computed afresh
 * and must equal its recording exactly, or the test fails.
 *
 * `ELICIT_SWEEP_RECORDINGS` (default `check`):
 * - `check`: a result whose recording is missing or stale (another hash) is computed; a
 *   current one is read, or checked afresh when drawn. Nothing is written.
 * - `record`: every result computed and written (`npm run sweeps:record`).
 * - `off`: every result computed, the recordings neither read nor written (a full run).
 *
 * `ELICIT_SWEEP_CHECK_SEED` fixes the draw of the results checked afresh (printed per file).
 *
 * @param options.dir where the recordings are (default test/sweeps/recorded; tests use another)
 * @example
 * const recorded = recordings(import.meta.url);
 * const s = recorded("idealLineSearch", args, () => idealLineSearch(args));
 */
export function recordings(
  sweepUrl: string,
  options: { dir?: string } = {},
): <A, T>(name: string, args: A, compute: () => T) => T {
  const sweep = fileURLToPath(sweepUrl);
  const dir = options.dir ?? join(ROOT, "test/sweeps/recorded");
  const file = join(dir, `${basename(sweep).replace(/\.sweep\.ts$/, "")}.json`);
  const mode = recordingMode();
  const inputs = inputsHash(sweep);
  const stored: Record<string, Entry> =
    mode !== "off" && existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  const current = Object.keys(stored).filter((k) => stored[k]!.inputs === inputs);
  const checked = mode === "check" ? drawChecked(current, basename(sweep)) : new Set<string>();
  if (mode === "check") {
    console.log(
      `[recorded] ${basename(sweep)}: ${current.length} of ${Object.keys(stored).length} recordings current (inputs ${inputs.slice(0, 12)}); checking afresh: ${checked.size ? [...checked].join("; ") : "none"}`,
    );
  }
  return <A, T>(name: string, args: A, compute: () => T): T => {
    const key = `${name} ${JSON.stringify(args, (_k, v: unknown) => {
      // A function would drop out of the key silently: two calls would share a recording.
      if (typeof v === "function") throw new Error(`${name}: a function in a recording's key`);
      return v;
    })}`;
    const entry = stored[key];
    if (mode === "check" && entry?.inputs === inputs && !checked.has(key)) {
      console.log(`[recorded] ${key}: read from the recording`);
      return decode(entry.value) as T;
    }
    const value = encode(compute());
    if (mode === "check" && entry?.inputs === inputs) {
      // The recording must be what the same inputs give now: if not, the hash misses an
      // input or a computation is not deterministic, and no recording can be trusted.
      if (value !== entry.value) {
        throw new Error(
          `${key}: computed afresh, differs from its recording with the same inputs (${inputs.slice(0, 12)}); the recordings hash misses an input or the computation is not deterministic`,
        );
      }
      console.log(`[recorded] ${key}: computed afresh, equal to its recording`);
    } else if (mode === "check") {
      console.log(`[recorded] ${key}: ${entry ? "recording stale" : "no recording"}, computed`);
    }
    if (mode === "record") {
      // Results of other inputs can never be read again.
      for (const k of Object.keys(stored)) if (stored[k]!.inputs !== inputs) delete stored[k];
      stored[key] = { inputs, value };
      write(file, stored);
    }
    return decode(value) as T;
  };
}

/** A recorded result: the hash of its inputs and the result, encoded (`encode`). */
interface Entry {
  inputs: string;
  value: string;
}

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function recordingMode(): "check" | "record" | "off" {
  const m = process.env.ELICIT_SWEEP_RECORDINGS ?? "check";
  if (m !== "check" && m !== "record" && m !== "off") {
    throw new Error(`ELICIT_SWEEP_RECORDINGS must be check, record or off, not ${m}`);
  }
  return m;
}

/** Which current recordings are computed afresh: each with the share's chance, at least one. */
function drawChecked(keys: readonly string[], sweep: string): Set<string> {
  const share = Number(process.env.ELICIT_SWEEP_CHECK_SHARE ?? "0.05");
  if (!(share >= 0 && share <= 1)) {
    throw new Error(`ELICIT_SWEEP_CHECK_SHARE must be within 0 and 1, not ${share}`);
  }
  const seed = process.env.ELICIT_SWEEP_CHECK_SEED ?? randomBytes(8).toString("hex");
  console.log(`[recorded] ${sweep}: check seed ${seed} (ELICIT_SWEEP_CHECK_SEED)`);
  const u = (k: string) =>
    createHash("sha256").update(`${seed}\0${k}`).digest().readUInt32BE(0) / 2 ** 32;
  const drawn = keys.filter((k) => u(k) < share);
  if (drawn.length === 0 && keys.length > 0 && share > 0) {
    // The key with the smallest draw: uniform over the keys, as the seed is.
    drawn.push([...keys].sort((a, b) => u(a) - u(b))[0]!);
  }
  return new Set(drawn);
}

let shared: Hash | undefined;

/** The hash of everything a recorded result of `sweep` can depend on. */
function inputsHash(sweep: string): string {
  // src/, data/ and the lockfile read once per process, the sweep file every time.
  if (!shared) {
    shared = createHash("sha256");
    shared.update(`${process.version} ${process.arch} ${process.platform}\0`);
    const files = [
      ...listFiles(join(ROOT, "src")),
      ...listFiles(join(ROOT, "data")),
      join(ROOT, "package-lock.json"),
    ];
    for (const f of files) addFile(shared, f);
  }
  const hash = shared.copy();
  addFile(hash, sweep);
  return hash.digest("hex");
}

function addFile(hash: Hash, f: string): void {
  hash.update(`${relative(ROOT, f).split("\\").join("/")}\0`);
  const loader = /\.[cm]?tsx?$/.test(f) ? (f.endsWith("x") ? "tsx" : "ts") : undefined;
  hash.update(loader ? compiled(f, loader) : readFileSync(f));
  hash.update("\0");
}

/** The JavaScript a TypeScript file runs as: what it computes, without its comments or types. */
function compiled(f: string, loader: "ts" | "tsx"): string {
  return transformSync(readFileSync(f, "utf8"), { loader, legalComments: "none", sourcefile: f })
    .code;
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listFiles(p));
    else out.push(p);
  }
  return out;
}

/** Writes the recordings one per line, keys sorted, so a diff shows which results changed. */
function write(file: string, stored: Record<string, Entry>): void {
  const keys = Object.keys(stored).sort();
  const lines = keys.map((k) => `  ${JSON.stringify(k)}: ${JSON.stringify(stored[k])}`);
  writeFileSync(file, `{\n${lines.join(",\n")}\n}\n`);
}

/**
 * JSON that keeps what a result holds and JSON drops: NaN, the infinities, -0 and undefined.
 * Anything but plain objects, arrays and primitives (a Map, a typed array) is refused rather
 * than recorded changed.
 */
function encode(value: unknown): string {
  return JSON.stringify(value, function (this: unknown, _key, v: unknown) {
    if (typeof v === "number") {
      if (Number.isNaN(v)) return { $n: "NaN" };
      if (v === Number.POSITIVE_INFINITY) return { $n: "Infinity" };
      if (v === Number.NEGATIVE_INFINITY) return { $n: "-Infinity" };
      if (Object.is(v, -0)) return { $n: "-0" };
      return v;
    }
    if (v === undefined) return { $u: 1 };
    if (typeof v === "function" || typeof v === "symbol" || typeof v === "bigint") {
      throw new Error(`cannot record a ${typeof v}`);
    }
    if (typeof v === "object" && v !== null && !Array.isArray(v)) {
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) {
        throw new Error(`cannot record a ${proto?.constructor?.name ?? "non-plain object"}`);
      }
    }
    return v;
  });
}

function decode(text: string): unknown {
  return JSON.parse(text, (_key, v: unknown) => {
    if (typeof v === "object" && v !== null && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o);
      if (keys.length === 1 && keys[0] === "$n") return Number(o.$n);
      if (keys.length === 1 && keys[0] === "$u") return undefined;
    }
    return v;
  });
}
