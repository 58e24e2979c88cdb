// Unit tests of mcpOutput meta (annotations, overrides) through derived tools, and of standalone tools.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { deriveTools, get, HttpException, HttpStatus, operation, prefix, procedure } from 'vovk';
import { z } from 'zod';
import { standardTool, ToModelOutput, withFormattedOutput } from '@gateway/tools';

const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
const annotations = { audience: ['user'], priority: 0.8 };

@prefix('fixture')
class FixtureController {
  @operation({ summary: 'Annotated image' })
  @get('image')
  static image = procedure().handle((req) => {
    req.vovk.meta({ mcpOutput: { annotations } });
    return new Response(jpeg, { headers: { 'Content-Type': 'image/jpeg' } });
  });

  @operation({ summary: 'Annotated JSON' })
  @get('json')
  static json = procedure().handle((req) => {
    req.vovk.meta({ mcpOutput: { annotations: { priority: 0 } } });
    return { a: 1 };
  });

  @operation({ summary: 'Overridden' })
  @get('override')
  static override = procedure().handle((req) => {
    req.vovk.meta({
      mcpOutput: {
        content: [
          { type: 'text', text: 'summary for the model' },
          { type: 'text', text: 'second', annotations: { priority: 1 } },
        ],
        structuredContent: { summary: true },
        annotations: { audience: ['assistant'], priority: 0.5 },
      },
    });
    return { big: 'payload the model does not need' };
  });

  @operation({ summary: 'Bad priority' })
  @get('bad-priority')
  static badPriority = procedure().handle((req) => {
    req.vovk.meta({ mcpOutput: { annotations: { priority: 1.5 } } });
    return { a: 1 };
  });

  @operation({ summary: 'Throws' })
  @get('throws')
  static throws = procedure().handle(() => {
    throw new Error('secret detail');
  });

  @operation({ summary: 'Not found' })
  @get('missing')
  static missing = procedure().handle(() => {
    throw new HttpException(HttpStatus.NOT_FOUND, 'Nothing here');
  });

  @operation({ summary: 'Echo', description: 'Echoes its query' })
  @get('echo')
  static echo = procedure({ query: z.object({ word: z.string().meta({ description: 'A word' }) }) }).handle((req) =>
    req.vovk.query(),
  );
}

const { toolsByName } = deriveTools({ modules: { FixtureController }, toModelOutput: ToModelOutput.MCP });
const call = (name: string, input: unknown = {}) => toolsByName[name].execute(input as never);
const firstText = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('derived tools', () => {
  test('[R01][R03] deriveTools with ToModelOutput.MCP names tools <Module>_<handler> and formats their output', async () => {
    expect(Object.keys(toolsByName)).toContain('FixtureController_echo');
    expect(toolsByName.FixtureController_echo.description).toBe('Echo\nEchoes its query');
    expect(await call('FixtureController_echo', { query: { word: 'hi' } })).toEqual({
      content: [{ type: 'text', text: '{"word":"hi"}' }],
      structuredContent: { word: 'hi' },
    });
  });

  test('[R08] a procedure that throws gives isError with the message (development)', async () => {
    vi.stubEnv('NODE_ENV', 'development');
    expect(await call('FixtureController_throws')).toEqual({ content: [{ type: 'text', text: 'secret detail' }], isError: true });
  });

  test('[R09] in production a thrown Error is masked and an HttpException is not', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const masked = await call('FixtureController_throws');
    expect(masked.content).toEqual([{ type: 'text', text: 'Internal server error' }]);
    expect(masked.isError).toBe(true);
    expect(await call('FixtureController_missing')).toEqual({ content: [{ type: 'text', text: 'Nothing here' }], isError: true });
  });

  test('[R08] invalid input is reported as an isError result with the validation reason', async () => {
    const result = await call('FixtureController_echo', { query: { word: 5 } });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toMatch(/expected string/);
  });
});

describe('mcpOutput annotations', () => {
  test('[R18][R21][R02] annotations set with req.vovk.meta go on each content item, never on the result', async () => {
    const result = await call('FixtureController_image');
    expect(result).toEqual({
      content: [{ type: 'image', data: Buffer.from(jpeg).toString('base64'), mimeType: 'image/jpeg', annotations }],
    });
    expect(result).not.toHaveProperty('annotations');
  });

  test('[R21] annotations go on JSON text items too, and structuredContent stays', async () => {
    expect(await call('FixtureController_json')).toEqual({
      content: [{ type: 'text', text: '{"a":1}', annotations: { priority: 0 } }],
      structuredContent: { a: 1 },
    });
  });

  test('[R20] a priority outside 0..1 is refused as a procedure bug (masked in production)', async () => {
    vi.stubEnv('NODE_ENV', 'development');
    const result = await call('FixtureController_badPriority');
    expect(result.isError).toBe(true);
    expect(firstText(result)).toMatch(/Invalid mcpOutput annotations.*priority/s);
    vi.stubEnv('NODE_ENV', 'production');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect((await call('FixtureController_badPriority')).content).toEqual([{ type: 'text', text: 'Internal server error' }]);
  });

  test('[R22][R23] mcpOutput overrides content and structuredContent; its annotations go on each item', async () => {
    expect(await call('FixtureController_override')).toEqual({
      content: [
        { type: 'text', text: 'summary for the model', annotations: { audience: ['assistant'], priority: 0.5 } },
        { type: 'text', text: 'second', annotations: { audience: ['assistant'], priority: 1 } },
      ],
      structuredContent: { summary: true },
    });
  });
});

describe('standalone tools', () => {
  const sumNumbers = standardTool({
    name: 'sum_numbers',
    description: 'Returns the sum of two numbers provided as input.',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    outputSchema: z.number(),
    execute({ a, b }) {
      return a + b;
    },
  });
  const sumNumbersMCP = withFormattedOutput(sumNumbers, (result) => ToModelOutput.MCP(result, sumNumbers, null));

  test('[R26][R27][R29] withFormattedOutput + ToModelOutput.MCP(result, tool, null) formats a standalone result', async () => {
    expect(await sumNumbersMCP.execute({ a: 2, b: 3 })).toEqual({ content: [{ type: 'text', text: '5' }] });
    expect(sumNumbersMCP.name).toBe('sum_numbers');
    expect(sumNumbersMCP.inputSchema).toBe(sumNumbers.inputSchema);
  });

  test('[R26] the formatter receives the Error a standalone tool throws', async () => {
    vi.stubEnv('NODE_ENV', 'development');
    const failing = standardTool({
      name: 'fails',
      description: 'Always fails',
      execute() {
        throw new Error('standalone failure');
      },
    });
    const formatted = withFormattedOutput(failing, (result) => ToModelOutput.MCP(result, failing, null));
    expect(await formatted.execute(undefined)).toEqual({ content: [{ type: 'text', text: 'standalone failure' }], isError: true });
    vi.stubEnv('NODE_ENV', 'production');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect((await formatted.execute(undefined)).content).toEqual([{ type: 'text', text: 'Internal server error' }]);
  });

  test('[R28] a standalone tool gives the same output as a derived tool for the same value', async () => {
    const objectTool = withFormattedOutput(
      standardTool({ name: 'obj', description: 'An object', execute: () => ({ word: 'hi' }) }),
      (result) => ToModelOutput.MCP(result, null, null),
    );
    expect(await objectTool.execute(undefined)).toEqual(await call('FixtureController_echo', { query: { word: 'hi' } }));
  });

  test('[R29] invalid standalone input is an isError result that keeps its reason in production', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const result = await sumNumbersMCP.execute({ a: 'two', b: 3 } as never);
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^Input validation failed: .* at a$/) });
  });
});
