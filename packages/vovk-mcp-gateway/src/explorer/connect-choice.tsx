// What a client will see of the catalogue, chosen in the connect panel: toolsets, read-only, the surface, and whether
// the choice travels in the endpoint URL's query or in headers.
import type { ConnectSelection, Surface } from '../browser/explorer/client-configs.js';
import type { ToolsetSize } from '../browser/explorer/toolsets.js';
import styles from './explorer.module.css';

interface ConnectChoiceProps {
  /** The toolsets the explorer's connection lists, with their sizes. */
  toolsets: readonly ToolsetSize[];
  selection: ConnectSelection;
  onChange(change: Partial<ConnectSelection>): void;
}

const SURFACES: Array<{ value: Surface | ''; label: string }> = [
  { value: '', label: 'default: all, or search for many tools' },
  { value: 'all', label: 'all: every selected tool' },
  { value: 'search', label: 'search: search_tools and call_tool' },
  { value: 'code', label: 'code: search_tools and execute (programs)' },
];

export function ConnectChoice({ toolsets, selection, onChange }: ConnectChoiceProps) {
  const chosen = new Set(selection.toolsets);
  /** The toolsets ticked, in the order the panel lists them (so the URL reads the same whatever the clicks' order). */
  function tick(name: string, on: boolean) {
    if (on) chosen.add(name);
    else chosen.delete(name);
    onChange({ toolsets: toolsets.map((toolset) => toolset.name).filter((each) => chosen.has(each)) });
  }
  return (
    <fieldset className={styles.fieldset} data-testid="connect-choice">
      <legend className={styles.legend}>What the client sees</legend>
      <fieldset className={styles.choiceGroup}>
        <legend className={styles.choiceLegend}>
          Toolsets <span className={styles.muted}>(none ticked: every tool)</span>
        </legend>
        <div className={styles.toolsetChoices}>
          {toolsets.map(({ name, tools }) => (
            <label key={name} className={styles.toggle}>
              <input type="checkbox" checked={chosen.has(name)} onChange={(event) => tick(name, event.target.checked)} />
              {name} <span className={styles.muted}>({tools})</span>
            </label>
          ))}
        </div>
      </fieldset>
      <label className={styles.toggle}>
        <input
          type="checkbox"
          checked={selection.readonly}
          onChange={(event) => onChange({ readonly: event.target.checked })}
        />
        Read-only tools only
      </label>
      <label className={styles.choiceRow}>
        Tools listed
        <select
          className={styles.input}
          value={selection.surface ?? ''}
          onChange={(event) => onChange({ surface: (event.target.value || undefined) as Surface | undefined })}
        >
          {SURFACES.map(({ value, label }) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <fieldset className={styles.choiceGroup}>
        <legend className={styles.choiceLegend}>Send the choice in</legend>
        {(['query', 'headers'] as const).map((via) => (
          <label key={via} className={styles.toggle}>
            <input type="radio" name="connect-via" checked={selection.via === via} onChange={() => onChange({ via })} />
            {via === 'query' ? 'the URL’s query' : 'headers (X-MCP-…)'}
          </label>
        ))}
      </fieldset>
    </fieldset>
  );
}
