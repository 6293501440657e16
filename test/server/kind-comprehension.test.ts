import { h } from "preact";
import { render } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import type { ParticipantState } from "../../src/server/api-schemas.ts";
import { countOptions } from "../../src/server/study/kind-comprehension.ts";
import { PhasePage } from "../../web/src/participant/ParticipantApp.tsx";
import { answersFor } from "./driver.ts";
import { createFair } from "./fair-driver.ts";
import { call } from "./helpers.ts";
import { appPerTest, csvRows } from "./kind-driver.ts";
import { createMulticlass, seededParticipant } from "./multiclass-driver.ts";

/**
 * Issue 27 item 2: Part 1 (the comprehension check) for the multiclass and fairness kinds. Its
 * two systems come from the study's own pool and are drawn as its comparison pages draw them;
 * each question's right answer is what those charts show; answering right leads to Phase II,
 * and the attempts reach participants.csv.
 */

describe("countOptions", () => {
  it("four distinct whole numbers in 0..100, the right one among them, ascending", () => {
    for (const [right, others] of [
      [72, [65, 28]],
      [100, [100, 99]],
      [0, [0, 3]],
      [50, []],
    ] as const) {
      const o = countOptions(right, others).map(Number);
      expect(o).toHaveLength(4);
      expect(new Set(o).size).toBe(4);
      expect(o).toContain(right);
      expect(o.every((x) => Number.isInteger(x) && x >= 0 && x <= 100)).toBe(true);
      expect([...o].sort((a, b) => a - b)).toEqual(o);
    }
  });
});

describe.each(["multiclass", "fair"] as const)("Part 1 of a %s study (sqlite)", (kind) => {
  const app = appPerTest("sqlite");

  it("its systems are the pool's, drawn as the comparison pages draw them; the right answers are the counts on screen; right answers lead to Phase II", async () => {
    const { t, cookie } = app;
    const made =
      kind === "multiclass" ? await createMulticlass(t, cookie) : await createFair(t, cookie);
    const check = made.config.comprehension;
    expect(check.views?.kind).toBe(kind);
    expect(check.questions.length).toBeGreaterThanOrEqual(1);
    for (const q of check.questions) expect(q.options).toContain(q.correct);
    const { token, id } = await seededParticipant(t, cookie, made.study.id, 99);
    const base = `/api/p/${token}`;
    let s = (await call<ParticipantState>(t, "GET", base)).body;
    s = (await call(t, "POST", `${base}/consent`, { agree: true })).body;
    s = (
      await call(t, "POST", `${base}/questionnaire`, {
        answers: answersFor(s.questionnaire!.fields),
      })
    ).body;
    s = (await call(t, "POST", `${base}/story`, {})).body;
    expect(s.phase).toBe("comprehension");
    const c = s.comprehension!;
    expect(c.systems).toBeUndefined();
    const shown = c.kindSystems!;
    expect(shown.kind).toBe(kind);
    expect(shown.left).toEqual(check.views!.left);
    expect(shown.right).toEqual(check.views!.right);
    expect(shown.classes).toEqual(made.data.classNames);
    // The reading question's right answer is a count System A shows.
    const read = check.questions[0]!;
    const rows = shown.left.counts.flat().map(String);
    expect(rows).toContain(read.correct);
    expect(c.question.prompt).toBe(read.prompt);
    // The page draws both systems and the question.
    const page = render(h(PhasePage, { state: s, busy: false, post: async () => undefined }));
    expect(page).toContain('data-testid="kind-systems"');
    expect(page).toContain(read.prompt);
    expect(page).toContain(`${read.correct} of 100 right`);
    // A wrong answer first, then the right ones: Phase II follows.
    const wrong = read.options.find((o) => o !== read.correct)!;
    const first = await call(t, "POST", `${base}/comprehension`, {
      questionId: read.id,
      answer: wrong,
    });
    expect(first.body.correct).toBe(false);
    s = first.body.state;
    for (const q of check.questions) {
      const r = await call(t, "POST", `${base}/comprehension`, {
        questionId: q.id,
        answer: q.correct,
      });
      expect(r.body.correct).toBe(true);
      expect(r.body.feedback).toContain(q.explanation);
      s = r.body.state;
    }
    expect(s.phase).toBe("elicitation");
    // participants.csv: the attempts per question, each answered right.
    const wide = csvRows(
      (
        await t.app.inject({
          method: "GET",
          url: `/api/studies/${made.study.id}/export/participants.csv`,
          headers: { cookie },
        })
      ).body,
    ).find((r) => r.participant_id === String(id))!;
    expect(wide[`comprehension_${read.id}_attempts`]).toBe("2");
    for (const q of check.questions) expect(wide[`comprehension_${q.id}_correct`]).toBe("1");
  });
});
