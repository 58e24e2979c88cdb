// Plays the browser in an authorization-code sign-in at the dev server, over plain HTTP, for tests without a browser.

/** A cookie jar for one user agent: name → value, for cookies of the authorization server's origin. */
export function createCookieJar() {
  return new Map();
}

function storeCookies(jar, response) {
  for (const cookie of response.headers.getSetCookie()) {
    const [pair] = cookie.split(';');
    const separator = pair.indexOf('=');
    jar.set(pair.slice(0, separator).trim(), pair.slice(separator + 1));
  }
}

/**
 * Opens `authorizationUrl`, follows the server's redirects, signs in with `login`/`password` when asked, answers the
 * consent page (`allow`), and resolves to the URL the server finally redirects to outside itself (the client's
 * redirect URI with `code` and `state`, or `error`). Pass the same `cookieJar` again to reuse the signed-in session.
 * @param {string | URL} authorizationUrl
 * @param {{ login: string, password: string, allow?: boolean, cookieJar?: Map<string, string> }} options
 * @returns {Promise<URL>}
 */
export async function signInOverHttp(
  authorizationUrl,
  { login, password, allow = true, cookieJar = createCookieJar() },
) {
  const serverOrigin = new URL(authorizationUrl).origin;
  const request = async (url, form) => {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...cookieJar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form && { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      body: form && new URLSearchParams(form),
    });
    storeCookies(cookieJar, response);
    return response;
  };

  let url = new URL(authorizationUrl);
  let form;
  for (let step = 0; step < 12; step++) {
    const response = await request(url, form);
    form = undefined;
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url);
      if (url.origin !== serverOrigin) return url;
      continue;
    }
    const page = await response.text();
    if (!response.ok) {
      const reason =
        /role="alert">([^<]*)</.exec(page)?.[1] ??
        page
          .replace(/<[^>]*>/g, ' ')
          .replace(/\s+/g, ' ')
          .slice(0, 300);
      throw new Error(`sign-in stopped at ${url} with HTTP ${response.status}: ${reason}`);
    }
    if (page.includes('name="password"')) form = { login, password };
    else if (page.includes('name="decision"')) form = { decision: allow ? 'allow' : 'deny' };
    else throw new Error(`sign-in stopped at ${url}: a page with neither a login nor a consent form`);
  }
  throw new Error(`sign-in did not return to the client after 12 steps (last: ${url})`);
}
