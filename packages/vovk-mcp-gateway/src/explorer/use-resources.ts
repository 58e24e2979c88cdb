// React state of the explorer's Resources view: the gateway's resources and templates (listed when the view is first
// shown, again on Reload), and a resource's read (the last one asked wins).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ListResourcesResult, ListResourceTemplatesResult, ReadResourceResult, ResourceAccess } from '../browser/explorer/resources.js';
import { errorMessage } from './use-gateway.js';

export type Listing =
  | { status: 'loading' }
  | { status: 'ready'; resources: ListResourcesResult['resources']; templates: ListResourceTemplatesResult['resourceTemplates'] }
  | { status: 'failed'; error: string };

/** The listing once `shown` first; `reload` asks the gateway again. */
export function useResourceListing(access: ResourceAccess, shown: boolean) {
  const [listing, setListing] = useState<Listing>({ status: 'loading' });
  const [asked, setAsked] = useState(0);
  const wanted = shown || asked > 0;
  useEffect(() => {
    if (!wanted) return;
    let current = true;
    setListing({ status: 'loading' });
    const fresh = asked > 0;
    Promise.all([access.list(fresh), access.templates(fresh)]).then(
      ([{ resources }, { resourceTemplates }]) => current && setListing({ status: 'ready', resources, templates: resourceTemplates }),
      (error: unknown) => current && setListing({ status: 'failed', error: errorMessage(error) }),
    );
    return () => {
      current = false;
    };
  }, [access, wanted, asked]);
  return { listing, reload: useCallback(() => setAsked((count) => count + 1), []) };
}

export type Read =
  | { status: 'idle' }
  | { status: 'reading'; uri: string }
  | { status: 'done'; uri: string; result: ReadResourceResult }
  | { status: 'failed'; uri: string; error: string };

/** resources/read of the URI asked last (always from the gateway, never the client's cache). */
export function useResourceRead(access: ResourceAccess) {
  const [read, setRead] = useState<Read>({ status: 'idle' });
  const last = useRef(0);
  const start = useCallback(
    (uri: string) => {
      const number = ++last.current;
      setRead({ status: 'reading', uri });
      access.read(uri, true).then(
        (result) => number === last.current && setRead({ status: 'done', uri, result }),
        (error: unknown) => number === last.current && setRead({ status: 'failed', uri, error: errorMessage(error) }),
      );
    },
    [access],
  );
  return { read, start };
}
