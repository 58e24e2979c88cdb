// A spinner with a text label, announced politely to assistive technology.
import styles from './explorer.module.css';

export function Spinner({ label = 'Running…' }: { label?: string }) {
  return (
    <span className={styles.spinnerRow} role="status" data-testid="spinner">
      <span className={styles.spinner} aria-hidden="true" />
      {label}
    </span>
  );
}
