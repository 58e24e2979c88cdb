// Unit tests of the body limit's rewrap: the request a procedure gets after its body was read keeps what Next.js adds.
import { NextRequest } from 'next/server';
import { expect, test } from 'vitest';
import { withBodyLimit } from '@gateway/http/body-limit';

const rules = { limit: () => 1024, limitName: 'TEST_LIMIT', checkJson: true, reject: (status: number) => new Response(null, { status }) };

test('a JSON body read and checked reaches the handler with the URL’s query on nextUrl, as vovk reads it for req.vovk.query()', async () => {
  let seen: { query?: string | null; body?: unknown } = {};
  const handler = withBodyLimit(async (req: Request) => {
    seen = { query: (req as NextRequest).nextUrl?.searchParams.get('notify'), body: await req.json() };
    return new Response('ok');
  }, rules);
  const request = new NextRequest('http://localhost/api/catalogue/invoices/1/send?notify=false', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ to: 'grace@example.com' }),
  });
  expect((await handler(request)).status).toBe(200);
  expect(seen).toEqual({ query: 'false', body: { to: 'grace@example.com' } });
});
