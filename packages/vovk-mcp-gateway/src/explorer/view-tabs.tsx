// The explorer's views as tabs (the tools, the code console, the resources): arrow keys, Home and End move between
// them; a view not shown stays mounted, so its forms, program and results are still there when it comes back.
import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';
import styles from './explorer.module.css';

export interface View {
  id: string;
  label: string;
  content: ReactNode;
}

export function ViewTabs({ views, current, onSelect }: { views: View[]; current: string; onSelect(id: string): void }) {
  const idPrefix = useId();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const tabId = (view: View) => `${idPrefix}-tab-${view.id}`;
  const panelId = (view: View) => `${idPrefix}-panel-${view.id}`;

  function onKeyDown(event: KeyboardEvent, index: number) {
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      Home: 0,
      End: views.length - 1,
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = (moves[event.key] + views.length) % views.length;
    onSelect(views[next].id);
    tabs.current[next]?.focus();
  }

  return (
    <>
      <div className={styles.tabs} role="tablist" aria-label="Views">
        {views.map((view, index) => (
          <button
            key={view.id}
            ref={(element) => {
              tabs.current[index] = element;
            }}
            id={tabId(view)}
            type="button"
            role="tab"
            className={styles.tab}
            aria-selected={view.id === current}
            aria-controls={panelId(view)}
            tabIndex={view.id === current ? 0 : -1}
            onClick={() => onSelect(view.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {view.label}
          </button>
        ))}
      </div>
      {views.map((view) => (
        <div
          key={view.id}
          id={panelId(view)}
          role="tabpanel"
          aria-labelledby={tabId(view)}
          hidden={view.id !== current}
        >
          {view.content}
        </div>
      ))}
    </>
  );
}
