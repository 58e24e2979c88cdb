// The wire of an HTTP+SSE session: the endpoint event first, messages as `message` events, heartbeats while idle, its
// end when the session ends, and the session told when the client goes.
import { expect, test, vi } from 'vitest';
import { EventStreamWire } from '@gateway/mcp/sessions/event-stream-wire';

const decoder = new TextDecoder();

test('the endpoint comes first, then each message as a message event; close ends the stream', async () => {
  const onClientGone = vi.fn();
  const wire = new EventStreamWire({ endpoint: '/api/message?sessionId=abc', heartbeatMs: 60_000, onClientGone });
  expect(wire.response.headers.get('content-type')).toBe('text/event-stream');
  expect(wire.response.headers.get('x-accel-buffering')).toBe('no');
  wire.send({ jsonrpc: '2.0', id: 1, result: {} });
  wire.close();
  wire.send({ jsonrpc: '2.0', id: 2, result: {} });
  expect(await wire.response.text()).toBe(
    'event: endpoint\ndata: /api/message?sessionId=abc\n\nevent: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n',
  );
  expect(onClientGone).not.toHaveBeenCalled();
});

test('heartbeats while idle; a client that goes ends them and is reported once', async () => {
  vi.useFakeTimers();
  try {
    const onClientGone = vi.fn();
    const wire = new EventStreamWire({ endpoint: '/m', heartbeatMs: 1000, onClientGone });
    const reader = wire.response.body!.getReader();
    expect(decoder.decode((await reader.read()).value)).toContain('event: endpoint');
    vi.advanceTimersByTime(2500);
    expect(decoder.decode((await reader.read()).value)).toBe(': heartbeat\n\n');
    expect(decoder.decode((await reader.read()).value)).toBe(': heartbeat\n\n');
    await reader.cancel();
    expect(onClientGone).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
    wire.close();
    expect(onClientGone).toHaveBeenCalledTimes(1);
  } finally {
    vi.useRealTimers();
  }
});
