// Shows one payload: JSON pretty-printed, text as is, an <img> or an <audio controls> from a data URL, bytes as their
// size (and a download, when the payload carries them).
import type { Payload } from '../browser/explorer/payload.js';
import styles from './explorer.module.css';

export const prettyJson = (value: unknown) => JSON.stringify(value, null, 2);

export function PayloadView({ payload }: { payload: Payload }) {
  switch (payload.kind) {
    case 'json':
      return (
        <pre className={styles.code} data-testid="json-view">
          {prettyJson(payload.value)}
        </pre>
      );
    case 'text':
      return (
        <pre className={styles.code} data-testid="text-view">
          {payload.text}
        </pre>
      );
    case 'image':
      return <img className={styles.image} src={payload.src} alt={`Result image (${payload.mimeType})`} data-testid="result-image" />;
    case 'audio':
      return (
        <audio className={styles.audio} controls src={payload.src} data-testid="result-audio">
          <a href={payload.src}>Download the {payload.mimeType} audio</a>
        </audio>
      );
    case 'binary':
      return (
        <p className={styles.muted}>
          {payload.size} bytes of {payload.mimeType}{' '}
          {payload.src ? (
            <a href={payload.src} download data-testid="download-link">
              Download
            </a>
          ) : (
            '(not shown)'
          )}
        </p>
      );
  }
}
