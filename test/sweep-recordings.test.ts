import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { recordings } from "./sweeps/recorded.ts";
import { tempDir } from "./temp-dir.ts";

const ENV = ["ELICIT_SWEEP_RECORDINGS", "ELICIT_SWEEP_CHECK_SHARE", "ELICIT_SWEEP_CHECK_SEED"];
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
afterEach(() => {
  for (const k of ENV) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  vi.restoreAllMocks();
});

/** A sweep file of its own (its content is one of the recordings' inputs) and a folder for them. */
function sweep(content = "// a sweep\nexport const cells = 1;\n") {
  const dir = tempDir("elicit-recorded-");
  const file = join(dir, "demo.sweep.ts");
  writeFileSync(file, content);
  return { dir, file, url: pathToFileURL(file).href };
}

function mode(m: string, share?: number) {
  process.env.ELICIT_SWEEP_RECORDINGS = m;
  if (share === undefined) delete process.env.ELICIT_SWEEP_CHECK_SHARE;
  else process.env.ELICIT_SWEEP_CHECK_SHARE = String(share);
  process.env.ELICIT_SWEEP_CHECK_SEED = "test";
}

// What JSON alone would lose: NaN, the infinities, -0 and undefined (an array's too).
const awkward = { a: Number.NaN, b: [1, Number.POSITIVE_INFINITY, undefined, -0], c: undefined };

describe("recorded sweep computations (test/sweeps/recorded.ts)", () => {
  it("records, then reads without computing; a recorded value equals the computed one", () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const s = sweep();
    mode("record");
    const computed = recordings(s.url, { dir: s.dir })("f", { x: 1 }, () => awkward);
    expect(existsSync(join(s.dir, "demo.json"))).toBe(true);
    mode("check", 0);
    const compute = vi.fn(() => ({ other: true }));
    const read = recordings(s.url, { dir: s.dir })(
      "f",
      { x: 1 },
      compute,
    ) as unknown as typeof awkward;
    expect(compute).not.toHaveBeenCalled();
    expect(read).toEqual(computed);
    expect(Number.isNaN(read.a)).toBe(true);
    expect(read.b).toHaveLength(4);
    expect(read.b[1]).toBe(Number.POSITIVE_INFINITY);
    expect(read.b[2]).toBeUndefined();
    expect(Object.is(read.b[3], -0)).toBe(true);
    // Other arguments are another computation.
    expect(recordings(s.url, { dir: s.dir })("f", { x: 2 }, compute)).toEqual({ other: true });
    expect(compute).toHaveBeenCalledTimes(1);
  });

  it("computes afresh a drawn recording and fails when it differs from what the same inputs give now", () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const s = sweep();
    mode("record");
    recordings(s.url, { dir: s.dir })("f", { x: 1 }, () => [1, 2, 3]);
    mode("check", 1);
    const same = vi.fn(() => [1, 2, 3]);
    expect(recordings(s.url, { dir: s.dir })("f", { x: 1 }, same)).toEqual([1, 2, 3]);
    expect(same).toHaveBeenCalledTimes(1);
    expect(() => recordings(s.url, { dir: s.dir })("f", { x: 1 }, () => [1, 2, 4])).toThrow(
      /differs from its recording with the same inputs/,
    );
    // A share of 0.1 still checks one of a file's recordings afresh.
    mode("check", 0.1);
    const again = vi.fn(() => [1, 2, 3]);
    recordings(s.url, { dir: s.dir })("f", { x: 1 }, again);
    expect(again).toHaveBeenCalledTimes(1);
  });

  it("a changed input (here the sweep file) makes a recording stale: computed, not read", () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const s = sweep();
    mode("record");
    recordings(s.url, { dir: s.dir })("f", {}, () => 1);
    writeFileSync(s.file, "// a sweep\nexport const cells = 2;\n");
    mode("check", 0);
    expect(recordings(s.url, { dir: s.dir })("f", {}, () => 2)).toBe(2);
    // Recording again drops what the old inputs gave.
    mode("record");
    recordings(s.url, { dir: s.dir })("g", {}, () => 3);
    const stored = JSON.parse(readFileSync(join(s.dir, "demo.json"), "utf8"));
    expect(Object.keys(stored)).toEqual(["g {}"]);
  });

  it("a sweep file's comments, layout and types are not among its inputs: editing them keeps a recording current", () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const s = sweep();
    mode("record");
    recordings(s.url, { dir: s.dir })("f", {}, () => 1);
    // A note on a known gap, another layout and a type: what the file computes is the same.
    writeFileSync(
      s.file,
      "/* a sweep, with a longer note */\nexport const cells: number =\n  1; // still one\n",
    );
    mode("check", 0);
    expect(recordings(s.url, { dir: s.dir })("f", {}, () => 2)).toBe(1);
    // A string is code: an edit inside one (even one that looks like a comment) is a change.
    writeFileSync(s.file, 'export const cells = 1;\nexport const url = "http://a//b";\n');
    mode("record");
    recordings(s.url, { dir: s.dir })("f", {}, () => 1);
    writeFileSync(s.file, 'export const cells = 1;\nexport const url = "http://a//c";\n');
    mode("check", 0);
    expect(recordings(s.url, { dir: s.dir })("f", {}, () => 2)).toBe(2);
  });

  it("off computes every time and writes nothing", () => {
    const s = sweep();
    mode("off");
    const compute = vi.fn(() => 5);
    expect(recordings(s.url, { dir: s.dir })("f", {}, compute)).toBe(5);
    expect(compute).toHaveBeenCalledTimes(1);
    expect(existsSync(join(s.dir, "demo.json"))).toBe(false);
  });

  it("refuses what it could not record faithfully, and a bad setting", () => {
    const s = sweep();
    mode("off");
    const rec = recordings(s.url, { dir: s.dir });
    expect(() => rec("f", {}, () => new Map())).toThrow(/cannot record a Map/);
    expect(() => rec("f", {}, () => new Float64Array(2))).toThrow(/cannot record a Float64Array/);
    // A function in the key would drop out of it: two computations would share a recording.
    expect(() => rec("f", { g: () => 1 }, () => 1)).toThrow(/a function in a recording's key/);
    mode("sometimes");
    expect(() => recordings(s.url, { dir: s.dir })).toThrow(/check, record or off/);
    mode("check", 2);
    expect(() => recordings(s.url, { dir: s.dir })).toThrow(/within 0 and 1/);
  });
});
