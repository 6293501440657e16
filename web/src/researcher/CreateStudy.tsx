// Create a study: the name and the kind of study, then the kind's own fields (kinds/: its
// data, words, procedure and texts), the consent text every kind has, and the kind's texts.
// Files are read in the browser and sent as text; every kind's request is built by its module.

import { useEffect, useState } from "preact/hooks";
import { api, errorMessage } from "../api/client.ts";
import type { CreateStudyBody, StudySummary } from "../api/types.ts";
import type { CreateForm, CreateSectionProps, FormPatch } from "../kinds/kind.ts";
import { defaultFamily, type WebKindId, webKindOf, webKinds } from "../kinds/registry.ts";
import { csvColumns, csvEmpty, csvTooLarge, MAX_CSV_BYTES } from "./csv-file.ts";
import { fieldsOfRequest, withUnedited } from "./draft-form.ts";
import type { StudyDefaults } from "./StudyTextsEditor.tsx";

/** Largest CSV the browser will send (the server enforces its own limit too). */
export { MAX_CSV_BYTES };

/** The form before anything is chosen: a binary study of the built-in data. */
export const INITIAL_FORM: CreateForm = {
  name: "",
  kind: "binary",
  source: "template",
  csv: null,
  target: "",
  dropColumns: "",
  positive: "",
  words: {},
  tolerance: "0.05",
  strategy: "adaptive",
  budget: "30",
  credibility: "0.9",
  pairs: "15",
  population: "100",
  consent: "",
  texts: null,
  kindSource: "dataset",
  bundled: "",
  classes: [],
  groups: "",
  kindFamily: defaultFamily("binary"),
  kindBudget: "25",
  kindTitle: "",
  kindStory: "",
  kindQuestionnaire: null,
  kindPost: null,
};

/**
 * The create form; with `editId`, the same form opened on a draft (issue 27 defect 8): its
 * fields from the draft's create request, saved back with PUT /api/studies/:id.
 * @example <CreateStudy editId="7" />
 */
export function CreateStudy({ editId }: { editId?: string } = {}) {
  const [form, setForm] = useState<CreateForm>(INITIAL_FORM);
  const update = (patch: FormPatch) =>
    setForm((f) => ({ ...f, ...(typeof patch === "function" ? patch(f) : patch) }));
  const [defaults, setDefaults] = useState<StudyDefaults | null>(null);
  // Why the chosen file was not taken (too large, empty), shown beside the file input and
  // again on "Create study" instead of "Please choose a file" (issue 27 defects 9 and 10).
  const [fileError, setFileError] = useState<string | null>(null);
  /** Forget the chosen file (another source or kind was picked). */
  const clearFile = () => {
    update({ csv: null });
    setFileError(null);
  };
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Editing a draft: the request it was made from (null until it has loaded).
  const [stored, setStored] = useState<CreateStudyBody | null>(null);
  const editing = editId !== undefined;
  const eid = encodeURIComponent(editId ?? "");

  useEffect(() => {
    api<StudyDefaults>("GET", "/api/study-defaults")
      .then(async (d) => {
        setDefaults(d);
        // The consent text is edited like the others, from the built-in one of the kind as it
        // is when the defaults arrive (one picked before they load must not start from the
        // binary study's consent text: it speaks of medical screening).
        update((f) => ({
          consent: f.consent === "" ? (webKindOf(f.kind).create.startConsent(d) ?? "") : f.consent,
          kindQuestionnaire: d.kindTexts?.questionnaire ?? null,
          kindPost: d.kindTexts?.post ?? null,
          texts: { ...d.texts, title: "" },
        }));
        if (!editing) return;
        const r = await api<{ request: CreateStudyBody }>("GET", `/api/studies/${eid}/draft`);
        setForm(fieldsOfRequest(r.request, d));
        setStored(r.request);
      })
      .catch((e) => setError(errorMessage(e)));
  }, [editing, eid]);

  const kind = webKindOf(form.kind);
  const columns =
    form.csv !== null && kind.create.readsColumns(form) ? csvColumns(form.csv.text) : [];

  /** The consent text a study of `k` starts from. */
  const consentDefault = (k: WebKindId) => webKindOf(k).create.startConsent(defaults);

  const onFile = async (e: Event) => {
    setError(null);
    const input = e.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    if (file === undefined) {
      clearFile();
      return;
    }
    // Refused before reading: the server would refuse it anyway, after a long upload.
    const tooLarge = csvTooLarge(file.name, file.size);
    if (tooLarge !== null) {
      update({ csv: null });
      setFileError(tooLarge);
      return;
    }
    const text = await file.text();
    const empty = csvEmpty(file.name, text);
    update({ csv: empty === null ? { name: file.name, text } : null });
    setFileError(empty);
  };

  /** Send a create request and go to the new study's page (errors shown in the form). */
  const send = async (body: CreateStudyBody) => {
    if (editing && stored === null) return;
    setBusy(true);
    try {
      const r =
        editing && stored !== null
          ? await api<{ study: StudySummary }>(
              "PUT",
              `/api/studies/${eid}`,
              withUnedited(stored, body),
            )
          : await api<{ study: StudySummary }>("POST", "/api/studies", body);
      location.hash = `#/study/${encodeURIComponent(String(r.study.id))}`;
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    setError(null);
    if (form.name.trim() === "") {
      setError("Please give the study a name.");
      return;
    }
    const r = kind.create.request(form, { defaults, fileError });
    if ("error" in r) {
      setError(r.error);
      return;
    }
    await send(r.body);
  };

  /** Another kind: what was chosen for the old one starts again from the new one's defaults. */
  const pickKind = (k: WebKindId) => {
    // An untouched consent text follows the kind (the binary study's speaks of medical
    // screening; the others' of automated decisions).
    update((f) => ({
      consent: f.consent === consentDefault(f.kind) ? (consentDefault(k) ?? f.consent) : f.consent,
      kind: k,
      csv: null,
      target: "",
      classes: [],
      groups: "",
      kindFamily: defaultFamily(k),
      // The new kind's default family's tolerance and budget (a kind without families keeps
      // the form's first values).
      tolerance: webKindOf(k).create.families[0]?.tolerance ?? "0.05",
      kindBudget: webKindOf(k).create.families[0]?.budget ?? "25",
    }));
    setFileError(null);
    setError(null);
  };

  const section: CreateSectionProps = {
    form,
    update,
    defaults,
    columns,
    onFile,
    fileError,
    clearFile,
    setError,
  };
  return (
    <section>
      <h1>{editing ? "Edit the draft" : "Create a study"}</h1>
      {editing && stored === null && error === null && <p class="muted">Loading the draft…</p>}
      <form onSubmit={submit} noValidate>
        <div class="field">
          <label for="study-name">Name</label>
          <input
            id="study-name"
            required
            maxLength={200}
            value={form.name}
            onInput={(e) => update({ name: (e.currentTarget as HTMLInputElement).value })}
          />
        </div>
        <fieldset>
          <legend>Kind of study</legend>
          {webKinds().map((k) => (
            <label class="choice" key={k.id}>
              <input
                type="radio"
                name="kind"
                value={k.id}
                checked={k === kind}
                onChange={() => pickKind(k.id)}
              />
              <span>{k.label}</span>
            </label>
          ))}
        </fieldset>
        {kind.create.dataSection(section)}
        <div class="field">
          <label for="consent">Consent text (the built-in one to start from)</label>
          <textarea
            id="consent"
            maxLength={20_000}
            value={form.consent}
            placeholder={consentDefault(form.kind)}
            onInput={(e) => update({ consent: (e.currentTarget as HTMLTextAreaElement).value })}
            aria-describedby="consent-note"
          />
          <p class="muted" id="consent-note">
            The built-in text does not say how long the study takes: nobody has timed it. Time a
            pilot (the dashboard lists each participant's time) and add it.
          </p>
        </div>
        {kind.create.textsSection(section)}
        {error !== null && (
          <div class="error" role="alert">
            {error}
          </div>
        )}
        <div class="actions">
          <button type="submit" disabled={busy || (editing && stored === null)}>
            {editing ? "Save the draft" : "Create study"}
          </button>
          <a class="button secondary" href={editing ? `#/study/${eid}` : "#/"}>
            Cancel
          </a>
        </div>
      </form>
    </section>
  );
}
