// The signed requestState of input-required results (2026-07-28): which call it belongs to and the answers so far.
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { createRequestStateCodec, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { HttpException, HttpStatus } from 'vovk';
import { requestContext } from '../request-context.js';

/**
 * What a requestState carries: the call it was minted for (tool and digest of its input), the answers so far and
 * what the tool carries into the next round (`ToolCall.carry`).
 */
export interface InputState {
  tool: string;
  input: string;
  answers: Record<string, unknown>;
  carry?: unknown;
}

/** How long a client may take to answer before the state is refused as expired, in seconds. */
const STATE_TTL_SECONDS = 600;

/** A canonical digest of a call's validated input (the schema fixes the key order). */
export function inputDigest(input: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(input ?? null))
    .digest('base64url');
}

/**
 * The codec of this process: HMAC-signed with `secret` (GATEWAY_STATE_SECRET; random per process without it), valid
 * for ten minutes and bound to the request's method and the authenticated caller, so state minted for one caller or
 * method is refused for another (JSON-RPC -32602 "Invalid or expired requestState", from the SDK).
 */
export function createInputStateCodec(
  secret: string | undefined,
  ttlSeconds = STATE_TTL_SECONDS,
): RequestStateCodec<InputState> {
  return createRequestStateCodec<InputState>({
    key: secret ?? randomBytes(32),
    ttlSeconds,
    bind: (ctx: ServerContext) => {
      const caller = requestContext()?.caller;
      return [ctx.mcpReq.method, caller?.clientId ?? '', caller?.subject ?? ''].join('\0');
    },
  });
}

/** The verified state of a retried call; throws when it was minted for another tool or other input. */
export function stateOfCall(ctx: ServerContext, tool: string, input: unknown): InputState | undefined {
  const state = ctx.mcpReq.requestState<InputState>();
  if (state === undefined) return undefined;
  if (typeof state !== 'object' || state.tool !== tool || state.input !== inputDigest(input)) {
    throw new ForeignStateError();
  }
  return state;
}

/** A requestState that verifies but belongs to another call (another tool or other arguments). */
export class ForeignStateError extends HttpException {
  constructor() {
    super(HttpStatus.BAD_REQUEST, 'Invalid requestState: it was issued for another tool call (another tool or other arguments). Call the tool again without it.');
  }
}
