/**
 * The type of a CSV column. Every cell of a column is either empty or of this type; an empty
 * cell always means "missing / not applicable" (NA) and no column uses empty text as a value.
 * - `integer`: a whole number written in decimal (`-3`, `0`, `17`);
 * - `number`: a decimal number as JavaScript prints it (`0.25`, `3`, `1.5e-7`), never NaN;
 * - `boolean01`: `0` (false) or `1` (true);
 * - `text`: free or coded text (quoted when it holds a comma, quote or line break; text that
 *   starts with `=`, `+`, `-`, `@`, a tab or a carriage return has a leading `'`);
 * - `datetime`: an ISO 8601 instant in UTC (`2026-01-31T12:00:00.000Z`);
 * - `json`: text holding a JSON value (parse it after reading).
 */
export type ColumnType = "integer" | "number" | "boolean01" | "text" | "datetime" | "json";

/** One column of an export file. */
export interface CodebookEntry {
  readonly file: "answers.csv" | "participants.csv";
  readonly column: string;
  readonly type: ColumnType;
  readonly description: string;
}

/** A column's codebook type and description. */
export type Doc = readonly [ColumnType, string];

/** The long export, answers.csv: one row per stored answer. */
const ANSWERS: Record<string, Doc> = {
  study_id: ["integer", "the study's id"],
  config_hash: ["text", "SHA-256 of the frozen study configuration the answer was given under"],
  participant_id: ["integer", "the participant's id (participants.csv participant_id)"],
  test: ["boolean01", "1: a researcher's test run, not a participant"],
  pilot: ["boolean01", "1: invited while the study was in pilot mode"],
  phase: [
    "text",
    "elicitation (Phase II, the questions that find the metric) or evaluation (Phase III, the agreement pairs)",
  ],
  question_index: ["integer", "0-based index of the question within its phase"],
  revision: ["integer", "0 for the first answer to this question, 1, 2, ... after each undo"],
  stage: [
    "text",
    "the search's stage when the question was asked (Phase II); in Phase III evaluation (a random pair) or retest (a Phase II pair shown again, the same systems in the same first/second order)",
  ],
  placement: [
    "text",
    "first-left: the procedure's first system was shown on the left; first-right: on the right",
  ],
  choice: [
    "text",
    "what the participant clicked: left, right or same ('They seem about the same')",
  ],
  answer: ["text", "the choice in the procedure's terms: first, second or tie"],
  undone: ["boolean01", "1: this answer was later undone (kept, never deleted)"],
  first_threshold: [
    "number",
    "binary studies: the first system's threshold on the model's probability (flags a case when probability >= threshold)",
  ],
  first_tp: [
    "number",
    "binary: the first system's true positives as a fraction of the population (multiply by 100 for 'out of 100'); exact, before the whole-people rounding on screen",
  ],
  first_fp: [
    "number",
    "binary: the first system's false positives (false alarms) as a fraction of the population",
  ],
  first_fn: [
    "number",
    "binary: the first system's false negatives (missed positives) as a fraction of the population",
  ],
  first_tn: ["number", "binary: the first system's true negatives as a fraction of the population"],
  first_shown_tp: [
    "number",
    "binary: the first system's true positives as the participant saw them: whole people of the study's population (display.population; a study from before whole people, out of 100 with one decimal). Phase III agreement and consistency are judged on these",
  ],
  first_shown_fp: ["number", "binary: as first_shown_tp, the false positives (false alarms)"],
  first_shown_fn: ["number", "binary: as first_shown_tp, the false negatives (missed positives)"],
  first_shown_tn: ["number", "binary: as first_shown_tp, the true negatives"],
  second_threshold: ["number", "binary: as first_threshold, for the second system"],
  second_tp: ["number", "binary: as first_tp, for the second system"],
  second_fp: ["number", "binary: as first_fp, for the second system"],
  second_fn: ["number", "binary: as first_fn, for the second system"],
  second_tn: ["number", "binary: as first_tn, for the second system"],
  second_shown_tp: ["number", "binary: as first_shown_tp, for the second system"],
  second_shown_fp: ["number", "binary: as first_shown_fp, for the second system"],
  second_shown_fn: ["number", "binary: as first_shown_fn, for the second system"],
  second_shown_tn: ["number", "binary: as first_shown_tn, for the second system"],
  participant_error_rate: [
    "number",
    "the participant's error_rate (participants.csv), on each of their rows (from Phase III, which every kind of study has by default; a multiclass, fairness or quadratic study without one: the learned answer model)",
  ],
  participant_coin_like: [
    "boolean01",
    "the participant's coin_like (participants.csv), on each of their rows",
  ],
  participant_near_coin: [
    "boolean01",
    "the participant's near_coin (participants.csv), on each of their rows",
  ],
  participant_leans_to: [
    "text",
    "the participant's leans_to (participants.csv), on each of their rows",
  ],
  classes: ["json", "multiclass and fair studies: the class names, in the order of the counts"],
  groups: ["json", "fair studies: the group names, in the order of the counts"],
  first_counts: [
    "json",
    "multiclass: counts[i][j], of 100 cases of true class i how many the first system put in class j; fair: counts[g][i], of 100 people of group g and true class i how many it got right",
  ],
  second_counts: ["json", "as first_counts, for the second system"],
  shown_at: ["datetime", "when the question was shown"],
  answered_at: ["datetime", "when the answer was stored"],
  response_ms: ["integer", "answered_at - shown_at in milliseconds"],
  undone_at: ["datetime", "when the answer was undone (empty: never)"],
};

/** The wide export, participants.csv: one row per participant (fixed columns). */
const PARTICIPANTS: Record<string, Doc> = {
  participant_id: ["integer", "the participant's id"],
  status: ["text", "invited, started, done or withdrawn"],
  test: ["boolean01", "1: a researcher's test run, not a participant"],
  pilot: ["boolean01", "1: invited while the study was in pilot mode"],
  seed: [
    "integer",
    "the participant's seed (left/right placement, Phase III pairs, the adaptive engine)",
  ],
  config_hash: ["text", "SHA-256 of the frozen study configuration"],
  started_at: ["datetime", "when the participant first opened the link"],
  finished_at: ["datetime", "when the participant reached the debrief"],
  seconds: ["integer", "finished_at - started_at in whole seconds"],
  guess_ratio: [
    "number",
    "the participant's own guess, before the comparisons, of how many times as bad a missed positive is as a false alarm (empty: skipped or not asked)",
  ],
  elicited_a0: [
    "number",
    "threshold family only: a0 of the elicited metric a0 TN + (1 - a0) TP (a0 weighs true negatives)",
  ],
  elicited_tp: [
    "number",
    "binary: the elicited metric as tp TP + tn TN with tp + tn = 1, the weight on true positives",
  ],
  elicited_tn: ["number", "binary: the weight on true negatives (elicited_tp + elicited_tn = 1)"],
  elicited_ratio: [
    "number",
    "binary: elicited_tp / elicited_tn, how many times as bad a missed positive is as a false alarm under the elicited metric (empty: undefined, a zero weight)",
  ],
  elicited_lambda: [
    "number",
    "fair studies: the elicited trade-off lambda (0 = only accuracy, 1 = only equal rates across groups)",
  ],
  lambda_low: [
    "number",
    "fair studies: lower end of the range of lambda the answers leave (0 to 1 for a participant flagged like a coin, coin_like: nothing measured)",
  ],
  lambda_high: ["number", "fair studies: upper end of that range"],
  elicitation_questions: ["integer", "Phase II questions answered (undone answers excluded)"],
  elicitation_strategy: ["text", "paper, lazy, bisect or adaptive"],
  stop_reason: [
    "text",
    "adaptive strategy: why the engine stopped (tolerance, decision-sufficient, budget, no-informative-question)",
  ],
  credible_level: [
    "number",
    "adaptive: probability level of the credible region (1 for a participant flagged like a coin, coin_like: nothing was measured, the region is the whole space)",
  ],
  credible_radius: [
    "number",
    "adaptive: every plausible metric lies within this radius of the elicited one (the family's error measure); for a participant flagged like a coin, the largest error any metric has from the elicited one",
  ],
  p_optimal: ["number", "adaptive: probability that the recommended classifier is the best one"],
  agreement: [
    "number",
    "agreement M over all Phase III pairs: the share of non-'about the same' answers on which the elicited metric prefers the same system (empty: none)",
  ],
  agreement_undecided: [
    "number",
    "agreement M over the Phase III pairs the participant's result does not decide in advance (empty: no such pair answered other than 'about the same'). Binary: some metric of the range the Phase II answers give (range_a_low..range_a_high, but for a participant flagged like a coin, whose stated range is all of [0, 1]) prefers each system. Multiclass and fairness: more than 5% of the engine's final belief (its 90% region's tails) prefers each system, judged on the counts shown",
  ],
  evaluation_pairs: [
    "integer",
    "Phase III random pairs answered (undone answers excluded; the repeated Phase II pairs are counted in retest_pairs)",
  ],
  evaluation_ties: ["integer", "of them, answered 'They seem about the same' (left out of both M)"],
  undecided_pairs: [
    "integer",
    "Phase III pairs answered that the result range does not decide in advance ('about the same' included)",
  ],
  undecided_ties: ["integer", "of them, answered 'about the same'"],
  metric_ties: [
    "integer",
    "Phase III pairs on which the elicited metric itself is indifferent (left out of both M)",
  ],
  retest_pairs: [
    "integer",
    "adaptive studies (binary adaptive, multiclass, fairness): Phase II pairs shown again in Phase III (test-retest) and answered",
  ],
  retest_same: ["integer", "of them, answered the same way both times"],
  error_rate: [
    "number",
    "the participant's estimated error rate, the share of their answers against their own elicited metric. With a Phase III: the share of counted Phase III answers (random pairs, no 'about the same', no metric tie; empty: none counted); in a binary study, against the metric that explains the most of them among those the Phase II answers allow (the range coin_p is judged on) and the elicited one, so a consistent person whose result is a poor point of a wide range (the papers' searches) is not counted against that point; a coin can score below one half against such a best fit, so coin_like, not this share, tells a coin. Multiclass and fairness studies made without Phase III (evaluation pairs 0): half the slip rate the engine's learned answer model inferred from the Phase II answers, its posterior mean (a slip is a coin flip, wrong half the time)",
  ],
  error_rate_low: [
    "number",
    "lower end of error_rate's range: with a Phase III, the 90% Wilson interval; multiclass and fairness without one, the 5% point of the learned model's posterior",
  ],
  error_rate_high: [
    "number",
    "upper end of error_rate's range: with a Phase III, the 90% Wilson interval; multiclass and fairness without one, the 95% point of the learned model's posterior",
  ],
  coin_p: [
    "number",
    "the chance that a coin agrees with the result (counted Phase III answers) and with itself (repeats answered with a preference both times) at least as often: a one-sided binomial test at 1/2; binary studies: the chance that one metric of the range the Phase II answers allow (range_a_low to range_a_high) explains a coin's counted answers, plus its repeats answered the same, at least as often as the participant's (the coin's best fit drawn 4000 times with a fixed seed), so a consistent person is not judged against a point of the range far from their own metric; 1 when every Phase III answer was about the same (no choice made)",
  ],
  coin_like: [
    "boolean01",
    "1: the answers cannot be told apart from a coin's (with Phase III, every kind's default: coin_p > 0.05 where at least 5 answers count (binary: where a coin's chance of explaining every answer is at most 0.05), fewer cannot tell anyone from a coin and give 0; or every Phase III answer about the same, coin_p 1; a multiclass, fairness or quadratic study without one: the learned answer model believes the participant answers as a coin with probability above 0.5, coin_p empty); the dashboard flags the participant and leaves them out of the consensus by default",
  ],
  near_coin: [
    "boolean01",
    "1: the answers are told apart from a coin's at 0.05 but not at 0.01 (coin_p above 0.01 and at most 0.05, where at least 7 answers count): a coin agrees as often about once in forty sessions of 17 Phase III answers; the dashboard marks the participant (hard to tell from a coin) and keeps them in the consensus; 0 otherwise, and without a Phase III",
  ],
  leans_to: [
    "text",
    "left or right: the adaptive engine's learned answer model (learned-lean, the default of linear multiclass studies with a Phase III, learned-flipping, binary-threshold's, learned-flipping-moderate, binary-linear's, learned-tiring, DLPM's, or learned-blunt-lean, lambda's) finds that the participant chose the system on that side of the screen on close pairs, as if it were better (posterior probability above 0.5); empty when it finds no lean, or for a model without leaning people (the papers' searches, a fixed or a learned model)",
  ],
  elicitation_family: [
    "text",
    "the metric family elicited: binary-threshold, binary-linear, diagonal-linear, linear (multiclass, a cost per kind of mistake), fair-lambda or fair-quadratic (the whole fair metric; its a and B are in the JSON export)",
  ],
  elicited_fn_cost: [
    "number",
    "binary: the elicited cost of one missed positive (false negative), with elicited_fn_cost + elicited_fp_cost = 1; the same metric as elicited_tp (maximising tp TP + tn TN is minimising tp FN + tn FP)",
  ],
  elicited_fp_cost: [
    "number",
    "binary: the elicited cost of one false alarm (false positive); equals elicited_tn",
  ],
  ratio_low: [
    "number",
    "binary: lower end of the cost-ratio range the debrief showed (missed positive / false alarm, rounded down as printed)",
  ],
  ratio_high: [
    "number",
    "binary: upper end of that range, rounded up as printed (empty when unbounded: see ratio_high_unbounded)",
  ],
  ratio_high_unbounded: [
    "boolean01",
    "binary: 1 when the range has no upper end (the debrief said 'at least ratio_low times')",
  ],
  range_a_low: [
    "number",
    "binary: lower end of the range of a in (1 - a) TP + a TN that gives the participant's Phase II answers (the debrief's range, unrounded); 0 to 1 for a participant flagged like a coin (coin_like: nothing measured)",
  ],
  range_a_high: ["number", "binary: upper end of that range"],
  completion_code: ["text", "the code shown at the debrief"],
};

/** What an undocumented column gets (the tests refuse it; the export still works). */
export const UNDOCUMENTED: Doc = ["text", "(not documented)"];

/** Per-study columns of participants.csv, by prefix. */
const PARTICIPANT_PREFIXES: readonly { re: RegExp; doc: (id: string) => Doc }[] = [
  {
    re: /^questionnaire_(.+)$/,
    doc: (id) => ["text", `the questionnaire's answer to "${id}" (config.questionnaire)`],
  },
  {
    re: /^comprehension_(.+)_attempts$/,
    doc: (id) => ["integer", `attempts at comprehension question "${id}"`],
  },
  {
    re: /^comprehension_(.+)_correct$/,
    doc: (id) => [
      "boolean01",
      `1: comprehension question "${id}" answered right within the allowed attempts`,
    ],
  },
  { re: /^post_(.+)$/, doc: (id) => ["text", `the post-task answer to "${id}" (config.post)`] },
  {
    re: /^class_weight_(\d+)$/,
    doc: (n) => [
      "number",
      `multiclass studies: the share of the weight a case of class ${n} (study.json classes, from 1) carries, as the debrief and the dashboard state it (the weights per case sum to 1; diagonal-linear: a_i p_i normalised, p_i the class's share of the pool; linear: the share of the per-person cost that class's people's mistakes carry); study.json summary.classWeights`,
    ],
  },
  {
    re: /^class_weight_(\d+)_(low|high)$/,
    doc: (n) => [
      "number",
      `multiclass studies: the ends of class ${n}'s weight per case over the belief the answers left (the 5% and 95% points of 200 draws for the default credibility 0.9, widened to hold class_weight; for a participant flagged like a coin, coin_like, nothing was measured and they are the least and greatest over the prior's draws and corners, 0 and 1; the debrief's range; study.json summary.classRanges)`,
    ],
  },
  {
    re: /^class_weight_(\d+)_uncertain$/,
    doc: (n) => [
      "boolean01",
      `multiclass studies: 1 when the answers did not pin class ${n}'s weight down to the study's tolerance (the debrief's "(uncertain)"; its credible half-width in study.json summary.classHalfWidths)`,
    ],
  },
  {
    re: /^metric_weight_(\d+)$/,
    doc: (n) => [
      "number",
      `multiclass studies: entry ${n} of the elicited metric as the engine states it (study.json summary.metric.weights): diagonal-linear, the weight of class ${n}'s correct decisions on the joint confusion (sum over classes of a_i C_ii, C the joint shares; summing to 1); linear, the cost of mistake ${n}, true class i taken for j row by row`,
    ],
  },
  {
    re: /^elicited_a_(\d+)$/,
    doc: (n) => [
      "number",
      `fair-quadratic studies: the cost of a wrong decision about a person of class ${n} (the debrief's table; a has unit length; study.json summary.metric.a)`,
    ],
  },
  {
    re: /^gap_weight_(\d+)$/,
    doc: (n) => [
      "number",
      `fair-quadratic studies: how much the gap between groups in class ${n} weighs (the debrief's table: B's diagonal entry for the class, summed over group pairs; study.json summary.metric.B)`,
    ],
  },
];

/** The header of a CSV text (its first line; our headers hold no quoted commas). */
function headerOf(csvText: string): string[] {
  const first = csvText.slice(0, csvText.indexOf("\n"));
  return first.split(",");
}

/**
 * The codebook of a study's two CSV exports: every column of `answers` and `participants`
 * (their texts, as exported) with one type and a description. A column it does not document
 * is listed as `text`, "(not documented)", so the exports keep working; the export tests fail
 * on any such column. `kindDocs`: the study kind's own columns (its `figureColumns` docs).
 * @example codebook(answersCsv(rec), participantsCsv(rec, ...)).find((e) => e.column === "agreement")?.type // "number"
 */
export function codebook(
  answers: string,
  participants: string,
  kindDocs: Readonly<Record<string, Doc>> = {},
): CodebookEntry[] {
  const out: CodebookEntry[] = [];
  for (const column of headerOf(answers)) {
    const d = ANSWERS[column] ?? UNDOCUMENTED;
    out.push({ file: "answers.csv", column, type: d[0], description: d[1] });
  }
  for (const column of headerOf(participants)) {
    let d: Doc | undefined = kindDocs[column] ?? PARTICIPANTS[column];
    for (const p of PARTICIPANT_PREFIXES) {
      if (d) break;
      const m = p.re.exec(column);
      if (m) d = p.doc(m[1]!);
    }
    d ??= UNDOCUMENTED;
    out.push({ file: "participants.csv", column, type: d[0], description: d[1] });
  }
  return out;
}

/** study.json `classes` and `groups`, for the codebook's readers. */
export const STUDY_LABELS_DOC =
  "classes: the study's class names in the order every metric, weight and count of the export uses (binary: the negative, then the positive class); groups (fair studies): the group names in the order of B's 0-based keys u-v and of counts[g]";

/** study.json `summary.beliefDraws`, for the codebook's readers (issue 29). */
export const BELIEF_DRAWS_DOC =
  "summary.beliefDraws (adaptive strategy, Phase II done): 200 draws of the engine's final belief about the participant's metric (drawn by posterior weight, seeded by the participant's seed; for a participant flagged like a coin, summary.consistency.coinLike, nothing was measured and they are the prior's: 200 uniform directions of the sign cone and its corners), each a metric in the form of summary.metric: binary { a0 } or unit-norm { tp, tn }; multiclass and quadratic { weights }; fair { lambda } (with config.spec.known's a and B) and fair-quadratic { lambda, a, B }, without the range low/high. The share of draws under which something holds is its probability under the belief (elicit score --metric study.json prints each model's probability of being best from them). Absent for the papers' searches (binary strategy paper: every a in summary.rangeA fits the answers) and in exports made before they were added";

/** How the CSVs are written, for the codebook's readers. */
export const CSV_CONVENTIONS =
  "UTF-8, comma-separated, a header row, LF line ends. An empty cell means missing / not applicable (NA) in every column; no column uses empty text as a value. Read every column with its codebook type and only the empty cell as NA: pandas read_csv(f, dtype=..., keep_default_na=False, na_values=['']) (integer and boolean01 as 'Int64', number as 'float64', text/json/datetime as 'string'); R read.csv(f, na.strings = '', check.names = FALSE, colClasses = ...) (integer and boolean01 'integer', number 'numeric', the others 'character'). Text that starts with =, +, -, @, a tab or a carriage return carries a leading ' (spreadsheet formula defusing); a plain number such as -5 does not.";

/**
 * The codebook as its own CSV file (`file,column,type,description`), for the export route
 * `/api/studies/:id/export/codebook.csv`.
 * @example codebookCsv(answersCsv(rec), participantsCsv(rec), csvField).split("\n")[0] // "file,column,type,description"
 */
export function codebookCsv(
  answers: string,
  participants: string,
  field: (v: unknown) => string,
  kindDocs: Readonly<Record<string, Doc>> = {},
): string {
  const rows = codebook(answers, participants, kindDocs).map((e) =>
    [e.file, e.column, e.type, e.description].map(field).join(","),
  );
  return `${["file,column,type,description", ...rows].join("\n")}\n`;
}
