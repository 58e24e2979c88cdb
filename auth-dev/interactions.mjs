// The sign-in and consent steps oidc-provider hands to the application, as Koa middleware on `/interaction/:uid`.
import { consentPage, loginPage, renderError } from './pages.mjs';

const interactionPath = /^\/interaction\/([\w-]+)$/;

/** Reads an `application/x-www-form-urlencoded` request body (a sign-in or consent form; small). */
async function readForm(request) {
  const chunks = [];
  let size = 0;
  for await (const chunk of request) {
    size += chunk.length;
    if (size > 16 * 1024) throw new Error('form too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Answers a form POST with 303 See Other, so the browser follows with a GET. */
function seeOther(ctx, url) {
  ctx.status = 303;
  ctx.redirect(url);
}

/** Grants what the consent prompt found missing, on the interaction's grant (a new one on first consent). */
async function grantMissing(provider, { grantId, session, params, prompt }) {
  const grant = grantId
    ? await provider.Grant.find(grantId)
    : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
  const { missingOIDCScope, missingOIDCClaims, missingResourceScopes } = prompt.details;
  if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
  if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims);
  for (const [resource, scopes] of Object.entries(missingResourceScopes ?? {})) {
    grant.addResourceScope(resource, scopes.join(' '));
  }
  return grant.save();
}

/**
 * Koa middleware for `provider.use`: renders and handles the login and consent prompts of an interaction.
 * `users` (a Map) maps a username to `{ password }`; a successful sign-in makes the username the account id, which
 * becomes the tokens' `sub`.
 */
export function interactionRoutes(provider, { users, loginHint }) {
  async function handleInteraction(ctx) {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    const client = await provider.Client.find(details.params.client_id);
    const clientName = client?.clientName ?? details.params.client_id;
    const action = ctx.path;
    const form = ctx.method === 'POST' ? await readForm(ctx.req) : undefined;

    if (details.prompt.name === 'login') {
      if (!form) {
        ctx.type = 'html';
        ctx.body = loginPage({ action, clientName, hint: loginHint });
        return;
      }
      const login = form.get('login') ?? '';
      if (users.get(login)?.password !== form.get('password')) {
        ctx.status = 401;
        ctx.type = 'html';
        ctx.body = loginPage({ action, clientName, login, error: 'Wrong username or password.', hint: loginHint });
        return;
      }
      const result = { login: { accountId: login } };
      seeOther(ctx, await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: false }));
      return;
    }

    if (details.prompt.name === 'consent') {
      if (!form) {
        const { missingOIDCScope = [], missingResourceScopes = {} } = details.prompt.details;
        // Resource scopes are provider scopes too (so clients may register them), hence in both lists: show them once.
        const shownForResources = new Set(Object.values(missingResourceScopes).flat());
        ctx.type = 'html';
        ctx.body = consentPage({
          action,
          clientName,
          accountId: details.session?.accountId,
          scopesByResource: missingResourceScopes,
          otherScopes: missingOIDCScope.filter((scope) => scope !== 'openid' && !shownForResources.has(scope)),
        });
        return;
      }
      const result =
        form.get('decision') === 'allow'
          ? { consent: { grantId: await grantMissing(provider, details) } }
          : { error: 'access_denied', error_description: 'The user denied the request.' };
      seeOther(ctx, await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: true }));
      return;
    }

    ctx.throw(501, `interaction prompt ${details.prompt.name} is not supported`);
  }

  return async function interactionMiddleware(ctx, next) {
    if (!interactionPath.test(ctx.path) || !['GET', 'POST'].includes(ctx.method)) return next();
    ctx.set('Cache-Control', 'no-store');
    try {
      await handleInteraction(ctx);
    } catch (error) {
      // e.g. SessionNotFound when the interaction cookie is missing or expired: say so instead of a bare 500.
      ctx.status = error.statusCode ?? error.status ?? 500;
      await renderError(ctx, {
        error: error.error ?? error.name,
        error_description: error.error_description ?? error.message,
      });
    }
  };
}
