/**
 * `npm run readme:check`: every figure the README quotes comes from an output that is checked
 * here (issue 25, item 3). Outputs live in `docs/figures/<id>.txt`, whose first line is the
 * command that printed the rest:
 *
 * - the cheap CLI commands of {@link COMMANDS} (seconds each): `--run` re-runs them and
 *   rewrites their files (CI does; without `--run` the committed copies are used);
 * - the sweeps' printed figures: each sweep writes its own file in the run that asserts them
 *   (`test/sweeps/figures.ts`), so after `npm run test:sweeps` they are fresh;
 *   `--sweeps-since TIME` fails on any sweep file older than TIME (ISO date, epoch seconds or a
 *   file whose modification time to use);
 * - dated measurements that no run can repeat exactly (timings): files whose first line starts
 *   with `# recorded`, then says when, on what and with which command; kept as they are.
 *
 * In README.md a block `<!-- figures: ID [ID...] [OPTION...] -->` ... `<!-- /figures -->`
 * (HTML comments, invisible on GitHub; they may sit inside a paragraph) quotes those outputs:
 * every number in its prose, and in its fenced output blocks, must be one printed in one of
 * the IDs' outputs, in the same printed form. Options: `rounded` (a README figure may be a
 * printed one rounded to fewer decimals), `±X` (within X), `X%` (within X percent of the
 * printed figure), `exact` (each fenced block inside is the output itself, character for
 * character). A figure written `0.6006...` matches a printed figure starting with those digits.
 *
 * Outside the blocks, a measured figure cannot hide: every decimal number, percentage, number
 * with an exponent and "N of M" count there fails, unless an entry of {@link SETTINGS} (a
 * setting, a target or a quote from a paper, each with why) covers it. Not scanned: inline code
 * (commands, options, JSON), the code of fenced blocks with a language (their comments are
 * scanned), link targets, HTML comments, version numbers and addresses (1.2.3, 127.0.0.1).
 *
 * Usage: tsx scripts/readme-check.ts [--run] [--sweeps-since TIME] [--readme FILE]
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const FIGURES_DIR = join(ROOT, "docs", "figures");

/**
 * The cheap commands whose outputs the README quotes (`npx elicit ARGS`; all deterministic).
 * `library-example` is special: the README's own library example, run against `src/exports/`.
 */
export const COMMANDS: Record<string, string[]> = {
  // The longest first (--run runs them in this order, one per core).
  "reproduce-multiclass": ["reproduce", "multiclass"],
  "reproduce-binary": ["reproduce", "binary"],
  "reproduce-quadratic": ["reproduce", "quadratic"],
  "reproduce-quadratic-pairs": [
    ...["reproduce", "quadratic", "--setting", "code", "--rates", "general", "--classes", "4,5"],
    ...["--strategies", "paper,pairs", "--trials", "30"],
  ],
  "simulate-example": ["simulate", "--truth", '{"tp":0.6,"tn":0.8}'],
  "fair-arrests": [
    ...["simulate", "--family", "fair-quadratic", "--data", "data/arrests.csv"],
    ...["--target", "released", "--groups", "colour", "--truth"],
    '{"a":[0.6,0.8],"B":{"0-1":[[1,0.2],[0.2,0.5]]},"lambda":0.4}',
  ],
  "fair-lambda-only": [
    ...["simulate", "--family", "fair-quadratic", "--synthetic", "sphere", "--classes", "3"],
    ...["--groups", "3", "--lambda-only", "--random-truth", "--trials", "20"],
  ],
  "fair-titanic-class": [
    ...["simulate", "--family", "fair-quadratic", "--data", "data/titanic_survival.csv"],
    ...["--target", "survived", "--groups", "passengerClass", "--random-truth", "--trials", "20"],
  ],
  "ranking-vehicle": ["reproduce", "ranking", "--data", "data/vehicle.csv", "--target", "Class"],
  "ranking-arrests": [
    ...["reproduce", "ranking", "--data", "data/arrests.csv", "--target", "released"],
    ...["--groups", "colour"],
  ],
  "ranking-titanic-sex": [
    ...["reproduce", "ranking", "--data", "data/titanic_survival.csv", "--target", "survived"],
    ...["--groups", "sex"],
  ],
  "fit-diabetes": [
    ...["fit", "--data", "data/pima_indians_diabetes.csv", "--target", "diabetes"],
    ...["--out", "/dev/null"],
  ],
  "fit-breast-cancer": ["fit", "--out", "/dev/null"],
  "library-example": [],
};

/**
 * Numbers outside the blocks that are settings, targets or other papers' figures, not our
 * measurements. Each pattern covers the numbers inside its match; an entry that covers
 * nothing is itself reported (so the list cannot go stale).
 */
export const SETTINGS: { re: RegExp; why: string }[] = [
  { re: /tolerance\s+0\.\d+(\s+rad)?/g, why: "a tolerance is a setting" },
  { re: /(Node|npm|TypeScript)\s+(>=\s+)?\d+\.\d+/g, why: "a version" },
  { re: /\d+%\s+flipped\s+answers/g, why: "the simulated participants' noise, a setting" },
  { re: /asserted:[^)]*/g, why: "the targets a sweep asserts" },
  {
    re: /0\.02 rad \(linear\), 0\.05 rad \(fractional\), 0\.05 \(threshold\)/g,
    why: "the --tolerance defaults",
  },
  { re: /default\s+[\d.e-]+/g, why: "a default is a setting" },
  { re: /\d+% (wrong on pairs|coin-flip slips)/g, why: "the human answer model's parameters" },
  { re: /[\d.]+\s+bit\b/g, why: "the question choice's settings, in bits" },
  { re: /Dirichlet\(0\.25\)/g, why: "the sparse prior's setting" },
  {
    re: /below 1% of the posterior/g,
    why: "the engine's COMPONENT_FLOOR, a setting",
  },
  { re: /90%\s+(credible|quantile|region|range)/g, why: "the credibility 0.9, a setting" },
  {
    re: /Adult, Default: fair QPME 1\.0000 \/ 0\.997-0\.998/g,
    why: "the UAI 2022 paper's Table 3, quoted: the paper's figures, not ours",
  },
  { re: /Section 5\.[12]/g, why: "a section number" },
  { re: /k = 2000, Delta = 0\.01/g, why: "Algorithm 3's settings (the paper's)" },
];

/** A number as printed: its text without sign handling lost, and where it is. */
export interface Token {
  readonly text: string;
  readonly value: number;
  readonly decimals: number;
  /** Written `0.6006...`: the digits a printed figure starts with. */
  readonly truncated: boolean;
  /** Has a decimal point, an exponent or a percent sign: a measurement unless a setting. */
  readonly measured: boolean;
  readonly start: number;
  readonly end: number;
}

const NUMBER = /(?<![\w.])(-?)(\d+(?:\.\d+)*)(e[-+]?\d+)?(\.\.\.)?(%?)(?!\w)/g;

/** The numbers in `text` (versions and addresses such as 1.2.3 left out). */
export function numbers(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const [all, sign, digits, exp, dots, pct] = m;
    if ((digits!.match(/\./g) ?? []).length > 1) continue;
    const body = `${sign}${digits}${exp ?? ""}`;
    out.push({
      text: body,
      value: Number(body),
      decimals: (digits!.split(".")[1] ?? "").length,
      truncated: dots !== undefined,
      measured: digits!.includes(".") || exp !== undefined || pct === "%",
      start: m.index,
      end: m.index + all.length,
    });
  }
  return out;
}

/** A `<!-- figures: ... -->` block: its outputs, options and where its content is. */
export interface Block {
  readonly ids: string[];
  /** Per output, the section quoted (`id[Table_2.]`): from its first line containing the
   * anchor (underscores for spaces) to the next blank line; undefined for the whole output. */
  readonly anchors: (string | undefined)[];
  readonly rounded: boolean;
  readonly exact: boolean;
  readonly abs: number;
  readonly rel: number;
  readonly start: number;
  readonly end: number;
  readonly line: number;
}

/** The 1-based line of offset `at` in `text`. */
function lineOf(text: string, at: number): number {
  let starts = lineStarts.get(text);
  if (!starts) {
    starts = [0];
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    lineStarts.clear();
    lineStarts.set(text, starts);
  }
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}
const lineStarts = new Map<string, number[]>();

/**
 * The README with everything that is not checked blanked out (positions kept): inline code,
 * link targets, HTML comments, fence lines, and the code (not the comments) of fenced blocks
 * with a language.
 */
export function mask(readme: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  const lines = readme.split("\n");
  let fence: string | undefined;
  const kept: boolean[] = [];
  const out = lines.map((line) => {
    const open = line.match(/^\s*```\s*(\S*)/);
    if (open) {
      fence = fence === undefined ? open[1] : undefined;
      kept.push(false);
      return blank(line);
    }
    kept.push(fence === undefined);
    if (fence === undefined || fence === "") return line;
    // Code with a language: only its comments are prose.
    const comment = fence === "sh" ? line.search(/(^|\s)#/) : line.indexOf("//");
    return comment < 0 ? blank(line) : blank(line.slice(0, comment)) + line.slice(comment);
  });
  // Inline code, link targets and HTML comments in the prose (not inside fenced blocks): the
  // spans to blank, merged in order, then the text rebuilt from slices (one pass, not a
  // character array: readme:check's test runs this hundreds of times).
  const text = out.join("\n");
  const prose = out.map((l, i) => (kept[i] ? l : blank(l))).join("\n");
  const spans: [number, number][] = [];
  for (const re of [/<!--[\s\S]*?-->/g, /`[^`]*`/g, /\]\([^)\s]*\)/g]) {
    for (const m of prose.matchAll(re)) spans.push([m.index, m.index + m[0].length]);
  }
  spans.sort((x, y) => x[0] - y[0]);
  const parts: string[] = [];
  let at = 0;
  for (const [s, e] of spans) {
    if (e <= at) continue;
    const from = Math.max(s, at);
    parts.push(text.slice(at, from), blank(text.slice(from, e)));
    at = e;
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/** The figures blocks of the README, or problems with their markers. */
export function blocks(readme: string): { blocks: Block[]; problems: string[] } {
  const found: Block[] = [];
  const problems: string[] = [];
  const fences = fenceRanges(readme);
  const pieces: string[] = [];
  let from = 0;
  for (const [a, b] of fences) {
    pieces.push(readme.slice(from, a), " ".repeat(b - a));
    from = b;
  }
  pieces.push(readme.slice(from));
  const prose = pieces.join("");
  const inline = [...prose.matchAll(/`[^`]*`/g)].map((m) => [m.index, m.index + m[0].length]);
  const inCode = [...fences, ...inline];
  let open: { head: RegExpMatchArray; end: number } | undefined;
  for (const m of readme.matchAll(/<!--\s*(\/?)figures:?([^>]*?)-->/g)) {
    if (inCode.some(([a, b]) => m.index >= a! && m.index < b!)) continue;
    const line = lineOf(readme, m.index);
    if (m[1] === "/") {
      if (!open) problems.push(`README.md:${line}: <!-- /figures --> without an opening block`);
      else {
        const words = open.head[2]!.trim().split(/\s+/).filter(Boolean);
        const opt = (f: (w: string) => boolean) => words.find(f);
        const abs = opt((w) => w.startsWith("±"));
        const rel = opt((w) => w.endsWith("%"));
        const sources = words
          .map((w) => w.match(/^([a-z][a-z0-9-]*)(?:\[([^\]]+)\])?$/))
          .filter((m) => m !== null && !OPTIONS.has(m[0]));
        const ids = sources.map((m) => m![1]!);
        const anchors = sources.map((m) => m![2]?.replace(/_/g, " "));
        const unknown = words.filter(
          (w) => !sources.some((m) => m![0] === w) && !OPTIONS.has(w) && w !== abs && w !== rel,
        );
        const at = lineOf(readme, open.head.index!);
        if (unknown.length) problems.push(`README.md:${at}: unknown block words ${unknown}`);
        if (ids.length === 0) problems.push(`README.md:${at}: a figures block names no output`);
        found.push({
          ids,
          anchors,
          rounded: words.includes("rounded"),
          exact: words.includes("exact"),
          abs: abs ? Number(abs.slice(1)) : 0,
          rel: rel ? Number(rel.slice(0, -1)) / 100 : 0,
          start: open.end,
          end: m.index,
          line: at,
        });
        open = undefined;
      }
    } else if (open) {
      problems.push(`README.md:${line}: a figures block opens inside another`);
    } else {
      open = { head: m, end: m.index + m[0].length };
    }
  }
  if (open) problems.push(`README.md:${lineOf(readme, open.head.index!)}: unclosed figures block`);
  return { blocks: found, problems };
}
const OPTIONS = new Set(["rounded", "exact"]);

function fenceRanges(readme: string): [number, number][] {
  const ranges: [number, number][] = [];
  let at = 0;
  let start: number | undefined;
  for (const line of readme.split("\n")) {
    if (/^\s*```/.test(line)) {
      if (start === undefined) start = at;
      else {
        ranges.push([start, at + line.length]);
        start = undefined;
      }
    }
    at += line.length + 1;
  }
  return ranges;
}

/** A figures file: its command line and what the command printed. */
export interface Output {
  readonly command: string;
  readonly body: string;
  readonly numbers: Token[];
}

export function parseOutput(file: string): Output {
  let out = parsed.get(file);
  if (!out) {
    const nl = file.indexOf("\n");
    const body = file.slice(nl + 1);
    out = { command: file.slice(0, nl), body, numbers: numbers(body) };
    parsed.set(file, out);
  }
  return out;
}
const parsed = new Map<string, Output>();

/** The lines of `out` from the first containing `anchor` to the next blank line. */
function section(out: Output, anchor: string | undefined): Output | undefined {
  if (anchor === undefined) return out;
  let byAnchor = sections.get(out);
  if (!byAnchor) {
    byAnchor = new Map();
    sections.set(out, byAnchor);
  }
  if (byAnchor.has(anchor)) return byAnchor.get(anchor);
  const lines = out.body.split("\n");
  const from = lines.findIndex((l) => l.includes(anchor));
  let found: Output | undefined;
  if (from >= 0) {
    const to = lines.findIndex((l, i) => i > from && l.trim() === "");
    const body = lines.slice(from, to < 0 ? undefined : to).join("\n");
    found = { command: out.command, body, numbers: numbers(body) };
  }
  byAnchor.set(anchor, found);
  return found;
}
const sections = new WeakMap<Output, Map<string, Output | undefined>>();

/** Does the README's figure `r` agree with a printed one under the block's options? */
function agrees(r: Token, printed: Token[], b: Block): boolean {
  return printed.some((p) => {
    if (r.truncated) return p.text.startsWith(r.text) && p.text.length > r.text.length;
    if (p.text === r.text) return true;
    const d = Math.abs(p.value - r.value);
    if (b.rounded && p.decimals > r.decimals && d <= 0.5 * 10 ** -r.decimals + 1e-12) return true;
    if (b.abs > 0 && d <= b.abs + 1e-12) return true;
    return b.rel > 0 && d <= b.rel * Math.abs(p.value) + 1e-12;
  });
}

function nearest(r: Token, printed: Token[]): string {
  let best: Token | undefined;
  for (const p of printed)
    if (!best || Math.abs(p.value - r.value) < Math.abs(best.value - r.value)) best = p;
  return best ? `; nearest printed: ${best.text}` : "";
}

/**
 * Every problem of `readme` against the outputs (`load(id)`: a figures file's text, or
 * undefined when there is none); `available`: every figures file there is (an unused one is a
 * problem too).
 */
export function checkReadme(
  readme: string,
  load: (id: string) => string | undefined,
  available: string[],
): { problems: string[]; checked: number; blocks: number } {
  const { blocks: found, problems } = blocks(readme);
  const masked = mask(readme);
  const tokens = numbers(masked);
  const used = new Set<string>();
  let checked = 0;
  // Each token's block, in one pass: blocks and tokens are both in the README's order and
  // blocks do not nest.
  const blockOf = new Map<Token, Block>();
  const tokensOf = new Map<Block, Token[]>(found.map((b) => [b, []]));
  let bi = 0;
  for (const t of tokens) {
    while (bi < found.length && found[bi]!.end < t.end) bi++;
    const b = found[bi];
    if (b && t.start >= b.start && t.end <= b.end) {
      blockOf.set(t, b);
      tokensOf.get(b)!.push(t);
    }
  }
  const inside = (t: Token) => blockOf.get(t);
  let fences: [number, number][] | undefined;

  for (const b of found) {
    const outputs: Output[] = [];
    b.ids.forEach((id, i) => {
      used.add(id);
      const file = load(id);
      if (file === undefined) problems.push(`README.md:${b.line}: no docs/figures/${id}.txt`);
      else {
        const out = section(parseOutput(file), b.anchors[i]);
        if (out) outputs.push(out);
        else problems.push(`README.md:${b.line}: docs/figures/${id}.txt has no "${b.anchors[i]}"`);
      }
    });
    if (outputs.length < b.ids.length) continue;
    const printed = outputs.flatMap((o) => o.numbers);
    const where = b.ids
      .map((id, i) => `docs/figures/${id}.txt${b.anchors[i] ? ` ("${b.anchors[i]}")` : ""}`)
      .join(" or ");
    for (const t of tokensOf.get(b)!) {
      checked++;
      if (!agrees(t, printed, b))
        problems.push(
          `README.md:${lineOf(readme, t.start)}: ${t.text}${t.truncated ? "..." : ""} is not printed in ${where}${nearest(t, printed)}`,
        );
    }
    if (b.exact) {
      fences ??= fenceRanges(readme);
      const inBlock = fences.filter(([s, e]) => s >= b.start && e <= b.end);
      if (inBlock.length === 0) problems.push(`README.md:${b.line}: an exact block with no fence`);
      for (const [s, e] of inBlock) {
        const inner = readme.slice(s, e).split("\n").slice(1, -1).join("\n");
        if (!outputs.some((o) => o.body.trimEnd() === inner.trimEnd())) {
          const firstDiff = firstDifference(inner, outputs[0]!.body);
          problems.push(
            `README.md:${lineOf(readme, s) + firstDiff.line}: the quoted output differs from ${where} (README "${firstDiff.readme}", printed "${firstDiff.printed}")`,
          );
        }
      }
    }
  }

  // Outside the blocks: measured-looking numbers must be covered by a setting.
  const covered = SETTINGS.map(({ re }) =>
    [...masked.matchAll(new RegExp(re.source, re.flags))].map(
      (m) => [m.index, m.index + m[0].length] as const,
    ),
  );
  const usedSetting = SETTINGS.map(() => false);
  const allowed = (start: number, end: number) => {
    let ok = false;
    covered.forEach((spans, i) => {
      if (spans.some(([s, e]) => start >= s && end <= e)) {
        usedSetting[i] = true;
        ok = true;
      }
    });
    return ok;
  };
  for (const t of tokens) {
    if (!t.measured || inside(t) || allowed(t.start, t.end)) continue;
    problems.push(
      `README.md:${lineOf(readme, t.start)}: ${t.text}${t.truncated ? "..." : ""} outside any figures block ("${context(masked, t.start, t.end)}"): quote it from an output in a block, or remove it`,
    );
  }
  for (const m of masked.matchAll(/(?<![\w.])(\d+)\s+of\s+(\d+)(?!\w|\.\d)/g)) {
    const start = m.index;
    const end = start + m[0].length;
    if (found.some((b) => start >= b.start && end <= b.end) || allowed(start, end)) continue;
    problems.push(
      `README.md:${lineOf(readme, start)}: "${m[0]}" outside any figures block ("${context(masked, start, end)}"): quote it from an output in a block, or remove it`,
    );
  }
  SETTINGS.forEach((s, i) => {
    if (!usedSetting[i]) problems.push(`scripts/readme-check.ts: setting ${s.re} covers nothing`);
  });
  for (const id of available)
    if (!used.has(id)) problems.push(`docs/figures/${id}.txt: quoted by no figures block`);
  for (const id of Object.keys(COMMANDS))
    if (!available.includes(id)) problems.push(`docs/figures/${id}.txt: missing (run --run)`);
  return { problems, checked, blocks: found.length };
}

function context(text: string, start: number, end: number): string {
  return text
    .slice(Math.max(0, start - 40), end + 20)
    .replace(/\s+/g, " ")
    .trim();
}

function firstDifference(a: string, b: string): { line: number; readme: string; printed: string } {
  const x = a.split("\n");
  const y = b.split("\n");
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  return { line: i + 1, readme: x[i] ?? "(end)", printed: y[i] ?? "(end)" };
}

/** The figures files there are (ids). */
export function figureIds(dir = FIGURES_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".txt"))
    .map((f) => f.slice(0, -4))
    .sort();
}

export function loadFigure(id: string, dir = FIGURES_DIR): string | undefined {
  try {
    return readFileSync(join(dir, `${id}.txt`), "utf8");
  } catch {
    return undefined;
  }
}

const run = promisify(execFile);

/** The README's library example (the `js` block of the library-example figures block). */
function libraryExample(readme: string): string {
  const b = blocks(readme).blocks.find((x) => x.ids.includes("library-example"));
  const code = b && readme.slice(b.start, b.end).match(/```js\n([\s\S]*?)\n```/)?.[1];
  if (!code) throw new Error("README.md: no js block inside <!-- figures: library-example -->");
  // The example imports the package by name; here it runs against src/exports/ in place.
  return code.replace(
    /from "metric-elicitation\/([a-z]+)"/g,
    (_, sub: string) =>
      `from ${JSON.stringify(pathToFileURL(join(ROOT, "src/exports", `${sub}.ts`)).href)}`,
  );
}

/** Runs one command of {@link COMMANDS}: its figures file's text. */
async function runCommand(id: string, readme: string): Promise<string> {
  const opts = { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 };
  if (id === "library-example") {
    const dir = mkdtempSync(join(tmpdir(), "readme-example-"));
    try {
      const file = join(dir, "example.mts");
      writeFileSync(file, libraryExample(readme));
      const { stdout } = await run(process.execPath, ["--import", "tsx", file], opts);
      return `$ node example.mjs  # the README's library example, run against src/exports/\n${stdout}`;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const args = COMMANDS[id]!;
  const { stdout, stderr } = await run(
    process.execPath,
    [join(ROOT, "bin/elicit.js"), ...args],
    opts,
  );
  const quoted = args.map((a) => (/^[\w./=-]+$/.test(a) ? a : `'${a}'`)).join(" ");
  return `$ npx elicit ${quoted}\n${stdout}${stderr}`;
}

async function main(argv: string[]) {
  const flag = (name: string) => argv.includes(name);
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const readmePath = value("--readme") ?? join(ROOT, "README.md");
  const readme = readFileSync(readmePath, "utf8");
  const t0 = performance.now();
  if (flag("--run")) {
    const ids = Object.keys(COMMANDS);
    const queue = [...ids];
    const changed: string[] = [];
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        const t = performance.now();
        const text = await runCommand(id, readme);
        if (loadFigure(id) !== text) changed.push(id);
        writeFileSync(join(FIGURES_DIR, `${id}.txt`), text);
        console.log(`ran ${id} (${((performance.now() - t) / 1000).toFixed(1)} s)`);
      }
    };
    await Promise.all(Array.from({ length: availableParallelism() }, worker));
    for (const id of changed)
      console.log(`note: docs/figures/${id}.txt changed from the committed copy`);
  }
  const available = figureIds();
  const problems: string[] = [];
  const since = value("--sweeps-since");
  if (since !== undefined) {
    const ms = /^\d+$/.test(since)
      ? Number(since) * 1000
      : Number.isNaN(Date.parse(since))
        ? statSync(since).mtimeMs
        : Date.parse(since);
    for (const id of available) {
      if (id in COMMANDS) continue;
      if (loadFigure(id)?.startsWith("# recorded")) continue;
      if (statSync(join(FIGURES_DIR, `${id}.txt`)).mtimeMs < ms)
        problems.push(`docs/figures/${id}.txt: not written by the sweeps since ${since}`);
    }
  }
  const r = checkReadme(readme, (id) => loadFigure(id), available);
  problems.push(...r.problems);
  for (const p of problems) console.error(p);
  console.log(
    `readme:check: ${r.blocks} figures blocks, ${r.checked} quoted figures against ${available.length} outputs; ${problems.length} problem(s) (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  process.exitCode = problems.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv.slice(2));
}
