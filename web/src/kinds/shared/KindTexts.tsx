// The texts a kind of several classes lets the researcher write in the create form: its
// title, story, questionnaire and post-task questions (its comprehension questions are the
// server's, about the study's own systems), and a notice while the consent text is unchanged.

import { UnchangedNotice } from "../../researcher/form-parts.tsx";
import { FieldsEditor } from "../../researcher/StudyTextsEditor.tsx";
import type { CreateSectionProps } from "../kind.ts";

/**
 * The consent text a kind of several classes starts from: its own general one (an older
 * server sends none: the binary study's).
 * @example kindStartConsent(null) // undefined
 */
export function kindStartConsent(defaults: CreateSectionProps["defaults"]): string | undefined {
  return defaults?.kindTexts?.consentText ?? defaults?.texts.consentText;
}

/**
 * The texts section of a kind of several classes.
 * @example <KindTextsSection {...sectionProps} />
 */
export function KindTextsSection({ form, update, defaults, setError }: CreateSectionProps) {
  const { kindQuestionnaire, kindPost } = form;
  return (
    <>
      <div class="field">
        <label for="kind-title">Title participants see (empty: the study’s name)</label>
        <input
          id="kind-title"
          maxLength={200}
          value={form.kindTitle}
          onInput={(e) => update({ kindTitle: (e.currentTarget as HTMLInputElement).value })}
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
          value={form.kindStory}
          onInput={(e) => update({ kindStory: (e.currentTarget as HTMLTextAreaElement).value })}
        />
      </div>
      {kindQuestionnaire !== null && (
        <FieldsEditor
          id="kq"
          legend="Questionnaire before the task (the built-in questions to start from)"
          fields={kindQuestionnaire}
          onChange={(f) => {
            update({ kindQuestionnaire: f });
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
            update({ kindPost: f });
            setError(null);
          }}
        />
      )}
      {form.consent === kindStartConsent(defaults) && (
        <UnchangedNotice parts={["the consent text"]} whose="the built-in general wording" />
      )}
    </>
  );
}
