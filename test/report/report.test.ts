import { beforeAll, describe, expect, it } from "vitest";
import { reportHtml } from "../../src/report/document.ts";
import { reportNames } from "../../src/report/names.ts";
import { parseStudyExport, type StudyExport } from "../../src/report/schema.ts";
import { NOBODY } from "../../src/report/sections/consensus.ts";
import { studyNames } from "../../src/report/study-names.ts";
import {
  FIXTURES,
  type FixtureName,
  HOSTILE_MISSED,
  HOSTILE_TITLE,
  studyExports,
} from "./study-fixtures.ts";

/**
 * Issue 29 item 3: `elicit report` on real study.json exports of every kind (studies created
 * and walked through the server by study-fixtures.ts).
 */

let exports: Record<FixtureName, StudyExport>;
let pages: Record<FixtureName, string>;

beforeAll(async () => {
  const texts = await studyExports();
  exports = Object.fromEntries(
    FIXTURES.map((n) => [n, parseStudyExport(texts[n]!, `${n}.json`)]),
  ) as Record<FixtureName, StudyExport>;
  pages = Object.fromEntries(
    FIXTURES.map((n) => [n, reportHtml(exports[n], { names: studyNames(exports[n]) })]),
  ) as Record<FixtureName, string>;
}, 180_000);

/** The page's text content (tags dropped, the escapes HTML uses read back). */
function textOf(page: string): string {
  return page
    .replace(/<style>[\s\S]*?<\/style>/, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

describe("a study's report", () => {
  it.each(FIXTURES)("%s: one self-contained page, no script, nothing from the network", (n) => {
    const page = pages[n];
    expect(page.startsWith("<!doctype html>")).toBe(true);
    // (Tested as booleans: a failing match would print the whole page.)
    expect(/<script/i.test(page)).toBe(false);
    // No element loads anything: no src or href attribute in any tag, no url() in the style.
    expect(/<[^>]*\s(src|href)\s*=/i.test(page)).toBe(false);
    expect(/url\(/i.test(page)).toBe(false);
    expect(page).toContain(
      `content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`,
    );
    expect(page).toContain('<meta name="viewport"');
  });

  it("shows a hostile title and study words as text, escaped everywhere", () => {
    const page = pages.binary;
    expect(page.includes("<script>alert(1)</script>")).toBe(false);
    expect(page.includes("<img src=x")).toBe(false);
    expect(page).toContain(
      "<h1>&lt;script&gt;alert(1)&lt;/script&gt; Cancer &amp; &quot;screening&quot;</h1>",
    );
    expect(page).toContain(
      "<title>Report: &lt;script&gt;alert(1)&lt;/script&gt; Cancer &amp; &quot;screening&quot;</title>",
    );
    expect(textOf(page)).toContain(HOSTILE_TITLE);
    // The study's own words reach the family's sentence and every debrief.
    expect(textOf(page)).toContain(`as bad ${HOSTILE_MISSED} are as false alarms`);
    expect(textOf(page)).toContain(`For you, ${HOSTILE_MISSED} are between`);
  });

  it("binary: the study, who is left out, the consensus, the classifier best for it", () => {
    const exp = exports.binary;
    const c = exp.consensus!;
    const text = textOf(pages.binary);
    expect(text).toContain("Binary: two classes, the cost of a missed case against a false alarm");
    expect(text).toContain("binary-threshold");
    expect(text).toContain("“benign” and “malignant”");
    expect(text).toContain(
      "the adaptive engine: at most 30 questions, 90% credible regions, tolerance 0.05",
    );
    expect(text).toContain(
      "5 invited: 4 finished, 1 started and not finished; 1 test run (1 finished), left out of the consensus",
    );
    // The coin-like participant and the test run are drawn, hollow, and named as left out.
    const coin = c.coinLike![0]!;
    expect(text).toContain(`1 whose answers a coin could have given (#${coin}) left out.`);
    expect(pages.binary).toContain(`>#${coin} coin</text>`);
    const test = exp.participants.find((p) => p.test)!;
    expect(pages.binary).toContain(`>#${test.id} test</text>`);
    expect(text).toContain("like a coin, left out");
    expect(text).toContain("test run, left out");
    // Those marked hard to tell from a coin (counted) are named as the export marks them.
    const near = exp.participants
      .filter((p) => p.status === "finished" && p.summary.consistency?.nearCoin)
      .map((p) => `#${p.id}`);
    expect(text).toContain(
      near.length === 0
        ? "is marked hard to tell from a coin and counted; nobody is marked."
        : `is marked hard to tell from a coin and counted: ${near.length} participant${near.length === 1 ? "" : "s"} marked (${near.join(", ")}).`,
    );
    const f = (x: number) => x.toFixed(3);
    const w = c.tpWeight!;
    expect(text).toContain(
      `Weight on true positives (against true negatives): mean ${f(w.mean)}, median ${f(w.median)}, sd ${f(w.sd)}, from ${f(w.min)} to ${f(w.max)}`,
    );
    expect(text).toContain(
      `says “malignant” when its probability is at least ${c.best!.threshold!.toFixed(2)}`,
    );
    // Each participant's metric and cost ratio range, as the dashboard prints them.
    const first = exp.participants[0]!.summary;
    expect(text).toContain(`${(1 - (first.metric as { a0: number }).a0).toFixed(3)} TP + `);
    expect(text).toMatch(/M, all pairs/);
    expect(text).toContain("against their own result");
    // A binary study counts them against the best metric of each participant's range, which a
    // coin's answers fit better than a point: no coin line at one half on that plot.
    expect(text).toContain("against the best of their range");
    expect(pages.binary).toContain("can fit such a metric better than a point, below half");
    // The plots: the figure, consistency and agreement M, and the classifier's bars, each
    // drawn for a wide and a narrow screen.
    expect(pages.binary.match(/<svg /g)?.length).toBe(8);
    expect(pages.binary).toContain('id="figure-0-w-title"');
    expect(pages.binary).toContain('id="figure-0-n-title"');
  });

  it("multiclass: a plot per class with the consensus per class and the classifier best for it", () => {
    const c = exports.multiclass.consensus!;
    const text = textOf(pages.multiclass);
    for (const k of c.classes!) expect(pages.multiclass).toContain(`<h3>“${k}”</h3>`);
    expect(text).toContain(
      `“setosa”: mean weight per case ${c.weights!.mean[0]!.toFixed(3)}, sd ${c.weights!.sd[0]!.toFixed(3)}`,
    );
    expect(text).toContain("The classifier best for these mean weights gets “setosa”");
    expect(text).toContain("The mistake you mind most is calling a true");
    // Three classes and three more plots: 3 figures, consistency, M and the bars, twice.
    expect(pages.multiclass.match(/<svg /g)?.length).toBe(12);
  });

  it("multiclass, linear: per class shares of the cost, the consensus per kind of mistake", () => {
    const text = textOf(pages["multiclass-linear"]);
    expect(text).toContain("shares of the cost “setosa”");
    expect(text).toContain("“setosa → versicolor”: mean share");
    expect(text).toMatch(/The mistake you mind most is calling a true “\w+” a “\w+”/);
  });

  it("fair: groups named from the study's data, lambda, the systems best for each group", () => {
    const c = exports.fair.consensus!;
    const text = textOf(pages.fair);
    expect(text).toContain("Groups “Black” and “White”");
    expect(text).toContain(`lambda: mean ${c.lambda!.mean.toFixed(2)}`);
    expect(text).toContain("The systems best for the mean lambda get “No”");
    expect(text).toContain("“Black”: “No”");
    expect(text).toContain("Your trade-off lambda is");
    expect(text).toContain("making the gap between “Black” and “White” 10 points smaller");
  });

  it("fair-quadratic: the whole metric's costs and gap weights", () => {
    const text = textOf(pages["fair-quadratic"]);
    expect(text).toMatch(
      /lambda \d\.\d\d \(\d\.\d\d–\d\.\d\d\); costs \d\.\d\d \/ \d\.\d\d; gap weights/,
    );
    expect(text).toContain("Mean whole metric: costs");
    // Each debrief's words on the gaps: the one minded most, or (figures within 5% of each
    // other, as these participants' near-equal gap weights) those minded about the same.
    expect(text).toMatch(
      /Of the gaps between groups, you mind most|You mind the gaps between groups among people whose true answer is “No” and “Yes” about the same/,
    );
  });

  it("quadratic: weights per case, what uneven results cost, and no recommended classifier", () => {
    const text = textOf(pages.quadratic);
    expect(text).toContain("Quadratic: 3 or 4 classes");
    expect(text).toContain("imbalance");
    expect(text).toContain("Uneven results between classes cost you");
    expect(text).toContain("This kind of study's consensus recommends no classifier");
  });

  it("nobody finished: says so plainly, names the classes from the study's data, draws nothing", () => {
    const page = pages.nobody;
    const text = textOf(page);
    expect(exports.nobody.consensus).toBeNull();
    expect(text).toContain(NOBODY);
    expect(text).toContain("There is no consensus and no recommended classifier.");
    expect(text).toContain("Nobody has a result yet, so there is nothing to plot.");
    expect(text).toContain(
      "2 invited: 0 finished, 1 started and not finished, 1 not started; 0 test runs",
    );
    expect(text).toContain("“cultivar 1”, “cultivar 2” and “cultivar 3”");
    expect(page).not.toMatch(/<svg /);
    // An export that does not name its classes (from before issue 29), without the study's
    // data: the classes are numbered.
    const older = { ...exports.nobody, classes: undefined, groups: undefined };
    expect(textOf(reportHtml(older))).toContain("“class 1”, “class 2” and “class 3”");
  });

  it("names the classes and groups as the export does, when it does", () => {
    const named = { ...exports.fair, classes: ["no", "yes"], groups: ["g1", "g2"] };
    expect(reportNames(named, null)).toEqual({ classes: ["no", "yes"], groups: ["g1", "g2"] });
    const older = { ...exports.fair, classes: undefined, groups: undefined };
    expect(reportNames(older, null)).toEqual({
      classes: exports.fair.consensus!.classes,
      groups: ["group 1", "group 2"],
    });
  });

  it("names the classes of the study's data only when the configuration is the hashed one", () => {
    const exp = exports.fair;
    expect(studyNames(exp)?.groups).toEqual(["Black", "White"]);
    const changed = { ...exp, study: { ...exp.study, hash: "0".repeat(64) } };
    expect(studyNames(changed)).toBeNull();
  });
});
