// The Resources view: what the gateway serves as MCP resources (resources/list) and resource templates
// (resources/templates/list), each with its URI, type, description and the tool behind it; Read shows the contents —
// JSON, text, an image or audio, or bytes to download. A template's variables are filled in before reading.
import { type FormEvent, useId, useState } from 'react';
import type { ReadResourceResult, ResourceAccess } from '../browser/explorer/resources.js';
import { resourcePayload } from '../browser/explorer/payload.js';
import { expandTemplate, templateVariables } from '../browser/explorer/uri-templates.js';
import { RESOURCE_TOOL_META_KEY } from '../shared/resource-meta.js';
import styles from './explorer.module.css';
import { PayloadView } from './payload-view.js';
import { Spinner } from './spinner.js';
import { type Listing, type Read, useResourceListing, useResourceRead } from './use-resources.js';

type Listed = Extract<Listing, { status: 'ready' }>;
type Described = { name: string; title?: string; description?: string; mimeType?: string; _meta?: Record<string, unknown> };

function Contents({ result }: { result: ReadResourceResult }) {
  return (
    <ul className={styles.contentList}>
      {result.contents.map((content, index) => (
        <li key={index} className={styles.contentItem} data-testid="resource-content">
          <div className={styles.itemHeader}>
            <code className={styles.itemType}>{content.uri}</code>
            <span className={styles.itemType}>{content.mimeType ?? 'no type'}</span>
          </div>
          <PayloadView payload={resourcePayload(content)} />
        </li>
      ))}
    </ul>
  );
}

function ReadOutcome({ read }: { read: Read }) {
  switch (read.status) {
    case 'idle':
      return null;
    case 'reading':
      return <Spinner label={`Reading ${read.uri}…`} />;
    case 'failed':
      return (
        <p className={styles.error} role="alert">
          Reading {read.uri} failed: {read.error}
        </p>
      );
    case 'done':
      return <Contents result={read.result} />;
  }
}

/** Name, title, type, description and the tool behind a resource or template. */
function About({ item, address }: { item: Described; address: string }) {
  const tool = item._meta?.[RESOURCE_TOOL_META_KEY];
  return (
    <>
      <header className={styles.cardHeader}>
        <h3 className={styles.toolName} data-testid="resource-name">
          {item.name}
        </h3>
        <code className={styles.badge} data-testid="resource-uri">
          {address}
        </code>
      </header>
      {item.title && <p className={styles.toolTitle}>{item.title}</p>}
      {item.description && <p className={styles.description}>{item.description}</p>}
      <p className={styles.muted}>
        {item.mimeType ?? 'no type given'}
        {typeof tool === 'string' && (
          <>
            {' · served by '}
            <code>{tool}</code>
          </>
        )}
      </p>
    </>
  );
}

function ResourceCard({ resource, access }: { resource: Listed['resources'][number]; access: ResourceAccess }) {
  const { read, start } = useResourceRead(access);
  return (
    <article className={styles.card} data-testid="resource-card" aria-label={resource.uri}>
      <About item={resource} address={resource.uri} />
      <div className={styles.actions}>
        <button type="button" className={styles.secondaryButton} onClick={() => start(resource.uri)}>
          Read
        </button>
      </div>
      <ReadOutcome read={read} />
    </article>
  );
}

function TemplateCard({ template, access }: { template: Listed['templates'][number]; access: ResourceAccess }) {
  const idPrefix = useId();
  const variables = templateVariables(template.uriTemplate);
  const [values, setValues] = useState<Record<string, string>>({});
  const { read, start } = useResourceRead(access);
  const uri = expandTemplate(template.uriTemplate, values);
  function onRead(event: FormEvent) {
    event.preventDefault();
    start(uri);
  }
  return (
    <article className={styles.card} data-testid="resource-template-card" aria-label={template.uriTemplate}>
      <About item={template} address={template.uriTemplate} />
      <form className={styles.form} onSubmit={onRead}>
        {variables.map((name) => (
          <div key={name} className={styles.field}>
            <label className={styles.label} htmlFor={`${idPrefix}-${name}`}>
              {name}
            </label>
            <input
              id={`${idPrefix}-${name}`}
              className={styles.input}
              autoComplete="off"
              value={values[name] ?? ''}
              onChange={(event) => setValues({ ...values, [name]: event.target.value })}
            />
          </div>
        ))}
        <div className={styles.actions}>
          <button type="submit" className={styles.secondaryButton} disabled={variables.some((name) => !values[name])}>
            Read
          </button>
          <code className={styles.muted}>{uri}</code>
        </div>
      </form>
      <ReadOutcome read={read} />
    </article>
  );
}

function Listings({ listing, access }: { listing: Listed; access: ResourceAccess }) {
  return (
    <>
      <h3 className={styles.toolsetHeading}>Resources</h3>
      {listing.resources.length ? (
        listing.resources.map((resource) => <ResourceCard key={resource.uri} resource={resource} access={access} />)
      ) : (
        <p className={styles.muted}>The gateway lists no resources.</p>
      )}
      <h3 className={styles.toolsetHeading}>Templates</h3>
      {listing.templates.length ? (
        listing.templates.map((template) => <TemplateCard key={template.uriTemplate} template={template} access={access} />)
      ) : (
        <p className={styles.muted}>The gateway lists no resource templates.</p>
      )}
    </>
  );
}

/** `shown`: whether the view is the one on screen (the gateway is asked once it first is). */
export function ResourcesView({ access, shown }: { access: ResourceAccess; shown: boolean }) {
  const { listing, reload } = useResourceListing(access, shown);
  return (
    <section className={styles.cards} aria-label="Resources">
      <div className={styles.actions}>
        <p className={styles.muted}>
          What the gateway serves as MCP resources: context a client attaches, read with <code>resources/read</code>.
        </p>
        <button type="button" className={styles.secondaryButton} onClick={reload}>
          Reload
        </button>
      </div>
      {listing.status === 'loading' && <Spinner label="Listing the resources…" />}
      {listing.status === 'failed' && (
        <p className={styles.error} role="alert">
          Could not list the resources: {listing.error}
        </p>
      )}
      {listing.status === 'ready' && <Listings listing={listing} access={access} />}
    </section>
  );
}
