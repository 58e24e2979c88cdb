// One tool: name, title, REST route, the toolsets it is in besides its module's (and whether only its app calls it),
// description, its input form with Run, its MCP App (when it has a UI), the MCP result (with progress and Cancel while
// it runs, a task's status) and the REST view.
import { type FormEvent, memo, useId, useMemo, useState } from 'react';
import { isAppOnly, showsAppFor } from '../browser/explorer/app-host.js';
import type { Tool } from '../browser/explorer/gateway-client.js';
import { extraToolsetsOf } from '../browser/explorer/toolsets.js';
import { type FormValues, fieldsOf, initialValues, type JsonSchema, readForm } from '../browser/explorer/schema-form.js';
import { restRouteOf } from '../shared/rest-meta.js';
import { AppFrame } from './app-frame.js';
import styles from './explorer.module.css';
import { ResultView } from './result-view.js';
import { RestView } from './rest-view.js';
import { controlId, SchemaFields } from './schema-fields.js';
import { type ExplorerGateway, useToolRun } from './use-tool-run.js';

interface ToolCardProps {
  tool: Tool;
  origin: string;
  /** The explorer's MCP connection: runs the tool, and hosts its app. */
  gateway: ExplorerGateway;
  /** Runs declare the Tasks extension: the server may answer one with a task. */
  withTasks: boolean;
  /** Filtered out (or its toolset folded): kept mounted, so its form and result survive. */
  hidden: boolean;
}

/** Derived tools' descriptions start with their title; the card shows the title once. */
function descriptionBody(tool: Tool): string {
  const description = tool.description ?? '';
  const [first, ...rest] = description.split('\n');
  return tool.title && first.trim() === tool.title ? rest.join('\n').trim() : description.trim();
}

function ToolCardView({ tool, origin, gateway, withTasks, hidden }: ToolCardProps) {
  const idPrefix = useId();
  const fields = useMemo(() => fieldsOf(tool.inputSchema as JsonSchema), [tool.inputSchema]);
  const route = restRouteOf(tool._meta);
  const extraToolsets = useMemo(() => extraToolsetsOf(tool), [tool]);
  const [values, setValues] = useState<FormValues>(() => initialValues(fields));
  const [showErrors, setShowErrors] = useState(false);
  const { run, results, ranWith, start, cancel } = useToolRun(tool.name, gateway);
  const hasApp = showsAppFor(tool);
  const { args, errors } = readForm(fields, values);
  const invalidKeys = Object.keys(errors);

  /** Shows the form's messages and moves focus to the first invalid control. */
  function revealErrors() {
    setShowErrors(true);
    document.getElementById(controlId(idPrefix, invalidKeys[0]))?.focus();
  }

  function onRun(event: FormEvent) {
    event.preventDefault();
    if (invalidKeys.length) return revealErrors();
    void start(args, withTasks);
  }

  const headingId = `${idPrefix}-name`;
  const description = descriptionBody(tool);
  return (
    <article className={styles.card} data-testid="tool-card" aria-labelledby={headingId} hidden={hidden}>
      <header className={styles.cardHeader}>
        <h3 id={headingId} className={styles.toolName} data-testid="tool-name">
          {tool.name}
        </h3>
        <span className={styles.badge} data-testid="tool-route">
          {route ? `${route.method} ${route.path}` : 'MCP only'}
        </span>
      </header>
      {extraToolsets.length > 0 && (
        <p className={styles.tags}>
          <span className={styles.muted}>Also in</span>
          {extraToolsets.map((name) => (
            <span key={name} className={styles.tag} data-testid="toolset-tag">
              {name}
            </span>
          ))}
        </p>
      )}
      {isAppOnly(tool) && (
        <p className={styles.tags}>
          <span className={styles.tag} data-testid="app-only">
            app only
          </span>
          <span className={styles.muted}>its MCP App calls it through the host; hosts do not offer it to the model</span>
        </p>
      )}
      {tool.title && <p className={styles.toolTitle}>{tool.title}</p>}
      {description && <p className={styles.description}>{description}</p>}
      <form className={styles.form} onSubmit={onRun} noValidate>
        {fields.length ? (
          <SchemaFields
            fields={fields}
            values={values}
            errors={showErrors ? errors : {}}
            idPrefix={idPrefix}
            onChange={(key, value) => setValues((current) => ({ ...current, [key]: value }))}
          />
        ) : (
          <p className={styles.muted}>No input.</p>
        )}
        <div className={styles.actions}>
          <button type="submit" className={styles.runButton} data-testid="run-button" disabled={run.status === 'running'}>
            Run
          </button>
        </div>
      </form>
      {hasApp && run.status === 'done' && !run.result.isError && (
        <AppFrame key={results} tool={tool} args={ranWith} result={run.result} gateway={gateway} />
      )}
      <ResultView run={run} onCancel={cancel} />
      {route && <RestView route={route} args={args} origin={origin} valid={!invalidKeys.length} onInvalid={revealErrors} />}
    </article>
  );
}

/** Renders again only when its own props change: typing in the search box re-renders the list, not every card. */
export const ToolCard = memo(ToolCardView);
