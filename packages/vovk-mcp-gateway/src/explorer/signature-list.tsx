// The typed signatures of the listed tools, as a program calls them (`tools.<name>(args): Promise<value>`): by
// toolset, each folding away, filtered by name; each with a button that puts a call of it in the program.
import { useId, useMemo, useState } from 'react';
import { signaturesByToolset } from '../browser/explorer/code-console.js';
import type { Tool } from '../browser/explorer/gateway-client.js';
import styles from './explorer.module.css';
import { FilterRow } from './filter-row.js';

export function SignatureList({ tools, onInsert }: { tools: readonly Tool[]; onInsert(tool: Tool): void }) {
  const filterId = useId();
  const [filter, setFilter] = useState('');
  const groups = useMemo(() => signaturesByToolset(tools), [tools]);
  const byName = useMemo(() => new Map(tools.map((tool) => [tool.name, tool])), [tools]);
  const needle = filter.trim().toLowerCase();
  const shown = groups
    .map((group) => ({
      ...group,
      signatures: group.signatures.filter(({ tool }) => tool.toLowerCase().includes(needle)),
    }))
    .filter((group) => group.signatures.length);
  const count = shown.reduce((sum, group) => sum + group.signatures.length, 0);
  return (
    <section className={styles.signatures} aria-label="Signatures">
      <FilterRow
        id={filterId}
        label="Filter signatures"
        placeholder="part of a tool's name, e.g. task"
        value={filter}
        onChange={setFilter}
        shown={`${count} of ${tools.length} tools`}
        shownTestId="signature-count"
      />
      <div className={styles.signatureGroups}>
        {shown.map((group) => (
          <details key={group.name} className={styles.signatureGroup} open>
            <summary className={styles.signatureToolset}>
              <span className={styles.toolsetName}>{group.name}</span>
            </summary>
            <ul className={styles.signatureList}>
              {group.signatures.map(({ tool, signature }) => (
                <li key={tool} className={styles.signature} data-testid="signature">
                  <pre className={styles.code}>{signature}</pre>
                  <button
                    type="button"
                    className={styles.secondaryButton}
                    aria-label={`Insert call: ${tool}`}
                    onClick={() => onInsert(byName.get(tool)!)}
                  >
                    Insert call
                  </button>
                </li>
              ))}
            </ul>
          </details>
        ))}
      </div>
    </section>
  );
}
