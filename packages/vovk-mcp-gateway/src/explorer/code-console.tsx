// The code console: the typed signatures of the listed tools, a program and Run — code mode's `execute` on the
// explorer's own connection, so its confirmations come in the page's question dialog — the program's inner calls as
// they happen, then what it returned and printed, or its error; Cancel while it runs.
import { type FormEvent, type KeyboardEvent, useId, useMemo, useRef, useState } from 'react';
import {
  callTemplate,
  endedCalls,
  exampleProgram,
  type InnerCall,
  innerCallsAfter,
  programAnswerOf,
} from '../browser/explorer/code-console.js';
import type { Tool } from '../browser/explorer/gateway-client.js';
import { EXECUTE } from '../shared/catalogue-names.js';
import styles from './explorer.module.css';
import { prettyJson } from './payload-view.js';
import { Cancelled, RunFailure } from './result-view.js';
import { RunProgress } from './run-progress.js';
import { SignatureList } from './signature-list.js';
import { type RunGateway, useToolRun } from './use-tool-run.js';

const INDENT = '  ';

/** What an inner call's line says of it. */
function stateText({ state, ms, message }: InnerCall): string {
  switch (state) {
    case 'running':
      return message ? `running: ${message}` : 'running…';
    case 'waiting':
      return 'waiting for your answer';
    case 'done':
      return `done in ${ms} ms`;
    case 'failed':
      return ['failed', ms !== undefined && ` after ${ms} ms`, message && `: ${message}`].filter(Boolean).join('');
    case 'stopped':
      return 'stopped';
  }
}

function InnerCalls({ calls, running }: { calls: InnerCall[]; running: boolean }) {
  return (
    <section className={styles.result} aria-label="Inner calls">
      <h3 className={styles.sectionHeading}>Inner calls</h3>
      {calls.length ? (
        <ol className={styles.innerCalls}>
          {calls.map((call, index) => (
            <li key={index} className={styles.innerCall} data-testid="inner-call" data-state={call.state}>
              <code>{call.tool}</code> <span className={styles.innerCallState}>{stateText(call)}</span>
            </li>
          ))}
        </ol>
      ) : (
        <p className={styles.muted}>
          {running ? 'No call yet.' : 'The tool calls a program makes are listed here as they run.'}
        </p>
      )}
    </section>
  );
}

function Lines({ lines }: { lines: string[] | undefined }) {
  if (!lines) return <p className={styles.muted}>What the program prints with console.log comes with its result.</p>;
  if (!lines.length) return <p className={styles.muted}>Nothing printed.</p>;
  return <pre className={styles.code}>{lines.join('\n')}</pre>;
}

export function CodeConsole({ tools, gateway }: { tools: readonly Tool[]; gateway: RunGateway }) {
  const idPrefix = useId();
  const editor = useRef<HTMLTextAreaElement>(null);
  /** Escape was the last key in the editor: the next Tab leaves it instead of indenting. */
  const escaped = useRef(false);
  const [code, setCode] = useState(() => exampleProgram(tools));
  const [liveCalls, setLiveCalls] = useState<InnerCall[]>([]);
  const { run, start, cancel } = useToolRun(EXECUTE, gateway);
  const answer = useMemo(() => (run.status === 'done' ? programAnswerOf(run.result) : undefined), [run]);
  const running = run.status === 'running';

  let calls = liveCalls;
  if (answer?.ok) calls = answer.calls;
  else if (!running) calls = endedCalls(liveCalls);

  function onRun(event: FormEvent) {
    event.preventDefault();
    setLiveCalls([]);
    void start({ code }, false, { onProgress: (progress) => setLiveCalls((seen) => innerCallsAfter(seen, progress)) });
  }

  /** Puts `text` where the editor's cursor is (over its selection), and keeps the editor's value. */
  function insert(text: string) {
    const element = editor.current!;
    element.focus();
    element.setRangeText(text, element.selectionStart, element.selectionEnd, 'end');
    setCode(element.value);
  }

  function insertCall(tool: Tool) {
    const element = editor.current!;
    const atLineStart = element.selectionStart === 0 || element.value[element.selectionStart - 1] === '\n';
    insert(`${atLineStart ? '' : '\n'}${callTemplate(tool)}\n`);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    const leaving = escaped.current;
    escaped.current = event.key === 'Escape';
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      if (!running) event.currentTarget.form?.requestSubmit();
    } else if (
      event.key === 'Tab' &&
      !leaving &&
      !event.shiftKey &&
      !event.altKey &&
      !event.ctrlKey &&
      !event.metaKey
    ) {
      event.preventDefault();
      insert(INDENT);
    }
  }

  const headingId = `${idPrefix}-heading`;
  const editorId = `${idPrefix}-program`;
  const hintId = `${idPrefix}-hint`;
  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.panelHeading}>
        Code console
      </h2>
      <p className={styles.hint}>
        A program of several tool calls in one request: the gateway runs it in its sandbox with the{' '}
        <code>{EXECUTE}</code> tool of code mode, each <code>tools.*</code> call a real call of the tool, and answers
        only what it returns, what it printed and a line per call. The signatures below are the listed tools as a
        program calls them.
      </p>
      <SignatureList tools={tools} onInsert={insertCall} />
      <form className={styles.form} onSubmit={onRun}>
        <label htmlFor={editorId} className={styles.label}>
          Program
        </label>
        <textarea
          id={editorId}
          ref={editor}
          className={`${styles.input} ${styles.editor}`}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          onKeyDown={onKeyDown}
          rows={12}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          aria-describedby={hintId}
        />
        <p id={hintId} className={styles.hint}>
          JavaScript or TypeScript; <code>return</code> what you want back. Tab indents (Escape, then Tab, leaves the
          editor); Ctrl+Enter runs.
        </p>
        <div className={styles.actions}>
          <button type="submit" className={styles.runButton} disabled={running || !code.trim()}>
            Run
          </button>
        </div>
      </form>
      <InnerCalls calls={calls} running={running} />
      <section className={styles.result} aria-label="Result" aria-busy={running} data-testid="program-result">
        <h3 className={styles.sectionHeading}>Result</h3>
        {run.status === 'idle' && <p className={styles.muted}>Run the program to see what it returns.</p>}
        {run.status === 'running' && <RunProgress run={run} onCancel={cancel} />}
        {run.status === 'cancelled' && <Cancelled />}
        {run.status === 'failed' && <RunFailure error={run.error} />}
        {answer?.ok && <pre className={styles.code}>{prettyJson(answer.result)}</pre>}
        {answer && !answer.ok && (
          <div className={`${styles.error} ${styles.programError}`} role="alert" data-testid="program-error">
            {answer.text}
          </div>
        )}
      </section>
      <section className={styles.result} aria-label="Logs">
        <h3 className={styles.sectionHeading}>Logs</h3>
        <Lines lines={answer?.logs} />
      </section>
    </section>
  );
}
