// GET /docs/scalar.js: Scalar's standalone API-reference bundle, streamed from node_modules so /docs works offline.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';

// The package's exports map hides the browser bundle from resolution, so it is found from the project root.
const bundleFile = path.join(process.cwd(), 'node_modules/@scalar/api-reference/dist/browser/standalone.js');

export async function GET(): Promise<Response> {
  const { size } = await stat(bundleFile);
  return new Response(Readable.toWeb(createReadStream(bundleFile)) as ReadableStream, {
    headers: {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Content-Length': String(size),
      'Cache-Control': 'public, max-age=3600',
    },
  });
}
