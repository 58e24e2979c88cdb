// One MCP content item of a tool result: its type, its annotations as labels, and its payload.
import type { Annotations, ContentBlock } from '@modelcontextprotocol/client';
import { contentPayload } from '../browser/explorer/payload.js';
import styles from './explorer.module.css';
import { PayloadView } from './payload-view.js';

/** "audience: user", "priority: 0.8", …: one label per annotation the item carries. */
function annotationLabels(annotations: Annotations | undefined): string[] {
  return Object.entries(annotations ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : String(value)}`);
}

export function ContentItem({ item }: { item: ContentBlock }) {
  const payload = contentPayload(item);
  const labels = annotationLabels('annotations' in item ? item.annotations : undefined);
  const mimeType = 'mimeType' in item && item.mimeType ? ` · ${item.mimeType}` : '';
  return (
    <li className={styles.contentItem} data-testid="content-item" data-type={item.type}>
      <div className={styles.itemHeader}>
        <span className={styles.itemType}>
          {item.type}
          {payload.kind === 'json' && item.type === 'text' ? ' (JSON)' : ''}
          {mimeType}
        </span>
        {labels.map((label) => (
          <span key={label} className={styles.annotation} data-testid="annotation">
            {label}
          </span>
        ))}
      </div>
      <PayloadView payload={payload} />
    </li>
  );
}
