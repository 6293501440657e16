// The report's style sheet, inline in the page: the web app's look (system fonts, its ink,
// accent and focus colours; UI.md), readable from a 390 px phone to a desktop, and the
// switch between a plot's wide and narrow drawing.

/** The CSS of every report. */
export const REPORT_CSS = `
:root {
  --ink: #1b1b1b;
  --muted: #4a4a4a;
  --panel: #f6f6f4;
  --line: #8a8a8a;
  --accent: #0b5394;
  --focus: #c24e00;
  --bad: #a11d1d;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", Arial, sans-serif;
  font-size: 17px;
  line-height: 1.5;
  color: var(--ink);
  background: #ffffff;
}
* { box-sizing: border-box; }
body { margin: 0; }
header, main, footer { max-width: 1100px; margin: 0 auto; padding: 0 16px; }
header { padding-top: 16px; }
footer { padding-bottom: 32px; color: var(--muted); font-size: 0.9rem; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0.4em 0 0.3em; overflow-wrap: anywhere; }
h2 { font-size: 1.3rem; margin: 1.6em 0 0.4em; border-top: 1px solid #d0d0d0; padding-top: 0.8em; }
h3 { font-size: 1.1rem; margin: 1.2em 0 0.3em; overflow-wrap: anywhere; }
p, li, dd, blockquote { overflow-wrap: anywhere; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.muted { color: var(--muted); }
.lead { font-size: 1.05rem; }
.glance { background: var(--panel); border-radius: 8px; padding: 10px 16px; margin: 12px 0; }
.glance ul { margin: 0; padding-left: 1.2em; }
.nobody { background: #fff4e5; border-left: 5px solid #b35c00; padding: 10px 14px; border-radius: 4px; font-weight: 600; }
dl.facts { display: grid; grid-template-columns: minmax(8em, 14em) 1fr; gap: 4px 16px; margin: 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
@media (max-width: 600px) {
  dl.facts { grid-template-columns: 1fr; }
  dl.facts dd { margin: 0 0 8px; }
}
.table-wrap { overflow-x: auto; max-width: 100%; border: 1px solid #d0d0d0; border-radius: 6px; }
table.data { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
table.data caption { text-align: left; padding: 6px 10px; }
table.data th, table.data td { text-align: left; vertical-align: top; padding: 6px 10px; border-bottom: 1px solid #e0e0e0; }
table.data th { background: var(--panel); }
table.data td.num { white-space: nowrap; }
table.data td.metric { min-width: 14em; }
table.data td.wide { min-width: 9em; }
.plot { margin: 8px 0 4px; }
.plot svg { display: block; width: 100%; height: auto; }
.plot-wide { max-width: 680px; }
.plot-narrow { max-width: 420px; display: none; }
@media (max-width: 720px) {
  .plot-wide { display: none; }
  .plot-narrow { display: block; }
}
.legend { color: var(--muted); font-size: 0.95rem; margin: 4px 0 8px; }
.key { display: inline-block; width: 14px; height: 14px; vertical-align: -2px; margin: 0 4px 0 0; border: 2.5px solid #0067a3; border-radius: 50%; }
.key.filled { background: #0067a3; }
.key.hollow { background: #ffffff; }
.key.band { border-radius: 2px; border: 0; background: #d6e6f3; width: 22px; }
.key.mean { border-radius: 0; border: 0; border-left: 3px dashed #8a3b00; width: 3px; }
blockquote { margin: 6px 0 14px; padding: 6px 14px; border-left: 4px solid var(--line); background: var(--panel); }
ul.lines li { margin: 2px 0; }
`;
