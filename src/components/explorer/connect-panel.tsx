// How to connect an MCP client: the endpoint URL and ready-to-paste settings, each with a copy button.
import { clientConfigs } from '@/browser/explorer/client-configs';
import { CopyBlock } from './copy-block';
import styles from './explorer.module.css';

export function ConnectPanel({ endpoint }: { endpoint: string }) {
  return (
    <section className={styles.panel} aria-labelledby="connect-heading" data-testid="connect-panel">
      <h2 id="connect-heading" className={styles.panelHeading}>
        Connect a client
      </h2>
      <CopyBlock text={endpoint} label="MCP endpoint URL" testId="endpoint-url">
        <h3 className={styles.configHeading}>MCP endpoint</h3>
        <p className={styles.hint}>Streamable HTTP, stateless; both protocol eras.</p>
      </CopyBlock>
      {clientConfigs(endpoint).map((config) => (
        <CopyBlock key={config.id} text={config.text} label={`${config.label} settings`} testId={`config-${config.id}`}>
          <h3 className={styles.configHeading}>{config.label}</h3>
          <p className={styles.hint}>{config.hint}</p>
        </CopyBlock>
      ))}
    </section>
  );
}
