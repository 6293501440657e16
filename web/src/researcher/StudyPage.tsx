// One study: open as pilot/live, invite links, a test run, the participants dashboard, the
// plot of elicited metrics, and the three exports.

import { Fragment } from "preact";
import { useCallback, useEffect, useState } from "preact/hooks";
import { api, errorMessage } from "../api/client.ts";
import type { ParticipantRow, StudySummary } from "../api/types.ts";
import { isWebKind, webKindOf } from "../kinds/registry.ts";
import { A0Plot, LAMBDA_AXIS, lambdaOf } from "./A0Plot.tsx";
import { type Consensus, ConsensusPanel } from "./Consensus.tsx";
import {
  consistencyCell,
  formatMetric,
  formatRange,
  formatSeconds,
  percent,
  tpWeight,
  undecidedText,
} from "./metric.ts";
import { studyName } from "./names.ts";

/** The plot's width: the page's content width, at most 640 px. */
function fittedPlotWidth(): number {
  const viewport = typeof window === "undefined" ? 640 : window.innerWidth;
  return Math.max(280, Math.min(640, viewport - 48));
}

/** An unused invite link: its participant (the link itself is stored only hashed). */
interface InviteRow {
  participantId: number;
  createdAt: string;
  pilot: boolean;
}

/**
 * A cell's "; "-separated parts, each kept on one line: a narrow column (390 px) then breaks
 * between "0% (0%–15%)", "1 of 2" and "leans left", not inside them. The text is unchanged.
 * @example unbroken("0% (0%–15%); 1 of 2; leans left")
 */
function unbroken(text: string) {
  const parts = text.split("; ");
  return parts.map((part, i) => (
    <Fragment key={i}>
      {i > 0 ? "; " : ""}
      <span class="unbroken">{part}</span>
    </Fragment>
  ));
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
  const [consensus, setConsensus] = useState<Consensus | null>(null);
  // Participants whose answers a coin could have given are left out of it unless included.
  const [includeCoinLike, setIncludeCoinLike] = useState(false);
  const [links, setLinks] = useState<string[]>([]);
  // Unused invite links (by participant) and the links re-issued on this page.
  const [invites, setInvites] = useState<InviteRow[]>([]);
  const [reissued, setReissued] = useState<Record<number, string>>({});
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
    // The consensus of the participants who finished (null before anyone has).
    const c = await api<{ consensus: Consensus | null }>(
      "GET",
      `/api/studies/${sid}/consensus${includeCoinLike ? "?coinLike=include" : ""}`,
    );
    setConsensus(c.consensus);
  }, [sid, includeCoinLike]);

  const loadInvites = useCallback(async () => {
    const r = await api<{ invites: InviteRow[] }>("GET", `/api/studies/${sid}/invites`);
    setInvites(r.invites);
  }, [sid]);

  useEffect(() => {
    loadInvites().catch(() => setInvites([]));
  }, [loadInvites]);

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
      await Promise.all([loadRows(), loadInvites()]);
    });
  };
  const reissue = (participantId: number) =>
    act(async () => {
      const r = await api<{ link: string }>(
        "POST",
        `/api/studies/${sid}/invites/${participantId}/reissue`,
        {},
      );
      setReissued((m) => ({ ...m, [participantId]: absolute(r.link) }));
    });
  const testRun = () =>
    act(async () => {
      const r = await api<{ link: string }>("POST", `/api/studies/${sid}/test-run`, {});
      setTestLink(absolute(r.link));
    });
  const deleteDraft = () => {
    if (!confirm("Delete this draft? It cannot be undone.")) return;
    void act(async () => {
      await api("DELETE", `/api/studies/${sid}`, {});
      location.hash = "#/";
    });
  };

  const status = study?.status;
  // The study's kind says what axis its participants' metrics go on (a fairness study's
  // lambda, a binary study's weight on TP, none for weights per class); a kind this page has
  // no module for is told by its rows' metrics.
  const kindModule = study !== null && isWebKind(study.kind) ? webKindOf(study.kind) : null;
  const axis =
    kindModule !== null
      ? kindModule.dashboard.axis
      : (rows ?? []).some((r) => lambdaOf(r.metric) !== null)
        ? "lambda"
        : (rows ?? []).some((r) => r.classWeights !== undefined)
          ? null
          : "tp-weight";
  const fair = axis === "lambda";
  const multiclass = axis === null;
  const points = (rows ?? [])
    .map((r) => ({
      id: String(r.id),
      a0: fair ? lambdaOf(r.metric) : tpWeight(r.metric),
      test: r.test,
    }))
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
      {status === "draft" && study !== null && (
        <DraftActions
          sid={sid}
          participants={study.participants}
          busy={busy}
          onDelete={deleteDraft}
        />
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
        <>
          <p class="muted">
            Copy these links now: they are stored only as a one-way hash, so they cannot be shown
            again after you leave this page. An unused link can be replaced below.
          </p>
          <ul class="links" data-testid="invite-links">
            {links.map((l) => (
              <li key={l}>
                <a href={l}>{l}</a>
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>Unused links</h3>
      {invites.length === 0 ? (
        <p class="muted">No unused invite links.</p>
      ) : (
        <>
          <p class="muted">
            Links are stored only as a one-way hash (a copy of the database gives nobody a working
            link), so a lost link cannot be shown again: issue a new one for the same participant
            instead, and the old link stops working.
          </p>
          <ul class="links" data-testid="unused-invites">
            {invites.map((v) => (
              <li key={String(v.participantId)}>
                {`Participant ${v.participantId}${v.pilot ? " (pilot)" : ""}, invited ${v.createdAt.slice(0, 10)} `}
                {reissued[v.participantId] !== undefined ? (
                  <a href={reissued[v.participantId]}>{reissued[v.participantId]}</a>
                ) : (
                  <button
                    type="button"
                    class="secondary"
                    disabled={busy}
                    onClick={() => reissue(v.participantId)}
                    aria-label={`New link for participant ${v.participantId}`}
                  >
                    New link
                  </button>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      <h2>Participants</h2>
      <p class="muted">
        {rows === null
          ? "Loading…"
          : [...byStatus.entries()].map(([s, n]) => `${s}: ${n}`).join(" · ") || "Nobody yet."}
      </p>
      {rows !== null && rows.length > 0 && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: on a phone the table scrolls sideways inside this box, so a keyboard user must be able to focus it (axe: scrollable-region-focusable)
        <section class="table-wrap" aria-label="Participants table" tabIndex={0}>
          <table class="data" data-testid="participants">
            <thead>
              <tr>
                <th scope="col">Participant</th>
                <th scope="col">Status</th>
                <th scope="col">Elicited metric</th>
                <th scope="col">Cost ratio (range)</th>
                <th scope="col">Own guess (ratio)</th>
                <th scope="col">M, all pairs</th>
                <th scope="col">M, pairs not decided in advance</th>
                <th scope="col">“About the same”</th>
                <th scope="col">Against own result (90% range); repeats the same</th>
                <th scope="col">Time</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={String(r.id)}>
                  <td>{`${r.id}${r.test ? " (test)" : ""}`}</td>
                  <td>{r.status}</td>
                  <td>
                    {kindModule
                      ? kindModule.dashboard.metricText(r)
                      : formatMetric(r.metric, r.adaptive?.unidentified, r)}
                  </td>
                  <td>{formatRange(r.range)}</td>
                  <td>{r.guess === null ? "—" : String(r.guess)}</td>
                  <td>{percent(r.agreement)}</td>
                  <td>{r.agreementDetail ? undecidedText(r.agreementDetail) : "—"}</td>
                  <td>
                    {r.agreementDetail
                      ? `${r.agreementDetail.ties} of ${r.agreementDetail.pairs}`
                      : "—"}
                  </td>
                  <td data-testid="consistency-cell">
                    {unbroken(consistencyCell(r.consistency ?? null))}
                  </td>
                  <td>{formatSeconds(r.seconds)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {study !== null && (
        <ConsensusPanel
          consensus={consensus}
          includeCoinLike={includeCoinLike}
          onIncludeCoinLike={setIncludeCoinLike}
        />
      )}
      <h2>Elicited metrics</h2>
      {multiclass ? (
        <p data-testid="no-plot">
          Each participant's class weights are in the table above, and their consensus with its
          spread; one axis cannot show them.
        </p>
      ) : (
        <A0Plot points={points} width={plotWidth} {...(fair ? { axis: LAMBDA_AXIS } : {})} />
      )}
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
        <li>
          <a href={`/api/studies/${sid}/export/codebook.csv`} download>
            Codebook (CSV: every column of the two CSV files, its type and meaning)
          </a>
        </li>
      </ul>
    </section>
  );
}

/**
 * A draft's own actions (issue 27 defect 8): edit it in the create form or delete it, while
 * nobody has taken part; once a test run has, it says why neither is possible.
 * @example <DraftActions sid="7" participants={0} busy={false} onDelete={del} />
 */
export function DraftActions(p: {
  sid: string;
  participants: number;
  busy: boolean;
  onDelete: () => void;
}) {
  return (
    <section aria-labelledby="draft-heading" data-testid="draft-actions">
      <h2 id="draft-heading">Draft</h2>
      {p.participants === 0 ? (
        <>
          <p class="muted">
            A draft can be changed or deleted until it is opened or someone takes part in it (a test
            run too).
          </p>
          <div class="actions">
            <a class="button secondary" href={`#/study/${p.sid}/edit`}>
              Edit the draft
            </a>
            <button type="button" class="secondary" disabled={p.busy} onClick={p.onDelete}>
              Delete the draft
            </button>
          </div>
        </>
      ) : (
        <p class="muted">
          {`${p.participants} ${p.participants === 1 ? "test run has" : "test runs have"} been made of this draft, so it can no longer be edited or deleted (their answers belong to this configuration). Create a new study to change it.`}
        </p>
      )}
    </section>
  );
}
