import { describe, expect, it } from "vitest";
import type { ParticipantState } from "../../src/server/api-schemas.ts";
import { shownOptions } from "../../src/server/participant/comprehension-order.ts";
import type { StudyConfig } from "../../src/server/study/config.ts";
import { phase1Questions } from "../../src/server/study/template.ts";
import { walkToPart1 } from "./driver.ts";
import { createFair } from "./fair-driver.ts";
import { call } from "./helpers.ts";
import { appPerTest, createStudyOfKind } from "./kind-driver.ts";
import { createMulticlass, seededParticipant } from "./multiclass-driver.ts";

/**
 * The new-user audit: every Part 1 question listed its right answer first, so a participant who
 * always picked the first option passed at the first try. Each participant now sees the
 * options in an order of their own (from their seed, the same on a reload); an answer is an
 * option's text, graded and stored as such wherever it was shown.
 */

const SEEDS = Array.from({ length: 20 }, (_, i) => 1000 + 7 * i);

describe("shownOptions", () => {
  it("is a permutation, the same for a seed, and moves the right answer of every built-in question", () => {
    for (const q of phase1Questions()) {
      const at = new Set<number>();
      for (const seed of SEEDS) {
        const shown = shownOptions(seed, q);
        expect([...shown].sort()).toEqual([...q.options].sort());
        expect(shownOptions(seed, q)).toEqual(shown);
        at.add(shown.indexOf(q.correct));
      }
      // Stored first; shown at more than one place, not always first.
      expect(q.options[0]).toBe(q.correct);
      expect(at.size).toBeGreaterThan(1);
      expect([...at].some((i) => i !== 0)).toBe(true);
    }
  });

  it("gives different participants different orders", () => {
    const q = { id: "a", options: ["1", "2", "3", "4"] };
    const orders = new Set(SEEDS.map((s) => shownOptions(s, q).join()));
    expect(orders.size).toBeGreaterThan(1);
  });
});

describe.each(["binary", "multiclass", "fair"] as const)(
  "Part 1's option order, a %s study (sqlite)",
  (kind) => {
    const app = appPerTest("sqlite");

    it("varies the right answer's place over 20 participants, keeps it on reload, grades and stores the text", async () => {
      const { t, cookie } = app;
      const made =
        kind === "binary"
          ? await createStudyOfKind<StudyConfig>(t, cookie, {
              name: "Cancer",
              template: "cancer-diagnosis",
              strategy: "paper",
            })
          : kind === "multiclass"
            ? await createMulticlass(t, cookie)
            : await createFair(t, cookie);
      const questions = made.config.comprehension.questions;
      expect(questions.length).toBeGreaterThan(0);
      const places = new Map<string, number[]>(questions.map((q) => [q.id, []]));
      for (const seed of SEEDS) {
        const { token, id } = await seededParticipant(t, cookie, made.study.id, seed);
        const base = `/api/p/${token}`;
        let s = await walkToPart1(t, token);
        while (s.phase === "comprehension") {
          const shown = s.comprehension!.question;
          const q = questions.find((x) => x.id === shown.id)!;
          expect([...shown.options].sort()).toEqual([...q.options].sort());
          // A reload shows the same order.
          const again = (await call<ParticipantState>(t, "GET", base)).body;
          expect(again.comprehension!.question.options).toEqual(shown.options);
          places.get(q.id)!.push(shown.options.indexOf(q.correct));
          // The right answer's text is right wherever it stands.
          const r = await call(t, "POST", `${base}/comprehension`, {
            questionId: q.id,
            answer: q.correct,
          });
          expect(r.status).toBe(200);
          expect(r.body.correct).toBe(true);
          s = r.body.state;
        }
        // The log keeps the option chosen (its text), never a position.
        const log = await t.db
          .selectFrom("comprehension")
          .select(["question_id", "answer", "correct"])
          .where("participant_id", "=", id)
          .execute();
        expect(log).toHaveLength(questions.length);
        for (const row of log) {
          expect(row.answer).toBe(questions.find((q) => q.id === row.question_id)!.correct);
          expect(row.correct).toBe(1);
        }
      }
      for (const [id, at] of places) {
        expect(at, id).toHaveLength(SEEDS.length);
        expect(new Set(at).size, id).toBeGreaterThan(1);
        expect(
          at.every((i) => i === 0),
          id,
        ).toBe(false);
      }
    });
  },
);
