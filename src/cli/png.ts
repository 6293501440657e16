/**
 * SVG to PNG with resvg (`@resvg/resvg-js`, a native module loaded on first use so that the
 * rest of the CLI runs where its binary is missing).
 *
 * Text needs a font: resvg reads the system fonts (on Debian/Ubuntu e.g. `fonts-dejavu-core`)
 * and any `fontFiles` given. When an SVG has text but no font renders any glyph, `svgToPng`
 * throws instead of writing a figure without labels.
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { ResvgRenderOptions } from "@resvg/resvg-js";

export interface PngOptions {
  /** Pixels per SVG user unit (default 2). Ignored when `width` is given. */
  readonly scale?: number;
  /** Output width in pixels; the height follows the aspect ratio. */
  readonly width?: number;
  /** Background colour (any CSS colour; default white). */
  readonly background?: string;
  /** Extra font files (.ttf, .otf) to load. */
  readonly fontFiles?: readonly string[];
  /** Read the system fonts (default true). */
  readonly loadSystemFonts?: boolean;
}

type ResvgModule = typeof import("@resvg/resvg-js");

let resvg: ResvgModule | undefined;

function loadResvg(): ResvgModule {
  if (resvg === undefined) {
    try {
      resvg = createRequire(import.meta.url)("@resvg/resvg-js") as ResvgModule;
    } catch (error) {
      throw new Error(
        `PNG output needs @resvg/resvg-js, which failed to load on ${process.platform}-${process.arch}: ${(error as Error).message.split("\n")[0]}`,
      );
    }
  }
  return resvg;
}

/** The fonts used for `sans-serif` (the figures' family); resvg falls back to any other font. */
const SANS = "DejaVu Sans";

function fontOptions(o: PngOptions): NonNullable<ResvgRenderOptions["font"]> {
  return {
    loadSystemFonts: o.loadSystemFonts ?? true,
    fontFiles: [...(o.fontFiles ?? [])],
    defaultFontFamily: SANS,
    sansSerifFamily: SANS,
  };
}

const textRenders = new Map<string, boolean>();

/** Whether these font options draw any glyph (cached per font configuration). */
function fontsAvailable(font: NonNullable<ResvgRenderOptions["font"]>): boolean {
  const key = JSON.stringify(font);
  let ok = textRenders.get(key);
  if (ok === undefined) {
    const probe =
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" font-family="sans-serif"><text x="2" y="16" font-size="16">Hg</text></svg>';
    const pixels = new (loadResvg().Resvg)(probe, { font, logLevel: "off" }).render().pixels;
    ok = false;
    for (let i = 3; i < pixels.length; i += 4) {
      if (pixels[i]! > 0) {
        ok = true;
        break;
      }
    }
    textRenders.set(key, ok);
  }
  return ok;
}

/**
 * Render an SVG document to PNG bytes (white background, 2 pixels per unit by default).
 * Throws when the SVG has `<text>` and no usable font is found.
 * @example
 * writeFileSync("figure.png", svgToPng(quadraticErrorSvg(result)));
 * svgToPng(svg, { width: 800, fontFiles: ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"] });
 */
export function svgToPng(svg: string, options: PngOptions = {}): Buffer {
  const font = fontOptions(options);
  if (/<text[\s>]/.test(svg) && !fontsAvailable(font)) {
    throw new Error(
      "no font to draw the PNG's text: install one (e.g. apt-get install fonts-dejavu-core) or pass fontFiles",
    );
  }
  const scale = options.scale ?? 2;
  if (!(scale > 0) || (options.width !== undefined && !(options.width >= 1))) {
    throw new RangeError("PNG scale and width must be positive");
  }
  const fitTo: ResvgRenderOptions["fitTo"] =
    options.width === undefined
      ? { mode: "zoom", value: scale }
      : { mode: "width", value: Math.round(options.width) };
  const { Resvg } = loadResvg();
  return new Resvg(svg, {
    font,
    fitTo,
    background: options.background ?? "white",
    logLevel: "error",
  })
    .render()
    .asPng();
}

/**
 * Write a figure as SVG and/or PNG (each only if its file is given); builds the SVG only when
 * one is asked for.
 * @example writeFigure(() => fairErrorSvg(result), { svg: "f.svg", png: "f.png" })
 */
export function writeFigure(
  svg: () => string,
  files: { readonly svg?: string | undefined; readonly png?: string | undefined },
): void {
  if (files.svg === undefined && files.png === undefined) return;
  const text = svg();
  if (files.svg !== undefined) writeFileSync(files.svg, text);
  if (files.png !== undefined) writeFileSync(files.png, svgToPng(text));
}
