// MCP conformance fixtures that are not procedures: resources, prompts, completion, tools with flat arguments.
import {
  acceptedContent,
  completable,
  inputRequired,
  type McpServer,
  ResourceTemplate,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { standardTool } from 'vovk-mcp-gateway';
import ConformanceInputService from './conformance-input-service';
import { conformanceTaskTools } from './conformance-task-tools';
import ConformanceService, { textResponse } from './conformance-service';

const Address = z
  .object({ street: z.string().optional(), city: z.string().optional() })
  .meta({ id: 'address', $anchor: 'addressDef', description: 'A postal address' });

/**
 * How to reach the person: phone or e-mail, and the one `contactMethod` names (e-mail unless it says phone). The JSON
 * Schema keywords (SEP-2106: allOf/anyOf, if/then/else) say it to clients; the refinement makes the tool enforce it.
 */
const CONTACT_RULE = {
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
};

const jsonSchema2020Tool = standardTool({
  name: 'json_schema_2020_12_tool',
  description: 'Tool with JSON Schema 2020-12 features',
  inputSchema: z
    .strictObject({
      name: z.string().optional(),
      address: Address.optional(),
      contactMethod: z.enum(['phone', 'email']).optional(),
      phone: z.string().optional(),
      email: z.string().optional(),
    })
    .superRefine((input, ctx) => {
      const needed = input.contactMethod === 'phone' ? 'phone' : 'email';
      if (input[needed] !== undefined) return;
      ctx.addIssue({ code: 'custom', path: [needed], message: `${needed} is required` });
    })
    .meta(CONTACT_RULE),
  execute: (input) => input,
});

/** A tool with an argument clients also send as a header (SEP-2243 `x-mcp-header`); the SDK checks the two agree. */
const customHeaderTool = standardTool({
  name: 'test_custom_header_tool',
  description: 'Echoes a greeting that clients also send in the Mcp-Param-Greeting header.',
  inputSchema: z.strictObject({
    greeting: z.string().meta({ description: 'A greeting', 'x-mcp-header': 'Greeting' }),
  }),
  execute: ({ greeting }) => textResponse(greeting),
});

/** The 2025 sampling fixture: its argument is a top-level `prompt` (a procedure's would sit under `query`/`body`). */
const samplingTool = standardTool({
  name: 'test_sampling',
  description: "Sends the prompt to the client's model (sampling) and returns its answer.",
  inputSchema: z.strictObject({ prompt: z.string().meta({ description: 'The prompt to send to the LLM' }) }),
  execute: ({ prompt }) => textResponse(ConformanceInputService.sample(prompt)),
});

/** The 2025 elicitation fixture: asks the user for a username and an e-mail address with the given message. */
const elicitationTool = standardTool({
  name: 'test_elicitation',
  description: 'Asks the user for a username and an e-mail address (elicitation) and returns their answer.',
  inputSchema: z.strictObject({ message: z.string().meta({ description: 'The message to show the user' }) }),
  execute: ({ message }) => textResponse(ConformanceInputService.askContact(message)),
});

/** Conformance-only standalone tools; the gateway formats and runs them like every other tool. */
export const conformanceTools = [jsonSchema2020Tool, customHeaderTool, samplingTool, elicitationTool, ...conformanceTaskTools];

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
  // A stateless request has nowhere to send updates: accepted and acknowledged. A session's server gets the gateway's
  // own handlers after these (which accept this fixture's resources too, since they can be read).
  server.server.setRequestHandler('resources/subscribe', () => ({}));
  server.server.setRequestHandler('resources/unsubscribe', () => ({}));
}

/** The answer `test_input_required_result_prompt` asks for, and the question. */
const PROMPT_CONTEXT = z.object({ context: z.string() });
const PROMPT_CONTEXT_QUESTION = inputRequired.elicit({
  message: 'What context should the prompt use?',
  requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
});

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
  // A prompt is no tool call, so askClient does not serve it: the SDK's builders ask directly (no requestState needed).
  server.registerPrompt(
    'test_input_required_result_prompt',
    { description: 'A prompt that first asks the user what context to use (input_required)' },
    (ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'user_context', PROMPT_CONTEXT);
      if (!answer) return inputRequired({ inputRequests: { user_context: PROMPT_CONTEXT_QUESTION } });
      return { messages: [{ role: 'user', content: { type: 'text', text: `Use this context: ${answer.context}` } }] };
    },
  );
}

/** Registers the resources, prompts and completions the conformance suite reads. */
export function registerConformanceFixtures(server: McpServer): void {
  server.server.registerCapabilities({ logging: {} });
  registerResources(server);
  registerPrompts(server);
}
