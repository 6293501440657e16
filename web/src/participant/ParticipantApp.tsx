// The participant flow at /p/:token. The server holds all state; this page shows whatever
// phase `GET /api/p/:token` reports and posts one answer at a time (never two at once).

import { Fragment } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api, errorMessage, stateFrom } from "../api/client.ts";
import type { Choice, ComprehensionResult, ParticipantState } from "../api/types.ts";
import { capitalise } from "../chart/layout.ts";
import { ResponsiveFlowChart } from "../chart/ResponsiveFlowChart.tsx";
import { classWeightText } from "../researcher/metric.ts";
import { agreementSentence, consistencySentence } from "./agreement.ts";
import { COMPACT_QUERY, ComparisonView, useMediaQuery } from "./ComparisonView.tsx";
import { FairComparisonView, FairSystemTable } from "./FairComparisonView.tsx";
import { FieldsForm } from "./FieldsForm.tsx";
import { labelsFor } from "./labels.ts";
import { MulticlassComparisonView, MulticlassSystem } from "./MulticlassComparisonView.tsx";
import { elicitationProgress, fillProgress } from "./progress.ts";
import { workedExample } from "./worked-example.ts";

export function ParticipantApp({ token }: { token: string }) {
  const base = `/api/p/${encodeURIComponent(token)}`;
  const [state, setState] = useState<ParticipantState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** Feedback on the last comprehension answer, shown before the next part (issue 11). */
  const [lastFeedback, setLastFeedback] = useState<{
    correct: boolean;
    text: string;
    next: ParticipantState;
  } | null>(null);
  const inFlight = useRef(false);

  const load = useCallback(async () => {
    try {
      setState(await api<ParticipantState>("GET", base));
      setError(null);
    } catch (e) {
      setError(errorMessage(e));
    }
  }, [base]);

  useEffect(() => {
    void load();
  }, [load]);

  /** Post once; ignore further calls until the answer is back (double clicks send one). */
  const post = useCallback(
    async (path: string, body: unknown): Promise<unknown> => {
      if (inFlight.current) return undefined;
      inFlight.current = true;
      setBusy(true);
      try {
        const res = await api<unknown>("POST", `${base}/${path}`, body);
        const next = stateFrom(res);
        const reply = res as Partial<ComprehensionResult> | null;
        if (
          path === "comprehension" &&
          next !== null &&
          next.phase !== "comprehension" &&
          typeof reply?.feedback === "string"
        ) {
          // The last check's feedback would vanish with the page: show it first, and move on
          // when the participant has read it.
          setLastFeedback({ correct: reply.correct === true, text: reply.feedback, next });
        } else if (next !== null) setState(next);
        else setState(await api<ParticipantState>("GET", base));
        setError(null);
        return res;
      } catch (e) {
        setError(errorMessage(e));
        // Whatever happened, show what the server now holds.
        try {
          setState(await api<ParticipantState>("GET", base));
        } catch {
          /* keep the error shown */
        }
        return undefined;
      } finally {
        inFlight.current = false;
        setBusy(false);
      }
    },
    [base],
  );

  useEffect(() => {
    if (state !== null) document.title = `${state.study.title} — study`;
  }, [state?.study.title]);

  if (state === null) {
    return (
      <main class="narrow">
        {error !== null ? (
          <div class="error" role="alert">
            {error}
          </div>
        ) : (
          <p>Loading…</p>
        )}
      </main>
    );
  }

  const errorBox =
    error !== null ? (
      <div class="error" role="alert">
        {error}
      </div>
    ) : null;

  if (lastFeedback !== null) {
    return (
      <main class="narrow" data-phase="comprehension">
        <p class="muted">{state.study.title}</p>
        <p class="muted">Part 1 of 3: checking the pictures make sense · done</p>
        <div
          class={`feedback ${lastFeedback.correct ? "correct" : "incorrect"}`}
          role="status"
          aria-live="polite"
          data-testid="last-feedback"
        >
          <span class="muted">About your last answer: </span>
          {lastFeedback.text}
        </div>
        <div class="actions">
          <button
            type="button"
            onClick={() => {
              setState(lastFeedback.next);
              setLastFeedback(null);
            }}
          >
            Continue to the next part
          </button>
        </div>
      </main>
    );
  }

  const wide =
    state.phase === "elicitation" ||
    state.phase === "evaluation" ||
    (state.phase === "comprehension" &&
      (state.comprehension?.systems !== undefined ||
        state.comprehension?.kindSystems !== undefined));
  return (
    <main class={wide ? "" : "narrow"} data-phase={state.phase}>
      {!wide && <p class="muted">{state.study.title}</p>}
      {errorBox}
      <PhasePage state={state} busy={busy} post={post} />
    </main>
  );
}

/** What a phase page takes: the state, whether a request is under way, and how to send one. */
export interface PageProps {
  state: ParticipantState;
  busy: boolean;
  post: (path: string, body: unknown) => Promise<unknown>;
}

function Paragraphs({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/\n\s*\n/)
        .filter((p) => p.trim() !== "")
        .map((p) => (
          <p key={p}>{p}</p>
        ))}
    </>
  );
}

/**
 * The page of a participant's current phase, in the study's own words and labels.
 * @example <PhasePage state={state} busy={false} post={post} />
 */
export function PhasePage({ state, busy, post }: PageProps) {
  const words = state.study.words;
  const L = labelsFor(state);
  switch (state.phase) {
    case "consent":
      return (
        <section>
          <h1>{L.consentHeading}</h1>
          <Paragraphs text={state.consent?.text ?? ""} />
          <div class="actions">
            <button type="button" disabled={busy} onClick={() => post("consent", { agree: true })}>
              {L.consentAgree}
            </button>
            <button
              type="button"
              class="secondary"
              disabled={busy}
              onClick={() => post("consent", { agree: false })}
            >
              {L.consentDecline}
            </button>
          </div>
        </section>
      );
    case "questionnaire":
      return (
        <section>
          <h1>{L.questionnaireHeading}</h1>
          <FieldsForm
            fields={state.questionnaire?.fields ?? []}
            submitLabel={L.continueButton}
            labels={L}
            busy={busy}
            onSubmit={(answers) => post("questionnaire", { answers })}
          />
        </section>
      );
    case "story":
      return (
        <section>
          <h1>{L.storyHeading}</h1>
          {(state.story?.paragraphs ?? []).map((p) => (
            <p key={p}>{p}</p>
          ))}
          {state.study.kind === undefined && (
            <div class="costs">
              <section>
                <h2>{`What ${words.missed} mean`}</h2>
                <p>{state.story?.costs.missed}</p>
              </section>
              <section>
                <h2>{`What ${words.falseAlarm} mean`}</h2>
                <p>{state.story?.costs.falseAlarm}</p>
              </section>
            </div>
          )}
          <div class="actions">
            <button type="button" disabled={busy} onClick={() => post("story", {})}>
              {L.storyDone}
            </button>
          </div>
        </section>
      );
    case "comprehension":
      return <ComprehensionPage state={state} busy={busy} post={post} />;
    case "guess":
      return <GuessPage state={state} busy={busy} post={post} />;
    case "elicitation": {
      const f = state.fairElicitation;
      if (f !== undefined) {
        const done = f.progress.answered;
        return (
          <FairComparisonView
            words={words}
            question={f.question}
            stage={kindStage(state)}
            progressText={`Question ${done + 1} of at most ${f.progress.atMost}`}
            progressValue={done / f.progress.atMost}
            busy={busy}
            onChoose={(choice: Choice) => post("answer", { questionId: f.question.id, choice })}
            canUndo={f.canUndo}
            onUndo={() => post("undo", { questionId: f.question.id })}
          />
        );
      }
      const m = state.multiclassElicitation;
      if (m !== undefined) {
        const done = m.progress.answered;
        return (
          <MulticlassComparisonView
            words={words}
            question={m.question}
            stage={kindStage(state)}
            progressText={`Question ${done + 1} of at most ${m.progress.atMost}`}
            progressValue={done / m.progress.atMost}
            busy={busy}
            onChoose={(choice: Choice) => post("answer", { questionId: m.question.id, choice })}
            canUndo={m.canUndo}
            onUndo={() => post("undo", { questionId: m.question.id })}
          />
        );
      }
      const e = state.elicitation!;
      // Only what is certain: the searches' upper bound ("at most N more") and share done,
      // an adaptive study's budget ("of at most"); see progress.ts.
      const progress = elicitationProgress(e.progress, L);
      return (
        <ComparisonView
          words={words}
          question={e.question}
          stage={L.elicitationStage}
          labels={L}
          progressText={progress.text}
          progressValue={progress.value}
          busy={busy}
          onChoose={(choice: Choice) => post("answer", { questionId: e.question.id, choice })}
          canUndo={e.canUndo}
          onUndo={() => post("undo", { questionId: e.question.id })}
        />
      );
    }
    case "evaluation": {
      const fe = state.fairEvaluation;
      const me = state.multiclassEvaluation;
      const kindProgress = (p: { answered: number; total: number }) => ({
        progressText: fillProgress(L.progressOf, { n: p.answered + 1, total: p.total }),
        progressValue: (p.answered + 1) / Math.max(1, p.total),
      });
      if (fe !== undefined)
        return (
          <FairComparisonView
            words={words}
            question={fe.question}
            stage={L.evaluationStage}
            {...kindProgress(fe.progress)}
            busy={busy}
            onChoose={(choice: Choice) =>
              post("evaluation", { questionId: fe.question.id, choice })
            }
          />
        );
      if (me !== undefined)
        return (
          <MulticlassComparisonView
            words={words}
            question={me.question}
            stage={L.evaluationStage}
            {...kindProgress(me.progress)}
            busy={busy}
            onChoose={(choice: Choice) =>
              post("evaluation", { questionId: me.question.id, choice })
            }
          />
        );
      const e = state.evaluation!;
      return (
        <ComparisonView
          words={words}
          question={e.question}
          stage={L.evaluationStage}
          labels={L}
          progressText={fillProgress(L.progressOf, {
            n: e.progress.answered + 1,
            total: e.progress.total,
          })}
          progressValue={(e.progress.answered + 1) / Math.max(1, e.progress.total)}
          busy={busy}
          onChoose={(choice: Choice) => post("evaluation", { questionId: e.question.id, choice })}
        />
      );
    }
    case "post":
      return (
        <section>
          <h1>{L.postHeading}</h1>
          <FieldsForm
            fields={state.post?.fields ?? []}
            submitLabel={L.finishButton}
            labels={L}
            busy={busy}
            longText
            onSubmit={(answers) => post("post", { answers })}
          />
        </section>
      );
    case "debrief":
      return state.fairDebrief !== undefined ? (
        <FairDebrief state={state} />
      ) : state.multiclassDebrief !== undefined ? (
        <MulticlassDebrief state={state} />
      ) : (
        <Debrief state={state} />
      );
    case "withdrawn":
      return (
        <section>
          <h1>{L.withdrawnHeading}</h1>
          <p>{L.withdrawnText}</p>
        </section>
      );
    default:
      return <p>Unknown step.</p>;
  }
}

/**
 * Part 1's two systems of a multiclass or fairness study, drawn as its comparison pages draw
 * them (side by side, compact on a phone).
 */
function KindSystems({
  systems,
  noun,
}: {
  systems: NonNullable<NonNullable<ParticipantState["comprehension"]>["kindSystems"]>;
  noun: string;
}) {
  const phone = useMediaQuery(COMPACT_QUERY);
  return (
    <div class={phone ? "pair compact" : "pair"} data-testid="kind-systems">
      {(["left", "right"] as const).map((side, i) => {
        const name = `${noun} ${i === 0 ? "A" : "B"}`;
        return (
          <div class="system" data-side={side} key={side}>
            <h2>{name}</h2>
            {systems.kind === "fair" ? (
              <FairSystemTable
                name={name}
                view={systems[side]}
                groups={systems.groups}
                classes={systems.classes}
                compact={phone}
              />
            ) : (
              <MulticlassSystem
                name={name}
                view={systems[side]}
                classes={systems.classes}
                compact={phone}
              />
            )}
          </div>
        );
      })}
    </div>
  );
}

function ComprehensionPage({ state, busy, post }: PageProps) {
  const c = state.comprehension!;
  const [answer, setAnswer] = useState<string>("");
  const [feedback, setFeedback] = useState<{ correct: boolean; text: string; qid: string } | null>(
    null,
  );
  const words = state.study.words;
  const L = labelsFor(state);
  const noun = words.systemNoun.charAt(0).toUpperCase() + words.systemNoun.slice(1);

  // A new question clears the chosen answer (feedback on the previous one stays visible).
  useEffect(() => setAnswer(""), [c.question.id]);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (answer === "") return;
    const res = (await post("comprehension", {
      questionId: c.question.id,
      answer,
    })) as ComprehensionResult | undefined;
    if (res !== undefined && typeof res === "object" && "correct" in res) {
      setFeedback({ correct: res.correct, text: res.feedback, qid: c.question.id });
    }
  };

  return (
    <section>
      {/* The page's one h1 (axe page-has-heading-one): the part, then which question. */}
      <h1 class="stage-heading">{L.comprehensionStage}</h1>
      <p class="muted">
        {fillProgress(L.comprehensionQuestion, { n: c.index + 1, total: c.total })}
      </p>
      {feedback !== null && (
        <div
          class={`feedback ${feedback.correct ? "correct" : "incorrect"}`}
          role="status"
          aria-live="polite"
        >
          {feedback.qid !== c.question.id && <span class="muted">{`${L.feedbackAbout} `}</span>}
          {/^(correct|not quite|incorrect|wrong)/i.test(feedback.text.trim()) ? (
            feedback.text
          ) : (
            <>
              <strong>{`${feedback.correct ? L.feedbackCorrect : L.feedbackWrong} `}</strong>
              {feedback.text}
            </>
          )}
        </div>
      )}
      {c.index === 0 && c.systems !== undefined && (
        <div class="worked-example" data-testid="worked-example">
          <h2>{L.workedExampleHeading.replaceAll("{system}", words.systemNoun)}</h2>
          {workedExample(c.systems[0], words, `${noun} A`, L).map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      )}
      {c.systems !== undefined && (
        <div class="pair">
          {c.systems.map((s, i) => (
            <div class="system" key={i === 0 ? "a" : "b"}>
              <h2>{`${noun} ${i === 0 ? "A" : "B"}`}</h2>
              <ResponsiveFlowChart
                system={s}
                words={words}
                name={`${noun} ${i === 0 ? "A" : "B"}`}
                id={`c${c.index}-${i}`}
              />
            </div>
          ))}
        </div>
      )}
      {c.kindSystems !== undefined && <KindSystems systems={c.kindSystems} noun={noun} />}
      <form onSubmit={submit}>
        <fieldset>
          <legend>{c.question.prompt}</legend>
          {c.question.options.map((o) => (
            <label class="choice" key={o}>
              <input
                type="radio"
                name="comprehension"
                value={o}
                required
                checked={answer === o}
                onChange={() => setAnswer(o)}
              />
              <span>{o}</span>
            </label>
          ))}
        </fieldset>
        <p class="muted">{L.attemptsLeft.replaceAll("{n}", String(c.attemptsLeft))}</p>
        <div class="actions">
          <button type="submit" disabled={busy || answer === ""}>
            {L.checkAnswer}
          </button>
        </div>
      </form>
    </section>
  );
}

function GuessPage({ state, busy, post }: PageProps) {
  const [value, setValue] = useState("");
  const [invalid, setInvalid] = useState(false);
  const submit = (e: Event) => {
    e.preventDefault();
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || n <= 0) {
      setInvalid(true);
      return;
    }
    void post("guess", { ratio: n });
  };
  const L = labelsFor(state);
  return (
    <section>
      <h1>{L.guessHeading}</h1>
      <form onSubmit={submit} noValidate>
        <div class="field">
          <label for="guess">{state.guess?.prompt}</label>
          <input
            id="guess"
            type="number"
            min="0"
            step="any"
            inputMode="decimal"
            value={value}
            aria-invalid={invalid}
            aria-describedby="guess-help"
            onInput={(e) => {
              setValue((e.currentTarget as HTMLInputElement).value);
              setInvalid(false);
            }}
          />
          <p id="guess-help" class="muted">
            {L.guessHelp}
          </p>
        </div>
        {invalid && (
          <div class="error" role="alert">
            {L.guessInvalid}
          </div>
        )}
        <div class="actions">
          <button type="submit" disabled={busy}>
            {L.continueButton}
          </button>
          <button
            type="button"
            class="secondary"
            disabled={busy}
            onClick={() => post("guess", { ratio: null })}
          >
            {L.guessSkip}
          </button>
        </div>
      </form>
    </section>
  );
}

/**
 * A text's sentences: split after ".", "!" or "?" followed by a space and a capital, an
 * opening quote or a parenthesis (decimals such as "0.72" have no space after the point).
 * @example sentences("Lambda is 0.72. It leans to B.") // ["Lambda is 0.72.", "It leans to B."]
 */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[A-Z“"(])/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/**
 * A debrief's result in words with only its key sentence emphasised (issue 27: the whole
 * paragraph was bold, so nothing stood out): sentence `emphasise` (the first by default) in
 * `<strong>`, the others as plain text around it.
 * @example <ResultText text={d.summary} emphasise={1} />
 */
export function ResultText({ text, emphasise = 0 }: { text: string; emphasise?: number }) {
  const parts = sentences(text);
  const key = Math.min(emphasise, Math.max(0, parts.length - 1));
  return (
    <p class="result-text">
      {parts.map((s, i) => (
        // Sentences may repeat, so their place in the fixed text is their key.
        <Fragment key={i}>
          {i > 0 ? " " : ""}
          {i === key ? <strong>{s}</strong> : s}
        </Fragment>
      ))}
    </p>
  );
}

/** "5", "2.5", "12": a ratio as the debrief prints it. */
function formatRatio(x: number): string {
  return x >= 10 ? String(Math.round(x)) : x.toFixed(1).replace(/\.0$/, "");
}

/**
 * The binary debrief: the result as a range beside the participant's own guess, the agreement
 * M both ways in one plain paragraph, and the completion code.
 * @example <Debrief state={stateAtDebrief} />
 */
export function Debrief({ state }: { state: ParticipantState }) {
  const d = state.debrief!;
  const w = state.study.words;
  const L = labelsFor(state);
  const inRange =
    d.guess !== null &&
    d.guess >= d.range.low &&
    (d.range.high === null || d.guess <= d.range.high);
  return (
    <section>
      <h1>{L.debriefHeading}</h1>
      <div class="result-pair">
        <div class="result-box" data-testid="result">
          <h2>{L.debriefResultHeading}</h2>
          <ResultText text={d.summary} />
          <p class="muted">{L.debriefRangeNote}</p>
        </div>
        <div class="result-box" data-testid="guess">
          <h2>{L.debriefGuessHeading}</h2>
          {d.guess === null ? (
            <p>{L.debriefGuessSkipped}</p>
          ) : (
            <>
              <ResultText
                text={`${capitalise(w.missed)}: ${formatRatio(d.guess)} times as bad as ${w.falseAlarm}.`}
              />
              <p class="muted">{inRange ? L.debriefGuessInside : L.debriefGuessOutside}</p>
            </>
          )}
        </div>
      </div>
      {agreementSentence(d.agreementDetail, L) !== null && (
        <p data-testid="agreement">{agreementSentence(d.agreementDetail, L)}</p>
      )}
      {d.consistency && consistencySentence(d.consistency, L) !== null && (
        <p data-testid="consistency">{consistencySentence(d.consistency, L)}</p>
      )}
      <p>
        {`${L.completionCode} `}
        <strong data-testid="completion-code">{d.completionCode}</strong>
      </p>
      <p class="muted">{L.debriefClose}</p>
    </section>
  );
}

/**
 * "Part 2 of 3" of a multiclass or fairness study: of 3 when Phase III follows (the study's
 * evaluation pairs), else of 2.
 */
function kindStage(state: ParticipantState): string {
  return state.study.phaseThree === false
    ? "Part 2 of 2: your preferences"
    : labelsFor(state).elicitationStage;
}

/** The agreement M of a multiclass or fairness debrief, when the study had a Phase III. */
function KindAgreement({
  d,
  state,
}: {
  d: { agreementDetail?: Parameters<typeof agreementSentence>[0] };
  state: ParticipantState;
}) {
  const text = d.agreementDetail ? agreementSentence(d.agreementDetail, labelsFor(state)) : null;
  return text === null ? null : <p data-testid="agreement">{text}</p>;
}

/** A fairness debrief: the trade-off lambda as a range on a line from 0 to 1, in words. */
function FairDebrief({ state }: { state: ParticipantState }) {
  const d = state.fairDebrief!;
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const consistency = d.consistency ? consistencySentence(d.consistency, labelsFor(state)) : null;
  return (
    <section>
      <h1>Thank you!</h1>
      <div class="result-box" data-testid="result">
        <h2>From your comparisons</h2>
        {/* The lean in plain words is the result; lambda's numbers before it are its detail. */}
        <ResultText text={d.summary} emphasise={1} />
        <div class="fair-scale" aria-hidden="true">
          <div
            class="fair-range"
            style={{ left: pct(d.metric.low), width: pct(d.metric.high - d.metric.low) }}
          />
          <div class="fair-point" style={{ left: pct(d.metric.lambda) }} />
        </div>
        <p class="fair-scale-ends muted">
          <span>0: only being right overall</span>
          <span>1: only treating the groups alike</span>
        </p>
        {d.full !== undefined && <FairWhole d={d} />}
        <KindAgreement d={d} state={state} />
        {consistency !== null && <p data-testid="consistency">{consistency}</p>}
      </div>
      <p>
        Your completion code: <strong data-testid="completion-code">{d.completionCode}</strong>
      </p>
      <p class="muted">You can close this page now.</p>
    </section>
  );
}

/**
 * The whole fair metric on the debrief: per true class what a wrong decision costs (`a_i`) and
 * how much the gap between groups weighs (the diagonal of `B`, summed over group pairs), each
 * marked "(uncertain)" where the answers left it open.
 */
function FairWhole({ d }: { d: NonNullable<ParticipantState["fairDebrief"]> }) {
  const full = d.full!;
  const open = new Set(full.unidentified.map((u) => u.name));
  const gap = (i: number) => Object.values(full.B).reduce((s, M) => s + (M[i]?.[i] ?? 0), 0);
  const gapOpen = (i: number) =>
    [...open].some((n) => n.startsWith("B") && n.endsWith(`_${i + 1}${i + 1}`));
  const mark = (uncertain: boolean) => (uncertain ? " (uncertain)" : "");
  return (
    <table class="fair-whole" data-testid="fair-full">
      <caption>What matters to you, per true answer</caption>
      <thead>
        <tr>
          <th scope="col">True answer</th>
          <th scope="col">Cost of a wrong decision</th>
          <th scope="col">Weight of the gap between groups</th>
        </tr>
      </thead>
      <tbody>
        {d.classes.map((c, i) => (
          <tr key={c}>
            <th scope="row">{`“${c}”`}</th>
            <td>{`${full.a[i]!.toFixed(2)}${mark(open.has(`a${i + 1}`))}`}</td>
            <td>{`${gap(i).toFixed(2)}${mark(gapOpen(i))}`}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A multiclass debrief: the mistake minded most in words, and every class's weight. */
function MulticlassDebrief({ state }: { state: ParticipantState }) {
  const d = state.multiclassDebrief!;
  const L = labelsFor(state);
  const consistency = d.consistency ? consistencySentence(d.consistency, L) : null;
  return (
    <section>
      <h1>Thank you!</h1>
      <div class="result-box" data-testid="result">
        <h2>From your comparisons</h2>
        <ResultText text={d.summary} />
        {d.mistakes !== undefined ? (
          <ul class="mc-weights" data-testid="mistakes">
            {d.mistakes.map((m) => (
              <li key={`${m.from}-${m.to}`}>
                <span>{`A true “${m.from}” taken for “${m.to}”`}</span>
                <div class="mc-bar" aria-hidden="true">
                  <div class="mc-right" style={{ width: `${Math.round(m.share * 100)}%` }} />
                </div>
                <span>
                  {`${Math.round(m.share * 100)}% of the weight${m.halfWidth !== null ? " (uncertain)" : ""}`}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <ul class="mc-weights">
            {d.classes.map((c, i) => (
              <li key={c}>
                <span>{`A true “${c}” taken for another class`}</span>
                <div class="mc-bar" aria-hidden="true">
                  <div
                    class="mc-right"
                    style={{ width: `${Math.round(d.classWeights[i]! * 100)}%` }}
                  />
                </div>
                <span>
                  {`${classWeightText(d.classWeights[i]!, d.classRanges?.[i])} of the weight${d.halfWidths[i] != null ? " (uncertain)" : ""}`}
                </span>
              </li>
            ))}
          </ul>
        )}
        <p class="muted">
          How much each kind of mistake weighs for you, per case, as your answers show it.
        </p>
        <KindAgreement d={d} state={state} />
        {consistency !== null && <p data-testid="consistency">{consistency}</p>}
      </div>
      <p>
        Your completion code: <strong data-testid="completion-code">{d.completionCode}</strong>
      </p>
      <p class="muted">You can close this page now.</p>
    </section>
  );
}
