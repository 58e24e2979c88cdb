// The fetcher of the generated REST client (src/client): vovk's own, sending the page's bearer token (a pasted gateway
// token or the OAuth session's access token) with every request; after a 401 it refreshes the session and retries once.
import 'client-only';
import { createFetcher } from 'vovk/fetcher';
import { bearerToken, recoverFromUnauthorized, rememberChallenge } from './oauth.js';

const UNAUTHORIZED_MESSAGE = 'HTTP 401 Unauthorized: sign in, or give the gateway token';

const sendOnce = createFetcher({
  /** vovk rejects JSON error responses only; reject the others too, unless the caller asked for the raw response. */
  transformResponse(data, { interpretAs }, { response }) {
    if (response.ok || interpretAs) return data;
    const failure = new Error(`HTTP ${response.status} ${response.statusText}`.trim());
    throw Object.assign(failure, { statusCode: response.status });
  },
  onError(_failure, _options, { response }) {
    if (response?.status === 401) rememberChallenge(response);
  },
});

type Fetcher = typeof sendOnce;
type FetcherInput = Parameters<Fetcher>[1];

/** The request options with `Authorization: Bearer <token>` among their headers (none without a token). */
function withBearer(input: FetcherInput, token: string | undefined): FetcherInput {
  if (!token) return input;
  const headers = new Headers(input.init?.headers);
  headers.set('Authorization', `Bearer ${token}`);
  return { ...input, init: { ...input.init, headers } };
}

/** Sends once; after a 401 (thrown, or a raw response the caller asked for) again, if the session could recover. */
async function send(handler: Parameters<Fetcher>[0], input: FetcherInput): ReturnType<Fetcher> {
  const token = await bearerToken();
  try {
    const sent = await sendOnce(handler, withBearer(input, token));
    const [, response] = sent;
    if (response.status !== 401) return sent;
    rememberChallenge(response);
    if (!(await recoverFromUnauthorized(token))) return sent;
  } catch (failure) {
    if ((failure as { statusCode?: unknown } | null)?.statusCode !== 401) throw failure;
    // The challenge's JSON has no `message` for vovk to show: say what the page needs.
    if (!(await recoverFromUnauthorized(token))) {
      throw Object.assign(new Error(UNAUTHORIZED_MESSAGE), { statusCode: 401 });
    }
  }
  return sendOnce(handler, withBearer(input, await bearerToken()));
}

export const fetcher: Fetcher = Object.assign(send, { onSuccess: sendOnce.onSuccess, onError: sendOnce.onError });
