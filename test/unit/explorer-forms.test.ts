// Unit tests of the explorer's form model (JSON Schema → fields → validated tool arguments) and its REST request.
import { describe, expect, test } from 'vitest';
import { curlCommand, restRequest } from '@gateway/shared/rest-request';
import { fieldsOf, initialValues, type JsonSchema, optionsOf, readForm } from '@gateway/browser/explorer/schema-form';

const getUserInput: JsonSchema = {
  type: 'object',
  properties: {
    params: {
      type: 'object',
      properties: { id: { type: 'integer', exclusiveMinimum: 0, maximum: 9007199254740991 } },
      required: ['id'],
    },
  },
  required: ['params'],
};

const mixedInput: JsonSchema = {
  type: 'object',
  properties: {
    query: {
      type: 'object',
      properties: {
        url: { type: 'string', minLength: 3 },
        mode: { enum: ['fast', 'slow', 2], default: 'slow' },
        verbose: { type: 'boolean' },
        tags: { type: 'array' },
      },
    },
    ratio: { type: ['number', 'null'], minimum: 0, maximum: 1 },
    flag: { type: 'boolean', default: true },
  },
  required: ['ratio'],
};

describe('fieldsOf', () => {
  test('nested objects become fieldsets; scalar, enum and unknown types get their kinds', () => {
    const [query, ratio, flag] = fieldsOf(mixedInput);
    expect(query).toMatchObject({ key: 'query', kind: 'object', required: false });
    expect(query.children.map((field) => [field.key, field.kind])).toEqual([
      ['query.url', 'string'],
      ['query.mode', 'enum'],
      ['query.verbose', 'boolean'],
      ['query.tags', 'json'],
    ]);
    expect(ratio).toMatchObject({ kind: 'number', required: true });
    expect(flag).toMatchObject({ kind: 'boolean', required: false });
    expect(fieldsOf({ type: 'object', properties: {} })).toEqual([]);
  });

  test('initial values come from defaults (an enum holds its option index)', () => {
    expect(initialValues(fieldsOf(mixedInput))).toEqual({
      'query.url': '',
      'query.mode': '1',
      'query.verbose': false,
      'query.tags': '',
      ratio: '',
      flag: true,
    });
  });
});

describe('readForm', () => {
  const user = fieldsOf(getUserInput);
  const read = (values: Record<string, string | boolean>) => readForm(user, { ...initialValues(user), ...values });

  test('a valid integer becomes a number inside its slot', () => {
    expect(read({ 'params.id': ' 42 ' })).toEqual({ args: { params: { id: 42 } }, errors: {} });
  });

  test.each([
    ['', 'required'],
    ['   ', 'required'],
    ['abc', 'must be a number'],
    ['1.5', 'must be an integer'],
    ['0', 'must be greater than 0'],
    ['1e300', 'must be at most 9007199254740991'],
  ])('id %j is refused: %s', (id, message) => {
    expect(read({ 'params.id': id }).errors).toEqual({ 'params.id': message });
  });

  test('optional slots nobody filled in are left out; a filled one is checked by its own rules', () => {
    const fields = fieldsOf(mixedInput);
    const values = initialValues(fields);
    expect(readForm(fields, { ...values, ratio: '0.5', 'query.mode': '' })).toEqual({
      args: { ratio: 0.5, flag: true },
      errors: {},
    });
    expect(readForm(fields, { ...values, ratio: '2', 'query.url': 'ab', 'query.tags': '[1,' }).errors).toEqual({
      ratio: 'must be at most 1',
      'query.url': 'must be at least 3 characters',
      'query.tags': 'must be valid JSON',
    });
    expect(
      readForm(fields, { ...values, ratio: '1', 'query.url': 'abc', 'query.mode': '2', 'query.verbose': true, 'query.tags': '["a"]' }),
    ).toEqual({ args: { query: { url: 'abc', mode: 2, verbose: true, tags: ['a'] }, ratio: 1, flag: true }, errors: {} });
  });

  test('valid fields are still read when others are invalid (for the REST preview)', () => {
    const fields = fieldsOf(mixedInput);
    const { args, errors } = readForm(fields, { ...initialValues(fields), ratio: 'x', 'query.url': 'http://a' });
    expect(args).toEqual({ query: { url: 'http://a', mode: 'slow' }, flag: true });
    expect(errors).toEqual({ ratio: 'must be a number' });
  });
});

describe('the enum kinds of elicitation forms (requestedSchema)', () => {
  const question: JsonSchema = {
    type: 'object',
    properties: {
      colour: {
        type: 'string',
        oneOf: [
          { const: 'red', title: 'Red' },
          { const: 'green', title: 'Green' },
        ],
      },
      size: { type: 'string', enum: ['s', 'l'], enumNames: ['Small', 'Large'], default: 'l' },
      level: { type: 'integer', anyOf: [{ const: 1 }, { const: 2, title: 'Two' }] },
      nullable: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    },
    required: ['colour'],
  };

  test('titled oneOf/anyOf consts and enumNames become labelled options; other unions stay JSON', () => {
    const fields = fieldsOf(question);
    expect(fields.map((field) => field.kind)).toEqual(['enum', 'enum', 'enum', 'json']);
    expect(fields.map((field) => optionsOf(field.schema).map((option) => option.label))).toEqual([
      ['Red', 'Green'],
      ['Small', 'Large'],
      ['1', 'Two'],
      [],
    ]);
  });

  test("a chosen option gives its value, and a default selects its option's index", () => {
    const fields = fieldsOf(question);
    const values = initialValues(fields);
    expect(values).toMatchObject({ colour: '', size: '1', level: '' });
    expect(readForm(fields, values).errors).toEqual({ colour: 'required' });
    expect(readForm(fields, { ...values, colour: '1', level: '1' })).toEqual({
      args: { colour: 'green', size: 'l', level: 2 },
      errors: {},
    });
  });
});

describe('restRequest and curlCommand', () => {
  const origin = 'http://localhost:3000';

  test('path parameters are substituted (encoded), unknown ones kept as {name}; query becomes the query string', () => {
    const route = { method: 'GET', path: '/api/users/{id}/files/{name}' };
    expect(restRequest(route, { params: { id: 7, name: 'a b/c' } }, origin).url).toBe(`${origin}/api/users/7/files/a%20b%2Fc`);
    expect(restRequest(route, { params: { id: 7 } }, origin).url).toBe(`${origin}/api/users/7/files/{name}`);
    const media = { method: 'GET', path: '/api/media/from-url' };
    expect(restRequest(media, {}, origin)).toEqual({ method: 'GET', url: `${origin}/api/media/from-url` });
    expect(restRequest(media, { query: { url: 'http://x/a.mp3?b=1', tags: ['a', 'b'], skip: undefined } }, origin).url).toBe(
      `${origin}/api/media/from-url?url=http%3A%2F%2Fx%2Fa.mp3%3Fb%3D1&tags=a&tags=b`,
    );
  });

  test('a body goes with methods that carry one, and into the curl line', () => {
    const request = restRequest({ method: 'post', path: '/api/notes' }, { body: { text: "it's" } }, origin);
    expect(request).toEqual({ method: 'POST', url: `${origin}/api/notes`, body: { text: "it's" } });
    expect(curlCommand(request)).toBe(
      `curl -s -X POST '${origin}/api/notes' -H 'Content-Type: application/json' -d '{"text":"it'\\''s"}'`,
    );
    expect(restRequest({ method: 'GET', path: '/api/x' }, { body: { a: 1 } }, origin)).not.toHaveProperty('body');
    expect(curlCommand({ method: 'GET', url: `${origin}/api/users/1` })).toBe(`curl -s '${origin}/api/users/1'`);
  });
});
