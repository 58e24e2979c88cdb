// The REST side of a derived tool: the URL its form values make, the curl line, and the REST response when sent.
import { useState } from 'react';
import { type Payload, responsePayload } from '../browser/explorer/payload.js';
import { curlCommand, restRequest } from '../shared/rest-request.js';
import type { ToolArguments } from '../browser/explorer/schema-form.js';
import type { RestRoute } from '../shared/rest-meta.js';
import { CopyBlock } from './copy-block.js';
import styles from './explorer.module.css';
import { PayloadView } from './payload-view.js';
import { sendRest } from './rest-client.js';
import { Spinner } from './spinner.js';
import { errorMessage } from './use-gateway.js';

type RestResult =
  | { status: 'idle' | 'sending' }
  | { status: 'received'; code: number; statusText: string; contentType: string; payload: Payload }
  | { status: 'failed'; message: string };

interface RestViewProps {
  route: RestRoute;
  /** The valid part of the form (unknown path parameters stay `{name}` in the URL). */
  args: ToolArguments;
  /** The origin the shown URL and curl line point at (the request itself goes to this page's origin). */
  origin: string;
  /** Whether the form is valid; when not, sending only shows the form's messages. */
  valid: boolean;
  onInvalid(): void;
}

/** Path parameters as the shown URL has them (encoded); vovk's client puts them into the path as given. */
function encodedParams(args: ToolArguments): Record<string, string> {
  const params = Object.entries((args.params ?? {}) as Record<string, unknown>);
  const text = (value: unknown) => (typeof value === 'object' ? JSON.stringify(value) : String(value));
  return Object.fromEntries(params.map(([name, value]) => [name, encodeURIComponent(text(value))]));
}

async function send(route: RestRoute, args: ToolArguments, body: unknown): Promise<RestResult> {
  const query = (args.query ?? {}) as Record<string, unknown>;
  const response = await sendRest(route, { params: encodedParams(args), query, body });
  const contentType = response.headers.get('content-type');
  const payload = responsePayload(contentType, new Uint8Array(await response.arrayBuffer()));
  return { status: 'received', code: response.status, statusText: response.statusText, contentType: contentType ?? '', payload };
}

export function RestView({ route, args, origin, valid, onInvalid }: RestViewProps) {
  const [response, setResponse] = useState<RestResult>({ status: 'idle' });
  const request = restRequest(route, args, origin);

  async function onSend() {
    if (!valid) return onInvalid();
    setResponse({ status: 'sending' });
    try {
      setResponse(await send(route, args, request.body));
    } catch (error) {
      setResponse({ status: 'failed', message: errorMessage(error) });
    }
  }

  return (
    <section className={styles.rest} data-testid="rest-view" aria-label="REST">
      <div className={styles.sectionHeader}>
        <h4 className={styles.sectionHeading}>REST</h4>
        <button type="button" className={styles.secondaryButton} onClick={onSend} disabled={response.status === 'sending'}>
          Send REST request
        </button>
      </div>
      <p className={styles.restUrl}>
        <span className={styles.method}>{request.method}</span>{' '}
        <code data-testid="rest-url">{request.url}</code>
      </p>
      <CopyBlock text={curlCommand(request)} label="curl command" testId="curl">
        <span className={styles.caption}>curl</span>
      </CopyBlock>
      {response.status === 'sending' && <Spinner label="Sending…" />}
      {response.status === 'failed' && (
        <div className={styles.error} role="alert">
          REST request failed: {response.message}
        </div>
      )}
      {response.status === 'received' && (
        <div data-testid="rest-response">
          <p className={response.code < 400 ? styles.statusOk : styles.statusError} data-testid="rest-status">
            HTTP {response.code} {response.statusText}
            {response.contentType && <span className={styles.muted}> · {response.contentType}</span>}
          </p>
          <PayloadView payload={response.payload} />
        </div>
      )}
    </section>
  );
}
