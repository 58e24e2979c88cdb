// A block of copyable text (a config, a command, a URL) under a header row with its copy button; without a clipboard
// the button selects the text for the user to copy.
import { type ReactNode, useRef, useState } from 'react';
import { copyText } from '../browser/explorer/copy-text.js';
import styles from './explorer.module.css';

interface CopyBlockProps {
  text: string;
  /** What is copied, for the button's accessible name ("Copy …"). */
  label: string;
  /** The header row's left side (a heading, a caption). */
  children?: ReactNode;
  testId?: string;
}

export function CopyBlock({ text, label, children, testId }: CopyBlockProps) {
  const textRef = useRef<HTMLPreElement>(null);
  const [status, setStatus] = useState<'idle' | 'copied' | 'manual'>('idle');

  async function copy() {
    if (await copyText(text)) {
      setStatus('copied');
      setTimeout(() => setStatus('idle'), 2000);
      return;
    }
    if (textRef.current) window.getSelection()?.selectAllChildren(textRef.current);
    setStatus('manual');
  }

  return (
    <div className={styles.copyBlock}>
      <div className={styles.copyHeader}>
        <div className={styles.copyCaption}>{children}</div>
        <button type="button" className={styles.secondaryButton} onClick={copy} aria-label={`Copy ${label}`}>
          {status === 'copied' ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre ref={textRef} className={styles.code} data-testid={testId}>
        {text}
      </pre>
      <span className={styles.copyStatus} role="status">
        {status === 'manual' ? 'Selected: press Ctrl+C (⌘C) to copy' : ''}
      </span>
    </div>
  );
}
