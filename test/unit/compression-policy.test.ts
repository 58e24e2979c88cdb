// Unit tests of the compression policy's read of a JSON answer: a body read whole goes on as its bytes (and counts as
// sent at once); a body still coming goes on as a stream, its first chunks replayed, and ends when it is read.
import { expect, test } from 'vitest';
import { whenBodyEnds } from '@/lib/http/body-end';
import { underCompressionPolicy } from '@/lib/http/compression-policy';

const json = { 'content-type': 'application/json' };

/** A JSON body arriving as `chunks`, the next one only when read. */
function streamed(chunks: string[]): Response {
  const queue = [...chunks];
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(new TextEncoder().encode(next));
    },
  });
  return new Response(body, { headers: json });
}

test('a small JSON answer is marked no-transform and goes on whole, counted as sent at once', async () => {
  const answer = await underCompressionPolicy(Response.json({ id: 1, name: 'Ada Lovelace' }), 'rest');
  expect(answer.headers.get('cache-control')).toContain('no-transform');
  let ended: boolean | undefined;
  const logged = whenBodyEnds(answer, (aborted) => (ended = aborted));
  expect(ended).toBe(false);
  expect(await logged.json()).toEqual({ id: 1, name: 'Ada Lovelace' });
});

test('a large JSON answer in one chunk is left to compression and goes on whole', async () => {
  const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, title: `Task ${i}` })) };
  const answer = await underCompressionPolicy(Response.json(big), 'rest');
  expect(answer.headers.get('cache-control')).toBeNull();
  let ended: boolean | undefined;
  const logged = whenBodyEnds(answer, (aborted) => (ended = aborted));
  expect(ended).toBe(false);
  expect(await logged.json()).toEqual(big);
});

test('a JSON answer still coming after the threshold goes on as a stream from its first byte, and ends when read', async () => {
  const parts = ['{"items":[', `"${'a'.repeat(700)}",`, `"${'b'.repeat(700)}",`, `"${'c'.repeat(700)}"`, ']}'];
  const answer = await underCompressionPolicy(streamed(parts), 'rest');
  let ended: boolean | undefined;
  const logged = whenBodyEnds(answer, (aborted) => (ended = aborted));
  expect(ended).toBeUndefined();
  expect(await logged.text()).toBe(parts.join(''));
  expect(ended).toBe(false);
});
