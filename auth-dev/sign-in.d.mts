// Types of sign-in.mjs (a browserless sign-in at the development authorization server), for the TypeScript tests.

/** A cookie jar for one user agent: name → value, for cookies of the authorization server's origin. */
export declare function createCookieJar(): Map<string, string>;

/**
 * Opens `authorizationUrl`, follows the server's redirects, signs in when asked, answers the consent page (`allow`,
 * default true) and resolves to the URL the server finally redirects to outside itself (the client's redirect URI with
 * `code` and `state`, or `error`). Pass the same `cookieJar` again to reuse the signed-in session (e.g. a step-up).
 */
export declare function signInOverHttp(
  authorizationUrl: string | URL,
  options: { login: string; password: string; allow?: boolean; cookieJar?: Map<string, string> },
): Promise<URL>;
