// Unit tests of handlers as tools: any schema library's input schema, file arguments, plain methods, streams, left-out ones.
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { get, JSONLinesResponder, operation, post, prefix, procedure, type VovkRequest } from 'vovk';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { deriveProcedureTools, type GatewayTool } from '@gateway/mcp/gateway-tools';
import { collectStream, cutNote } from '@gateway/mcp/stream-items';
import { ToModelOutput } from '@gateway/tools';


/** What a procedure read of its request, as every style below answers it. */
async function whatWasRead(req: VovkRequest<{ n: number }, { q: string }, { id: string }>) {
  return { url: req.url, path: req.nextUrl.pathname, q: req.nextUrl.searchParams.get('q'), method: req.method, json: await req.json() };
}

@prefix('styles')
class StylesController {
  @operation({ summary: 'Zod' })
  @post('zod/{id}')
  static zodStyle = procedure({
    params: z.object({ id: z.string() }),
    query: z.object({ q: z.string() }),
    body: z.object({ n: z.number().int() }),
  }).handle(whatWasRead);

  @operation({ summary: 'Valibot' })
  @post('valibot/{id}')
  static valibotStyle = procedure({
    params: toStandardJsonSchema(v.object({ id: v.string() })),
    query: toStandardJsonSchema(v.object({ q: v.string() })),
    body: toStandardJsonSchema(v.object({ n: v.pipe(v.number(), v.integer()) })),
  }).handle(whatWasRead);

  @operation({ summary: 'ArkType' })
  @post('arktype/{id}')
  static arktypeStyle = procedure({
    params: type({ id: 'string' }),
    query: type({ q: 'string' }),
    body: type({ n: 'number.integer' }),
  }).handle(whatWasRead);

  @operation({ summary: 'Upload' })
  @post('upload')
  static upload = procedure({ contentType: 'multipart/form-data', body: z.object({ file: z.file(), note: z.string() }) }).handle(async (req) => {
    const { file, note } = await req.vovk.body();
    const form = await req.formData();
    return { name: file.name, type: file.type, text: await file.text(), note, formNote: form.get('note') };
  });

  @get('plain/{word}')
  static plainGet(req: VovkRequest<unknown, { q?: string }>, { word }: { word: string }) {
    return { word, q: req.nextUrl.searchParams.get('q') };
  }

  @post('plain')
  static async plainPost(req: VovkRequest<{ greeting: string }>) {
    return { greeting: (await req.json()).greeting };
  }

  @operation({ summary: 'Count' })
  @get('count')
  static count = procedure({ query: z.object({ to: z.coerce.number() }), iteration: z.object({ n: z.number() }) }).handle(async function* (req) {
    for (let n = 1; n <= req.vovk.query().to; n++) yield { n };
  });

  @operation({ summary: 'Responder' })
  @get('responder')
  static responder = procedure().handle((req) => {
    const responder = new JSONLinesResponder<{ n: number }>(req);
    void (async () => {
      for (let n = 1; n <= 3; n++) await responder.send({ n });
      responder.close();
    })();
    return responder;
  });

  @operation({ summary: 'Raw' })
  @post('raw')
  static raw = procedure({ contentType: 'application/octet-stream', body: z.unknown() }).handle(() => null);
}

const { tools, leftOut } = deriveProcedureTools({ StylesController }, ToModelOutput.MCP, () => 'http://gateway.test', {
  streams: { maxItems: 5, maxBytes: 1024 },
});
const toolNamed = (name: string) => tools.find((tool) => tool.name === name) as GatewayTool;
const inputJson = (name: string) => toolNamed(name).inputSchema!['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
const validate = (name: string, input: unknown) => toolNamed(name).inputSchema!['~standard'].validate(input);

describe('every schema library vovk takes', () => {
  test.each(['zodStyle', 'valibotStyle', 'arktypeStyle'])('%s: the JSON Schema vovk emits, the same refusal, the request REST would see', async (handler) => {
    const name = `StylesController_${handler}`;
    const json = inputJson(name) as { properties: Record<string, { properties?: Record<string, unknown> }>; required: string[] };
    expect(Object.keys(json.properties).sort()).toEqual(['body', 'params', 'query']);
    expect(Object.keys(json.properties.body.properties ?? {})).toEqual(['n']);
    expect(json.required.sort()).toEqual(['body', 'params', 'query']);
    const refused = await validate(name, { params: { id: 'a' }, query: { q: 'x' }, body: { n: 1.5 } });
    expect(refused.issues?.[0]?.path?.[0]).toBe('body');
    const path = `/api/styles/${handler.replace('Style', '')}/a`;
    expect(await toolNamed(name).execute({ params: { id: 'a' }, query: { q: 'hi' }, body: { n: 2 } })).toMatchObject({
      structuredContent: { url: `http://gateway.test${path}?q=hi`, path, q: 'hi', method: 'POST', json: { n: 2 } },
    });
  });
});

describe('uploads', () => {
  test('a z.file() field is a base64 file argument; the procedure gets a real File and a multipart body', async () => {
    const file = (inputJson('StylesController_upload') as { properties: { body: { properties: { file: Record<string, unknown> } } } }).properties.body.properties.file;
    expect(file).toMatchObject({ type: 'object', required: ['data'] });
    const args = { body: { file: { data: Buffer.from('hello').toString('base64'), name: 'a.txt', mimeType: 'text/plain' }, note: 'n' } };
    const checked = await validate('StylesController_upload', args);
    expect(checked.issues).toBeUndefined();
    const result = await toolNamed('StylesController_upload').execute((checked as { value: unknown }).value);
    expect(result.structuredContent).toEqual({ name: 'a.txt', type: 'text/plain', text: 'hello', note: 'n', formNote: 'n' });
    expect((await validate('StylesController_upload', { body: { file: { data: '%%%' }, note: 'n' } })).issues?.[0]?.path).toEqual(['body', 'file']);
  });
});

describe('plain methods', () => {
  test('a decorated static method without procedure() is a tool with free-form params, query and body', async () => {
    expect(inputJson('StylesController_plainGet')).toMatchObject({ required: ['params'], properties: { params: { required: ['word'] } } });
    expect((await toolNamed('StylesController_plainGet').execute({ params: { word: 'hi' }, query: { q: 'x' } })).structuredContent).toEqual({ word: 'hi', q: 'x' });
    expect((await toolNamed('StylesController_plainPost').execute({ body: { greeting: 'hey' } })).structuredContent).toEqual({ greeting: 'hey' });
  });
});

describe('streams', () => {
  test('a generator is collected into { items } within the bound, with a line saying how many were left out', async () => {
    expect(await toolNamed('StylesController_count').execute({ query: { to: 3 } })).toEqual({
      content: [{ type: 'text', text: '[{"n":1},{"n":2},{"n":3}]' }],
      structuredContent: { items: [{ n: 1 }, { n: 2 }, { n: 3 }] },
    });
    const cut = await toolNamed('StylesController_count').execute({ query: { to: 12 } });
    expect(cut.structuredContent).toEqual({ items: [1, 2, 3, 4, 5].map((n) => ({ n })) });
    expect(cut.content[1]).toEqual({ type: 'text', text: 'The stream was cut at 5 items (MCP_STREAM_MAX_ITEMS): 5 items shown, 7 more items left out.' });
  });

  test('a JSONLinesResponder is read line by line', async () => {
    expect((await toolNamed('StylesController_responder').execute({})).structuredContent).toEqual({ items: [{ n: 1 }, { n: 2 }, { n: 3 }] });
  });

  test('a stream that goes on past ten times the bound is stopped, and its generator finished', async () => {
    let finished = false;
    async function* endless() {
      try {
        for (let n = 0; ; n++) yield n;
      } finally {
        finished = true;
      }
    }
    const limits = { maxItems: 2, maxBytes: 1024 };
    const collected = await collectStream(endless(), limits);
    expect(collected).toMatchObject({ items: [0, 1], leftOut: 20, leftOutAtLeast: true, cutBy: 'items' });
    expect(cutNote(collected, limits)).toContain('at least 20 more items left out (the stream was stopped)');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(finished).toBe(true);
  });

  test('the byte bound cuts too', async () => {
    const collected = await collectStream(['aaaa', 'bbbb', 'cccc'], { maxItems: 10, maxBytes: 13 });
    expect(collected).toMatchObject({ items: ['aaaa', 'bbbb'], leftOut: 1, cutBy: 'bytes' });
  });
});

describe('left out, never silently wrong', () => {
  test('a body tool arguments cannot carry is left out with the reason; the others are served', () => {
    expect(leftOut).toEqual([
      {
        tool: 'StylesController_raw',
        method: 'POST',
        path: '/api/styles/raw',
        reason: 'its body is application/octet-stream, which tool arguments cannot carry: call it over REST',
      },
    ]);
    expect(tools.map((tool) => tool.name)).not.toContain('StylesController_raw');
  });

  test('another segment’s tools carry their real REST route', () => {
    const { tools: segmentTools } = deriveProcedureTools({}, ToModelOutput.MCP, () => 'http://gateway.test', { segments: { static: { StylesController } } });
    expect(segmentTools.find((tool) => tool.name === 'StylesController_zodStyle')?.restRoute).toEqual({ method: 'POST', path: '/api/static/styles/zod/{id}' });
  });
});
