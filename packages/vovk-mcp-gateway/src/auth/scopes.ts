// The gateway's OAuth scopes: what each HTTP method needs, and `@scopes(…)`, a procedure's extra scopes on both doors.
import 'server-only';
import { createDecorator, type VovkSchema } from 'vovk';
import { currentCaller } from '../request-context.js';
import { insufficientScopeResponse } from './challenges.js';
import { READ_SCOPE, WRITE_SCOPE } from '../shared/scope-names.js';

/** `@operation` field where `@scopes` records a procedure's extra scopes (OpenAPI readers see it too). */
export const SCOPES_KEY = 'x-scopes';

const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/** The scope an HTTP method needs: `gateway:read` to read, `gateway:write` for anything else. */
export function scopeOfMethod(method: string): string {
  return READ_METHODS.includes(method.toUpperCase()) ? READ_SCOPE : WRITE_SCOPE;
}

/** Every scope a procedure needs: its method's, then those it declares. */
export function requiredScopes(method: string, declared: readonly string[] = []): [string, ...string[]] {
  return [...new Set([scopeOfMethod(method), ...declared])] as [string, ...string[]];
}

/** The scopes a caller lacks of `needed` (none when auth is off: no caller). */
export function missingScopes(granted: readonly string[] | undefined, needed: readonly string[]): string[] {
  return granted ? needed.filter((scope) => !granted.includes(scope)) : [];
}

type HandlerSchema = VovkSchema['segments'][string]['controllers'][string]['handlers'][string] | null;

/**
 * Declares the scopes a procedure needs besides its method's, next to its handler:
 * `@scopes('gateway:admin') @del('{id}') static deleteUser = …`. The declaration is recorded in the procedure's
 * operation (`x-scopes`); the REST door and the MCP door both enforce it (403 `insufficient_scope`), and tools/list
 * shows the tool only to callers who hold every scope.
 */
export function scopes(...declared: [string, ...string[]]) {
  return createDecorator(
    (req, next) => {
      const needed = requiredScopes(req.method ?? 'GET', declared);
      return missingScopes(currentCaller()?.scopes, needed).length ? insufficientScopeResponse(needed) : next();
    },
    () => (handlerSchema: HandlerSchema) => ({
      ...handlerSchema,
      operationObject: { ...handlerSchema?.operationObject, [SCOPES_KEY]: declared },
    }),
  )();
}
