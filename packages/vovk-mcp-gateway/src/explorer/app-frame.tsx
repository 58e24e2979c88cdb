// A tool's MCP App in the explorer: its UI in a sandboxed iframe, hosted through ext-apps' AppBridge
// (src/browser/explorer/app-host), hosted again when the page moves its card (a moved iframe gets a new document) or
// when the user changes whether its resources' updates are forwarded (a host says so once, at the handshake).
import { useEffect, useRef, useState } from 'react';
import { type AppHostGateway, APP_SANDBOX, hostApp, uiResourceUriOf } from '../browser/explorer/app-host.js';
import type { CallToolResult, Tool } from '../browser/explorer/gateway-client.js';
import styles from './explorer.module.css';
import { errorMessage } from './use-gateway.js';

interface AppFrameProps {
  tool: Tool;
  args: Record<string, unknown>;
  result: CallToolResult;
  gateway: AppHostGateway;
}

/** Height of the frame until the app says how tall it is. */
const INITIAL_HEIGHT = 160;

export function AppFrame({ tool, args, result, gateway }: AppFrameProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(INITIAL_HEIGHT);
  const [failure, setFailure] = useState<string | null>(null);
  // The app is shown for this one result: a new run mounts a new frame (the card keys it by run).
  const run = useRef({ tool, args, result, gateway });
  /** Counts the hostings: moving the frame in the page (a search reorders the cards) gives it a new window. */
  const [hosting, setHosting] = useState(0);
  const hostedIn = useRef<Window | null>(null);
  /** Forward the app's resource updates (ext-apps#659); off, the app is hosted as by a host that cannot. */
  const [forwardUpdates, setForwardUpdates] = useState(true);
  const canForward = gateway.resources.canWatch();

  /** Settles once the previous hosting is torn down: the next one starts after it (both would answer the same window). */
  const previousTornDown = useRef<Promise<void>>(Promise.resolve());

  useEffect(() => {
    let closed = false;
    hostedIn.current = frame.current!.contentWindow;
    const options = { forwardUpdates };
    const hosted = previousTornDown.current.then(() => {
      if (closed || !frame.current) throw new Error('The app was closed before it was shown');
      return hostApp(frame.current, run.current.gateway, run.current, setHeight, options);
    });
    hosted.catch((error: unknown) => !closed && setFailure(errorMessage(error)));
    return () => {
      closed = true;
      previousTornDown.current = hosted.then((close) => close(), () => {});
    };
  }, [hosting, forwardUpdates]);

  /** A document loaded in another window than the one hosted: the frame was moved, so the app is hosted anew. */
  function onLoad() {
    if (frame.current && frame.current.contentWindow !== hostedIn.current) setHosting((count) => count + 1);
  }

  return (
    <section className={styles.app} data-testid="mcp-app" aria-label="MCP App">
      <div className={styles.sectionHeader}>
        <h4 className={styles.sectionHeading}>MCP App</h4>
        <code className={styles.muted}>{uiResourceUriOf(tool)}</code>
      </div>
      <label className={styles.toggle} title={canForward ? undefined : 'The gateway sends no resource updates'}>
        <input
          type="checkbox"
          checked={forwardUpdates && canForward}
          disabled={!canForward}
          onChange={(event) => setForwardUpdates(event.target.checked)}
        />
        Forward resource updates <span className={styles.muted}>(ext-apps#659)</span>
      </label>
      {failure && (
        <div className={styles.error} role="alert" data-testid="app-error">
          The app could not be shown: {failure}
        </div>
      )}
      <iframe
        ref={frame}
        className={styles.appFrame}
        title={`${tool.name} app`}
        sandbox={APP_SANDBOX}
        style={{ height }}
        data-testid="app-frame"
        onLoad={onLoad}
      />
    </section>
  );
}
