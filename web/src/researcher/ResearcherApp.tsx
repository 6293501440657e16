// Researcher pages at "/": sign in, study list, create study, study dashboard.
// Navigation inside the app uses the URL hash (#/, #/new, #/study/:id) so a refresh keeps the page.

import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError, api, errorMessage } from "../api/client.ts";
import type { Researcher, StudySummary } from "../api/types.ts";
import { CreateStudy } from "./CreateStudy.tsx";
import { studyName } from "./names.ts";
import { StudyPage } from "./StudyPage.tsx";

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    window.addEventListener("hashchange", on);
    return () => window.removeEventListener("hashchange", on);
  }, []);
  return hash;
}

export function ResearcherApp() {
  const [me, setMe] = useState<Researcher | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const hash = useHash();

  useEffect(() => {
    api<{ researcher: Researcher }>("GET", "/api/auth/me")
      .then((r) => setMe(r.researcher))
      .catch((e) => {
        if (!(e instanceof ApiError) || (e.status !== 401 && e.status !== 403)) {
          setError(errorMessage(e));
        }
        setMe(null);
      });
  }, []);

  if (me === undefined) return <main class="narrow">Loading…</main>;
  if (me === null) return <Login onDone={setMe} initialError={error} />;

  const logout = async () => {
    try {
      await api("POST", "/api/auth/logout", {});
    } finally {
      setMe(null);
      location.hash = "";
    }
  };

  let page = <StudyList />;
  const m = /^#\/study\/([^/]+)$/.exec(hash);
  const edit = /^#\/study\/([^/]+)\/edit$/.exec(hash);
  if (hash === "#/new") page = <CreateStudy />;
  else if (m !== null) page = <StudyPage id={decodeURIComponent(m[1]!)} />;
  // A draft opened in the create form (keyed, so another draft starts a fresh form).
  else if (edit !== null)
    page = <CreateStudy key={edit[1]} editId={decodeURIComponent(edit[1]!)} />;

  return (
    <>
      <header class="bar">
        <a class="brand" href="#/">
          Metric elicitation — studies
        </a>
        <span>
          <span class="muted">{me.email}</span>{" "}
          <button type="button" class="secondary" onClick={logout}>
            Sign out
          </button>
        </span>
      </header>
      <main>{page}</main>
    </>
  );
}

function Login({
  onDone,
  initialError,
}: {
  onDone: (r: Researcher) => void;
  initialError: string | null;
}) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(initialError);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const r = await api<{ researcher: Researcher }>("POST", "/api/auth/login", {
        email,
        password,
      });
      onDone(r.researcher);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="narrow">
      <h1>Sign in</h1>
      <p class="muted">For researchers. Participants open the link they were given.</p>
      <form onSubmit={submit}>
        <div class="field">
          <label for="email">Email</label>
          <input
            id="email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onInput={(e) => setEmail((e.currentTarget as HTMLInputElement).value)}
          />
        </div>
        <div class="field">
          <label for="password">Password</label>
          <input
            id="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword((e.currentTarget as HTMLInputElement).value)}
          />
        </div>
        {error !== null && (
          <div class="error" role="alert">
            {error}
          </div>
        )}
        <div class="actions">
          <button type="submit" disabled={busy}>
            Sign in
          </button>
        </div>
      </form>
    </main>
  );
}

function participantsText(s: StudySummary): string {
  const counts = s.counts as Record<string, number> | undefined;
  const total = typeof s.participants === "number" ? s.participants : null;
  if (counts === undefined || typeof counts !== "object")
    return total === null ? "" : String(total);
  const { done = 0, testRuns = 0 } = counts;
  const real = (total ?? Object.values(counts).reduce((a, b) => a + b, 0)) - testRuns;
  const tests = testRuns > 0 ? ` (+ ${testRuns} test run${testRuns === 1 ? "" : "s"})` : "";
  return `${done} done of ${real}${tests}`;
}

function StudyList() {
  const [studies, setStudies] = useState<StudySummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    api<{ studies: StudySummary[] }>("GET", "/api/studies")
      .then((r) => setStudies(r.studies))
      .catch((e) => setError(errorMessage(e)));
  }, []);
  useEffect(load, [load]);
  return (
    <section>
      <h1>Studies</h1>
      <div class="actions">
        <a class="button" href="#/new">
          Create a study
        </a>
      </div>
      {error !== null && (
        <div class="error" role="alert">
          {error}
        </div>
      )}
      {studies === null ? (
        <p>Loading…</p>
      ) : studies.length === 0 ? (
        <p>No studies yet.</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: on a phone the table scrolls sideways inside this box, so a keyboard user must be able to focus it (axe: scrollable-region-focusable)
        <section class="table-wrap" aria-label="Studies table" tabIndex={0}>
          <table class="data">
            <thead>
              <tr>
                <th scope="col">Study</th>
                <th scope="col">Status</th>
                <th scope="col">Participants</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {studies.map((s) => (
                <tr key={String(s.id)}>
                  <td>
                    <a href={`#/study/${encodeURIComponent(String(s.id))}`}>{studyName(s)}</a>
                  </td>
                  <td>{s.status}</td>
                  <td>{participantsText(s)}</td>
                  <td>
                    {typeof s.createdAt === "string"
                      ? s.createdAt.slice(0, 16).replace("T", " ")
                      : ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </section>
  );
}
