// The MCP result of a run: its progress and Cancel while it runs, then the tool error, transport failure or
// cancellation, or the content items beside structuredContent, and Raw JSON; a task's id and status throughout.
import { type CallToolResult, ProtocolError } from '@modelcontextprotocol/client';
import { useState } from 'react';
import type { CallProgress, TaskStatus } from '../browser/explorer/tool-run.js';
import { ContentItem } from './content-item.js';
import styles from './explorer.module.css';
import { prettyJson } from './payload-view.js';
import { RunProgress, TaskLine } from './run-progress.js';
import { errorMessage } from './use-gateway.js';

/** A call under way: what it reported last, and whether the user asked to cancel it (and how that went). */
export interface Running {
  status: 'running';
  progress?: CallProgress;
  /** Set when the call runs as a task: the task as last seen. */
  task?: TaskStatus;
  cancelling?: boolean;
  /** Why the last Cancel did not reach the server. */
  cancelError?: unknown;
}

export type RunState =
  | { status: 'idle' }
  | Running
  | { status: 'done'; result: CallToolResult; task?: TaskStatus }
  | { status: 'failed'; error: unknown; task?: TaskStatus }
  | { status: 'cancelled'; task?: TaskStatus };

/** A call that got no tool result: the server refused it (MCP error), or it never arrived (transport failure). */
function failureText(error: unknown): string {
  if (error instanceof ProtocolError) return `MCP error ${error.code}: ${error.message}`;
  return `Transport failure: the MCP endpoint could not be reached (${errorMessage(error)})`;
}

function ToolError({ result }: { result: CallToolResult }) {
  const text = result.content.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n');
  const errorId = result._meta?.errorId;
  return (
    <div className={styles.error} role="alert" data-testid="result-error" data-kind="tool">
      <strong>Tool error</strong> {text || '(no message)'}
      {typeof errorId === 'string' && <span className={styles.muted}> — error id {errorId}</span>}
    </div>
  );
}

function FormattedResult({ result }: { result: CallToolResult }) {
  // A tool error's text is its message, shown once in the error box; other items of an error are still listed.
  const items = result.isError ? result.content.filter((item) => item.type !== 'text') : result.content;
  return (
    <>
      {result.isError && <ToolError result={result} />}
      <div className={styles.resultColumns}>
        {items.length > 0 && (
          <div className={styles.resultColumn}>
            <h5 className={styles.columnHeading}>content</h5>
            <ol className={styles.contentList}>
              {items.map((item, index) => (
                <ContentItem key={index} item={item} />
              ))}
            </ol>
          </div>
        )}
        {result.structuredContent !== undefined && (
          <div className={styles.resultColumn} data-testid="structured-content">
            <h5 className={styles.columnHeading}>structuredContent</h5>
            <pre className={styles.code}>{prettyJson(result.structuredContent)}</pre>
          </div>
        )}
      </div>
    </>
  );
}

/** A call that got no tool result, and why. */
export function RunFailure({ error }: { error: unknown }) {
  return (
    <div className={styles.error} role="alert" data-testid="result-error" data-kind="transport">
      {failureText(error)}
    </div>
  );
}

export function Cancelled({ task }: { task?: TaskStatus }) {
  return (
    <p className={styles.cancelled} role="status" data-testid="result-cancelled">
      <strong>Cancelled</strong>{' '}
      {task ? 'The task was stopped before it finished.' : 'The request was dropped before the tool answered.'}
    </p>
  );
}

export function ResultView({ run, onCancel }: { run: RunState; onCancel(): void }) {
  const [raw, setRaw] = useState(false);
  if (run.status === 'idle') return null;
  return (
    <section className={styles.result} data-testid="result" aria-label="MCP result" aria-busy={run.status === 'running'}>
      <div className={styles.sectionHeader}>
        <h4 className={styles.sectionHeading}>MCP result</h4>
        {run.status === 'done' && (
          <button type="button" className={styles.secondaryButton} aria-pressed={raw} onClick={() => setRaw(!raw)}>
            Raw
          </button>
        )}
      </div>
      {run.status === 'running' && <RunProgress run={run} onCancel={onCancel} />}
      {run.status !== 'running' && run.task && <TaskLine task={run.task} />}
      {run.status === 'cancelled' && <Cancelled task={run.task} />}
      {run.status === 'failed' && <RunFailure error={run.error} />}
      {run.status === 'done' &&
        (raw ? (
          <pre className={styles.code} data-testid="raw-json">
            {prettyJson(run.result)}
          </pre>
        ) : (
          <FormattedResult result={run.result} />
        ))}
    </section>
  );
}
