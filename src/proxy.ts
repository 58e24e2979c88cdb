// Next.js proxy for /api: a path that is not valid percent-encoding gets a 400 JSON error (Next would answer a bare 500).
import { NextResponse } from 'next/server';

export function proxy(request: Request): Response {
  try {
    decodeURIComponent(new URL(request.url).pathname);
    return NextResponse.next();
  } catch {
    return Response.json({ statusCode: 400, message: 'Malformed URL: invalid percent-encoding in the path', isError: true }, { status: 400 });
  }
}

// Only paths holding a percent sign: Next.js buffers the body of every request a proxy runs for, which must not
// happen to ordinary API calls (their bodies are bounded by the doors' own limits).
export const config = { matcher: '/api/:path(.*%.*)' };
