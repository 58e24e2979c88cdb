// `@longRunning` on REST with `Prefer: respond-async`: the call's body, query and params are checked as the procedure
// checks them, then its `checkFirst`, before any job is made; a refusal is the synchronous call's 400, at once.
import { describe, expect, test, vi } from 'vitest';
import { HttpException, HttpStatus, initSegment, post, prefix, procedure } from 'vovk';
import { NextRequest } from 'next/server';
import { z } from 'zod';
import { longRunning } from '@gateway/long-work/long-running';

const checkFirst = vi.fn((args: Record<string, unknown>) => {
  // A refusal of its own that shows what it was given: the input as the schemas parsed it.
  throw new HttpException(HttpStatus.BAD_REQUEST, `checked first: ${JSON.stringify(args)}`);
});

@prefix('long')
class LongController {
  @post('run/{id}')
  @longRunning({ checkFirst })
  static run = procedure({
    params: z.object({ id: z.string().regex(/^\d+$/, 'id: digits only') }),
    query: z.object({ times: z.coerce.number().int().max(5, 'times: at most 5') }),
    body: z.object({ label: z.string().max(10, 'label: at most 10 characters') }),
  }).handle(() => ({ ran: true }));
}

const segment = initSegment({ controllers: { LongController } });

/** A POST of `run/{id}?{query}` with `body`, asking for an asynchronous answer, as the REST route serves it (a NextRequest). */
async function runAsync(id: string, query: string, body: unknown): Promise<{ status: number; message: string; location: string | null }> {
  const request = new NextRequest(`http://localhost/api/long/run/${id}?${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', prefer: 'respond-async' },
    body: JSON.stringify(body),
  });
  const response = await segment.POST(request as never, { params: Promise.resolve({ vovk: ['long', 'run', id] }) } as never);
  return { status: response.status, message: ((await response.json()) as { message: string }).message, location: response.headers.get('location') };
}

describe('@longRunning with Prefer: respond-async (REST)', () => {
  test.each([
    ['params', 'x1', 'times=2', { label: 'ok' }, /digits only/],
    ['query', '7', 'times=9', { label: 'ok' }, /at most 5/],
    ['body', '7', 'times=2', { label: 'much too long a label' }, /at most 10 characters/],
  ])('invalid %s: the procedure’s 400 at once, no job, checkFirst not asked', async (_slot, id, query, body, why) => {
    checkFirst.mockClear();
    const answer = await runAsync(id, query, body);
    expect(answer).toMatchObject({ status: 400, location: null });
    expect(answer.message).toMatch(why);
    expect(checkFirst).not.toHaveBeenCalled();
  });

  test('valid input reaches checkFirst as the schemas parsed it (the query coerced), and its refusal is the answer', async () => {
    checkFirst.mockClear();
    const answer = await runAsync('7', 'times=2', { label: 'ok' });
    expect(answer).toMatchObject({ status: 400, location: null });
    expect(checkFirst).toHaveBeenCalledTimes(1);
    expect(checkFirst.mock.calls[0][0]).toEqual({ body: { label: 'ok' }, query: { times: 2 }, params: { id: '7' } });
  });
});
