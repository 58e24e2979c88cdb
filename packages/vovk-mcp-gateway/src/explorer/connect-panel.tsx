// How to connect an MCP client: what it sees of the catalogue (connect-choice.tsx), then the endpoint URL, the headers
// when the choice travels in them, and ready-to-paste settings, each with a copy button.
import { useState } from 'react';
import {
  clientConfigs,
  type ConnectSelection,
  NO_SELECTION,
  selectionHeaders,
  selectionURL,
  sseEndpoint,
} from '../browser/explorer/client-configs.js';
import type { ToolsetSize } from '../browser/explorer/toolsets.js';
import { ConnectChoice } from './connect-choice.js';
import { CopyBlock } from './copy-block.js';
import styles from './explorer.module.css';

interface ConnectPanelProps {
  endpoint: string;
  /** The toolsets a client may choose (none until the explorer has listed the tools). */
  toolsets: readonly ToolsetSize[];
}

export function ConnectPanel({ endpoint, toolsets }: ConnectPanelProps) {
  const [selection, setSelection] = useState<ConnectSelection>(NO_SELECTION);
  const headers = Object.entries(selectionHeaders(selection));
  return (
    <section className={styles.panel} aria-labelledby="connect-heading" data-testid="connect-panel">
      <h2 id="connect-heading" className={styles.panelHeading}>
        Connect a client
      </h2>
      <ConnectChoice
        toolsets={toolsets}
        selection={selection}
        onChange={(change) => setSelection((current) => ({ ...current, ...change }))}
      />
      <CopyBlock text={selectionURL(endpoint, selection)} label="MCP endpoint URL" testId="endpoint-url">
        <h3 className={styles.configHeading}>MCP endpoint</h3>
        <p className={styles.hint}>Streamable HTTP, stateless; both protocol eras.</p>
      </CopyBlock>
      <CopyBlock text={selectionURL(sseEndpoint(endpoint), selection)} label="HTTP+SSE endpoint URL" testId="sse-url">
        <h3 className={styles.configHeading}>HTTP+SSE endpoint</h3>
        <p className={styles.hint}>For clients that still speak the 2024-11-05 transport (a config with "type": "sse").</p>
      </CopyBlock>
      {headers.length > 0 && (
        <CopyBlock text={headers.map(([name, value]) => `${name}: ${value}`).join('\n')} label="headers" testId="selection-headers">
          <h3 className={styles.configHeading}>Headers</h3>
          <p className={styles.hint}>Sent with every request (a query in the URL would win over them).</p>
        </CopyBlock>
      )}
      {clientConfigs(endpoint, selection).map((config) => (
        <CopyBlock key={config.id} text={config.text} label={`${config.label} settings`} testId={`config-${config.id}`}>
          <h3 className={styles.configHeading}>{config.label}</h3>
          <p className={styles.hint}>{config.hint}</p>
        </CopyBlock>
      ))}
    </section>
  );
}
