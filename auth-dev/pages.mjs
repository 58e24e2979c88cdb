// The dev authorization server's HTML pages (sign-in, consent, sign-out, errors): plain forms, nothing external.

/** Escapes text for HTML content and attribute values. */
function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const style = `body{font-family:system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.4rem}label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.4rem;box-sizing:border-box}
button{margin-top:1rem;padding:.5rem 1rem}.error{color:#b00020}.hint{color:#555;font-size:.9rem}
code{background:#eee;padding:0 .2rem}`;

function layout(title, body) {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<title>${escapeHtml(title)} · gateway auth:dev</title><style>${style}</style></head>
<body><h1>${escapeHtml(title)}</h1>
${body}
<p class="hint">Development authorization server (<code>npm run auth:dev</code>): not for production.</p>
</body>
</html>`;
}

/** The sign-in form of an interaction; `error` is shown above it after a failed attempt. */
export function loginPage({ action, clientName, login = '', error, hint }) {
  return layout(
    'Sign in',
    `<p>to continue to <strong>${escapeHtml(clientName)}</strong></p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(action)}" autocomplete="off">
<label for="login">Username</label><input id="login" name="login" value="${escapeHtml(login)}" required autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" required>
<button type="submit">Sign in</button>
</form>
<p class="hint">${escapeHtml(hint)}</p>`,
  );
}

/** The consent form of an interaction: which client asks for which scopes on which resources. */
export function consentPage({ action, clientName, accountId, scopesByResource, otherScopes }) {
  const resourceItems = Object.entries(scopesByResource).map(
    ([resource, scopes]) =>
      `<li><code>${escapeHtml(scopes.join(' '))}</code> on <code>${escapeHtml(resource)}</code></li>`,
  );
  const otherItems = otherScopes.length ? [`<li><code>${escapeHtml(otherScopes.join(' '))}</code></li>`] : [];
  const items = [...resourceItems, ...otherItems];
  return layout(
    'Allow access',
    `<p>Signed in as <strong>${escapeHtml(accountId)}</strong>.</p>
<p><strong>${escapeHtml(clientName)}</strong> asks for:</p>
<ul>${items.length ? items.join('') : '<li>no new scopes</li>'}</ul>
<form method="post" action="${escapeHtml(action)}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

/** oidc-provider's `rpInitiatedLogout.logoutSource`: asks before ending the session; `form` is the provider's form. */
export async function logoutSource(ctx, form) {
  ctx.type = 'html';
  ctx.body = layout(
    'Sign out',
    `${form}<p>Sign out of the development authorization server?</p>
<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>
<button type="submit" form="op.logoutForm">Stay signed in</button>`,
  );
}

/** oidc-provider's `rpInitiatedLogout.postLogoutSuccessSource`: shown when no post-logout redirect was asked for. */
export async function postLogoutSuccessSource(ctx) {
  ctx.type = 'html';
  ctx.body = layout('Signed out', '<p>You are signed out. You can close this page.</p>');
}

/** oidc-provider's `renderError`: the error and its description, as text. */
export async function renderError(ctx, out) {
  ctx.type = 'html';
  ctx.body = layout(
    'Something went wrong',
    Object.entries(out)
      .map(([key, value]) => `<p><strong>${escapeHtml(key)}</strong>: ${escapeHtml(value)}</p>`)
      .join('\n'),
  );
}
