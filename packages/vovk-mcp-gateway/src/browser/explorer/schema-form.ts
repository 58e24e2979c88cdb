// Form model of a JSON Schema object (a tool's input, an elicitation's requestedSchema): the fields to render, their
// initial values, and the validated values they make.
import 'client-only';

/** The subset of JSON Schema the explorer's forms understand; anything else is edited as raw JSON. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  /** Labels of `enum`'s values, in order (the older way elicitation forms title their options). */
  enumNames?: string[];
  /** Titled options: each alternative a `const` with its `title`. */
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  const?: unknown;
  title?: string;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'object' | 'json';

export interface Field {
  /** The field's path joined with '.', its key in {@link FormValues} and {@link FormErrors}. */
  key: string;
  name: string;
  kind: FieldKind;
  required: boolean;
  schema: JsonSchema;
  /** The nested fields of an `object` field. */
  children: Field[];
}

/** Text inputs, enum selects (the option's index) and JSON editors hold strings; checkboxes hold booleans. */
export type FormValues = Record<string, string | boolean>;
export type FormErrors = Record<string, string>;
export type ToolArguments = Record<string, unknown>;

const SCALAR_KINDS: readonly string[] = ['string', 'number', 'integer', 'boolean'];

/** One choice of an `enum` field: the value it stands for, and what the user reads. */
export interface FieldOption {
  value: unknown;
  label: string;
}

const optionLabel = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The choices a schema offers: its `enum` (labelled by `enumNames` when given), or alternatives that are each one
 * `const` (labelled by their `title`); empty when it offers none.
 */
export function optionsOf(schema: JsonSchema): FieldOption[] {
  if (Array.isArray(schema.enum)) {
    return schema.enum.map((value, index) => ({ value, label: schema.enumNames?.[index] ?? optionLabel(value) }));
  }
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (!alternatives?.length || !alternatives.every((alternative) => 'const' in alternative)) return [];
  return alternatives.map((alternative) => ({
    value: alternative.const,
    label: alternative.title ?? optionLabel(alternative.const),
  }));
}

function kindOf(schema: JsonSchema): FieldKind {
  if (optionsOf(schema).length) return 'enum';
  const types = Array.isArray(schema.type) ? schema.type.filter((type) => type !== 'null') : [schema.type];
  const type = types.length === 1 ? types[0] : undefined;
  if (type === 'object' || (type === undefined && schema.properties)) return schema.properties ? 'object' : 'json';
  return type && SCALAR_KINDS.includes(type) ? (type as FieldKind) : 'json';
}

/** The fields of an object schema (a tool's inputSchema, or a nested `params`/`query`/`body` object). */
export function fieldsOf(schema: JsonSchema | undefined, path: string[] = []): Field[] {
  const required = new Set(schema?.required ?? []);
  return Object.entries(schema?.properties ?? {}).map(([name, child]) => {
    const kind = kindOf(child);
    const childPath = [...path, name];
    return {
      key: childPath.join('.'),
      name,
      kind,
      required: required.has(name),
      schema: child,
      children: kind === 'object' ? fieldsOf(child, childPath) : [],
    };
  });
}

/** Every field that holds a value, nested ones included. */
function leaves(fields: Field[]): Field[] {
  return fields.flatMap((field) => (field.kind === 'object' ? leaves(field.children) : [field]));
}

function initialValue(field: Field): string | boolean {
  const { default: fallback } = field.schema;
  if (field.kind === 'boolean') return fallback === true;
  if (fallback === undefined) return '';
  if (field.kind === 'enum') return String(optionsOf(field.schema).findIndex((option) => option.value === fallback));
  return field.kind === 'json' ? JSON.stringify(fallback) : String(fallback);
}

/** The form's starting values: each field's `default`, else empty (checkboxes unchecked). */
export function initialValues(fields: Field[]): FormValues {
  return Object.fromEntries(leaves(fields).map((field) => [field.key, initialValue(field)]));
}

function numberProblem(value: number, schema: JsonSchema, integer: boolean): string | undefined {
  if (!Number.isFinite(value)) return 'must be a number';
  if (integer && !Number.isInteger(value)) return 'must be an integer';
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  if (minimum !== undefined && value < minimum) return `must be at least ${minimum}`;
  if (maximum !== undefined && value > maximum) return `must be at most ${maximum}`;
  if (exclusiveMinimum !== undefined && value <= exclusiveMinimum) return `must be greater than ${exclusiveMinimum}`;
  if (exclusiveMaximum !== undefined && value >= exclusiveMaximum) return `must be less than ${exclusiveMaximum}`;
  return undefined;
}

function stringProblem(value: string, { minLength, maxLength, pattern }: JsonSchema): string | undefined {
  if (minLength !== undefined && value.length < minLength) return `must be at least ${minLength} characters`;
  if (maxLength !== undefined && value.length > maxLength) return `must be at most ${maxLength} characters`;
  if (pattern !== undefined && !new RegExp(pattern, 'u').test(value)) return `must match ${pattern}`;
  return undefined;
}

type Reading = { value: unknown } | { error: string } | { omitted: true };

function parseJson(text: string): Reading {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { error: 'must be valid JSON' };
  }
}

/** One leaf field's value, parsed and checked against its schema. */
function readLeaf(field: Field, raw: string | boolean | undefined): Reading {
  if (field.kind === 'boolean') {
    // An unchecked optional box without a default means "not given", so the tool's own default applies.
    return raw === true || field.required || field.schema.default !== undefined ? { value: raw === true } : { omitted: true };
  }
  const text = typeof raw === 'string' ? raw : '';
  if (text.trim() === '') return field.required ? { error: 'required' } : { omitted: true };
  const checked = (value: unknown, problem: string | undefined): Reading => (problem ? { error: problem } : { value });
  switch (field.kind) {
    case 'enum':
      return { value: optionsOf(field.schema)[Number(text)].value };
    case 'number':
    case 'integer': {
      const value = Number(text.trim());
      return checked(value, numberProblem(value, field.schema, field.kind === 'integer'));
    }
    case 'string':
      return checked(text, stringProblem(text, field.schema));
    default:
      return parseJson(text);
  }
}

function hasInput(fields: Field[], values: FormValues): boolean {
  return leaves(fields).some((field) => {
    const value = values[field.key];
    return value === true || (typeof value === 'string' && value.trim() !== '');
  });
}

function readFields(fields: Field[], values: FormValues, errors: FormErrors): ToolArguments {
  const out: ToolArguments = {};
  for (const field of fields) {
    if (field.kind === 'object') {
      // An optional object nobody filled in is left out; once anything in it is filled, its own rules apply.
      if (field.required || hasInput(field.children, values)) out[field.name] = readFields(field.children, values, errors);
      continue;
    }
    const reading = readLeaf(field, values[field.key]);
    if ('error' in reading) errors[field.key] = reading.error;
    else if ('value' in reading) out[field.name] = reading.value;
  }
  return out;
}

/**
 * The tool arguments the form's values make, and a message per invalid field (empty when the form is valid).
 * `args` holds every valid field even when others are invalid, so a preview (the REST URL) can show what is known.
 */
export function readForm(fields: Field[], values: FormValues): { args: ToolArguments; errors: FormErrors } {
  const errors: FormErrors = {};
  const args = readFields(fields, values, errors);
  return { args, errors };
}
