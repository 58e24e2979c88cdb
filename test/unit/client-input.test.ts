// Unit tests of asking the MCP client for input: answers by key, suspension, confirmations, and the signed requestState.
import type { ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, test } from 'vitest';
import {
  ActionNotConfirmed,
  askClient,
  clientCan,
  confirmAction,
  InputRequiredSignal,
  inputRequest,
} from '@gateway/mcp/client-input';
import { createInputStateCodec, ForeignStateError, type InputState, inputDigest, stateOfCall } from '@gateway/mcp/input-state';
import { requestContext, runInRequestContext, runInToolCall, type ToolCall } from '@gateway/request-context';

const ELICITATION = { elicitation: { form: {} } };
const nameForm = inputRequest.elicit({
  message: 'Your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
});

/** A context of a tools/call whose request state accessor returns `state`. */
function contextWith(state?: unknown): ServerContext {
  return { mcpReq: { id: 1, method: 'tools/call', requestState: () => state } } as unknown as ServerContext;
}

/** Runs `fn` as a tool call with these answers and client capabilities; returns the call too. */
function inCall<T>(fn: () => T, call: Partial<ToolCall> = {}): { call: ToolCall; outcome: T | Error } {
  const toolCall: ToolCall = { mcp: contextWith(), answers: {}, confirmDestructive: true, ...call };
  try {
    return { call: toolCall, outcome: runInToolCall(toolCall, fn) };
  } catch (error) {
    return { call: toolCall, outcome: error as Error };
  }
}

describe('askClient', () => {
  test('suspends the call with every request it has no answer for, and records them on the call', () => {
    const sampling = inputRequest.createMessage({ messages: [], maxTokens: 10 });
    const { call, outcome } = inCall(() => askClient({ name: nameForm, summary: sampling }), {
      answers: { name: { action: 'accept', content: { name: 'Ada' } } },
    });
    expect(outcome).toBeInstanceOf(InputRequiredSignal);
    expect(Object.keys((outcome as InputRequiredSignal).inputRequests)).toEqual(['summary']);
    expect(call.pendingInput).toEqual({ summary: sampling });
  });

  test('returns the answers by key once the call carries them all', () => {
    const { call, outcome } = inCall(() => askClient({ name: nameForm, roots: inputRequest.listRoots() }), {
      answers: { name: { action: 'accept', content: { name: 'Ada' } }, roots: { roots: [{ uri: 'file:///tmp' }] } },
    });
    expect(outcome).toEqual({
      name: { kind: 'elicit', action: 'accept', content: { name: 'Ada' } },
      roots: { kind: 'roots', roots: [{ uri: 'file:///tmp' }] },
    });
    expect(call.pendingInput).toBeUndefined();
  });

  test('an answer of another kind than asked is not taken for the answer', () => {
    const { outcome } = inCall(() => askClient({ name: nameForm }), { answers: { name: { roots: [] } } });
    expect(outcome).toBeInstanceOf(InputRequiredSignal);
  });

  test('outside of an MCP tool call (REST) it is a 400 that says to call it as an MCP tool', () => {
    const outcome = runInRequestContext('rest', () => {
      try {
        return askClient({ name: nameForm });
      } catch (error) {
        return error as InputRequiredSignal;
      }
    });
    expect(outcome).toBeInstanceOf(InputRequiredSignal);
    expect((outcome as InputRequiredSignal).statusCode).toBe(400);
    expect((outcome as InputRequiredSignal).message).toMatch(/only an MCP client can give/);
  });
});

describe('confirmAction', () => {
  const question = 'Delete the task “Water the plants”?';

  test('asks a client that can be asked, and goes ahead once it accepts', () => {
    const asked = inCall(() => confirmAction(question), { clientCapabilities: ELICITATION });
    expect(asked.outcome).toBeInstanceOf(InputRequiredSignal);
    expect(asked.call.pendingInput?.confirmation).toMatchObject({ method: 'elicitation/create', params: { message: question } });
    const accepted = inCall(() => confirmAction(question), {
      clientCapabilities: ELICITATION,
      answers: { confirmation: { action: 'accept', content: { confirm: true } } },
    });
    expect(accepted.outcome).toBeUndefined();
    expect(accepted.call.confirmed).toBe(true);
  });

  test.each([
    ['declined', { action: 'decline' }],
    ['cancelled', { action: 'cancel' }],
    ['declined', { action: 'accept', content: { confirm: false } }],
  ])('is not done when the user %s (%j)', (word, answer) => {
    const { outcome, call } = inCall(() => confirmAction(question), {
      clientCapabilities: ELICITATION,
      answers: { confirmation: answer },
    });
    expect(outcome).toBeInstanceOf(ActionNotConfirmed);
    expect((outcome as Error).message).toContain(`the user ${word}`);
    expect((outcome as Error).message).toContain(question);
    expect(call.confirmed).toBeUndefined();
  });

  test('asks nothing of a client without elicitation, when turned off, or on REST', () => {
    expect(inCall(() => confirmAction(question), { clientCapabilities: { sampling: {} } }).outcome).toBeUndefined();
    expect(inCall(() => confirmAction(question), { clientCapabilities: undefined }).outcome).toBeUndefined();
    expect(inCall(() => confirmAction(question), { clientCapabilities: ELICITATION, confirmDestructive: false }).outcome).toBeUndefined();
    expect(runInRequestContext('rest', () => confirmAction(question))).toBeUndefined();
    expect(inCall(() => clientCan('elicitation'), { clientCapabilities: ELICITATION }).outcome).toBe(true);
  });
});

describe('requestState', () => {
  const state: InputState = { tool: 'TaskController_deleteTask', input: inputDigest({ params: { id: 3 } }), answers: {} };
  const secret = 'a'.repeat(32);
  // The caller is part of the binding: the guards set it on the request context.
  const asCaller = <T>(subject: string, fn: () => Promise<T>) =>
    runInRequestContext('mcp', () => {
      Object.assign(requestContext() ?? {}, { caller: { subject, clientId: 'client', scopes: [] } });
      return fn();
    });

  test('what one instance mints another with the same secret accepts; another secret, a changed byte or another caller is refused', async () => {
    const minted = await asCaller('ada', () => createInputStateCodec(secret).mint(state, contextWith()));
    await expect(asCaller('ada', () => createInputStateCodec(secret).verify(minted, contextWith()))).resolves.toEqual(state);
    await expect(asCaller('ada', () => createInputStateCodec('b'.repeat(32)).verify(minted, contextWith()))).rejects.toThrow();
    const tampered = `${minted.slice(0, 10)}${minted[10] === 'A' ? 'B' : 'A'}${minted.slice(11)}`;
    await expect(asCaller('ada', () => createInputStateCodec(secret).verify(tampered, contextWith()))).rejects.toThrow();
    await expect(asCaller('eve', () => createInputStateCodec(secret).verify(minted, contextWith()))).rejects.toThrow();
  });

  test('a stale state is refused', async () => {
    const codec = createInputStateCodec(secret, 1);
    const minted = await asCaller('ada', () => codec.mint(state, contextWith()));
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await expect(asCaller('ada', () => codec.verify(minted, contextWith()))).rejects.toThrow(/expired/);
  });

  test('a state minted for another tool or other arguments is refused by the call', () => {
    expect(stateOfCall(contextWith(state), 'TaskController_deleteTask', { params: { id: 3 } })).toEqual(state);
    expect(stateOfCall(contextWith(undefined), 'TaskController_deleteTask', { params: { id: 3 } })).toBeUndefined();
    expect(() => stateOfCall(contextWith(state), 'TaskController_deleteTask', { params: { id: 4 } })).toThrow(ForeignStateError);
    expect(() => stateOfCall(contextWith(state), 'UserController_deleteUser', { params: { id: 3 } })).toThrow(ForeignStateError);
    expect(() => stateOfCall(contextWith('raw string'), 'TaskController_deleteTask', { params: { id: 3 } })).toThrow(ForeignStateError);
  });
});
