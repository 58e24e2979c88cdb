// A question a tool call asks the user (MCP elicitation, form mode): its message, a form built from its
// requestedSchema, and Accept / Decline / Cancel; a modal dialog, so focus moves to it and the page waits.
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { type FormValues, fieldsOf, initialValues, type JsonSchema, readForm } from '../browser/explorer/schema-form.js';
import styles from './explorer.module.css';
import { controlId, SchemaFields } from './schema-fields.js';
import type { PendingQuestion } from './use-questions.js';

type Content = Extract<Parameters<PendingQuestion['answer']>[0], { action: 'accept' }>['content'];

export function QuestionDialog({ pending }: { pending: PendingQuestion }) {
  const idPrefix = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const { question, askedBy, answer } = pending;
  const fields = useMemo(() => fieldsOf(question.requestedSchema as JsonSchema), [question.requestedSchema]);
  const [values, setValues] = useState<FormValues>(() => initialValues(fields));
  const [showErrors, setShowErrors] = useState(false);
  const { args, errors } = readForm(fields, values);
  const invalidKeys = Object.keys(errors);

  useEffect(() => {
    const element = dialog.current!;
    element.showModal();
    return () => element.close();
  }, []);

  function onAccept(event: FormEvent) {
    event.preventDefault();
    if (!invalidKeys.length) return answer({ action: 'accept', content: args as Content });
    setShowErrors(true);
    document.getElementById(controlId(idPrefix, invalidKeys[0]))?.focus();
  }

  const headingId = `${idPrefix}-heading`;
  const messageId = `${idPrefix}-message`;
  return (
    <dialog
      ref={dialog}
      className={styles.dialog}
      aria-labelledby={headingId}
      aria-describedby={messageId}
      data-testid="question"
      // Escape: the user dismissed the question without choosing, which is what Cancel means.
      onCancel={(event) => {
        event.preventDefault();
        answer({ action: 'cancel' });
      }}
    >
      <form className={styles.form} onSubmit={onAccept} noValidate>
        <h2 id={headingId} className={styles.dialogHeading}>
          {askedBy ? (
            <>
              <code>{askedBy}</code> asks
            </>
          ) : (
            'A tool asks'
          )}
        </h2>
        <p id={messageId} className={styles.dialogMessage} data-testid="question-message">
          {question.message}
        </p>
        {fields.length > 0 && (
          <SchemaFields
            fields={fields}
            values={values}
            errors={showErrors ? errors : {}}
            idPrefix={idPrefix}
            labelBy="title"
            onChange={(key, value) => setValues((current) => ({ ...current, [key]: value }))}
          />
        )}
        <div className={styles.actions}>
          <button type="submit" className={styles.runButton}>
            Accept
          </button>
          <button type="button" className={styles.secondaryButton} onClick={() => answer({ action: 'decline' })}>
            Decline
          </button>
          <button type="button" className={styles.secondaryButton} onClick={() => answer({ action: 'cancel' })}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
