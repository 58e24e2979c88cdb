// Unit tests of code mode's TypeScript signatures: JSON Schema (as tools/list carries it) to `name(args): Promise<…>`.
import { describe, expect, test } from 'vitest';
import { toolSignature } from '@gateway/shared/tool-signature';

describe('toolSignature', () => {
  test('required and optional properties, their descriptions and defaults as comments, enums, nullables, arrays', () => {
    const inputSchema = {
      type: 'object',
      properties: {
        body: {
          type: 'object',
          description: 'The task',
          properties: {
            title: { type: 'string', description: 'What to do' },
            status: { type: 'string', enum: ['todo', 'done'], default: 'todo' },
            assigneeId: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
            tags: { type: 'array', items: { type: 'string' } },
            'x-note': { type: ['string', 'null'] },
          },
          required: ['title'],
        },
      },
      required: ['body'],
    };
    const outputSchema = { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] };
    expect(toolSignature({ name: 'createTask', inputSchema, outputSchema })).toBe(
      [
        'createTask(args: {',
        '  /** The task */',
        '  body: {',
        '    /** What to do */',
        '    title: string;',
        '    /** (default "todo") */',
        '    status?: "todo" | "done";',
        '    assigneeId?: number | null;',
        '    tags?: string[];',
        '    "x-note"?: string | null;',
        '  };',
        '}): Promise<{',
        '  id: number;',
        '}>',
      ].join('\n'),
    );
  });

  test('no arguments: optional args; an array result (MCP’s { items }) is the array; no output schema: unknown', () => {
    const items = { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } };
    const outputSchema = { type: 'object', properties: { items }, required: ['items'] };
    expect(toolSignature({ name: 'list', inputSchema: { type: 'object', properties: {} }, outputSchema })).toBe('list(args?: {}): Promise<{\n  n: number;\n}[]>');
    expect(toolSignature({ name: 'greet' })).toBe('greet(args?: {}): Promise<unknown>');
  });

  test('$ref into $defs, records, unions of objects; a comment cannot end early; cycles stop at unknown', () => {
    const inputSchema = {
      type: 'object',
      $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } },
      properties: {
        tree: { $ref: '#/$defs/node', description: 'ends here */ not' },
        counts: { type: 'object', additionalProperties: { type: 'number' } },
        either: { oneOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { const: 1 }] },
      },
      required: ['tree'],
    };
    const signature = toolSignature({ name: 'walk', inputSchema });
    expect(signature).toContain('/** ends here *\\/ not */');
    expect(signature).toContain('counts?: Record<string, number>;');
    expect(signature).toMatch(/either\?: \{\n\s+a\?: string;\n\s+\} \| 1;/);
    expect(signature).toContain('next?: unknown;');
    expect(signature.startsWith('walk(args: {')).toBe(true);
  });
});
