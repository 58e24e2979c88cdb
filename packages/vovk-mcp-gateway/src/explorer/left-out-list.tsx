// The registry's handlers the gateway does not serve as MCP tools: the name each would have, its REST route and why.
import styles from './explorer.module.css';

/** A handler that is not an MCP tool, as the server derived it (plain data). */
export interface LeftOutHandler {
  /** The tool name it would have had. */
  tool: string;
  method: string;
  path: string;
  /** Why the gateway cannot serve it as a faithful tool. */
  reason: string;
}

/** Nothing when every handler is a tool. */
export function LeftOutList({ handlers }: { handlers: readonly LeftOutHandler[] }) {
  if (!handlers.length) return null;
  return (
    <section className={`${styles.panel} ${styles.leftOut}`} aria-labelledby="left-out-heading" data-testid="left-out">
      <div>
        <h2 id="left-out-heading" className={styles.panelHeading}>
          Not served as MCP tools
        </h2>
        <p className={styles.hint}>
          Answered over REST only: the gateway cannot make a faithful MCP tool of these handlers, so MCP clients are
          not offered them.
        </p>
      </div>
      <ul className={styles.leftOutList}>
        {handlers.map((handler) => (
          <li
            key={`${handler.tool} ${handler.method} ${handler.path}`}
            className={styles.leftOutItem}
            data-testid="left-out-handler"
          >
            <div className={styles.cardHeader}>
              <h3 className={styles.toolName} data-testid="left-out-name">
                {handler.tool}
              </h3>
              <span className={styles.badge} data-testid="left-out-route">
                {handler.method} {handler.path}
              </span>
            </div>
            <p className={styles.leftOutReason}>
              <span className={styles.muted}>Why: </span>
              <span data-testid="left-out-reason">{handler.reason}</span>
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
