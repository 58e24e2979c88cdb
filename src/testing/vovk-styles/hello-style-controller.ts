// Test-only procedure in the style of Vovk's Hello World template: it reads the request itself (json, nextUrl, …).
import { operation, post, prefix, procedure } from 'vovk';
import { z } from 'zod';

@prefix('vovk-styles/hello')
export default class HelloStyleController {
  @operation({
    summary: 'Echo the request',
    description: 'Answers what it read of the request: body (JSON, text, bytes), URL, method, Content-Type, a cookie.',
  })
  @post('echo/{id}')
  static echoRequest = procedure({
    body: z
      .object({
        greeting: z.string().min(1).meta({ description: 'Any greeting', examples: ['Hello'] }),
        times: z.int().min(1).max(10).optional().meta({ description: 'How many times' }),
      })
      .meta({ description: 'What to echo' }),
    params: z.object({ id: z.uuid().meta({ description: 'Any UUID' }) }).meta({ description: 'Path parameters' }),
    query: z
      .object({
        q: z.string().meta({ description: 'Any text' }),
        lang: z.enum(['en', 'fr']).optional().meta({ description: 'A language' }),
      })
      .meta({ description: 'Query parameters' }),
    output: z
      .object({
        id: z.uuid(),
        body: z.object({ greeting: z.string(), times: z.int().optional() }),
        raw: z.string().meta({ description: 'The body as text' }),
        bytes: z.int().meta({ description: 'The body’s length in bytes' }),
        q: z.string().nullable(),
        lang: z.string().nullable(),
        pathname: z.string(),
        url: z.string(),
        method: z.string(),
        contentType: z.string().nullable(),
        flavour: z.string().nullable(),
      })
      .meta({ description: 'What the procedure read' }),
  }).handle(async (req, { id }) => {
    const body = await req.json();
    return {
      id,
      body,
      raw: await req.text(),
      bytes: (await req.arrayBuffer()).byteLength,
      q: req.nextUrl.searchParams.get('q'),
      lang: req.nextUrl.searchParams.get('lang') ?? null,
      pathname: req.nextUrl.pathname,
      url: req.url,
      method: req.method,
      contentType: req.headers.get('content-type'),
      flavour: req.cookies.get('flavour')?.value ?? null,
    };
  });
}
