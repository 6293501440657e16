import { h } from "preact";
import { render } from "preact-render-to-string";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ParticipantState, SystemView } from "../../src/server/api-schemas.ts";
import { sha256 } from "../../src/server/security/tokens.ts";
import { Debrief } from "../../web/src/participant/ParticipantApp.tsx";
import { postAnswers, screenChooser, walkToElicitation } from "./driver.ts";
import { call, freshStore, signIn, startApp, type TestApp, tokenOf } from "./helpers.ts";

/**
 * Issue 26, "Done when", first item, for the built-in study `npm start` opens: three
 * participants who weigh the counts on the screen with a cost ratio (missed cancer : false
 * alarm) of 3, 0.5 and 1.5 get a debrief whose range holds their ratio and whose point is
 * within a factor 1.5 of it, and are never shown a dominated pair. (Under the papers' search
 * the same people got 0.64, 0.52 and 0.64, with 8 or 9 dominated pairs in 12 questions.)
 * The simulated person is written here from the screen's counts alone, apart from the engine.
 */
const RATIOS = [3, 0.5, 1.5];
const SEED_BASE = Number(process.env.SEED_BASE ?? 2600);

/** One system at least as good on both counts shown (and better on one): no trade-off. */
function dominated(l: SystemView, r: SystemView): boolean {
  const better = (a: SystemView, b: SystemView) =>
    a.tp >= b.tp && a.tn >= b.tn && (a.tp > b.tp || a.tn > b.tn);
  return better(l, r) || better(r, l);
}

describe("the built-in study, answered on the counts shown (sqlite)", () => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await startApp(await freshStore("sqlite"));
    cookie = await signIn(t);
  });
  afterEach(async () => {
    await t.close();
  });

  it("is adaptive, and recovers each participant's own cost ratio without a dominated pair", async () => {
    const study = (await call(t, "GET", "/api/studies/1", undefined, cookie)).body.study;
    expect(study).toMatchObject({ name: "Cancer diagnosis", strategy: "adaptive" });
    const links = (await call(t, "POST", "/api/studies/1/invites", { count: 3 }, cookie)).body
      .links as string[];
    const report: string[] = [];
    for (const [i, link] of links.entries()) {
      const ratio = RATIOS[i]!;
      const choose = screenChooser(ratio);
      const token = tokenOf(link);
      // Fixed seeds, so every run asks the same questions (SEED_BASE moves them for a wider
      // check by hand: SEED_BASE=5000 npx vitest run test/server/builtin-study.test.ts). By
      // hand over 30 seed bases (100 to 3000 by 100, 90 participants, at e51017a) the range
      // held the ratio every time and every point was within a factor 1.05 of it. (At 8 seed
      // bases before, one point had fallen outside the factor 1.5: 0.786 for 0.5, range 0.4
      // to 0.8, base 400; there it is now 0.492, range 0.4 to 0.6.)
      await t.db
        .updateTable("participants")
        .set({ seed: SEED_BASE + i })
        .where("token_hash", "=", sha256(token))
        .execute();
      let s: ParticipantState = await walkToElicitation(t, token);
      const shown: [SystemView, SystemView][] = [];
      const lastPart: { left: SystemView; right: SystemView; choice: string }[] = [];
      while (s.phase === "elicitation" || s.phase === "evaluation") {
        const q = (s.elicitation ?? s.evaluation)!.question;
        shown.push([q.left, q.right]);
        const path = s.phase === "elicitation" ? "answer" : "evaluation";
        const choice = choose(q.left, q.right);
        if (s.phase === "evaluation") lastPart.push({ left: q.left, right: q.right, choice });
        const r = await call(t, "POST", `/api/p/${token}/${path}`, {
          questionId: q.id,
          choice,
        });
        expect(r.status).toBe(200);
        s = r.body;
      }
      s = (await call(t, "POST", `/api/p/${token}/post`, { answers: postAnswers })).body;
      expect(s.phase).toBe("debrief");
      // What the person saw: whole patients out of 100 (34 with cancer), never a pair where
      // one system is at least as good on both counts.
      for (const [l, r] of shown) {
        for (const v of [l, r]) {
          expect(Number.isInteger(v.tp) && Number.isInteger(v.tn)).toBe(true);
          expect([v.tp + v.fn, v.tn + v.fp]).toEqual([34, 66]);
        }
      }
      expect(shown.filter(([l, r]) => dominated(l, r))).toEqual([]);
      const d = s.debrief!;
      const { low, high } = d.range;
      report.push(`ratio ${ratio}: point ${d.ratio?.toFixed(3)}, range ${low} to ${high ?? "∞"}`);
      // The range holds the ratio; the point is within a factor 1.5 of it.
      expect(low, report.at(-1)).toBeLessThanOrEqual(ratio);
      expect(high === null || ratio <= high, report.at(-1)).toBe(true);
      expect(d.ratio, report.at(-1)).not.toBeNull();
      expect(d.ratio! / ratio, report.at(-1)).toBeGreaterThanOrEqual(1 / 1.5);
      expect(d.ratio! / ratio, report.at(-1)).toBeLessThanOrEqual(1.5);
      // The debrief page says the same range in words the person reads.
      const text = render(h(Debrief, { state: s })).replace(/<[^>]+>/g, "");
      expect(text).toContain(d.summary);
      // Part 3 is judged on the counts shown too: the answers "against" the result are those
      // on which the debrief's own metric, weighing the counts this person saw, prefers the
      // other system (the repeats of Part 2 pairs, the retest, apart). Judged on the hidden
      // rates instead, a pair the rounding ranks the other way counted a consistent person's
      // answer against them (the audit's "1 of 14" for a ratio inside its range).
      const key = (l: SystemView, r: SystemView) =>
        [`${l.tp},${l.tn}`, `${r.tp},${r.tn}`].sort().join("|");
      const partTwo = new Set(
        shown.slice(0, shown.length - lastPart.length).map(([l, r]) => key(l, r)),
      );
      // The threshold metric a0 weighs TP by 1 - a0 and TN by a0 (cost ratio (1 - a0) / a0).
      const a0 = (d.metric as { a0: number }).a0;
      const value = (v: SystemView) => (1 - a0) * v.tp + a0 * v.tn;
      let counted = 0;
      let against = 0;
      for (const a of lastPart) {
        if (partTwo.has(key(a.left, a.right)) || a.choice === "same") continue;
        const m = value(a.left) - value(a.right);
        if (Math.abs(m) < 1e-12) continue;
        counted++;
        if (m > 0 !== (a.choice === "left")) against++;
      }
      expect(d.consistency, report.at(-1)).toMatchObject({ counted, against });
      report.push(`${against} of ${counted} against`);
    }
    console.log(`built-in study on the counts shown: ${report.join("; ")}`);
  }, 180_000);
});
