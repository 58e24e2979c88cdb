// The explorer's tool search: what the user types goes (once typing pauses) to the gateway's own `search_tools`, and
// its answer — tool names, best first — is what the page shows; nothing is ranked in the page.
import { useEffect, useState } from 'react';
import type { SearchHit } from '../browser/explorer/gateway-client.js';
import { errorMessage } from './use-gateway.js';

/** How long typing must pause before the query is sent. */
const DEBOUNCE_MS = 200;

/** The connection's `search_tools` call. */
export type SearchTools = (query: string, signal: AbortSignal) => Promise<SearchHit[]>;

/** The gateway's answer for one query: the names it ranks, best first, or why the search failed. */
type Answer = { query: string; names: string[] } | { query: string; error: string };

export type ToolSearch =
  /** No query: the tools are shown by toolset. */
  | { status: 'off' }
  /** The query is on its way; `names` are the previous query's, shown meanwhile (none before the first answer). */
  | { status: 'searching'; names?: string[] }
  | { status: 'found'; names: string[] }
  | { status: 'failed'; error: string };

/** The search for `query` (trimmed; empty: off) through `searchTools`; a newer query gives up the older one. */
export function useToolSearch(query: string, searchTools: SearchTools): ToolSearch {
  const wanted = query.trim();
  const [answer, setAnswer] = useState<Answer | undefined>();

  useEffect(() => {
    if (!wanted) return;
    const asking = new AbortController();
    const answered = (found: Answer) => !asking.signal.aborted && setAnswer(found);
    const timer = setTimeout(() => {
      searchTools(wanted, asking.signal).then(
        (hits) => answered({ query: wanted, names: hits.map((hit) => hit.name) }),
        (error: unknown) => answered({ query: wanted, error: errorMessage(error) }),
      );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      asking.abort();
    };
  }, [wanted, searchTools]);

  if (!wanted) return { status: 'off' };
  if (answer?.query !== wanted) {
    return { status: 'searching', names: answer && 'names' in answer ? answer.names : undefined };
  }
  return 'names' in answer ? { status: 'found', names: answer.names } : { status: 'failed', error: answer.error };
}
