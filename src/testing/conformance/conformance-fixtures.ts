// MCP conformance fixtures that are not tools (resources, prompts, completion, a JSON Schema 2020-12 tool).
import { completable, type McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { standardTool } from '@/lib/tools';
import ConformanceService from './conformance-service';

const Address = z
  .object({ street: z.string().optional(), city: z.string().optional() })
  .meta({ id: 'address', description: 'A postal address' });

const jsonSchema2020Tool = standardTool({
  name: 'json_schema_2020_12_tool',
  description: 'Tool with JSON Schema 2020-12 features',
  inputSchema: z.strictObject({ name: z.string().optional(), address: Address.optional() }),
  execute: (input) => input,
});

/** Conformance-only standalone tools; the gateway formats them like every other tool. */
export const conformanceTools = [jsonSchema2020Tool];

function registerResources(server: McpServer): void {
  server.registerResource(
    'static-text',
    'test://static-text',
    { description: 'A static text resource', mimeType: 'text/plain' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }] }),
  );
  server.registerResource(
    'static-binary',
    'test://static-binary',
    { description: 'A static binary resource (1×1 PNG)', mimeType: 'image/png' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: ConformanceService.pngBase64 }] }),
  );
  server.registerResource(
    'template-data',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { description: 'Data for an id', mimeType: 'application/json' },
    (uri, { id }) => ({
      contents: [
        { uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) },
      ],
    }),
  );
  server.registerResource(
    'watched-resource',
    'test://watched-resource',
    { description: 'A resource clients may subscribe to', mimeType: 'text/plain' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Watched resource content.' }] }),
  );
  // Stateless: nothing to keep between requests; updates would need a session. Accept and acknowledge.
  server.server.registerCapabilities({ resources: { subscribe: true } });
  server.server.setRequestHandler('resources/subscribe', () => ({}));
  server.server.setRequestHandler('resources/unsubscribe', () => ({}));
}

function registerPrompts(server: McpServer): void {
  server.registerPrompt('test_simple_prompt', { description: 'A simple prompt without arguments' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      description: 'A prompt with two required arguments',
      argsSchema: z.object({
        arg1: completable(z.string().meta({ description: 'First test argument' }), (value) =>
          ['paris', 'park', 'party'].filter((word) => word.startsWith(value)),
        ),
        arg2: z.string().meta({ description: 'Second test argument' }),
      }),
    },
    ({ arg1, arg2 }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    {
      description: 'A prompt that embeds a resource',
      argsSchema: z.object({ resourceUri: z.string().meta({ description: 'URI of the resource to embed' }) }),
    },
    ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  );
  server.registerPrompt('test_prompt_with_image', { description: 'A prompt with an image' }, () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: ConformanceService.pngBase64, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }));
}

/** Registers the resources, prompts and completions the conformance suite reads. */
export function registerConformanceFixtures(server: McpServer): void {
  server.server.registerCapabilities({ logging: {} });
  registerResources(server);
  registerPrompts(server);
}
