// The fetcher of the generated REST client (src/client): vovk's own, sending the gateway token with every request.
import { createFetcher } from 'vovk/fetcher';
import { authHeaders } from './browser-token';

export const fetcher = createFetcher({
  prepareRequestInit(init) {
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(authHeaders())) headers.set(name, value);
    return { ...init, headers };
  },
  /** vovk rejects JSON error responses only; reject the others too, unless the caller asked for the raw response. */
  transformResponse(data, { interpretAs }, { response }) {
    if (response.ok || interpretAs) return data;
    const failure = new Error(`HTTP ${response.status} ${response.statusText}`.trim());
    throw Object.assign(failure, { statusCode: response.status });
  },
});
