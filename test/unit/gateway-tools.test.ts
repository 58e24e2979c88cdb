// Unit tests of what derived tools register besides their input: outputSchema (arrays as { items }) and annotations.
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { gatewayTools } from '@gateway/mcp/gateway-server';
import { annotationsOfMethod } from '@gateway/mcp/gateway-tools';
import { structuredOutputSchema } from '@gateway/mcp/output-schema';
import { ToModelOutput } from '@gateway/tools';
import { gatewayModules } from '@/modules';

const byName = Object.fromEntries(gatewayTools(gatewayModules, ToModelOutput.MCP, () => 'http://localhost:3000').map((tool) => [tool.name, tool]));
const valid = async (schema: ReturnType<typeof structuredOutputSchema>, value: unknown) =>
  !(await schema!['~standard'].validate(value)).issues;
const ada = { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', role: 'admin', createdAt: '2026-01-05T09:00:00.000Z' };

describe('annotations', () => {
  test.each([
    ['GET', { readOnlyHint: true }],
    ['HEAD', { readOnlyHint: true }],
    ['PUT', { readOnlyHint: false, idempotentHint: true }],
    ['DELETE', { readOnlyHint: false, destructiveHint: true, idempotentHint: true }],
    ['POST', { readOnlyHint: false }],
    ['PATCH', { readOnlyHint: false }],
  ])('%s → %o', (method, annotations) => {
    expect(annotationsOfMethod(method)).toEqual(annotations);
  });

  test('x-tool-annotations on @operation overrides the method’s, key by key; standalone tools declare their own', () => {
    expect(byName.TaskController_moveTask.annotations).toEqual({ readOnlyHint: false, idempotentHint: true, destructiveHint: false });
    expect(byName.UserController_createUser.annotations).toEqual({ readOnlyHint: false, destructiveHint: false });
    expect(byName.sum_numbers.annotations).toEqual({ readOnlyHint: true });
  });
});

describe('outputSchema', () => {
  test('an object schema is registered as it is', () => {
    const schema = z.object({ a: z.number() });
    expect(structuredOutputSchema(schema)).toBe(schema);
  });

  test('an array schema is wrapped as { items }, which is what the formatter puts in structuredContent', async () => {
    const wrapped = structuredOutputSchema(z.array(z.object({ a: z.number() })));
    expect(await valid(wrapped, { items: [{ a: 1 }] })).toBe(true);
    expect(await valid(wrapped, [{ a: 1 }])).toBe(false);
    expect(await valid(wrapped, { items: [{ a: 'one' }] })).toBe(false);
  });

  test('a primitive or a missing schema gives none (that output has no structuredContent)', () => {
    expect(structuredOutputSchema(z.number())).toBeUndefined();
    expect(structuredOutputSchema(z.string())).toBeUndefined();
    expect(structuredOutputSchema(undefined)).toBeUndefined();
    expect(byName.sum_numbers.outputSchema).toBeUndefined();
    expect(byName.MediaController_getImage.outputSchema).toBeUndefined();
  });

  test('derived tools: getUser checks a user, listUsers checks { items: users }', async () => {
    expect(await valid(byName.UserController_getUser.outputSchema, ada)).toBe(true);
    expect(await valid(byName.UserController_getUser.outputSchema, { ...ada, role: 'pirate' })).toBe(false);
    expect(await valid(byName.UserController_listUsers.outputSchema, { items: [ada] })).toBe(true);
    expect(await valid(byName.UserController_listUsers.outputSchema, { items: [{ ...ada, id: 'one' }] })).toBe(false);
  });
});

test('the board stream is hidden from MCP (@operation.tool({ hidden: true })), the board itself is a tool', () => {
  expect(byName.BoardController_streamBoard).toBeUndefined();
  expect(byName.BoardController_getBoard).toBeDefined();
});

test('scopes: gateway:read for GET and read-only standalone tools, gateway:write otherwise, plus what @scopes declares', () => {
  expect(byName.UserController_getUser.scopes).toEqual(['gateway:read']);
  expect(byName.sum_numbers.scopes).toEqual(['gateway:read']);
  expect(byName.TaskController_createTask.scopes).toEqual(['gateway:write']);
  expect(byName.TaskController_moveTask.scopes).toEqual(['gateway:write']);
  expect(byName.UserController_deleteUser.scopes).toEqual(['gateway:write', 'gateway:admin']);
});
