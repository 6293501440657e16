import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Resvg } from "@resvg/resvg-js";
import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { registerReproduceQuadratic } from "../../src/cli/commands/quadratic.ts";
import { registerReproduceFair } from "../../src/cli/commands/reproduce-fair.ts";
import { svgToPng, writeFigure } from "../../src/cli/png.ts";
import { tempDir } from "../temp-dir.ts";

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from the IHDR chunk (the first chunk, right after the signature). */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(SIGNATURE)).toBe(true);
  expect(png.toString("latin1", 12, 16)).toBe("IHDR");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Decode a PNG to RGBA by drawing it as an image with resvg (no PNG decoder needed). */
function pixels(png: Buffer): Buffer {
  const { width, height } = pngSize(png);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><image width="${width}" height="${height}" href="data:image/png;base64,${png.toString("base64")}"/></svg>`;
  const img = new Resvg(svg, { font: { loadSystemFonts: false } }).render();
  expect([img.width, img.height]).toEqual([width, height]);
  return img.pixels;
}

/** Pixels clearly darker than white (text or lines). */
function darkPixels(png: Buffer): number {
  const p = pixels(png);
  let n = 0;
  for (let i = 0; i < p.length; i += 4) {
    if (p[i + 3]! > 0 && p[i]! + p[i + 1]! + p[i + 2]! < 3 * 160) n++;
  }
  return n;
}

const TEXT_ONLY =
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="30" font-family="sans-serif"><text x="4" y="20" font-size="16" fill="black">k = 2 λ â</text></svg>';
const BLANK = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="30"></svg>';

/** Some font file on this machine, if any. */
function findFont(dir = "/usr/share/fonts", depth = 4): string | undefined {
  if (depth < 0 || !existsSync(dir)) return undefined;
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (/\.(ttf|otf)$/i.test(name)) return path;
    if (statSync(path).isDirectory()) {
      const found = findFont(path, depth - 1);
      if (found) return found;
    }
  }
  return undefined;
}

describe("svgToPng", () => {
  it("writes a PNG at twice the SVG size by default, or at a given width", () => {
    expect(pngSize(svgToPng(BLANK))).toEqual({ width: 240, height: 60 });
    expect(pngSize(svgToPng(BLANK, { scale: 1 }))).toEqual({ width: 120, height: 30 });
    expect(pngSize(svgToPng(BLANK, { width: 600 }))).toEqual({ width: 600, height: 150 });
    expect(() => svgToPng(BLANK, { scale: 0 })).toThrow(RangeError);
  });

  it("fills a white background", () => {
    const p = pixels(svgToPng(BLANK, { scale: 1 }));
    expect([p[0], p[1], p[2], p[3]]).toEqual([255, 255, 255, 255]);
    expect(darkPixels(svgToPng(BLANK))).toBe(0);
  });

  it("renders text with the system fonts", () => {
    expect(darkPixels(svgToPng(TEXT_ONLY))).toBeGreaterThan(100);
  });

  it("refuses to drop text silently when no font is available", () => {
    expect(() => svgToPng(TEXT_ONLY, { loadSystemFonts: false })).toThrow(/no font/);
    expect(darkPixels(svgToPng(BLANK, { loadSystemFonts: false }))).toBe(0);
  });

  const font = findFont();
  it.skipIf(font === undefined)("renders text with only the given font files", () => {
    const png = svgToPng(TEXT_ONLY, { loadSystemFonts: false, fontFiles: [font!] });
    expect(darkPixels(png)).toBeGreaterThan(100);
  });
});

describe("writeFigure and the --svg/--png flags", () => {
  const dir = tempDir("elicit-png-");
  afterEach(() => vi.restoreAllMocks());

  it("writes only the files asked for and builds no SVG without them", () => {
    const build = vi.fn(() => TEXT_ONLY);
    writeFigure(build, {});
    expect(build).not.toHaveBeenCalled();
    writeFigure(build, { png: join(dir, "only.png") });
    expect(existsSync(join(dir, "only.png"))).toBe(true);
    expect(existsSync(join(dir, "only.svg"))).toBe(false);
  });

  it("`reproduce fair --svg --png` draws Figure 4 (c-e) with labels", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const program = new Command();
    registerReproduceFair(program.command("reproduce"));
    const svg = join(dir, "fair.svg");
    const png = join(dir, "fair.png");
    await program.parseAsync(
      ["reproduce", "fair", "--trials", "2", "--classes", "2,3", "--groups", "2"],
      { from: "user" },
    );
    expect(existsSync(svg)).toBe(false);
    await program.parseAsync(
      [
        ...["reproduce", "fair", "--trials", "2", "--classes", "2,3", "--groups", "2"],
        ...["--svg", svg, "--png", png],
      ],
      { from: "user" },
    );
    const text = readFileSync(svg, "utf8");
    expect(text).toContain("m = 2");
    expect(text).toContain("k = 3");
    const { width, height } = pngSize(readFileSync(png));
    const [, w, h] = /width="(\d+)" height="(\d+)"/.exec(text)!;
    expect([width, height]).toEqual([2 * Number(w), 2 * Number(h)]);
    expect(darkPixels(readFileSync(png))).toBeGreaterThan(1000);
  });

  it("`reproduce quadratic --png` draws Figure 4 (a-b)", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const program = new Command();
    registerReproduceQuadratic(program.command("reproduce"));
    const png = join(dir, "quadratic.png");
    await program.parseAsync(["reproduce", "quadratic", "--trials", "1", "--png", png], {
      from: "user",
    });
    expect(pngSize(readFileSync(png))).toEqual({ width: 1440, height: 548 });
  });
});
