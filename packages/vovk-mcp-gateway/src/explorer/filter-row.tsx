// The row above a list the explorer filters: a labelled search box, how many of the list it shows, and any extras.
import type { ReactNode } from 'react';
import styles from './explorer.module.css';

interface FilterRowProps {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange(value: string): void;
  /** What is shown of the list, e.g. `3 of 20 tools` (a status region with this test id). */
  shown: string;
  shownTestId: string;
  children?: ReactNode;
}

export function FilterRow({ id, label, placeholder, value, onChange, shown, shownTestId, children }: FilterRowProps) {
  return (
    <div className={styles.filterRow}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <input
        id={id}
        className={styles.input}
        type="search"
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      <span className={styles.muted} role="status" data-testid={shownTestId}>
        {shown}
      </span>
      {children}
    </div>
  );
}
