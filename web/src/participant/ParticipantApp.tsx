// The participant flow at /p/:token. The server holds all state; this page shows whatever
// phase `GET /api/p/:token` reports and posts one answer at a time (never two at once).

import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api, errorMessage, stateFrom } from "../api/client.ts";
import type { ComprehensionResult, ParticipantState } from "../api/types.ts";
import type { PageProps } from "../kinds/kind.ts";
import { participantKindOf } from "../kinds/registry.ts";
import { firstClickOnly } from "./ChoiceControls.tsx";
import { FieldsForm } from "./FieldsForm.tsx";
import { labelsFor } from "./labels.ts";
import { fillProgress } from "./progress.ts";

// Kept importable from here, where they were before the kind modules (tests render them).
export { Debrief } from "../kinds/binary/participant.tsx";
export { ResultText, sentences } from "./ResultText.tsx";
export type { PageProps };

/** What the page says when a choice had been recorded before (nothing new stored). */
export const DUPLICATE_NOTICE =
  "That question had already been answered, perhaps in another tab or window, so this choice was not recorded. Here is where you are now.";

export function ParticipantApp({ token }: { token: string }) {
  const base = `/api/p/${encodeURIComponent(token)}`;
  const [state, setState] = useState<ParticipantState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** Said when an answer had been recorded already (from another tab or window). */
  const [notice, setNotice] = useState<string | null>(null);
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
        // A choice the server already had (this question answered in another tab or window):
        // nothing was stored, and the page moves to where the participant is; say so rather
        // than jump on silently (the audit's stale second tab).
        setNotice(next?.duplicate === true && path !== "comprehension" ? DUPLICATE_NOTICE : null);
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
    ) : notice !== null ? (
      <div class="feedback" role="status" data-testid="duplicate-notice">
        {notice}
      </div>
    ) : null;

  if (lastFeedback !== null) {
    return (
      <main class="narrow" data-phase="comprehension">
        <p class="muted">{state.study.title}</p>
        <p class="muted">{`${labelsFor(state).comprehensionStage} · done`}</p>
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
            onClick={firstClickOnly(() => {
              setState(lastFeedback.next);
              setLastFeedback(null);
            })}
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
  const L = labelsFor(state);
  const kind = participantKindOf(state).participant;
  const { StoryAside, Debrief } = kind;
  switch (state.phase) {
    case "consent":
      return (
        <section>
          <h1>{L.consentHeading}</h1>
          <Paragraphs text={state.consent?.text ?? ""} />
          <div class="actions">
            <button
              type="button"
              disabled={busy}
              onClick={firstClickOnly(() => post("consent", { agree: true }))}
            >
              {L.consentAgree}
            </button>
            <button
              type="button"
              class="secondary"
              disabled={busy}
              onClick={firstClickOnly(() => post("consent", { agree: false }))}
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
          {StoryAside !== undefined && <StoryAside state={state} />}
          <div class="actions">
            <button type="button" disabled={busy} onClick={firstClickOnly(() => post("story", {}))}>
              {L.storyDone}
            </button>
          </div>
        </section>
      );
    case "comprehension":
      return <ComprehensionPage state={state} busy={busy} post={post} />;
    case "guess":
      return <GuessPage state={state} busy={busy} post={post} />;
    case "elicitation":
      return kind.elicitation({ state, busy, post });
    case "evaluation":
      return kind.evaluation({ state, busy, post });
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
      return <Debrief state={state} />;
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

function ComprehensionPage({ state, busy, post }: PageProps) {
  const c = state.comprehension!;
  const [answer, setAnswer] = useState<string>("");
  const [feedback, setFeedback] = useState<{ correct: boolean; text: string; qid: string } | null>(
    null,
  );
  const words = state.study.words;
  const L = labelsFor(state);
  const noun = words.systemNoun.charAt(0).toUpperCase() + words.systemNoun.slice(1);
  const { ComprehensionSystems } = participantKindOf(state).participant;

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
      <ComprehensionSystems state={state} noun={noun} />
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
            onClick={firstClickOnly(() => post("guess", { ratio: null }))}
          >
            {L.guessSkip}
          </button>
        </div>
      </form>
    </section>
  );
}
