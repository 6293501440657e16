// No imports: the web bundle reads these defaults too.

/**
 * The headings, button labels and fixed sentences of a binary study's participant pages
 * (issue 11 item 3): part of the study's texts, each editable in the create form; a study
 * that sets none reads these defaults (the built-in study's wording).
 */
export const DEFAULT_PAGE_LABELS = {
  consentHeading: "Taking part in this study",
  consentAgree: "I agree to take part",
  consentDecline: "I do not agree",
  questionnaireHeading: "About you",
  continueButton: "Continue",
  requiredNote: "Questions marked * are required.",
  pleaseAnswer: "Please answer:",
  storyHeading: "The task",
  storyDone: "I have read this, continue",
  comprehensionStage: "Part 1 of 3: checking the pictures make sense",
  // {n} is the question's number, {total} how many there are.
  comprehensionQuestion: "question {n} of {total}",
  // {system} is the study's word for a system.
  workedExampleHeading: "How to read a {system}: a worked example",
  // The worked example's four sentences, read off System A: {name} the system's name, {total},
  // {positives} and {negatives} the class totals, {tp} {fn} {fp} {tn} its counts, {tpr} and
  // {tnr} its rates (percent), {positive} {negative} {flagged} {cleared} {missed} {falseAlarm}
  // the study's words.
  workedExampleRead:
    "Read {name} from left to right. On the left, the {total} people split by what was actually true; on the right, by what {name} predicted.",
  workedExamplePositives:
    "Of the {positives} people who {positive}, {name} {flagged} for {tp} ({tpr}) and {cleared} for {fn}: those {fn} are {missed}.",
  workedExampleNegatives:
    "Of the {negatives} people who {negative}, {name} {cleared} for {tn} ({tnr}) and {flagged} for {fp}: those {fp} are {falseAlarm}.",
  workedExampleSo:
    "So {name} makes {fn} {missed} and {fp} {falseAlarm} in these {total} people. The crossing arrows in the chart are these two mistakes.",
  feedbackCorrect: "Correct.",
  feedbackWrong: "Not quite.",
  feedbackAbout: "About your last answer:",
  // {n} is how many attempts are left.
  attemptsLeft: "Attempts left for this question: {n}",
  checkAnswer: "Check my answer",
  guessHeading: "Your own estimate",
  guessHelp:
    "A positive number, for example 5 for “five times as bad”. You may skip this question.",
  guessSkip: "Skip this question",
  guessInvalid: "Please enter a positive number, or skip.",
  elicitationStage: "Part 2 of 3: your preferences",
  // Progress lines: {n} is the question's number, {left} how many more, {total} the most.
  progressAtMostMore: "Question {n} · at most {left} more after this one",
  progressLast: "Question {n} · the last question of this part",
  progressAbout: "Question {n} · about {left} more after this one",
  progressOfAtMost: "Question {n} of at most {total}",
  progressOf: "Question {n} of {total}",
  preferButton: "I prefer",
  sameButton: "They seem about the same",
  keysHint: "Keyboard:",
  keysSame: "about the same.",
  undoButton: "Undo last answer",
  tablesShow: "Show the numbers as tables",
  tablesHide: "Hide the numbers as tables",
  // The tables of counts (beside each chart, and the phone's compact view): {name} the
  // system's name, {people} "100 patients", {class} a class in the study's words, {n} a count,
  // {percent} a rate and {of} its class total.
  tableCaption: "{name}: outcomes out of {people}",
  tableTrueClass: "True class",
  tableTotal: "Total",
  tableActually: "Actually {class}",
  tableCell: "{n} ({percent} of {of})",
  compactClass: "{n} actually {class}",
  // The charts: an arrow's badge ({n} of the class total {of}, {percent} the rate), and the
  // chart's text for screen readers ({name}, {people}, the class totals {positives} and
  // {negatives}, the counts {tp} {fn} {fp} {tn}, the rates {tpr} {fnr} {fpr} {tnr}, and the
  // study's words {positive} {negative} {flagged} {cleared} {missed} {falseAlarm}).
  chartBadge: "{n} of {of} · {percent}",
  chartDescription:
    "{name}, out of {people}. Of {positives} who actually {positive}: {tp} ({tpr}) {flagged}, {fn} ({fnr}) {cleared} — {missed}. Of {negatives} who actually {negative}: {tn} ({tnr}) {cleared}, {fp} ({fpr}) {flagged} — {falseAlarm}.",
  // The pair's trade-off in one line: {b} and {a} the systems' letters, {missed} and
  // {falseAlarms} the two differences (each one of the three lines after), {people}
  // "100 patients"; {n} a difference, {outcome} the study's word for the mistake.
  tradeOff: "{b}: {missed} and {falseAlarms} than {a}, per {people}.",
  tradeOffMore: "{n} more {outcome}",
  tradeOffFewer: "{n} fewer {outcome}",
  tradeOffSame: "the same number of {outcome}",
  evaluationStage: "Part 3 of 3: a few more comparisons",
  postHeading: "Almost done: a few questions about the task",
  finishButton: "Finish",
  debriefHeading: "Thank you!",
  debriefResultHeading: "From your comparisons",
  debriefRangeNote:
    "The range holds every weighing of the two mistakes that fits your answers best.",
  // The agreement of the result with the last part's choices: {share} a percentage, {agree}
  // how many pairs agree, {pairs} how many pairs ("12 pairs", with pairOne / pairMany).
  debriefAgreement:
    "Your result agrees with {share} of your own choices in the last part ({agree} of {pairs}).",
  debriefAgreementOpen:
    "On the {pairs} your earlier answers did not already settle, it agrees with {share} ({agree} of {count}).",
  debriefAgreementSettled:
    "Your earlier answers already settled every one of these pairs, so none of them tests your result further.",
  // How consistently the participant answered (issue 26): {against} of {counted} counted
  // answers went against their own result, {share} with the 90% range {low} to {high}.
  debriefConsistency:
    "In the last part, {against} of your {counted} choices went against your own result ({share}; from {low} to {high} is likely).",
  // A binary study: the same, counted against the weighing that the earlier answers point to
  // and that fits the last part's choices best, since a consistent person's result can be a
  // poor point of a wide range. "Point to", not "allow": a coin's debrief states every value
  // in their range and the figures as only where their first answers point.
  debriefConsistencyRange:
    "In the last part, of the weighings your earlier answers point to, even the one that fits these choices best goes against {against} of your {counted} choices ({share}; from {low} to {high} is likely).",
  // A study without the last part (multiclass): the share of choices against the person's own
  // result as the engine's learned answer model estimates it, {share} with the range {low}
  // to {high}.
  debriefSlips:
    "Judging by all your answers, about {share} of your choices went against your own result (from {low} to {high} is likely).",
  // The Phase II pairs shown again: {same} of {repeats} answered the same way both times.
  debriefRetest:
    "You saw {repeats} of the pairs twice and chose the same way both times on {same} of them.",
  pairOne: "pair",
  pairMany: "pairs",
  debriefGuessHeading: "Your own guess before them",
  debriefGuessSkipped: "You skipped this question.",
  debriefGuessInside: "Your guess lies within the range of your comparisons.",
  debriefGuessOutside: "Your guess lies outside the range of your comparisons.",
  // When the comparisons leave every weighing open, there is no range to hold the guess.
  debriefGuessOpen: "Your comparisons leave every weighing open, so they cannot test your guess.",
  completionCode: "Your completion code:",
  debriefClose: "You can close this page now.",
  withdrawnHeading: "You are not taking part",
  withdrawnText: "Nothing more will be recorded. Thank you for your time; you can close this page.",
} as const;

/** The keys of the page labels, in the create form's order. */
export type PageLabelKey = keyof typeof DEFAULT_PAGE_LABELS;
/** Every page label of a study, filled in. */
export type PageLabels = Record<PageLabelKey, string>;

/**
 * The part lines' default wording in a study without Part 3 (no evaluation pairs): "of 2",
 * since "Part 2 of 3" promises a part that never comes.
 */
const TWO_PART_LABELS: Partial<PageLabels> = {
  comprehensionStage: "Part 1 of 2: checking the pictures make sense",
  elicitationStage: "Part 2 of 2: your preferences",
};

/**
 * A study's page labels with the part lines counted right: without Part 3 a part line still
 * in its default wording says "of 2"; a researcher's own wording is shown as written.
 * @example partLabels(DEFAULT_PAGE_LABELS, false).elicitationStage // "Part 2 of 2: your preferences"
 */
export function partLabels(labels: PageLabels, phaseThree: boolean): PageLabels {
  if (phaseThree) return labels;
  const out = { ...labels };
  for (const [k, two] of Object.entries(TWO_PART_LABELS) as [PageLabelKey, string][])
    if (out[k] === DEFAULT_PAGE_LABELS[k]) out[k] = two;
  return out;
}
