// HTML built from strings with every interpolated value escaped unless it is already HTML
// (`SafeHtml`): a study's title, class names and participant labels are user input, and a
// report must show `<script>` as text.

/** A piece of HTML that is already safe (built by `html`, or escaped). */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** What `html` accepts between its strings: text and numbers are escaped, HTML kept. */
export type HtmlValue =
  | SafeHtml
  | string
  | number
  | null
  | undefined
  | false
  | readonly HtmlValue[];

/**
 * Text made safe in element content and in quoted attribute values: `&`, `<`, `>`, `"` and
 * `'` become character references.
 * @example escapeHtml(`<script>alert("x")</script>`) // "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

function render(v: HtmlValue): string {
  if (v instanceof SafeHtml) return v.value;
  if (v === null || v === undefined || v === false) return "";
  if (Array.isArray(v)) return v.map(render).join("");
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "";
  return escapeHtml(v as string);
}

/**
 * A template tag for HTML and SVG: the literal parts are kept, every value is escaped (arrays
 * joined, `null`, `undefined` and `false` left out) unless it is `SafeHtml`.
 * @example html`<p title="${t}">${t}</p>`.value // with t = "<b>": `<p title="&lt;b&gt;">&lt;b&gt;</p>`
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}
