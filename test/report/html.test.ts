import { describe, expect, it } from "vitest";
import { escapeHtml, html, SafeHtml } from "../../src/report/html.ts";

describe("HTML from strings", () => {
  it("escapes the five characters that matter in content and quoted attributes", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
  });

  it("escapes every value but SafeHtml, joins arrays, drops null, undefined and false", () => {
    const t = "<script>alert(1)</script>";
    const out = html`<p title="${t}">${t}${[t, html`<b>${"&"}</b>`]}${null}${undefined}${false}${3}</p>`;
    expect(out).toBeInstanceOf(SafeHtml);
    expect(out.value).toBe(
      `<p title="&lt;script&gt;alert(1)&lt;/script&gt;">&lt;script&gt;alert(1)&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;<b>&amp;</b>3</p>`,
    );
    expect(html`${Number.NaN}`.value).toBe("");
  });
});
