// Create a study: the built-in template, an uploaded dataset CSV (the server fits the model as
// `elicit fit` does) or an uploaded predictions CSV (files read in the browser and sent as
// text); every text participants read, with a live preview; tolerance, strategy (with the
// adaptive engine's budget and credibility), number of evaluation pairs, consent text.

import { useEffect, useRef, useState } from "preact/hooks";
import {
  builtInTextsLeft,
  builtInTextsRefusal,
  GENERAL_BINARY_WORDS,
  generalBinaryTexts,
  replaceBuiltInTexts,
} from "../../../src/server/study/general-texts.ts";
import { placeholderLeft } from "../../../src/server/study/placeholders.ts";
import { api, errorMessage } from "../api/client.ts";
import type { CreateStudyBody, Field, StudySummary, StudyWords } from "../api/types.ts";
import { capitalise } from "../chart/layout.ts";
import { csvEmpty, csvSummary, csvTooLarge, MAX_CSV_BYTES } from "./csv-file.ts";
import { fieldsOfRequest, withUnedited } from "./draft-form.ts";
import {
  type EditableTexts,
  FieldsEditor,
  fieldPlaceholders,
  placeholdersIn,
  rightAnswerProblems,
  type StudyDefaults,
  StudyPreview,
  StudyTextsEditor,
  textsForRequest,
} from "./StudyTextsEditor.tsx";

/** Largest CSV the browser will send (the server enforces its own limit too). */
export { MAX_CSV_BYTES };

const WORD_FIELDS: { key: keyof StudyWords; label: string; example: string }[] = [
  { key: "positive", label: "Positive class (after “Actually …”)", example: "had cancer" },
  { key: "negative", label: "Negative class", example: "did not have cancer" },
  { key: "predictedPositive", label: "Positive prediction", example: "Predicted high risk" },
  { key: "predictedNegative", label: "Negative prediction", example: "Predicted low risk" },
  { key: "missed", label: "Name for missed positives", example: "missed cancers" },
  { key: "falseAlarm", label: "Name for false alarms", example: "false alarms" },
  {
    key: "question",
    label: "Question on each comparison page",
    example: "Which system would you rather your doctor used?",
  },
  { key: "systemNoun", label: "What a classifier is called", example: "system" },
  { key: "people", label: "What the people counted are called (plural)", example: "patients" },
];

/** The header and each column's distinct values (at most 50) of a CSV, read in the browser. */
export function csvColumns(text: string): { name: string; values: string[] }[] {
  const rows = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  // A plain split: enough to offer the columns (the server parses quotes properly).
  const split = (l: string) => l.split(",").map((x) => x.trim().replace(/^"(.*)"$/, "$1"));
  const header = rows.length > 0 ? split(rows[0]!) : [];
  const values = header.map(() => new Set<string>());
  for (const r of rows.slice(1, 5001)) {
    split(r).forEach((v, i) => {
      if (i < values.length && values[i]!.size <= 50) values[i]!.add(v);
    });
  }
  return header.map((name, i) => ({ name, values: [...values[i]!].sort() }));
}

/** Study kinds the form creates (binary: the papers' two-class study). */
type Kind = "binary" | "multiclass" | "fair";

/**
 * The create form; with `editId`, the same form opened on a draft (issue 27 defect 8): its
 * fields from the draft's create request, saved back with PUT /api/studies/:id.
 * @example <CreateStudy editId="7" />
 */
export function CreateStudy({ editId }: { editId?: string } = {}) {
  const [name, setName] = useState("");
  const [kind, setKind] = useState<Kind>("binary");
  const [classes, setClasses] = useState<string[]>([]);
  const [groups, setGroups] = useState("");
  const [source, setSource] = useState<"template" | "dataset" | "csv">("template");
  const [csv, setCsv] = useState<{ name: string; text: string } | null>(null);
  // Why the chosen file was not taken (too large, empty), shown beside the file input and
  // again on "Create study" instead of "Please choose a file" (issue 27 defects 9 and 10).
  const [fileError, setFileError] = useState<string | null>(null);
  /** Forget the chosen file (another source or kind was picked). */
  const clearFile = () => {
    setCsv(null);
    setFileError(null);
  };
  const [target, setTarget] = useState("");
  const [dropColumns, setDropColumns] = useState("");
  const [defaults, setDefaults] = useState<StudyDefaults["texts"] | null>(null);
  const [systems, setSystems] = useState<StudyDefaults["comprehensionSystems"]>([]);
  const [texts, setTexts] = useState<EditableTexts | null>(null);
  const [kindDefaults, setKindDefaults] = useState<StudyDefaults["kindTexts"] | null>(null);
  // A multiclass or fairness study's own title and story (empty: the name, the built-in story).
  const [kindTitle, setKindTitle] = useState("");
  const [kindStory, setKindStory] = useState("");
  // A multiclass or fairness study's questionnaire and post-task questions (the defaults first).
  const [kindQuestionnaire, setKindQuestionnaire] = useState<Field[] | null>(null);
  const [kindPost, setKindPost] = useState<Field[] | null>(null);
  // A multiclass or fairness study's data: a dataset (the server fits a model) or predictions.
  const [kindSource, setKindSource] = useState<KindSource>("dataset");
  // A bundled dataset's name (kindSource "bundled").
  const [bundled, setBundled] = useState("");
  // What a multiclass or fairness study elicits (the first of each pair is the default).
  const [kindFamily, setKindFamily] = useState<KindFamily>("diagonal-linear");

  // The kind as it is when the defaults arrive: one picked before they load must not start
  // from the binary study's consent text (it speaks of medical screening).
  const kindNow = useRef(kind);
  kindNow.current = kind;

  // Editing a draft: the request it was made from (null until it has loaded).
  const [stored, setStored] = useState<CreateStudyBody | null>(null);
  const editing = editId !== undefined;
  const eid = encodeURIComponent(editId ?? "");

  useEffect(() => {
    api<StudyDefaults>("GET", "/api/study-defaults")
      .then(async (d) => {
        setDefaults(d.texts);
        // The consent text is edited like the others, from the built-in one of the kind.
        const built =
          kindNow.current === "binary"
            ? d.texts.consentText
            : (d.kindTexts?.consentText ?? d.texts.consentText);
        setConsent((c) => (c === "" ? built : c));
        setSystems(d.comprehensionSystems);
        setKindDefaults(d.kindTexts ?? null);
        setKindQuestionnaire(d.kindTexts?.questionnaire ?? null);
        setKindPost(d.kindTexts?.post ?? null);
        setTexts({ ...d.texts, title: "" });
        if (!editing) return;
        const r = await api<{ request: CreateStudyBody }>("GET", `/api/studies/${eid}/draft`);
        const f = fieldsOfRequest(r.request, d);
        setName(f.name);
        setKind(f.kind);
        setSource(f.source);
        setCsv(f.csv);
        setTarget(f.target);
        setDropColumns(f.dropColumns);
        setPositive(f.positive);
        setWords(f.words);
        setTolerance(f.tolerance);
        setStrategy(f.strategy);
        setBudget(f.budget);
        setCredibility(f.credibility);
        setPairs(f.pairs);
        setPopulation(f.population);
        setConsent(f.consent);
        setTexts(f.texts);
        setKindSource(f.kindSource);
        setBundled(f.bundled);
        setClasses(f.classes);
        setGroups(f.groups);
        setKindFamily(f.kindFamily);
        setKindBudget(f.kindBudget);
        setKindTitle(f.kindTitle);
        setKindStory(f.kindStory);
        setKindQuestionnaire(f.kindQuestionnaire);
        setKindPost(f.kindPost);
        setStored(r.request);
      })
      .catch((e) => setError(errorMessage(e)));
  }, [editing, eid]);
  const columns =
    csv !== null && (source === "dataset" || kind !== "binary") ? csvColumns(csv.text) : [];
  const targetValues = columns.find((c) => c.name === target)?.values ?? [];
  const [positive, setPositive] = useState("");
  const [words, setWords] = useState<Partial<StudyWords>>({});
  const [tolerance, setTolerance] = useState("0.05");
  const [strategy, setStrategy] = useState<"paper" | "lazy" | "bisect" | "adaptive">("adaptive");
  const [budget, setBudget] = useState("30");
  const [credibility, setCredibility] = useState("0.9");
  const [kindBudget, setKindBudget] = useState("25");
  const [pairs, setPairs] = useState("15");
  const [population, setPopulation] = useState("100");
  const [consent, setConsent] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** The consent text a study of `k` starts from. */
  const consentDefault = (k: Kind): string | undefined =>
    k === "binary" ? defaults?.consentText : (kindDefaults?.consentText ?? defaults?.consentText);

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
      setCsv(null);
      setFileError(tooLarge);
      return;
    }
    const text = await file.text();
    const empty = csvEmpty(file.name, text);
    setCsv(empty === null ? { name: file.name, text } : null);
    setFileError(empty);
  };

  /** What "Create study" says when no file was taken: why, if one was refused. */
  const noFile = (what: string) => fileError ?? `Please choose a ${what} CSV file.`;

  // A study of uploaded data gets general words where the form leaves them empty (the
  // server's too), never the built-in study's "had cancer".
  const uploaded = source !== "template";
  const previewWords: StudyWords = {
    ...(uploaded
      ? GENERAL_BINARY_WORDS
      : (defaults?.words ?? {
          positive: "",
          negative: "",
          predictedPositive: "",
          predictedNegative: "",
          missed: "",
          falseAlarm: "",
          question: "",
          systemNoun: "system",
        })),
    ...Object.fromEntries(
      Object.entries(words).filter(([, v]) => v !== undefined && v.trim() !== ""),
    ),
  };

  // What of the texts is still the built-in breast-cancer study's while the data are uploaded:
  // such a study is refused, here and by the server (issue 27 defect 1).
  const builtInLeft =
    kind === "binary" && uploaded && texts !== null && defaults !== null
      ? builtInTextsLeft({ ...texts, words: previewWords, consentText: consent }, defaults)
      : [];
  /** Replace what is still the built-in study's by general texts in the study's words. */
  const useGeneralTexts = () => {
    if (texts === null || defaults === null) return;
    const general = generalBinaryTexts(previewWords, defaults.post);
    const r = replaceBuiltInTexts({ ...texts, consentText: consent }, defaults, general);
    setTexts({
      ...texts,
      story: { paragraphs: [...r.story.paragraphs], costs: { ...r.story.costs } },
      comprehension: [...r.comprehension],
      guessPrompt: r.guessPrompt,
      post: [...r.post],
    });
    setConsent(r.consentText);
    setError(null);
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

  /** A multiclass or fairness study from a bundled dataset or an uploaded CSV (adaptive). */
  const submitKind = () => {
    if (kindSource === "bundled") {
      if (bundled === "") {
        setError("Please choose a bundled dataset.");
        return;
      }
      if (kind === "fair" && groups === "") {
        setError("Please choose the group column of the dataset.");
        return;
      }
      submitKindBody({
        name: name.trim(),
        kind,
        dataset: bundled as NonNullable<CreateStudyBody["dataset"]>,
        ...(kind === "fair" ? { groups } : {}),
      });
      return;
    }
    const predictions = kindSource === "predictions";
    const what = predictions ? "predictions" : "dataset";
    if (csv === null) {
      setError(noFile(what));
      return;
    }
    if (!predictions && target === "") {
      setError("Please choose the label column of the dataset.");
      return;
    }
    if (kind === "fair" && groups === "") {
      setError(`Please choose the group column of the ${what}.`);
      return;
    }
    const body: CreateStudyBody = predictions
      ? { name: name.trim(), kind, predictionsCsv: csv.text }
      : { name: name.trim(), kind, datasetCsv: csv.text, target };
    if (!predictions && kind === "multiclass" && classes.length > 0) {
      if (classes.length < 3 || classes.length > 6) {
        setError("Keep 3 to 6 classes (or none ticked for every class).");
        return;
      }
      body.classes = classes;
    }
    if (kind === "fair") body.groups = groups;
    const drop = dropColumns
      .split(",")
      .map((c) => c.trim())
      .filter((c) => c !== "");
    if (!predictions && drop.length > 0) body.dropColumns = drop;
    submitKindBody(body);
  };

  /** The family, tolerance, budget and texts every multiclass or fairness request carries. */
  const submitKindBody = (body: CreateStudyBody) => {
    if (kindFamily === "fair-quadratic" || kindFamily === "linear") body.family = kindFamily;
    if (tolerance.trim() !== "") {
      const tol = Number(tolerance);
      if (!Number.isFinite(tol) || tol <= 0 || tol >= 0.5) {
        setError("Tolerance must be a number between 0 and 0.5.");
        return;
      }
      body.tolerance = tol;
    }
    if (kindBudget.trim() !== "") {
      const b = Number(kindBudget);
      if (!Number.isInteger(b) || b < 5 || b > 100) {
        setError("The question budget must be a whole number from 5 to 100.");
        return;
      }
      body.budget = b;
    }
    if (consent.trim() !== "") body.consentText = consent;
    const paragraphs = kindStory
      .split(/\n\s*\n/)
      .map((x) => x.trim())
      .filter((x) => x !== "");
    // The same check as the binary form's and the server's: nothing of this kind's texts is
    // filled in, so a [[...]] mark or a {word} left in one would reach participants as typed.
    const left = [
      ...(placeholderLeft(kindTitle) !== null ? ["title"] : []),
      ...(placeholderLeft(consent) !== null ? ["consent text"] : []),
      ...paragraphs.flatMap((p, i) =>
        placeholderLeft(p) !== null ? [`story paragraph ${i + 1}`] : [],
      ),
      ...fieldPlaceholders("questionnaire", kindQuestionnaire ?? []),
      ...fieldPlaceholders("post-task question", kindPost ?? []),
    ];
    if (left.length > 0) {
      setError(`Placeholders are left in: ${left.join(", ")}. Write the study’s own text there.`);
      return;
    }
    // Only what the researcher changed goes in the request (the rest is the kind's default).
    const changed = (mine: Field[] | null, built: Field[] | undefined): mine is Field[] =>
      mine !== null && JSON.stringify(mine) !== JSON.stringify(built);
    const questionnaire = changed(kindQuestionnaire, kindDefaults?.questionnaire);
    const post = changed(kindPost, kindDefaults?.post);
    if (kindTitle.trim() !== "" || paragraphs.length > 0 || questionnaire || post)
      body.texts = {
        ...(kindTitle.trim() !== "" ? { title: kindTitle.trim() } : {}),
        ...(paragraphs.length > 0 ? { story: { paragraphs } } : {}),
        ...(questionnaire ? { questionnaire: kindQuestionnaire! } : {}),
        ...(post ? { post: kindPost! } : {}),
      };
    void send(body);
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    setError(null);
    if (name.trim() === "") {
      setError("Please give the study a name.");
      return;
    }
    if (kind !== "binary") {
      submitKind();
      return;
    }
    if (source !== "template" && csv === null) {
      setError(noFile(source === "dataset" ? "dataset" : "predictions"));
      return;
    }
    if (source === "dataset" && target === "") {
      setError("Please choose the label column of the dataset.");
      return;
    }
    if (texts === null) {
      setError("The default texts have not loaded yet.");
      return;
    }
    if (builtInLeft.length > 0) {
      setError(
        builtInTextsRefusal(
          builtInLeft,
          "Write this study’s own text there, or press “Use general texts written for any data”.",
        ),
      );
      return;
    }
    const left = placeholdersIn(texts, previewWords, consent);
    if (left.length > 0) {
      setError(`Placeholders are left in: ${left.join(", ")}. Write the study’s own text there.`);
      return;
    }
    // Said here, beside the question, rather than as the server's refusal after sending.
    const unanswered = rightAnswerProblems(texts.comprehension);
    if (unanswered.length > 0) {
      setError(`${capitalise(unanswered.join("; "))}.`);
      return;
    }
    const body: CreateStudyBody = { name: name.trim(), strategy, texts: textsForRequest(texts) };
    if (source === "template") body.template = "cancer-diagnosis";
    else if (source === "dataset") {
      body.datasetCsv = csv!.text;
      body.target = target;
      const drop = dropColumns
        .split(",")
        .map((c) => c.trim())
        .filter((c) => c !== "");
      if (drop.length > 0) body.dropColumns = drop;
      if (positive.trim() !== "") body.positive = positive.trim();
    } else {
      body.predictionsCsv = csv!.text;
      if (positive.trim() !== "") body.positive = positive.trim();
    }
    const w: Partial<StudyWords> = {};
    for (const [k, v] of Object.entries(words)) {
      if (typeof v === "string" && v.trim() !== "") w[k as keyof StudyWords] = v.trim();
    }
    if (Object.keys(w).length > 0) body.words = w;
    const tol = Number(tolerance);
    if (tolerance.trim() !== "") {
      if (!Number.isFinite(tol) || tol <= 0 || tol >= 0.5) {
        setError("Tolerance must be a number between 0 and 0.5.");
        return;
      }
      body.tolerance = tol;
    }
    const n = Number(pairs);
    if (pairs.trim() !== "") {
      if (!Number.isInteger(n) || n < 0 || n > 100) {
        setError("Evaluation pairs must be a whole number from 0 to 100.");
        return;
      }
      body.evaluationPairs = n;
    }
    const pop = Number(population);
    if (population.trim() !== "") {
      if (!Number.isInteger(pop) || pop < 20 || pop > 10_000) {
        setError("The people shown must be a whole number from 20 to 10000.");
        return;
      }
      body.population = pop;
    }
    if (strategy === "adaptive") {
      const b = Number(budget);
      if (budget.trim() !== "") {
        if (!Number.isInteger(b) || b < 5 || b > 100) {
          setError("The question budget must be a whole number from 5 to 100.");
          return;
        }
        body.budget = b;
      }
      const c = Number(credibility);
      if (credibility.trim() !== "") {
        if (!Number.isFinite(c) || c < 0.5 || c > 0.99) {
          setError("The credibility must be a number from 0.5 to 0.99.");
          return;
        }
        body.credibility = c;
      }
    }
    if (consent.trim() !== "") body.consentText = consent;
    await send(body);
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
            value={name}
            onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
          />
        </div>
        <fieldset>
          <legend>Kind of study</legend>
          {(
            [
              ["binary", "Binary: two classes, the cost of a missed case against a false alarm"],
              [
                "multiclass",
                "Multiclass: 3 to 6 classes, which class’s mistakes matter most (diagonal-linear weights)",
              ],
              [
                "fair",
                "Fairness: how much accuracy to give up for treating groups alike (the trade-off lambda)",
              ],
            ] as const
          ).map(([k, text]) => (
            <label class="choice" key={k}>
              <input
                type="radio"
                name="kind"
                value={k}
                checked={kind === k}
                onChange={() => {
                  // An untouched consent text follows the kind (the binary study's speaks of
                  // medical screening; the others' of automated decisions).
                  setConsent((c) => (c === consentDefault(kind) ? (consentDefault(k) ?? c) : c));
                  setKind(k);
                  clearFile();
                  setTarget("");
                  setClasses([]);
                  setGroups("");
                  setError(null);
                  setKindFamily(k === "fair" ? "fair-lambda" : "diagonal-linear");
                  setTolerance("0.05");
                  setKindBudget("25");
                }}
              />
              <span>{text}</span>
            </label>
          ))}
        </fieldset>
        {kind !== "binary" && (
          <KindFields
            kind={kind}
            source={kindSource}
            bundled={bundled}
            setBundled={(b) => {
              setBundled(b);
              setGroups("");
            }}
            setSource={(k) => {
              setKindSource(k);
              setBundled("");
              clearFile();
              setTarget("");
              setClasses([]);
              setGroups("");
            }}
            family={kindFamily}
            setFamily={(f) => {
              // Untouched defaults follow the family (diagonal weights, lambda: 0.05 and 25;
              // every mistake's cost, the whole fair metric: 0.1 and 30).
              const more = f === "fair-quadratic" || f === "linear";
              const [tol, budget] = more ? ["0.1", "30"] : ["0.05", "25"];
              const [oldTol, oldBudget] = more ? ["0.05", "25"] : ["0.1", "30"];
              setTolerance((t) => (t === oldTol ? tol : t));
              setKindBudget((b) => (b === oldBudget ? budget : b));
              setKindFamily(f);
            }}
            csv={csv}
            fileError={fileError}
            columns={columns}
            onFile={onFile}
            target={target}
            setTarget={(t) => {
              setTarget(t);
              setClasses([]);
            }}
            classes={classes}
            setClasses={setClasses}
            groups={groups}
            setGroups={setGroups}
            dropColumns={dropColumns}
            setDropColumns={setDropColumns}
            tolerance={tolerance}
            setTolerance={setTolerance}
            budget={kindBudget}
            setBudget={setKindBudget}
          />
        )}
        {kind === "binary" && (
          <>
            <fieldset>
              <legend>Data</legend>
              <label class="choice">
                <input
                  type="radio"
                  name="source"
                  checked={source === "template"}
                  onChange={() => {
                    setSource("template");
                    clearFile();
                  }}
                />
                <span>Built-in: Cancer diagnosis (Breast Cancer Wisconsin, the paper’s study)</span>
              </label>
              <label class="choice">
                <input
                  type="radio"
                  name="source"
                  checked={source === "csv"}
                  onChange={() => {
                    setSource("csv");
                    clearFile();
                  }}
                />
                <span>Upload predictions (CSV: true label, predicted probability)</span>
              </label>
              <label class="choice">
                <input
                  type="radio"
                  name="source"
                  checked={source === "dataset"}
                  onChange={() => {
                    setSource("dataset");
                    clearFile();
                  }}
                />
                <span>
                  Upload a dataset (CSV: feature columns and a label column; the server trains a
                  logistic regression on half of it as <code>elicit fit</code> does)
                </span>
              </label>
              {source === "dataset" && (
                <div class="grid2">
                  <div class="field">
                    <label for="dataset-file">Dataset CSV (at most 5 MB)</label>
                    <input id="dataset-file" type="file" accept=".csv,text/csv" onChange={onFile} />
                    <FileNote csv={csv} error={fileError} />
                  </div>
                  <div class="field">
                    <label for="target">Label column</label>
                    <select
                      id="target"
                      value={target}
                      onChange={(e) => {
                        setTarget((e.currentTarget as HTMLSelectElement).value);
                        setPositive("");
                      }}
                    >
                      <option value="">(choose)</option>
                      {columns.map((c) => (
                        <option key={c.name} value={c.name}>
                          {c.name}
                        </option>
                      ))}
                    </select>
                  </div>
                  <div class="field">
                    <label for="dataset-positive">Positive label (what a missed case has)</label>
                    <select
                      id="dataset-positive"
                      value={positive}
                      onChange={(e) => setPositive((e.currentTarget as HTMLSelectElement).value)}
                    >
                      <option value="">(the less frequent value)</option>
                      {targetValues.map((v) => (
                        <option key={v} value={v}>
                          {v}
                        </option>
                      ))}
                    </select>
                  </div>
                  <div class="field">
                    <label for="drop-columns">
                      Columns to leave out (comma-separated, optional)
                    </label>
                    <input
                      id="drop-columns"
                      value={dropColumns}
                      onInput={(e) => setDropColumns((e.currentTarget as HTMLInputElement).value)}
                    />
                  </div>
                </div>
              )}
              {source === "csv" && (
                <div class="grid2">
                  <div class="field">
                    <label for="csv-file">Predictions CSV</label>
                    <input id="csv-file" type="file" accept=".csv,text/csv" onChange={onFile} />
                    <FileNote csv={csv} error={fileError} />
                  </div>
                  <div class="field">
                    <label for="positive">Positive label in the CSV (optional)</label>
                    <input
                      id="positive"
                      value={positive}
                      onInput={(e) => setPositive((e.currentTarget as HTMLInputElement).value)}
                    />
                  </div>
                </div>
              )}
            </fieldset>
            <fieldset>
              <legend>Wording (leave empty for the template’s words)</legend>
              <div class="grid2">
                {WORD_FIELDS.map((f) => (
                  <div class="field" key={f.key}>
                    <label for={`w-${f.key}`}>{f.label}</label>
                    <input
                      id={`w-${f.key}`}
                      placeholder={f.example}
                      value={words[f.key] ?? ""}
                      onInput={(e) =>
                        setWords({ ...words, [f.key]: (e.currentTarget as HTMLInputElement).value })
                      }
                    />
                  </div>
                ))}
              </div>
            </fieldset>
            <fieldset>
              <legend>Procedure</legend>
              <div class="grid2">
                <NumberField
                  id="tolerance"
                  label="Tolerance"
                  step="any"
                  min="0"
                  value={tolerance}
                  onValue={setTolerance}
                />
                <div class="field">
                  <label for="strategy">Search strategy</label>
                  <select
                    id="strategy"
                    value={strategy}
                    onChange={(e) =>
                      setStrategy((e.currentTarget as HTMLSelectElement).value as typeof strategy)
                    }
                  >
                    <option value="adaptive">
                      adaptive (default: asks about the counts shown)
                    </option>
                    <option value="paper">paper (as published; assumes exact answers)</option>
                    <option value="lazy">lazy (fewer questions; assumes exact answers)</option>
                    <option value="bisect">bisect (assumes exact answers)</option>
                  </select>
                </div>
                {strategy !== "adaptive" && (
                  <p class="muted" id="strategy-note">
                    The papers' searches compute on unrounded rates and assume every answer is
                    exact, while a participant judges the whole-number counts on screen: pairs can
                    look dominated or the same, and the result can come out far from the
                    participant's own trade-off. Use them to reproduce the papers; use adaptive for
                    real participants.
                  </p>
                )}
                {strategy === "adaptive" && (
                  <>
                    <NumberField
                      id="budget"
                      label="Most questions (budget, 5–100)"
                      min="5"
                      max="100"
                      step="1"
                      value={budget}
                      onValue={setBudget}
                    />
                    <NumberField
                      id="credibility"
                      label="Credibility (0.5–0.99)"
                      min="0.5"
                      max="0.99"
                      step="0.01"
                      value={credibility}
                      onValue={setCredibility}
                    />
                  </>
                )}
                <NumberField
                  id="pairs"
                  label="Evaluation pairs (Phase III)"
                  min="0"
                  step="1"
                  value={pairs}
                  onValue={setPairs}
                />
                <NumberField
                  id="population"
                  label="People the charts count out of (whole people)"
                  min="20"
                  max="10000"
                  step="1"
                  value={population}
                  onValue={setPopulation}
                />
              </div>
            </fieldset>
          </>
        )}
        <div class="field">
          <label for="consent">Consent text (the built-in one to start from)</label>
          <textarea
            id="consent"
            value={consent}
            placeholder={consentDefault(kind)}
            onInput={(e) => setConsent((e.currentTarget as HTMLTextAreaElement).value)}
          />
        </div>
        {kind !== "binary" && (
          <>
            <div class="field">
              <label for="kind-title">Title participants see (empty: the study’s name)</label>
              <input
                id="kind-title"
                value={kindTitle}
                onInput={(e) => setKindTitle((e.currentTarget as HTMLInputElement).value)}
              />
            </div>
            <div class="field">
              <label for="kind-story">
                The task, as participants read it (paragraphs separated by a blank line; empty: the
                built-in story for this kind of study)
              </label>
              <textarea
                id="kind-story"
                rows={5}
                value={kindStory}
                onInput={(e) => setKindStory((e.currentTarget as HTMLTextAreaElement).value)}
              />
            </div>
            {kindQuestionnaire !== null && (
              <FieldsEditor
                id="kq"
                legend="Questionnaire before the task (the built-in questions to start from)"
                fields={kindQuestionnaire}
                onChange={(f) => {
                  setKindQuestionnaire(f);
                  setError(null);
                }}
              />
            )}
            {kindPost !== null && (
              <FieldsEditor
                id="kp"
                legend="Questions after the task (the built-in questions to start from)"
                fields={kindPost}
                onChange={(f) => {
                  setKindPost(f);
                  setError(null);
                }}
              />
            )}
          </>
        )}
        {kind !== "binary" && consent === consentDefault(kind) && (
          <UnchangedNotice parts={["the consent text"]} whose="the built-in general wording" />
        )}
        {builtInLeft.length > 0 && (
          <div class="feedback incorrect" data-testid="unchanged-texts">
            <p>
              {`Still the built-in breast-cancer study’s: ${builtInLeft.join("; ")}. A study of other data cannot be created with them (its disease, patients and numbers): write its own text there, or start from general texts written in this study’s words.`}
            </p>
            <button type="button" class="secondary" onClick={useGeneralTexts}>
              Use general texts written for any data
            </button>
          </div>
        )}
        {kind === "binary" && texts !== null && (
          <div class="texts-with-preview">
            <fieldset>
              <legend>What participants read (the built-in study’s texts to start from)</legend>
              <StudyTextsEditor
                systems={systems}
                texts={texts}
                onChange={(t) => {
                  setTexts(t);
                  setError(null);
                }}
              />
              <button
                type="button"
                class="secondary"
                onClick={() => defaults !== null && setTexts({ ...defaults, title: "" })}
              >
                Start again from the built-in texts
              </button>
            </fieldset>
            <StudyPreview
              name={name}
              texts={texts}
              words={previewWords}
              consent={consent}
              systems={systems}
            />
          </div>
        )}
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

/**
 * Under a file input: the chosen file's rows and columns, or why it was not taken (too large,
 * empty), as an alert so a screen reader hears it at once.
 */
export function FileNote({
  csv,
  error,
}: {
  csv: { name: string; text: string } | null;
  error: string | null;
}) {
  if (error !== null)
    return (
      <p class="error" role="alert" data-testid="file-error">
        {error}
      </p>
    );
  return csv === null ? null : <p class="muted">{csvSummary(csv.name, csv.text)}</p>;
}

/** A labelled number input; `onValue` gets the text as typed (validated on submit). */
function NumberField(p: {
  id: string;
  label: string;
  min?: string;
  max?: string;
  step: string;
  value: string;
  onValue: (value: string) => void;
}) {
  return (
    <div class="field">
      <label for={p.id}>{p.label}</label>
      <input
        id={p.id}
        type="number"
        min={p.min}
        max={p.max}
        step={p.step}
        value={p.value}
        onInput={(e) => p.onValue((e.currentTarget as HTMLInputElement).value)}
      />
    </div>
  );
}

/** A reminder that texts written for the built-in study are still in a study of other data. */
function UnchangedNotice({
  parts,
  whose = "the built-in breast-cancer study’s",
}: {
  parts: string[];
  /** Whose texts these still are. */
  whose?: string;
}) {
  if (parts.length === 0) return null;
  return (
    <p class="feedback incorrect" data-testid="unchanged-texts">
      {`Still ${whose}: ${parts.join("; ")}. Participants of a study of other data should read its own words.`}
    </p>
  );
}

/** Where a multiclass or fairness study's data come from. */
type KindSource = "dataset" | "predictions" | "bundled";

/** The bundled datasets a multiclass or fairness study can use, with a fair one's groups. */
const BUNDLED: Record<
  "multiclass" | "fair",
  readonly { name: string; text: string; groups?: readonly string[] }[]
> = {
  multiclass: [
    { name: "iris", text: "iris (3 classes of flower)" },
    { name: "wine", text: "wine (3 cultivars)" },
    { name: "vehicle", text: "vehicle (4 kinds of vehicle)" },
    { name: "glass", text: "glass (6 kinds of glass)" },
  ],
  fair: [
    { name: "arrests", text: "arrests (released or not)", groups: ["colour", "sex"] },
    { name: "titanic", text: "titanic (survived or not)", groups: ["sex", "passengerClass"] },
  ],
};
/** What a multiclass or fairness study elicits. */
type KindFamily = "diagonal-linear" | "linear" | "fair-lambda" | "fair-quadratic";

/** What each kind can elicit, the default first, as the form offers it. */
const FAMILY_CHOICES: Record<"multiclass" | "fair", readonly (readonly [KindFamily, string])[]> = {
  multiclass: [
    [
      "diagonal-linear",
      "A weight per class: which class’s mistakes matter most (diagonal-linear, about 25 questions)",
    ],
    [
      "linear",
      "A cost for every kind of mistake: which class taken for which matters most (linear, about 30 questions)",
    ],
  ],
  fair: [
    [
      "fair-lambda",
      "The trade-off lambda only, every class’s mistakes and every gap counting alike (about 25 questions)",
    ],
    [
      "fair-quadratic",
      "The whole fair metric: which mistakes cost most, which gaps matter most, and lambda (about 30 questions)",
    ],
  ],
};

/** The fields of a multiclass or fairness study made from a dataset or predictions CSV. */
function KindFields(p: {
  kind: "multiclass" | "fair";
  source: KindSource;
  setSource: (s: KindSource) => void;
  bundled: string;
  setBundled: (b: string) => void;
  family: KindFamily;
  setFamily: (f: KindFamily) => void;
  csv: { name: string; text: string } | null;
  /** Why the chosen file was not taken (too large, empty), or null. */
  fileError: string | null;
  columns: { name: string; values: string[] }[];
  onFile: (e: Event) => void;
  target: string;
  setTarget: (t: string) => void;
  classes: string[];
  setClasses: (c: string[]) => void;
  groups: string;
  setGroups: (g: string) => void;
  dropColumns: string;
  setDropColumns: (d: string) => void;
  tolerance: string;
  setTolerance: (t: string) => void;
  budget: string;
  setBudget: (b: string) => void;
}) {
  const labelValues = p.columns.find((c) => c.name === p.target)?.values ?? [];
  const predictions = p.source === "predictions";
  const bundled = p.source === "bundled";
  const bundledGroups = BUNDLED.fair.find((d) => d.name === p.bundled)?.groups ?? [];
  return (
    <fieldset>
      <legend>
        {p.kind === "multiclass"
          ? "Data: 3 or more classes, from a dataset, your model’s predictions or a bundled dataset"
          : "Data: a label and a group column, from a dataset, your model’s predictions or a bundled dataset"}
      </legend>
      <label class="choice">
        <input
          type="radio"
          name="kind-source"
          checked={p.source === "dataset"}
          onChange={() => p.setSource("dataset")}
        />
        <span>
          A dataset CSV (features and each row’s true class): the server trains a softmax regression
          on half of the rows, as <code>elicit fit</code> does, and asks about classifiers built
          from its predictions on the other half
        </span>
      </label>
      <label class="choice">
        <input
          type="radio"
          name="kind-source"
          checked={predictions}
          onChange={() => p.setSource("predictions")}
        />
        <span>
          Your model’s predictions (CSV: <code>label</code>, one <code>p_&lt;class&gt;</code> column
          per class{p.kind === "fair" ? ", a group column" : ""}; each row’s probabilities summing
          to 1)
        </span>
      </label>
      <label class="choice">
        <input
          type="radio"
          name="kind-source"
          checked={bundled}
          onChange={() => p.setSource("bundled")}
        />
        <span>One of the bundled datasets (the server fits the model as for an upload)</span>
      </label>
      <fieldset>
        <legend>What to elicit</legend>
        {FAMILY_CHOICES[p.kind].map(([family, text]) => (
          <label class="choice" key={family}>
            <input
              type="radio"
              name={`${p.kind}-family`}
              checked={p.family === family}
              onChange={() => p.setFamily(family)}
            />
            <span>{text}</span>
          </label>
        ))}
      </fieldset>
      <p class="muted">The study uses the adaptive strategy.</p>
      <div class="grid2">
        {bundled ? (
          <div class="field">
            <label for="kind-bundled">Bundled dataset</label>
            <select
              id="kind-bundled"
              value={p.bundled}
              onChange={(e) => p.setBundled((e.currentTarget as HTMLSelectElement).value)}
            >
              <option value="">(choose)</option>
              {BUNDLED[p.kind].map((d) => (
                <option key={d.name} value={d.name}>
                  {d.text}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <div class="field">
            <label for="kind-dataset-file">
              {predictions ? "Predictions CSV (at most 5 MB)" : "Dataset CSV (at most 5 MB)"}
            </label>
            <input id="kind-dataset-file" type="file" accept=".csv,text/csv" onChange={p.onFile} />
            <FileNote csv={p.csv} error={p.fileError} />
          </div>
        )}
        {p.source === "dataset" && (
          <div class="field">
            <label for="kind-target">Label column</label>
            <select
              id="kind-target"
              value={p.target}
              onChange={(e) => p.setTarget((e.currentTarget as HTMLSelectElement).value)}
            >
              <option value="">(choose)</option>
              {p.columns.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
        )}
        {p.kind === "fair" && (
          <div class="field">
            <label for="kind-groups">Group column (the groups to treat alike)</label>
            <select
              id="kind-groups"
              value={p.groups}
              onChange={(e) => p.setGroups((e.currentTarget as HTMLSelectElement).value)}
            >
              <option value="">(choose)</option>
              {(bundled
                ? bundledGroups
                : p.columns
                    .filter((c) =>
                      predictions
                        ? c.name !== "label" && !c.name.startsWith("p_")
                        : c.name !== p.target,
                    )
                    .map((c) => c.name)
              ).map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </div>
        )}
        {p.source === "dataset" && (
          <div class="field">
            <label for="kind-drop-columns">Columns to leave out (comma-separated, optional)</label>
            <input
              id="kind-drop-columns"
              value={p.dropColumns}
              onInput={(e) => p.setDropColumns((e.currentTarget as HTMLInputElement).value)}
            />
          </div>
        )}
        <NumberField
          id="kind-tolerance"
          label={
            p.kind === "multiclass"
              ? "Tolerance on the weights"
              : p.family === "fair-quadratic"
                ? "Tolerance on each of the costs, gap weights and lambda"
                : "Tolerance on lambda"
          }
          step="any"
          min="0"
          value={p.tolerance}
          onValue={p.setTolerance}
        />
        <NumberField
          id="kind-budget"
          label="Most questions (budget, 5–100)"
          min="5"
          max="100"
          step="1"
          value={p.budget}
          onValue={p.setBudget}
        />
      </div>
      {p.kind === "multiclass" && !predictions && labelValues.length > 0 && (
        <fieldset>
          <legend>Classes to keep (3 to 6; none ticked: every class)</legend>
          {labelValues.map((v) => (
            <label class="choice" key={v}>
              <input
                type="checkbox"
                checked={p.classes.includes(v)}
                onChange={(e) =>
                  p.setClasses(
                    (e.currentTarget as HTMLInputElement).checked
                      ? [...p.classes, v]
                      : p.classes.filter((c) => c !== v),
                  )
                }
              />
              <span>{v}</span>
            </label>
          ))}
        </fieldset>
      )}
    </fieldset>
  );
}
