// The catalogue's written fields as zod schemas (path, query, body, answer) and as fake values those schemas accept.
import { z } from 'zod';
import type { Field, Fields } from './spec';

/** Where a field goes: path and query values arrive as text (numbers are coerced), answers may hold null. */
type Place = 'params' | 'query' | 'body' | 'output';

/** A field of the written form, read. */
interface Parsed {
  type: string;
  values: string[];
  list: boolean;
  optional: boolean;
  description: string;
  /** The `e.g.` value, when the field's schema takes it. */
  sample?: unknown;
  /** The fields of each object of a list of objects. */
  item?: Fields;
}

const WRITTEN = /^(\w+)(?:\(([^)]*)\))?(\[\])?(\?)? (.+)$/;
const SAMPLE = /e\.g\. (.+?)\.?$/;
const NUMERIC = new Set(['id', 'int', 'number', 'money', 'percent']);
const CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF', 'SEK', 'JPY', 'CAD', 'AUD'] as const;

const parsedFields = new Map<string, Parsed>();

function parse(name: string, field: Field, statuses: readonly string[]): Parsed {
  if (typeof field !== 'string') {
    return { type: 'object', values: [], list: true, optional: false, description: field[0], item: field[1] };
  }
  let parsed = parsedFields.get(field);
  if (parsed) return parsed;
  const match = WRITTEN.exec(field);
  if (!match) throw new SyntaxError(`catalogue field ${name}: cannot read ${JSON.stringify(field)}`);
  const [, type, values = '', list, optional, description] = match;
  if (type === 'status' && !statuses.length) {
    throw new SyntaxError(`catalogue field ${name}: status in a domain without statuses`);
  }
  parsed = {
    type,
    values: values ? values.split('|') : [],
    list: Boolean(list),
    optional: Boolean(optional),
    description,
  };
  const written = SAMPLE.exec(description)?.[1].replace(/^"(.*)"$/, '$1');
  if (written !== undefined && type !== 'status') {
    const sample = NUMERIC.has(type) ? Number(written) : written;
    if (scalar(parsed, 'body', statuses).safeParse(sample).success) parsed.sample = sample;
  }
  // Statuses differ by domain: only fields that do not name them are shared.
  if (type !== 'status') parsedFields.set(field, parsed);
  return parsed;
}

/** The schema of one value of the field (shared: give it a description on a copy, never on it). */
function scalar({ type, values }: Parsed, place: Place, statuses: readonly string[]): z.ZodType {
  const key = `${place}|${type}|${values.join('|')}|${type === 'status' ? statuses.join('|') : ''}`;
  let schema = scalars.get(key);
  if (!schema) scalars.set(key, (schema = newScalar(type, values, place, statuses)));
  return schema;
}

const scalars = new Map<string, z.ZodType>();

/** The bounds `int(1..100)` gives, or none. */
function rangeOf(values: string[]): [min: number, max: number] | undefined {
  return /^-?\d+\.\.-?\d+$/.test(values[0] ?? '') ? (values[0].split('..').map(Number) as [number, number]) : undefined;
}

function newScalar(type: string, values: string[], place: Place, statuses: readonly string[]): z.ZodType {
  const range = rangeOf(values);
  let number = place === 'params' || place === 'query' ? z.coerce.number() : z.number();
  if (range) number = number.min(range[0]).max(range[1]);
  switch (type) {
    case 'id':
      return number.int().positive();
    case 'int':
      return number.int();
    case 'number':
      return number;
    case 'money':
      return number.min(0);
    case 'percent':
      return number.min(0).max(100);
    case 'string':
    case 'phone':
      return place === 'output' ? z.string() : z.string().trim().min(1).max(300);
    case 'text':
      return z.string().max(20_000);
    case 'email':
      return z.email();
    case 'url':
      return z.url();
    case 'date':
      return z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
    case 'datetime':
      return z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    case 'bool':
      if (place === 'query' || place === 'params')
        throw new SyntaxError('catalogue: a yes/no query value is ambiguous, use enum(…)');
      return z.boolean();
    case 'currency':
      return z.enum(CURRENCIES);
    case 'country':
      return z.string().length(2);
    case 'enum':
      return z.enum(values as [string, ...string[]]);
    case 'status':
      return z.enum(statuses as [string, ...string[]]);
    default:
      throw new SyntaxError(`catalogue: no field type ${type}`);
  }
}

/** The JSON Schema format of the types that have one besides their pattern (zod's own ISO patterns are long). */
const FORMATS: Record<string, string> = { date: 'date', datetime: 'date-time' };

/**
 * Gives a schema made for this one use its description: what `.meta({ description })` does, without the copy it makes
 * (thousands of schemas are made at start: a copy each would double the time).
 */
function described<T extends z.ZodType>(schema: T, description: string, format?: string): T {
  z.globalRegistry.add(schema, format ? { description, format } : { description });
  return schema;
}

const fieldSchemas = new Map<string, z.ZodType>();

/** The field's schema where it goes, with its description (shared between procedures that write it alike). */
function fieldSchema(name: string, field: Field, place: Place, statuses: readonly string[]): z.ZodType {
  const key =
    typeof field === 'string' ? `${place}|${field.startsWith('status') ? statuses.join('|') : ''}|${field}` : '';
  const known = key && fieldSchemas.get(key);
  if (known) return known;
  const parsed = parse(name, field, statuses);
  let schema: z.ZodType = parsed.item
    ? z.array(objectSchema(parsed.item, place, statuses, parsed.description))
    : parsed.list
      ? z.array(scalar(parsed, place, statuses))
      : scalar(parsed, place, statuses);
  if (parsed.optional) schema = place === 'output' ? schema.nullable() : schema.optional();
  else if (!parsed.item && !parsed.list) schema = schema.clone();
  schema = described(schema, parsed.description, parsed.list || parsed.item ? undefined : FORMATS[parsed.type]);
  if (key) fieldSchemas.set(key, schema);
  return schema;
}

const objectSchemas = new Map<string, z.ZodType>();

/** An object of fields (shared between procedures that write it alike); a body takes no field besides them. */
export function objectSchema(
  fields: Fields,
  place: Place,
  statuses: readonly string[],
  description: string,
): z.ZodType {
  const entries = Object.entries(fields);
  const key = entries.every(([, field]) => typeof field === 'string')
    ? `${place}|${description}|${statuses.join('|')}|${entries.join('|')}`
    : '';
  const known = key && objectSchemas.get(key);
  if (known) return known;
  const shape = Object.fromEntries(entries.map(([name, field]) => [name, fieldSchema(name, field, place, statuses)]));
  const schema = described(place === 'body' ? z.strictObject(shape) : z.object(shape), description);
  if (key) objectSchemas.set(key, schema);
  return schema;
}

/** `customerId` → `customer`, `dueDate` → `due date`. */
export function label(name: string): string {
  return name
    .replace(/Id$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

/** What a fake answer is made from: a number that varies it, what the call gave, and the domain's words. */
interface FakeContext {
  seed: number;
  given: Readonly<Record<string, unknown>>;
  statuses: readonly string[];
  noun: string;
}

const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 5);

/** A small number of the name, so that fields of one record differ. */
const hashOf = (name: string) => [...name].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) % 1009, 7);

function fakeScalar(name: string, parsed: Parsed, { seed: base, statuses, noun }: FakeContext): unknown {
  if (parsed.sample !== undefined) return parsed.sample;
  const seed = base + hashOf(name);
  const range = rangeOf(parsed.values);
  const inRange = (value: number) => (range ? range[0] + (seed % (range[1] - range[0] + 1)) : value);
  switch (parsed.type) {
    case 'id':
      return ((seed * 7) % 97) + 1;
    case 'int':
      return inRange(((seed * 13) % 40) + 1);
    case 'number':
      return inRange(Math.round(((seed * 37) % 1000) + 0.5) / 10);
    case 'money':
      return inRange(Math.round(((seed * 12_345) % 500_000) + 1_000) / 100);
    case 'percent':
      return (seed * 7) % 100;
    case 'string':
      return ['name', 'title', 'subject'].includes(name)
        ? `${noun[0].toUpperCase()}${noun.slice(1)} ${base}`
        : `${label(name)} ${base}`;
    case 'text':
      return `The ${label(name)} of ${noun} ${base}.`;
    case 'phone':
      return `+44 20 7946 ${String(1000 + seed).slice(-4)}`;
    case 'email':
      return `${label(name).replace(/\W+/g, '.')}.${base}@example.com`;
    case 'url':
      return `https://files.example.com/${noun.replace(/\W+/g, '-')}/${base}/${name}`;
    case 'date':
      return new Date(START + ((base * 3) % 300) * DAY).toISOString().slice(0, 10);
    case 'datetime':
      return new Date(START + ((base * 3) % 300) * DAY + 9.5 * 3_600_000).toISOString();
    case 'bool':
      return seed % 2 === 0;
    case 'currency':
      return 'EUR';
    case 'country':
      return 'DE';
    case 'status':
      return statuses[seed % statuses.length];
    default:
      return parsed.values[seed % parsed.values.length];
  }
}

/** A value of every field: what the call gave under that name when it fits, else made up from the seed. */
export function fakeObject(fields: Fields, context: FakeContext): Record<string, unknown> {
  const fake: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    const given = context.given[name];
    if (given !== undefined && fieldSchema(name, field, 'output', context.statuses).safeParse(given).success) {
      fake[name] = given;
      continue;
    }
    const parsed = parse(name, field, context.statuses);
    const item = parsed.item;
    if (item) {
      // The items of a list share what the call said (the record's id, a filter), never the record's own id.
      const { id: _id, ...shared } = context.given;
      fake[name] = [1, 2].map((offset) => fakeObject(item, { ...context, seed: context.seed + offset, given: shared }));
    } else if (parsed.list) {
      fake[name] =
        parsed.sample !== undefined
          ? [parsed.sample]
          : [0, 1].map((offset) => fakeScalar(name, parsed, { ...context, seed: context.seed + offset }));
    } else {
      fake[name] = fakeScalar(name, parsed, context);
    }
  }
  return fake;
}

/** Whether a create may leave the field out. */
export function isOptional(field: Field): boolean {
  return typeof field === 'string' && /^\w+(\([^)]*\))?(\[\])?\?/.test(field);
}

/** Whether a field is of free text (what search reads). */
export function isText(field: Field): boolean {
  return typeof field === 'string' && /^(string|text)\??\s/.test(field);
}
