// The TypeScript signature of a tool as code mode calls it (`tools.<name>(args): Promise<value>`), written from its
// input and output JSON Schemas — the ones tools/list carries; shared by the MCP door (search hits) and the explorer.

type Schema = Record<string, unknown>;

/** What a signature is made from: the tool's name, and its schemas as tools/list gives them. */
export interface SignedTool {
  name: string;
  inputSchema?: Schema;
  outputSchema?: Schema;
}

/** Nesting deeper than this (or a `$ref` cycle) reads as `unknown`. */
const MAX_DEPTH = 8;
/** A property name JavaScript takes unquoted. */
export const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Whether a JSON Schema node is an object schema (not `true`/`false`, not an array). */
export const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A union or intersection member that needs parentheses inside an array type. */
const grouped = (type: string) => (/[|&]/.test(type) && !/^[{(]/.test(type) ? `(${type})` : type);

/** One comment line of a property: its description and default, `*​/` made harmless. */
function commentOf(schema: Schema): string | undefined {
  const parts = [typeof schema.description === 'string' ? schema.description : '', schema.default !== undefined ? `(default ${JSON.stringify(schema.default)})` : ''];
  const text = parts.filter(Boolean).join(' ').replace(/\*\//g, '*\\/').replace(/\s+/g, ' ').trim();
  return text || undefined;
}

class TypeWriter {
  constructor(private readonly root: Schema) {}

  type(schema: unknown, depth: number, indent: string): string {
    if (schema === true || schema === undefined) return 'unknown';
    if (schema === false) return 'never';
    if (!isSchema(schema) || depth > MAX_DEPTH) return 'unknown';
    if (typeof schema.$ref === 'string') return this.type(this.#resolve(schema.$ref), depth + 1, indent);
    if ('const' in schema) return JSON.stringify(schema.const);
    if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
    for (const key of ['anyOf', 'oneOf'] as const) {
      const options = schema[key];
      if (Array.isArray(options)) return [...new Set(options.map((option) => this.type(option, depth + 1, indent)))].join(' | ');
    }
    if (Array.isArray(schema.allOf)) return schema.allOf.map((part) => grouped(this.type(part, depth + 1, indent))).join(' & ');
    if (Array.isArray(schema.type)) return schema.type.map((type) => this.type({ ...schema, type }, depth, indent)).join(' | ');
    switch (schema.type) {
      case 'string':
        return 'string';
      case 'number':
      case 'integer':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'null':
        return 'null';
      case 'array':
        if (Array.isArray(schema.prefixItems)) return `[${schema.prefixItems.map((item) => this.type(item, depth + 1, indent)).join(', ')}]`;
        return `${grouped(this.type(schema.items, depth + 1, indent))}[]`;
      case 'object':
        return this.#object(schema, depth, indent);
      default:
        return isSchema(schema.properties) ? this.#object(schema, depth, indent) : 'unknown';
    }
  }

  #object(schema: Schema, depth: number, indent: string): string {
    const properties = isSchema(schema.properties) ? Object.entries(schema.properties) : [];
    const extra = schema.additionalProperties;
    // Extra keys: as their schema says; none when refused, or when the schema lists its (no) properties and says nothing.
    const closed = extra === false || (extra === undefined && isSchema(schema.properties));
    const extraType = isSchema(extra) ? this.type(extra, depth + 1, indent) : closed ? undefined : 'unknown';
    if (!properties.length) return extraType === undefined ? '{}' : `Record<string, ${extraType}>`;
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const inner = `${indent}  `;
    const lines = properties.flatMap(([key, property]) => {
      const comment = isSchema(property) ? commentOf(property) : undefined;
      const name = IDENTIFIER.test(key) ? key : JSON.stringify(key);
      const line = `${inner}${name}${required.has(key) ? '' : '?'}: ${this.type(property, depth + 1, inner)};`;
      return comment ? [`${inner}/** ${comment} */`, line] : [line];
    });
    if (isSchema(extra)) lines.push(`${inner}[key: string]: ${extraType};`);
    return `{\n${lines.join('\n')}\n${indent}}`;
  }

  #resolve(ref: string): unknown {
    if (!ref.startsWith('#/')) return undefined;
    return ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, key) => (isSchema(node) ? node[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), this.root);
  }
}

/**
 * The schema of the value a program gets from a call: a structured result as it is, except an array result (which
 * MCP carries as `{ items }`) as the array; without an output schema, `unknown`.
 */
export function valueSchemaOf(outputSchema: Schema | undefined): Schema | undefined {
  const properties = isSchema(outputSchema?.properties) ? outputSchema.properties : undefined;
  const items = properties?.items;
  if (properties && Object.keys(properties).length === 1 && isSchema(items) && items.type === 'array') return { ...outputSchema, ...items };
  return outputSchema;
}

/** `name(args: { … }): Promise<…>`, from the tool's schemas (a tool that takes no arguments: `name(args?: {})`). */
export function toolSignature(tool: SignedTool): string {
  const input = tool.inputSchema ?? { type: 'object', properties: {} };
  const args = new TypeWriter(input).type({ type: 'object', ...input }, 0, '');
  const optional = !(Array.isArray(input.required) && input.required.length);
  const value = valueSchemaOf(tool.outputSchema);
  const output = value ? new TypeWriter(tool.outputSchema!).type(value, 0, '') : 'unknown';
  return `${tool.name}(args${optional ? '?' : ''}: ${args}): Promise<${output}>`;
}
