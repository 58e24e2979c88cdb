// The listed tools: connection status, a search box ranked by the gateway's own search_tools, whether runs declare the
// Tasks extension, and one card per tool — under a heading per toolset, or in the search's order while searching.
import { type ReactNode, useMemo, useState } from 'react';
import type { Tool } from '../browser/explorer/gateway-client.js';
import { groupByToolset, type ToolsetGroup } from '../browser/explorer/toolsets.js';
import styles from './explorer.module.css';
import { FilterRow } from './filter-row.js';
import { Spinner } from './spinner.js';
import { ToolCard } from './tool-card.js';
import type { GatewayState } from './use-gateway.js';
import { type SearchTools, type ToolSearch, useToolSearch } from './use-tool-search.js';
import type { ExplorerGateway } from './use-tool-run.js';

interface ToolListProps {
  state: GatewayState;
  origin: string;
  /** The connection's calls (tools/call, tasks, resources/read, search); the listed tools are added here. */
  calls: Omit<ExplorerGateway, 'tools'> & { searchTools: SearchTools };
  retry(): void;
}

const toolCount = (count: number) => `${count} ${count === 1 ? 'tool' : 'tools'}`;

/** The names the search shows, best first: none when it failed; undefined while the tools are shown by toolset. */
function rankedNames(search: ToolSearch): string[] | undefined {
  if (search.status === 'found' || search.status === 'searching') return search.names;
  return search.status === 'failed' ? [] : undefined;
}

function ToolsetHeading({ group, open, onToggle }: { group: ToolsetGroup; open: boolean; onToggle(): void }) {
  return (
    <h2 className={styles.toolsetHeading} data-testid="toolset-heading">
      <button type="button" className={styles.toolsetToggle} aria-expanded={open} onClick={onToggle}>
        <span className={styles.toolsetName} data-testid="toolset-name">
          {group.name}
        </span>{' '}
        <span className={styles.muted} data-testid="toolset-count">
          {toolCount(group.tools.length)}
        </span>
      </button>
    </h2>
  );
}

/** A short word on the search under way or done, beside the count. */
const SEARCH_NOTES: Partial<Record<ToolSearch['status'], string>> = {
  searching: 'Searching…',
  found: 'best first, as the gateway ranks them',
};

function SearchOutcome({ search, query }: { search: ToolSearch; query: string }) {
  if (search.status === 'failed') {
    return (
      <p className={styles.error} role="alert" data-testid="search-error">
        The search failed: {search.error}
      </p>
    );
  }
  if (search.status !== 'found' || search.names.length) return null;
  return <p className={styles.muted}>No tool matches “{query.trim()}”.</p>;
}

export function ToolList({ state, origin, calls, retry }: ToolListProps) {
  const [query, setQuery] = useState('');
  const [withTasks, setWithTasks] = useState(true);
  const [closed, setClosed] = useState<ReadonlySet<string>>(new Set());
  const tools = useMemo(() => (state.status === 'ready' ? state.tools : []), [state]);
  const gateway = useMemo(() => ({ tools, ...calls }), [tools, calls]);
  const groups = useMemo(() => groupByToolset(tools), [tools]);
  const byName = useMemo(() => new Map(tools.map((tool) => [tool.name, tool])), [tools]);
  const search = useToolSearch(query, calls.searchTools);
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

  const toggle = (name: string) =>
    setClosed((current) => {
      const next = new Set(current);
      if (!next.delete(name)) next.add(name);
      return next;
    });
  const card = (tool: Tool, hidden: boolean) => (
    <ToolCard
      key={`tool:${tool.name}`}
      tool={tool}
      origin={origin}
      gateway={gateway}
      withTasks={withTasks}
      hidden={hidden}
    />
  );
  // One list of siblings in both views, so a card moves rather than remounts: cards filtered out stay mounted
  // (hidden), and their forms and results are still there when the search is cleared. The hits come after the
  // hidden cards, which keep their order: a search moves only its hits in the page.
  const ranked = rankedNames(search)?.filter((name) => byName.has(name));
  let items: ReactNode[];
  if (ranked) {
    const rest = groups.flatMap((group) => group.tools).filter((tool) => !ranked.includes(tool.name));
    items = [...rest.map((tool) => card(tool, true)), ...ranked.map((name) => card(byName.get(name)!, false))];
  } else {
    items = groups.flatMap((group) => {
      const open = !closed.has(group.name);
      const onToggle = () => toggle(group.name);
      const heading = <ToolsetHeading key={`toolset:${group.name}`} group={group} open={open} onToggle={onToggle} />;
      return [heading, ...group.tools.map((tool) => card(tool, !open))];
    });
  }
  return (
    <>
      <FilterRow
        id="tool-filter"
        label="Search tools"
        placeholder="what you want to do, e.g. move a card to done"
        value={query}
        onChange={setQuery}
        shown={`${ranked?.length ?? tools.length} of ${tools.length} tools`}
        shownTestId="tool-count"
      >
        <span className={styles.muted} data-testid="search-status">
          {SEARCH_NOTES[search.status]}
        </span>
        <label className={styles.toggle}>
          <input type="checkbox" checked={withTasks} onChange={(event) => setWithTasks(event.target.checked)} />
          Declare the Tasks extension <span className={styles.muted}>(long calls may then run as tasks)</span>
        </label>
      </FilterRow>
      <SearchOutcome search={search} query={query} />
      <div className={styles.cards}>{items}</div>
    </>
  );
}
