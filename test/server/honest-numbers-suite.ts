import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRng } from "../../src/math/rng.ts";
import type { ParticipantState, SystemView } from "../../src/server/api-schemas.ts";
import { chooser, finish, storedStudy, walkToElicitation } from "./driver.ts";
import { call, freshStore, signIn, startApp, type TestApp, tokenOf } from "./helpers.ts";

/**
 * Issue 11, "Honest numbers on screen": over many simulated participants, every comparison of
 * Phase II and Phase III shows whole people out of the study's population (100), with the same
 * class totals on every page of the study (from the pool's prevalence), and no question shows
 * two systems that look identical.
 */

/** 250 calibrated probability levels p = u^1.5, 8 rows each, round(8 p) positives: 39.9%. */
function unevenPredictionsCsv(): string {
  const lines = ["label,probability"];
  for (let i = 0; i < 250; i++) {
    const p = ((i + 0.5) / 250) ** 1.5;
    const positives = Math.round(8 * p);
    for (let j = 0; j < 8; j++) lines.push(`${j < positives ? "yes" : "no"},${p}`);
  }
  return `${lines.join("\n")}\n`;
}

type Choose = (l: SystemView, r: SystemView) => "left" | "right" | "same";

/** Totals and checks of what one study showed. */
class ScreenAudit {
  totals: { positives: number; negatives: number } | null = null;
  questions = 0;
  problems: string[] = [];

  system(where: string, s: SystemView): void {
    for (const k of ["tp", "fn", "fp", "tn"] as const) {
      if (!Number.isInteger(s[k]) || s[k] < 0) this.problems.push(`${where}: ${k} = ${s[k]}`);
    }
    const totals = { positives: s.tp + s.fn, negatives: s.fp + s.tn };
    this.totals ??= totals;
    if (totals.positives !== this.totals.positives || totals.negatives !== this.totals.negatives)
      this.problems.push(`${where}: totals ${JSON.stringify(totals)}`);
    // The rates on screen are those of the counts on screen ("31 of 34 · 91%").
    if (
      Math.abs(s.tpr - s.tp / totals.positives) > 1e-4 ||
      Math.abs(s.tnr - s.tn / totals.negatives) > 1e-4
    )
      this.problems.push(`${where}: rates ${s.tpr}, ${s.tnr} for ${JSON.stringify(s)}`);
  }

  pair(where: string, l: SystemView, r: SystemView, tradeOff: boolean): void {
    this.questions++;
    this.system(`${where} left`, l);
    this.system(`${where} right`, r);
    if (l.tp === r.tp && l.fn === r.fn && l.fp === r.fp && l.tn === r.tn)
      this.problems.push(`${where}: both systems show ${JSON.stringify(l)}`);
    // Phase III pairs are trade-offs as shown: one catches more, the other clears more.
    if (tradeOff && !((l.tp - r.tp) * (l.tn - r.tn) < 0))
      this.problems.push(
        `${where}: no trade-off between ${JSON.stringify(l)} and ${JSON.stringify(r)}`,
      );
  }
}

/**
 * The suite over `n` participants per strategy: npm test runs it with a few (the statistical
 * version over 50 is test/sweeps/honest-numbers.sweep.ts, run by .ci/run).
 */
export function honestNumbersSuite(n: number): void {
  describe(`honest numbers on screen (sqlite, ${n} participants)`, () => {
    let t: TestApp;
    let cookie: string;
    beforeEach(async () => {
      t = await startApp(await freshStore("sqlite"));
      cookie = await signIn(t);
    });
    afterEach(async () => {
      await t.close();
    });

    async function createStudy(body: Record<string, unknown>) {
      const r = await call(t, "POST", "/api/studies", { name: "Honest", ...body }, cookie);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const id = r.body.study.id as number;
      return { id, ...(await storedStudy(t, id)) };
    }

    /**
     * Drive `n` simulated participants through Phase II and III: metrics a0 spread over (0, 1);
     * every other one decides on the counts shown (as a person can), the others on the exact
     * points; every fourth flips 10% of its answers. Returns the audit and the elicited a0s.
     */
    async function runParticipants(study: Awaited<ReturnType<typeof createStudy>>, n: number) {
      const audit = new ScreenAudit();
      const rng = createRng("honest-numbers");
      const results: { a0: number; elicited: number; onScreen: boolean; noisy: boolean }[] = [];
      for (let i = 0; i < n; i++) {
        const a0 = 0.05 + (0.9 * (i + rng.next())) / n;
        const onScreen = i % 2 === 0;
        const noisy = i % 4 === 3;
        const exact = chooser(study.pool, a0);
        const base: Choose = onScreen
          ? (l, r) => {
              const d = a0 * (l.tn - r.tn) + (1 - a0) * (l.tp - r.tp);
              return d > 1e-9 ? "left" : d < -1e-9 ? "right" : "same";
            }
          : exact;
        const choose: Choose = (l, r) => {
          const c = base(l, r);
          if (!noisy || rng.next() >= 0.1) return c;
          return c === "left" ? "right" : "left";
        };
        const link = await call(t, "POST", `/api/studies/${study.id}/test-run`, {}, cookie);
        const token = tokenOf(link.body.link);
        let s: ParticipantState = await walkToElicitation(t, token);
        expect(s.phase).toBe("elicitation");
        while (s.phase === "elicitation") {
          const q = s.elicitation!.question;
          audit.pair(`participant ${i} question ${q.id}`, q.left, q.right, false);
          s = (
            await call(t, "POST", `/api/p/${token}/answer`, {
              questionId: q.id,
              choice: choose(q.left, q.right),
            })
          ).body;
        }
        const seen = (l: SystemView, r: SystemView) => {
          audit.pair(`participant ${i} Phase III`, l, r, true);
          return choose(l, r);
        };
        s = await finish(t, token, s, seen);
        expect(s.phase).toBe("debrief");
        results.push({ a0, elicited: (s.debrief!.metric as { a0: number }).a0, onScreen, noisy });
      }
      return { audit, results };
    }

    it(`paper strategy, built-in study: ${n} participants see whole patients, 34 / 66 on every page, no identical pair`, async () => {
      const study = await createStudy({ template: "cancer-diagnosis", strategy: "paper" });
      expect(study.config.display).toEqual({ population: 100 });
      expect(study.pool.zeta * 100).toBeCloseTo(34.38, 2);
      const { audit } = await runParticipants(study, n);
      expect(audit.problems.slice(0, 10)).toEqual([]);
      expect(audit.totals).toEqual({ positives: 34, negatives: 66 });
      expect(audit.questions).toBeGreaterThan(n * 15);
    }, 120_000);

    it(
      `default strategy, uploaded predictions: ${n} participants see whole patients, 40 / 60 on every page, no identical pair`,
      async () => {
        const study = await createStudy({
          predictionsCsv: unevenPredictionsCsv(),
          positive: "yes",
        });
        expect(study.pool.zeta * 100).toBeCloseTo(39.9, 1);
        const { audit, results } = await runParticipants(study, n);
        expect(audit.problems.slice(0, 10)).toEqual([]);
        expect(audit.totals).toEqual({ positives: 40, negatives: 60 });
        expect(audit.questions).toBeGreaterThan(n * 15);
        // Whole patients cost some accuracy. Consistent participants who decide on what they see
        // (a0 in [0.1, 0.9]) are recovered within the tolerance typically, and never more than
        // 2.5 times it (the default is the adaptive engine since issue 26).
        const tolerance = study.config.spec.tolerance;
        const errors = results
          .filter((x) => x.onScreen && !x.noisy && x.a0 >= 0.1 && x.a0 <= 0.9)
          .map((r) => Math.abs(r.elicited - r.a0))
          .sort((a, b) => a - b);
        expect(errors.length).toBeGreaterThan(0.3 * n);
        expect(errors[Math.floor(errors.length / 2)]).toBeLessThanOrEqual(tolerance);
        expect(errors[errors.length - 1]).toBeLessThanOrEqual(2.5 * tolerance);
        // The adaptive engine replays each participant's log per answer: about 2.5 s each on a
        // quiet 2-core machine, so 8 s each leaves room for a busy one.
      },
      Math.max(120_000, n * 8_000),
    );

    it.each([
      ["bisect", 10],
      ["adaptive", 4],
    ] as const)(
      "%s strategy: no identical pair either (%i participants)",
      async (strategy, n) => {
        const study = await createStudy({
          predictionsCsv: unevenPredictionsCsv(),
          positive: "yes",
          strategy,
          population: 200,
        });
        if (strategy === "adaptive")
          expect(study.config.spec).toMatchObject({ displayStep: 1 / 200 });
        const { audit } = await runParticipants(study, n);
        expect(audit.problems.slice(0, 10)).toEqual([]);
        expect(audit.totals).toEqual({ positives: 80, negatives: 120 });
      },
      180_000,
    );
  });
}
