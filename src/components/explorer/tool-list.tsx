// The listed tools: connection status, a filter box over names and titles, whether runs declare the Tasks extension,
// and one card per tool.
import { useMemo, useState } from 'react';
import type { Tool } from '@/browser/explorer/gateway-client';
import styles from './explorer.module.css';
import { Spinner } from './spinner';
import { ToolCard } from './tool-card';
import type { GatewayState } from './use-gateway';
import type { ExplorerGateway } from './use-tool-run';

interface ToolListProps {
  state: GatewayState;
  origin: string;
  /** The connection's calls (tools/call, tasks, resources/read); the listed tools are added here. */
  calls: Omit<ExplorerGateway, 'tools'>;
  retry(): void;
}

function matchesFilter(tool: Tool, filter: string): boolean {
  const wanted = filter.trim().toLowerCase();
  return [tool.name, tool.title ?? ''].some((text) => text.toLowerCase().includes(wanted));
}

export function ToolList({ state, origin, calls, retry }: ToolListProps) {
  const [filter, setFilter] = useState('');
  const [withTasks, setWithTasks] = useState(true);
  const tools = state.status === 'ready' ? state.tools : [];
  const gateway = useMemo(() => ({ tools, ...calls }), [tools, calls]);
  if (state.status === 'connecting') return <Spinner label="Connecting to the MCP endpoint…" />;
  if (state.status === 'failed') {
    return (
      <div className={styles.error} role="alert" data-testid="connect-error">
        Could not list the tools: the MCP endpoint failed ({state.error}).{' '}
        <button type="button" className={styles.secondaryButton} onClick={retry}>
          Try again
        </button>
      </div>
    );
  }
  // Cards filtered out stay mounted (hidden), so their forms and results are still there when the filter is cleared.
  const shown = new Set(state.tools.filter((tool) => matchesFilter(tool, filter)).map((tool) => tool.name));
  return (
    <>
      <div className={styles.filterRow}>
        <label htmlFor="tool-filter" className={styles.label}>
          Filter tools
        </label>
        <input
          id="tool-filter"
          className={styles.input}
          type="search"
          placeholder="name or title, e.g. user"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
        <span className={styles.muted} role="status" data-testid="tool-count">
          {shown.size} of {state.tools.length} tools
        </span>
        <label className={styles.toggle}>
          <input type="checkbox" checked={withTasks} onChange={(event) => setWithTasks(event.target.checked)} />
          Declare the Tasks extension <span className={styles.muted}>(long calls may then run as tasks)</span>
        </label>
      </div>
      <div className={styles.cards}>
        {state.tools.map((tool) => (
          <ToolCard
            key={tool.name}
            tool={tool}
            origin={origin}
            gateway={gateway}
            withTasks={withTasks}
            hidden={!shown.has(tool.name)}
          />
        ))}
      </div>
      {shown.size === 0 && <p className={styles.muted}>No tool matches “{filter}”.</p>}
    </>
  );
}
