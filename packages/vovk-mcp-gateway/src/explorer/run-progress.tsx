// A call while it runs: a progress bar (filled as far as the tool reported, indeterminate until it says how far),
// the progress or task status message, a task's id and status, and Cancel.
import type { TaskStatus } from '../browser/explorer/tool-run.js';
import styles from './explorer.module.css';
import type { Running } from './result-view.js';
import { Spinner } from './spinner.js';
import { errorMessage } from './use-gateway.js';

/** A task's id and its status as last seen. */
export function TaskLine({ task }: { task: TaskStatus }) {
  return (
    <p className={styles.taskLine} data-testid="task-status">
      Task <code data-testid="task-id">{task.taskId}</code>{' '}
      <span className={styles.taskState} data-status={task.status} data-testid="task-state">
        {task.status}
      </span>
    </p>
  );
}

export function RunProgress({ run, onCancel }: { run: Running; onCancel(): void }) {
  const { progress, task, cancelling, cancelError } = run;
  // A task reports how far it got in words only (SEP-2663 tasks carry no numbers); a call may say done of total.
  const message = task ? task.statusMessage : progress?.message;
  const fraction = !task && progress?.total ? { value: progress.progress, max: progress.total } : {};
  return (
    <div className={styles.runProgress} data-testid="run-progress">
      <Spinner label={task ? 'Running as a task…' : 'Running…'} />
      {task && <TaskLine task={task} />}
      <div className={styles.progressRow}>
        <progress className={styles.progressBar} aria-label="Progress" aria-valuetext={message} {...fraction} />
        <button type="button" className={styles.secondaryButton} onClick={onCancel} disabled={cancelling}>
          {cancelling ? 'Cancelling…' : 'Cancel'}
        </button>
      </div>
      {message && (
        <p className={styles.muted} data-testid="progress-message">
          {message}
        </p>
      )}
      {cancelError !== undefined && (
        <p className={styles.fieldError} role="alert">
          Could not cancel: {errorMessage(cancelError)}
        </p>
      )}
    </div>
  );
}
