// What changed between a locked tool contract and the catalogue's current one, and which changes break a caller.
import { canonicalJson, type ContractTool, type JsonSchema, type ToolContract } from './tool-contract.js';

/** One change of one tool: what changed, and — when it breaks a caller configured against the lock — why. */
export interface ContractChange {
  tool: string;
  what: string;
  /** Why it breaks a caller; undefined for a change no caller notices (a new tool, a new optional argument…). */
  breaks?: string;
}

/**
 * Which way a schema is read: an `input` schema says what the tool accepts (a caller breaks when it accepts less), an
 * `output` schema what it returns (a caller breaks when it may return something the caller was not promised).
 */
type Side = 'input' | 'output';

type Schema = { [keyword: string]: unknown };

/** Bounds a larger value of tightens, and bounds a smaller value of tightens. */
const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'] as const;
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'] as const;
/** Keywords any other value of restricts differently: a change of one may refuse what the old one accepted. */
const RESTRICTIONS = ['pattern', 'format', 'multipleOf'] as const;

/** A value as one JSON text, the same whatever order its keys were written in (the lock's are sorted). */
const json = (value: unknown) => canonicalJson(value);
const listed = (values: readonly unknown[]) => values.map(json).join(', ');

/** A JSON Schema as an object (`true` is `{}`, `false` a schema nothing matches). */
const asObject = (schema: JsonSchema | undefined): Schema => (schema === false ? { not: {} } : typeof schema === 'object' ? schema : {});

/** The JSON types a schema allows; undefined when it does not say (any type). */
function typesOf(schema: Schema): string[] | undefined {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? (schema.type as string[]) : undefined;
}

/** Whether a value of JSON type `type` is one `types` allow (undefined: any; an integer is a number). */
const allows = (types: string[] | undefined, type: string) => !types || types.includes(type) || (type === 'integer' && types.includes('number'));

/** The values a schema allows (`enum`, or `const` as one); undefined when it lists none. */
function valuesOf(schema: Schema): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  return 'const' in schema ? [schema.const] : undefined;
}

/** The variants of a union schema (`anyOf`, `oneOf`); undefined for a schema of one kind. */
function variantsOf(schema: Schema): Schema[] | undefined {
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  return Array.isArray(variants) ? variants.map(asObject) : undefined;
}

/** A variant named for a reader: its types, or its values. */
function describe(schema: Schema): string {
  const values = valuesOf(schema);
  if (values) return listed(values);
  return typesOf(schema)?.join(' or ') ?? 'any value';
}

/** A property's path in a message: `body.title`, `items[].id`; the schema's root is "the value". */
const at = (path: string) => path || 'the value';
const child = (path: string, name: string) => (path ? `${path}.${name}` : name);

/**
 * Compares two versions of a tool's input or output schema (each with its own `$defs` for `$ref`s) and collects what
 * changed at each path. `$ref`s are followed; a pair of them met again (a recursive schema) is not compared again.
 */
class SchemaComparison {
  readonly changes: Omit<ContractChange, 'tool'>[] = [];
  readonly #compared = new Set<string>();

  constructor(
    private readonly side: Side,
    private readonly roots: { old: Schema; new: Schema },
  ) {}

  compare(oldSchema: Schema, newSchema: Schema, path: string): void {
    const pair = `${json(oldSchema.$ref)}|${json(newSchema.$ref)}`;
    if ((oldSchema.$ref || newSchema.$ref) && this.#compared.has(pair)) return;
    this.#compared.add(pair);
    const before = this.#resolved(oldSchema, this.roots.old);
    const after = this.#resolved(newSchema, this.roots.new);
    if (json(before.description) !== json(after.description) && path) this.#note(`description of ${path} changed`);
    if (json(before.default) !== json(after.default)) this.#note(`default of ${at(path)} changed: ${json(before.default)} → ${json(after.default)}`);
    if (variantsOf(before) || variantsOf(after)) return this.#compareVariants(before, after, path);
    this.#compareTypes(before, after, path);
    this.#compareValues(before, after, path);
    this.#compareBounds(before, after, path);
    this.#compareProperties(before, after, path);
    if (before.items !== undefined || after.items !== undefined) {
      this.compare(asObject(before.items as JsonSchema), asObject(after.items as JsonSchema), `${path}[]`);
    }
  }

  /** Whether `before` → `after` breaks nothing (compared apart, nothing recorded). */
  #keeps(before: Schema, after: Schema, path: string): boolean {
    const trial = new SchemaComparison(this.side, this.roots);
    trial.compare(before, after, path);
    return trial.changes.every((change) => !change.breaks);
  }

  #resolved(schema: Schema, root: Schema): Schema {
    let resolved = schema;
    for (let hops = 0; typeof resolved.$ref === 'string' && resolved.$ref.startsWith('#') && hops < 32; hops++) {
      const target = resolved.$ref
        .slice(1)
        .split('/')
        .filter(Boolean)
        .reduce<unknown>((node, key) => (node as Schema | undefined)?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], root);
      resolved = { ...asObject(target as JsonSchema), ...Object.fromEntries(Object.entries(resolved).filter(([key]) => key !== '$ref')) };
    }
    return resolved;
  }

  #note(what: string): void {
    this.changes.push({ what });
  }

  #break(what: string, breaks: string): void {
    this.changes.push({ what, breaks });
  }

  /** Unions: on input each old variant must still be accepted by a new one; on output each new variant must have been promised. */
  #compareVariants(before: Schema, after: Schema, path: string): void {
    const olds = variantsOf(before) ?? [before];
    const news = variantsOf(after) ?? [after];
    const breaksBefore = this.changes.filter((change) => change.breaks).length;
    if (this.side === 'input') {
      for (const variant of olds) {
        if (!news.some((candidate) => this.#keeps(variant, candidate, path))) {
          this.#break(`${at(path)} no longer accepts ${describe(variant)}`, 'a caller that sends it is refused');
        }
      }
    } else {
      for (const variant of news) {
        if (!olds.some((candidate) => this.#keeps(candidate, variant, path))) {
          this.#break(`${at(path)} may now be ${describe(variant)}`, 'a caller that reads it gets a value it was not promised');
        }
      }
    }
    const broke = this.changes.filter((change) => change.breaks).length > breaksBefore;
    if (!broke && json(olds) !== json(news)) this.#note(`the variants of ${at(path)} changed`);
  }

  #compareTypes(before: Schema, after: Schema, path: string): void {
    const [oldTypes, newTypes] = [typesOf(before), typesOf(after)];
    if (json(oldTypes) === json(newTypes)) return;
    const change = `type of ${at(path)} changed: ${oldTypes?.join(' or ') ?? 'any'} → ${newTypes?.join(' or ') ?? 'any'}`;
    // Input: every type it accepted must still be accepted; output: every type it may return must have been promised.
    const [kept, keeping] = this.side === 'input' ? [oldTypes, newTypes] : [newTypes, oldTypes];
    const lost = !keeping ? [] : !kept ? [`types other than ${keeping.join(' or ')}`] : kept.filter((type) => !allows(keeping, type));
    if (!lost.length) return this.#note(change);
    if (this.side === 'input') this.#break(change, `a caller that sends ${lost.join(' or ')} is refused`);
    else this.#break(change, `a caller that reads it may get ${lost.join(' or ')}, which it was not promised`);
  }

  #compareValues(before: Schema, after: Schema, path: string): void {
    const [oldValues, newValues] = [valuesOf(before), valuesOf(after)];
    if (json(oldValues) === json(newValues)) return;
    const has = (values: unknown[] | undefined, value: unknown) => !values || values.some((known) => json(known) === json(value));
    if (this.side === 'input') {
      if (!newValues) return this.#note(`${at(path)} accepts any value now (was ${listed(oldValues!)})`);
      const dropped = oldValues ? oldValues.filter((value) => !has(newValues, value)) : undefined;
      const added = newValues.filter((value) => !has(oldValues, value));
      if (!dropped) return this.#break(`${at(path)} now accepts only ${listed(newValues)}`, 'a caller that sends any other value is refused');
      if (dropped.length) this.#break(`enum of ${at(path)} narrowed: ${listed(dropped)} removed`, `a caller that sends ${listed(dropped)} is refused`);
      if (added.length) this.#note(`enum of ${at(path)} widened: ${listed(added)} added`);
    } else {
      if (!oldValues) return this.#note(`${at(path)} is now one of ${listed(newValues!)}`);
      const added = newValues ? newValues.filter((value) => !has(oldValues, value)) : undefined;
      const dropped = oldValues.filter((value) => !has(newValues, value));
      if (!added) return this.#break(`${at(path)} is no longer one of ${listed(oldValues)}`, 'a caller that reads it may get a value it does not expect');
      if (added.length) this.#break(`${at(path)} may now be ${listed(added)}`, 'a caller that reads it may get a value it does not handle');
      if (dropped.length) this.#note(`${at(path)} is no longer ${listed(dropped)}`);
    }
  }

  /** Minimums, maximums, patterns and formats: tighter breaks an input, looser (or different) an output. */
  #compareBounds(before: Schema, after: Schema, path: string): void {
    const bounds = [...LOWER_BOUNDS.map((key) => [key, 1] as const), ...UPPER_BOUNDS.map((key) => [key, -1] as const)];
    for (const [key, direction] of bounds) {
      const [oldBound, newBound] = [before[key] as number | undefined, after[key] as number | undefined];
      if (oldBound === newBound) continue;
      const tighter = newBound !== undefined && (oldBound === undefined || (newBound - oldBound) * direction > 0);
      this.#restricted(`${key} of ${at(path)} changed: ${oldBound ?? 'none'} → ${newBound ?? 'none'}`, tighter, !tighter);
    }
    for (const key of RESTRICTIONS) {
      if (json(before[key]) === json(after[key])) continue;
      const change = `${key} of ${at(path)} changed: ${json(before[key]) ?? 'none'} → ${json(after[key]) ?? 'none'}`;
      this.#restricted(change, after[key] !== undefined, before[key] !== undefined);
    }
  }

  /** A restriction that changed: `narrows` (accepts less), `widens` (accepts more), or both (a different pattern). */
  #restricted(change: string, narrows: boolean, widens: boolean): void {
    if (this.side === 'input' && narrows) this.#break(change, 'a caller may send a value that is now refused');
    else if (this.side === 'output' && widens) this.#break(change, 'a caller that reads it may get a value it was not promised');
    else this.#note(change);
  }

  #compareProperties(before: Schema, after: Schema, path: string): void {
    const oldProperties = (before.properties ?? {}) as Record<string, JsonSchema>;
    const newProperties = (after.properties ?? {}) as Record<string, JsonSchema>;
    const oldRequired = new Set((before.required ?? []) as string[]);
    const newRequired = new Set((after.required ?? []) as string[]);
    const input = this.side === 'input';
    for (const [name, schema] of Object.entries(oldProperties)) {
      const where = child(path, name);
      if (!(name in newProperties)) {
        if (!input) this.#break(`output field ${where} removed`, 'a caller that reads it gets nothing');
        else if (after.additionalProperties === false) this.#break(`argument ${where} removed`, 'a caller that sends it is refused');
        else this.#break(`argument ${where} removed`, 'a caller that sends it is no longer heard (its value is ignored)');
        continue;
      }
      this.compare(asObject(schema), asObject(newProperties[name]), where);
      if (input && !oldRequired.has(name) && newRequired.has(name)) this.#break(`argument ${where} is now required`, 'a caller that leaves it out is refused');
      if (input && oldRequired.has(name) && !newRequired.has(name)) this.#note(`argument ${where} is now optional`);
      if (!input && oldRequired.has(name) && !newRequired.has(name)) this.#break(`output field ${where} may now be missing`, 'a caller that reads it may get nothing');
      if (!input && !oldRequired.has(name) && newRequired.has(name)) this.#note(`output field ${where} is now always present`);
    }
    for (const name of Object.keys(newProperties).filter((name) => !(name in oldProperties))) {
      const where = child(path, name);
      if (!input) this.#note(`output field ${where} added`);
      else if (newRequired.has(name)) this.#break(`required argument ${where} added`, 'a caller that leaves it out is refused');
      else this.#note(`optional argument ${where} added`);
    }
    if (input && before.additionalProperties !== false && after.additionalProperties === false && before.type === 'object') {
      this.#break(`${at(path)} no longer accepts other properties`, 'a caller that sends one it does not declare is refused');
    }
  }
}

/** What changed of a schema of a tool, read as `side`. */
function schemaChanges(side: Side, before: JsonSchema, after: JsonSchema): Omit<ContractChange, 'tool'>[] {
  const roots = { old: asObject(before), new: asObject(after) };
  const comparison = new SchemaComparison(side, roots);
  comparison.compare(roots.old, roots.new, '');
  return comparison.changes;
}

/** What changed of one tool, besides its name: annotations, scopes, toolsets, input and output schemas. */
function toolChanges(before: ContractTool, after: ContractTool): Omit<ContractChange, 'tool'>[] {
  const changes: Omit<ContractChange, 'tool'>[] = [];
  const note = (what: string, breaks?: string) => changes.push(breaks ? { what, breaks } : { what });
  const added = (olds: string[], news: string[]) => news.filter((name) => !olds.includes(name));
  if (before.title !== after.title) note(`title changed: ${json(before.title)} → ${json(after.title)}`);
  if (json(before.annotations) !== json(after.annotations)) {
    const lostReadOnly = before.annotations?.readOnlyHint === true && after.annotations?.readOnlyHint !== true;
    const what = `annotations changed: ${json(before.annotations ?? {})} → ${json(after.annotations ?? {})}`;
    note(what, lostReadOnly ? 'it is no longer read-only: read-only connections (readonly=1) no longer have it' : undefined);
  }
  for (const scope of added(before.scopes, after.scopes)) note(`now needs the scope ${scope}`, `a caller whose token lacks ${scope} is refused (403)`);
  for (const scope of added(after.scopes, before.scopes)) note(`no longer needs the scope ${scope}`);
  for (const toolset of added(after.toolsets, before.toolsets)) {
    note(`no longer in the toolset ${toolset}`, `a connection that selects toolsets=${toolset} no longer has it`);
  }
  for (const toolset of added(before.toolsets, after.toolsets)) note(`now also in the toolset ${toolset}`);
  changes.push(...schemaChanges('input', before.inputSchema, after.inputSchema));
  if (before.outputSchema === undefined) {
    if (after.outputSchema !== undefined) note('output schema added');
  } else if (after.outputSchema === undefined) {
    note('output schema removed', 'a caller that reads structuredContent is promised nothing');
  } else {
    changes.push(...schemaChanges('output', before.outputSchema, after.outputSchema));
  }
  return changes;
}

/** Why a locked tool that no current tool has (nor keeps as an alias) breaks its callers: renamed to `twin`, or gone. */
function goneChange(before: ContractTool, twin: ContractTool | undefined): Omit<ContractChange, 'tool'> {
  const fails = `a caller that names ${before.name} fails`;
  if (!twin) return { what: 'tool gone', breaks: `${fails} (unknown tool)` };
  return { what: `renamed to ${twin.name}`, breaks: `${fails}: keep the old name callable with @toolAliases('${before.name}') on ${twin.name}` };
}

/**
 * Every change from the `locked` contract to the `current` one, tool by tool in name order. A locked tool whose name
 * no current tool has nor keeps as an alias is gone (named a rename when one new tool has its very schemas); a rename
 * that keeps the old name as an alias breaks nothing by itself.
 */
export function contractChanges(locked: ToolContract, current: ToolContract): ContractChange[] {
  const currentByName = new Map(current.tools.map((tool) => [tool.name, tool]));
  const lockedNames = new Set(locked.tools.map((tool) => tool.name));
  const lockedCallable = new Set(locked.tools.flatMap((tool) => [tool.name, ...(tool.aliases ?? [])]));
  const holderOf = new Map(current.tools.flatMap((tool) => (tool.aliases ?? []).map((alias) => [alias, tool] as const)));
  const callable = (name: string) => currentByName.has(name) || holderOf.has(name);
  const renamedTo = new Set<string>();
  const changes: ContractChange[] = [];
  const add = (tool: string, ...list: Omit<ContractChange, 'tool'>[]) => changes.push(...list.map((change) => ({ tool, ...change })));
  const schemasOf = (tool: ContractTool) => json([tool.inputSchema, tool.outputSchema]);
  for (const before of locked.tools) {
    const after = currentByName.get(before.name) ?? holderOf.get(before.name);
    if (after && after.name !== before.name) {
      renamedTo.add(after.name);
      add(before.name, { what: `renamed to ${after.name}; the old name stays callable (an alias)` }, ...toolChanges(before, after));
    } else if (after) {
      add(before.name, ...toolChanges(before, after));
    } else {
      const twins = current.tools.filter((tool) => !lockedNames.has(tool.name) && schemasOf(tool) === schemasOf(before));
      add(before.name, goneChange(before, twins.length === 1 ? twins[0] : undefined));
    }
    for (const alias of (before.aliases ?? []).filter((alias) => !callable(alias))) {
      add(before.name, { what: `alias ${alias} removed`, breaks: `a caller that still names ${alias} fails` });
    }
  }
  for (const tool of current.tools) {
    if (!lockedNames.has(tool.name) && !renamedTo.has(tool.name)) add(tool.name, { what: 'new tool' });
    for (const alias of (tool.aliases ?? []).filter((alias) => !lockedCallable.has(alias))) add(tool.name, { what: `alias ${alias} added` });
  }
  return changes.sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
}
