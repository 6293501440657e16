// One study: open as pilot/live, invite links, a test run, the participants dashboard, the
// plot of elicited metrics, and the three exports.

import { useCallback, useEffect, useState } from "preact/hooks";
import { api, errorMessage } from "../api/client.ts";
import type { ParticipantRow, StudySummary } from "../api/types.ts";
import { A0Plot } from "./A0Plot.tsx";
import { formatMetric, formatSeconds, tpWeight } from "./metric.ts";
import { studyName } from "./names.ts";

/** The plot's width: the page's content width, at most 640 px. */
function fittedPlotWidth(): number {
  const viewport = typeof window === "undefined" ? 640 : window.innerWidth;
  return Math.max(280, Math.min(640, viewport - 48));
}

function absolute(link: string): string {
  try {
    return new URL(link, location.origin).href;
  } catch {
    return link;
  }
}

export function StudyPage({ id }: { id: string }) {
  const sid = encodeURIComponent(id);
  // The plot is drawn at the width it is shown at, so its 14 px labels stay 14 px on a phone
  // (a 640-wide drawing scaled down to 390 px made them about 8 px).
  const [plotWidth, setPlotWidth] = useState(() => fittedPlotWidth());
  useEffect(() => {
    const onResize = () => setPlotWidth(fittedPlotWidth());
    window.addEventListener("resize", onResize);
    return () => window.removeEventListener("resize", onResize);
  }, []);
  const [study, setStudy] = useState<StudySummary | null>(null);
  const [rows, setRows] = useState<ParticipantRow[] | null>(null);
  const [links, setLinks] = useState<string[]>([]);
  const [testLink, setTestLink] = useState<string | null>(null);
  const [count, setCount] = useState("5");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const loadStudy = useCallback(async () => {
    const r = await api<{ studies: StudySummary[] }>("GET", "/api/studies");
    setStudy(r.studies.find((s) => String(s.id) === id) ?? null);
  }, [id]);
  const loadRows = useCallback(async () => {
    const r = await api<{ participants: ParticipantRow[] }>(
      "GET",
      `/api/studies/${sid}/participants`,
    );
    setRows(r.participants);
  }, [sid]);

  useEffect(() => {
    loadStudy().catch((e) => setError(errorMessage(e)));
    loadRows().catch(() => setRows([]));
    const t = setInterval(() => {
      loadRows().catch(() => undefined);
    }, 5000);
    return () => clearInterval(t);
  }, [loadStudy, loadRows]);

  const act = async (f: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await f();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const open = (mode: "pilot" | "live") =>
    act(async () => {
      await api("POST", `/api/studies/${sid}/open`, { mode });
      await loadStudy();
    });
  const invite = (e: Event) => {
    e.preventDefault();
    const n = Number(count);
    if (!Number.isInteger(n) || n < 1 || n > 1000) {
      setError("Number of links: a whole number from 1 to 1000.");
      return;
    }
    void act(async () => {
      const r = await api<{ links: string[] }>("POST", `/api/studies/${sid}/invites`, { count: n });
      setLinks(r.links.map(absolute));
      await loadRows();
    });
  };
  const testRun = () =>
    act(async () => {
      const r = await api<{ link: string }>("POST", `/api/studies/${sid}/test-run`, {});
      setTestLink(absolute(r.link));
    });

  const status = study?.status;
  const points = (rows ?? [])
    .map((r) => ({ id: String(r.id), a0: tpWeight(r.metric), test: r.test }))
    .filter((p): p is { id: string; a0: number; test: boolean } => p.a0 !== null);
  const byStatus = new Map<string, number>();
  // Test runs are counted apart: a researcher's own try is not a participant.
  for (const r of rows ?? []) {
    const key = r.test ? "test runs" : r.status;
    byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
  }

  return (
    <section>
      <p>
        <a href="#/">← All studies</a>
      </p>
      <h1>{study !== null ? studyName(study) : `Study ${id}`}</h1>
      <p>
        Status:{" "}
        <span class="badge" data-testid="study-status">
          {status ?? "unknown"}
        </span>
      </p>
      {error !== null && (
        <div class="error" role="alert">
          {error}
        </div>
      )}
      <h2>Open the study</h2>
      <p class="muted">
        {status === "live"
          ? "The study is live; its configuration is frozen."
          : "Opening freezes the configuration. A pilot is for trying things out; live is the real study."}
      </p>
      <div class="actions">
        {status !== "live" && status !== "pilot" && (
          <button type="button" class="secondary" disabled={busy} onClick={() => open("pilot")}>
            Open as pilot
          </button>
        )}
        {status !== "live" && (
          <button type="button" disabled={busy} onClick={() => open("live")}>
            Open live
          </button>
        )}
        <button type="button" class="secondary" disabled={busy} onClick={testRun}>
          Test run (click through as a participant)
        </button>
      </div>
      {testLink !== null && (
        <p>
          Test run:{" "}
          <a href={testLink} target="_blank" rel="noopener" data-testid="test-link">
            {testLink}
          </a>
        </p>
      )}
      <h2>Invite participants</h2>
      <form onSubmit={invite} class="actions">
        <label for="invite-count">Number of single-use links</label>
        <input
          id="invite-count"
          type="number"
          min="1"
          max="1000"
          value={count}
          style={{ width: "7em" }}
          onInput={(e) => setCount((e.currentTarget as HTMLInputElement).value)}
        />
        <button type="submit" disabled={busy}>
          Create links
        </button>
      </form>
      {links.length > 0 && (
        <ul class="links" data-testid="invite-links">
          {links.map((l) => (
            <li key={l}>
              <a href={l}>{l}</a>
            </li>
          ))}
        </ul>
      )}
      <h2>Participants</h2>
      <p class="muted">
        {rows === null
          ? "Loading…"
          : [...byStatus.entries()].map(([s, n]) => `${s}: ${n}`).join(" · ") || "Nobody yet."}
      </p>
      {rows !== null && rows.length > 0 && (
        <div class="table-wrap">
          <table class="data" data-testid="participants">
            <thead>
              <tr>
                <th scope="col">Participant</th>
                <th scope="col">Status</th>
                <th scope="col">Elicited metric</th>
                <th scope="col">Own guess (ratio)</th>
                <th scope="col">Agreement M</th>
                <th scope="col">Time</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={String(r.id)}>
                  <td>{`${r.id}${r.test ? " (test)" : ""}`}</td>
                  <td>{r.status}</td>
                  <td>{formatMetric(r.metric)}</td>
                  <td>{r.guess === null ? "—" : String(r.guess)}</td>
                  <td>{r.agreement === null ? "—" : `${Math.round(r.agreement * 100)}%`}</td>
                  <td>{formatSeconds(r.seconds)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Elicited metrics</h2>
      <A0Plot points={points} width={plotWidth} />
      <h2>Export</h2>
      <ul>
        <li>
          <a href={`/api/studies/${sid}/export/answers.csv`} download>
            Every answer (long CSV)
          </a>
        </li>
        <li>
          <a href={`/api/studies/${sid}/export/participants.csv`} download>
            One row per participant (wide CSV)
          </a>
        </li>
        <li>
          <a href={`/api/studies/${sid}/export/study.json`} download>
            Everything (JSON: configuration, seed, software version)
          </a>
        </li>
      </ul>
    </section>
  );
}
