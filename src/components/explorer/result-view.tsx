// The MCP result of a run: spinner, tool error or transport failure, content items beside structuredContent, Raw JSON.
import { type CallToolResult, ProtocolError } from '@modelcontextprotocol/client';
import { useState } from 'react';
import { ContentItem } from './content-item';
import styles from './explorer.module.css';
import { prettyJson } from './payload-view';
import { Spinner } from './spinner';
import { errorMessage } from './use-gateway';

export type RunState =
  | { status: 'idle' }
  | { status: 'running' }
  | { status: 'done'; result: CallToolResult }
  | { status: 'failed'; error: unknown };

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
            <h4 className={styles.columnHeading}>content</h4>
            <ol className={styles.contentList}>
              {items.map((item, index) => (
                <ContentItem key={index} item={item} />
              ))}
            </ol>
          </div>
        )}
        {result.structuredContent !== undefined && (
          <div className={styles.resultColumn} data-testid="structured-content">
            <h4 className={styles.columnHeading}>structuredContent</h4>
            <pre className={styles.code}>{prettyJson(result.structuredContent)}</pre>
          </div>
        )}
      </div>
    </>
  );
}

export function ResultView({ run }: { run: RunState }) {
  const [raw, setRaw] = useState(false);
  if (run.status === 'idle') return null;
  return (
    <section className={styles.result} data-testid="result" aria-label="MCP result" aria-busy={run.status === 'running'}>
      <div className={styles.sectionHeader}>
        <h3 className={styles.sectionHeading}>MCP result</h3>
        {run.status === 'done' && (
          <button type="button" className={styles.secondaryButton} aria-pressed={raw} onClick={() => setRaw(!raw)}>
            Raw
          </button>
        )}
      </div>
      {run.status === 'running' && <Spinner />}
      {run.status === 'failed' && (
        <div className={styles.error} role="alert" data-testid="result-error" data-kind="transport">
          {failureText(run.error)}
        </div>
      )}
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
