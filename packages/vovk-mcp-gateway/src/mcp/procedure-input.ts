// A derived tool's input schema: a procedure's body/query/params slots as one Standard Schema, whatever library wrote them.
import 'server-only';
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { RestRoute } from '../shared/rest-meta.js';

const SLOTS = ['body', 'query', 'params'] as const;
type Slot = (typeof SLOTS)[number];

type JsonSchema = Record<string, unknown>;
type Issue = { message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> };
type ValidationResult = { value: unknown; issues?: undefined } | { issues: ReadonlyArray<Issue> };
/** Any Standard Schema (zod, valibot, arktype, …): only its `validate` is used. */
type StandardValidator = { '~standard': { validate(value: unknown): ValidationResult | Promise<ValidationResult> } };

/** One slot of a tool's input: how it is checked, and the JSON Schema clients see. */
interface SlotSchema {
  validate(value: unknown): ValidationResult | Promise<ValidationResult>;
  json: JsonSchema;
}

/** What vovk leaves on a handler: the procedure's schemas (`definition`) and their JSON Schema (`schema.validation`). */
export interface HandlerSchemas {
  definition?: Partial<Record<Slot | 'output' | 'iteration', StandardValidator | undefined>> & { contentType?: string[] };
  schema?: { validation?: Partial<Record<Slot | 'output' | 'iteration', JsonSchema>> };
}

/** A file argument of a multipart procedure: its bytes as base64, with a name and media type. */
const FILE_ARGUMENT: JsonSchema = {
  type: 'object',
  description: 'A file: its bytes in base64 (the whole MCP request is bounded by MCP_MAX_BODY_BYTES)',
  properties: {
    data: { type: 'string', contentEncoding: 'base64', description: 'The file’s bytes, base64-encoded' },
    name: { type: 'string', description: 'File name', default: 'file' },
    mimeType: { type: 'string', description: 'Media type', default: 'application/octet-stream' },
  },
  required: ['data'],
  additionalProperties: false,
};

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Whether a JSON Schema describes a file (zod's `z.file()`, or the `format: binary` string vovk's docs emit). */
function isFileSchema(json: unknown): boolean {
  const schema = json as JsonSchema | undefined;
  return schema?.type === 'string' && (schema.format === 'binary' || schema.contentEncoding === 'binary');
}

/** The body fields that are files (`many`: a list of them), by name. */
function fileFieldsOf(body: JsonSchema | undefined): Map<string, { many: boolean }> {
  const fields = new Map<string, { many: boolean }>();
  for (const [name, field] of Object.entries((body?.properties ?? {}) as Record<string, JsonSchema>)) {
    if (isFileSchema(field)) fields.set(name, { many: false });
    else if (field?.type === 'array' && isFileSchema(field.items)) fields.set(name, { many: true });
  }
  return fields;
}

/** The body's JSON Schema with each file field as a base64 file argument (or a list of them). */
function withFileArguments(body: JsonSchema, files: Map<string, { many: boolean }>): JsonSchema {
  const properties = { ...(body.properties as Record<string, JsonSchema>) };
  for (const [name, { many }] of files) {
    const description = properties[name]?.description;
    const argument = description ? { ...FILE_ARGUMENT, description } : FILE_ARGUMENT;
    properties[name] = many ? { type: 'array', items: argument, ...(description ? { description } : {}) } : argument;
  }
  return { ...body, properties };
}

/** A base64 file argument as the `File` a multipart request carries; a string naming what is wrong otherwise. */
function decodeFile(argument: unknown): File | string {
  const { data, name = 'file', mimeType = 'application/octet-stream' } = (argument ?? {}) as Record<string, unknown>;
  if (typeof data !== 'string' || !BASE64.test(data.replace(/\s/g, ''))) return 'Expected a file: { data: <base64>, name?, mimeType? }';
  if (typeof name !== 'string' || typeof mimeType !== 'string') return 'A file’s name and mimeType are strings';
  return new File([Buffer.from(data, 'base64')], name, { type: mimeType });
}

/** A body whose file arguments became `File`s, or the issues of those that could not. */
function decodeFiles(body: unknown, files: Map<string, { many: boolean }>): ValidationResult {
  if (typeof body !== 'object' || body === null || !files.size) return { value: body };
  const decoded: Record<string, unknown> = { ...body };
  const issues: Issue[] = [];
  for (const [name, { many }] of files) {
    if (decoded[name] === undefined) continue;
    const values = many && Array.isArray(decoded[name]) ? decoded[name] : [decoded[name]];
    const results = values.map(decodeFile);
    results.forEach((result, index) => {
      if (typeof result === 'string') issues.push({ message: result, path: many ? [name, index] : [name] });
    });
    decoded[name] = many ? results : results[0];
  }
  return issues.length ? { issues } : { value: decoded };
}

/** The `{name}` segments of a REST path. */
function pathParamsOf(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const objectOnly = (value: unknown): ValidationResult => (isObject(value) ? { value } : { issues: [{ message: 'Expected object' }] });

/**
 * The free-form slots of a handler no schema describes (a plain method, or a procedure without `params` for its path):
 * `params` names the path's segments, `query` takes string values, `body` any JSON (methods with a body). Numbers are
 * taken where strings are asked, as they read the same in a URL.
 */
function freeFormSlots(route: RestRoute, handler: HandlerSchemas): Partial<Record<Slot, SlotSchema>> {
  const slots: Partial<Record<Slot, SlotSchema>> = {};
  const names = pathParamsOf(route.path);
  if (names.length && !handler.definition?.params) {
    const properties = Object.fromEntries(names.map((name) => [name, { type: 'string' }]));
    slots.params = {
      json: { type: 'object', description: 'Path parameters', properties, required: names, additionalProperties: false },
      validate: (value) => {
        if (!isObject(value)) return { issues: [{ message: 'Expected object' }] };
        const missing = names.filter((name) => !['string', 'number'].includes(typeof value[name]));
        return missing.length ? { issues: missing.map((name) => ({ message: 'Required: a string', path: [name] })) } : { value };
      },
    };
  }
  if (handler.definition) return slots;
  slots.query = {
    json: { type: 'object', description: 'Query string parameters', additionalProperties: { type: 'string' } },
    validate: objectOnly,
  };
  if (!['GET', 'HEAD'].includes(route.method.toUpperCase())) {
    slots.body = { json: { description: 'Request body (JSON)' }, validate: (value) => ({ value }) };
  }
  return slots;
}

/** The slots the procedure's own schemas describe: their validation, and the JSON Schema vovk emitted for REST. */
function procedureSlots(handler: HandlerSchemas): Partial<Record<Slot, SlotSchema>> {
  const slots: Partial<Record<Slot, SlotSchema>> = {};
  for (const slot of SLOTS) {
    const schema = handler.definition?.[slot];
    if (!schema) continue;
    const json = handler.schema?.validation?.[slot] ?? {};
    slots[slot] = {
      json,
      validate: (value) => {
        const checked = schema['~standard'].validate(value);
        const keepGiven = (result: ValidationResult) => (result.issues ? result : { value });
        return checked instanceof Promise ? checked.then(keepGiven) : keepGiven(checked);
      },
    };
  }
  const body = slots.body;
  const files = fileFieldsOf(body?.json);
  if (body && files.size) {
    slots.body = {
      json: withFileArguments(body.json, files),
      validate: async (value) => {
        const decoded = decodeFiles(value, files);
        if (decoded.issues) return decoded;
        const checked = await body.validate(decoded.value);
        return checked.issues ? checked : decoded;
      },
    };
  }
  return slots;
}

/** Whether a slot accepts being left out (then read as `{}`): a free-form one, or one whose fields are all optional. */
function acceptsEmpty(slot: SlotSchema): boolean {
  const required = (slot.json.required as unknown[] | undefined) ?? [];
  if (required.length) return false;
  const result = slot.validate({});
  return !(result instanceof Promise) && !result.issues;
}

const prefixed = (issues: ReadonlyArray<Issue>, slot: Slot): Issue[] =>
  issues.map((issue) => ({ message: issue.message, path: [slot, ...(issue.path ?? [])] }));

/**
 * The input schema of a handler's tool: `{ body?, query?, params? }` as the procedure declares them (any Standard
 * Schema library; the JSON Schema is the one vovk emits for OpenAPI) or free-form where nothing does. A validated call
 * keeps the caller's own arguments (files decoded), so the procedure validates and transforms them once, as on REST; a
 * declared slot left out because all its fields are optional reads as `{}`.
 */
export function procedureInputSchema(route: RestRoute, handler: HandlerSchemas): StandardSchemaWithJSON {
  const ownSlots = procedureSlots(handler);
  const declared = new Set(Object.keys(ownSlots) as Slot[]);
  const slots = { ...freeFormSlots(route, handler), ...ownSlots };
  const defined = SLOTS.filter((slot) => slots[slot]);
  const optional = new Set<Slot>();
  for (const slot of defined) if (acceptsEmpty(slots[slot]!)) optional.add(slot);
  const json: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(defined.map((slot) => [slot, slots[slot]!.json])),
    required: defined.filter((slot) => !optional.has(slot)),
    additionalProperties: false,
  };
  const validate = async (input: unknown): Promise<ValidationResult> => {
    if (!isObject(input)) return { issues: [{ message: 'Expected object' }] };
    const issues: Issue[] = Object.keys(input)
      .filter((key) => !defined.includes(key as Slot))
      .map((key) => ({ message: 'Unexpected key', path: [key] }));
    const value: Record<string, unknown> = {};
    for (const slot of defined) {
      const given = input[slot] ?? (optional.has(slot) && declared.has(slot) ? {} : undefined);
      if (given === undefined) {
        if (!optional.has(slot)) issues.push({ message: 'Required', path: [slot] });
        continue;
      }
      const result = await slots[slot]!.validate(given);
      if (result.issues) issues.push(...prefixed(result.issues, slot));
      else value[slot] = result.value;
    }
    return issues.length ? { issues } : { value };
  };
  const jsonSchema = () => json;
  return { '~standard': { version: 1, vendor: 'vovk-mcp-gateway', validate, jsonSchema: { input: jsonSchema, output: jsonSchema } } };
}
