import { h } from "preact";
import { render } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import { fairDebriefSentence } from "../../src/server/kinds/fair/participant.ts";
import { DEFAULT_PAGE_LABELS } from "../../src/server/study/page-label-defaults.ts";
import type { ParticipantState } from "../../web/src/api/types.ts";
import { PhasePage, ResultText, sentences } from "../../web/src/participant/ParticipantApp.tsx";
import { system, words } from "./fixtures.ts";

/** A participant's state with the study's words and the built-in labels. */
function state(rest: Partial<ParticipantState>): ParticipantState {
  return { phase: "consent", study: { title: "Study", words }, ...rest } as ParticipantState;
}

const page = (s: ParticipantState) =>
  render(h(PhasePage, { state: s, busy: false, post: async () => undefined }));

/** The HTML inside every <strong> of `html`. */
const strongs = (html: string) => [...html.matchAll(/<strong>(.*?)<\/strong>/g)].map((m) => m[1]);

describe("issue 27 defect 7: the debrief emphasises its result only; every page has an h1", () => {
  it("defect: the fairness debrief paragraph is not all bold, only its plain-words result", () => {
    const summary = fairDebriefSentence({ lambda: 0.72, low: 0.66, high: 0.79 }, 2.6, ["A", "B"]);
    const html = page(
      state({
        phase: "debrief",
        fairDebrief: {
          summary,
          metric: { lambda: 0.72, low: 0.66, high: 0.79 },
          groups: ["A", "B"],
          classes: ["no", "yes"],
          gapWorth: 2.6,
          completionCode: "CODE1",
        },
      }),
    );
    const result = /<p class="result-text">(.*?)<\/p>/.exec(html)![1]!;
    // Every sentence is there, in order, and only the lean is bold.
    expect(result.replace(/<\/?strong>/g, "")).toBe(summary);
    expect(strongs(result)).toEqual([
      "Treating the groups alike matters more to you than being right overall.",
    ]);
    expect(result).toMatch(/^Your trade-off lambda is 0\.72/);
  });

  it("defect: the binary debrief's one-sentence result stays emphasised, the note is not", () => {
    const html = render(
      h(ResultText, { text: "For you, missed cancers are about 4 times as bad as false alarms." }),
    );
    expect(html).toBe(
      '<p class="result-text"><strong>For you, missed cancers are about 4 times as bad as false alarms.</strong></p>',
    );
  });

  it("defect: answers that leave every ratio open get no range note and no 'guess within the range'", () => {
    const debrief = (low: number, high: number | null) =>
      page(
        state({
          phase: "debrief",
          debrief: {
            summary: "Your answers do not tell which kind of mistake is worse for you.",
            metric: { tp: 0.5, tn: 0.5 },
            ratio: 1,
            range: { low, high },
            guess: 4,
            agreement: null,
            agreementDetail: {
              all: null,
              undecided: null,
              pairs: 0,
              ties: 0,
              undecidedPairs: 0,
              undecidedTies: 0,
              metricTies: 0,
            },
            completionCode: "CODE2",
          },
        } as Partial<ParticipantState>),
      );
    const open = debrief(0, null);
    expect(open).toContain(DEFAULT_PAGE_LABELS.debriefGuessOpen);
    expect(open).not.toContain(DEFAULT_PAGE_LABELS.debriefRangeNote);
    expect(open).not.toContain(DEFAULT_PAGE_LABELS.debriefGuessInside);
    const closed = debrief(2, 6);
    expect(closed).toContain(DEFAULT_PAGE_LABELS.debriefRangeNote);
    expect(closed).toContain(DEFAULT_PAGE_LABELS.debriefGuessInside);
  });

  it("splits sentences at a full stop before a capital, never inside a decimal", () => {
    expect(sentences("Lambda is 0.72, between 0.66 and 0.79. It leans (a lot). “B” wins.")).toEqual(
      ["Lambda is 0.72, between 0.66 and 0.79.", "It leans (a lot).", "“B” wins."],
    );
  });

  it("defect: the comprehension page has exactly one h1 (axe page-has-heading-one)", () => {
    const html = page(
      state({
        phase: "comprehension",
        comprehension: {
          question: { id: "count-missed", prompt: "How many were missed?", options: ["3", "9"] },
          index: 0,
          total: 4,
          systems: [system(31, 3, 13, 53), system(25, 9, 4, 62)],
          attemptsLeft: 3,
        },
      }),
    );
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(html).toMatch(/<h1[^>]*>Part 1 of 3: checking the pictures make sense<\/h1>/);
    expect(html).toContain("question 1 of 4");
  });
});
