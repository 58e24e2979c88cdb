// The generated catalogue's Vovk controllers: a class per module, made at run time and decorated as a written one is.
import { del, get, operation, patch, post, prefix, procedure, put } from 'vovk';
import { z } from 'zod';
import { alwaysListed, toolset } from 'vovk-mcp-gateway';
import { DOMAINS } from './domains';
import { fakeObject, objectSchema } from './fields';
import type { Domain, Fields, Output, Verb } from './spec';
import { COMMON_VERBS, PROCEDURES_PER_MODULE, verbsOf, wordsOf, type Words } from './verbs';

/** The HTTP decorators, by the name a verb gives. */
const HTTP = { get, post, put, patch, del };

/** A further system holding the same domains, for catalogues larger than one module per domain. */
interface Edition {
  key: string;
  label: string;
  about: string;
}

/** The editions in order: the company's main system first, then copies of it (module `LegacyInvoiceController`…). */
const EDITIONS: (Edition | undefined)[] = [
  undefined,
  { key: 'Legacy', label: 'legacy system', about: 'the legacy system, kept for the customers not migrated yet' },
  { key: 'Partner', label: 'partner portal', about: 'the partner portal, where resellers manage their own customers' },
  { key: 'Sandbox', label: 'sandbox', about: 'the sandbox, a copy of production for trying changes safely' },
  { key: 'Regional', label: 'APAC region', about: 'the Asia-Pacific regional system' },
  { key: 'Wholesale', label: 'wholesale', about: 'the system of the wholesale business unit' },
];

/** The most procedures the catalogue has. */
const CATALOGUE_CAPACITY = DOMAINS.length * EDITIONS.length * PROCEDURES_PER_MODULE;

/** What one module is made of. */
interface Plan {
  key: string;
  path: string;
  domain: Domain;
  words: Words;
  edition?: Edition;
  verbs: Verb[];
  /** The schemas shared by its procedures. */
  recordFields: Fields;
  record: z.ZodType;
  list: z.ZodType;
}

const DeletedSchema = z
  .object({
    deleted: z.literal(true).meta({ description: 'Always true' }),
    id: z.union([z.number().int().positive(), z.string()]).meta({ description: 'Id of what was deleted' }),
  })
  .meta({ description: 'What was deleted' });

const plans = new Map<number, Plan>();

/** The `index`-th module: the domains in order, then again in each further edition. */
function planOf(index: number): Plan {
  let plan = plans.get(index);
  if (plan) return plan;
  const domainIndex = index % DOMAINS.length;
  const domain = DOMAINS[domainIndex];
  const edition = EDITIONS[Math.floor(index / DOMAINS.length)];
  const words = wordsOf(domain);
  const statuses = domain.statuses ?? [];
  const recordFields: Fields = {
    id: `id Unique numeric id of the ${words.noun}`,
    ...domain.fields,
    ...domain.computed,
    ...(statuses.length ? { status: `status Where the ${words.noun} is in its life: ${statuses.join(', ')}` } : {}),
    createdAt: 'datetime When it was created, ISO 8601 in UTC',
    updatedAt: 'datetime When it last changed, ISO 8601 in UTC',
  };
  const record = objectSchema(recordFields, 'output', statuses, `One of the ${words.plural}: ${domain.about}`);
  const list = z
    .object({
      items: z.array(record).meta({ description: `The ${words.plural} of this page` }),
      nextCursor: z
        .string()
        .nullable()
        .meta({ description: 'Give it as cursor to get the next page; null on the last page' }),
    })
    .meta({ description: `A page of ${words.plural}` });
  plan = {
    key: `${edition?.key ?? ''}${domain.key}Controller`,
    path: ['catalogue', edition?.key.toLowerCase(), words.path].filter(Boolean).join('/'),
    domain,
    words,
    edition,
    verbs: verbsOf(domain, words, (domainIndex * 5) % COMMON_VERBS),
    recordFields,
    record,
    list,
  };
  plans.set(index, plan);
  return plan;
}

/** The path fields of a verb: `{id}` is the record's (`invoiceId`), the others it declares. */
function pathFields({ words, key }: Plan, verb: Verb): Fields {
  const names = [...verb.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  return Object.fromEntries(
    names.map((name) => {
      if (name === 'id') return [words.idName, `id Numeric id of the ${words.noun}, e.g. 42`];
      const field = verb.params?.[name];
      if (!field) throw new SyntaxError(`catalogue: ${key}.${verb.name} does not declare {${name}}`);
      return [name, field];
    }),
  );
}

/**
 * What a verb answers when it does not say: DELETE `{ deleted, id }`, a path naming a record that record, a GET of the
 * collection a page of records, any other call the new record.
 */
function outputOf(verb: Verb): Output {
  if (verb.output) return verb.output;
  if (verb.method === 'del') return 'deleted';
  return verb.path.includes('{id}') || verb.method !== 'get' ? 'record' : 'list';
}

type Input = { params: Record<string, unknown>; query: Record<string, unknown>; body: Record<string, unknown> };

/** The fake answer of a verb: made up, but from the call (the id asked for, the fields given) and the same each time. */
function answer(plan: Plan, verb: Verb, { params, query, body }: Input): unknown {
  const { words, recordFields, domain } = plan;
  const statuses = domain.statuses ?? [];
  const id = params[words.idName] as number | undefined;
  const output = outputOf(verb);
  const context = { statuses, noun: words.noun };
  if (output === 'deleted') return { deleted: true, id: Object.values(params).at(-1) };
  if (output === 'list') {
    const limit = typeof query.limit === 'number' ? query.limit : 20;
    const items = Array.from({ length: Math.max(0, Math.min(limit, 3)) }, (_, index) =>
      fakeObject(recordFields, { ...context, seed: index + 1, given: { ...query, ...verb.sets, id: index + 1 } }),
    );
    return { items, nextCursor: items.length < limit ? null : 'eyJwYWdlIjoyfQ' };
  }
  const seed = id ?? 101;
  const given = { ...params, ...query, ...body, ...verb.sets, id: seed, [words.idName]: seed };
  return fakeObject(output === 'record' ? recordFields : output, { ...context, seed, given });
}

/** The verb as a Vovk procedure: its zod schemas, and a handler that answers fake data (no store, no side effect). */
function procedureOf(plan: Plan, verb: Verb) {
  const statuses = plan.domain.statuses ?? [];
  const params = pathFields(plan, verb);
  const output = outputOf(verb);
  const outputSchema =
    output === 'record'
      ? plan.record
      : output === 'list'
        ? plan.list
        : output === 'deleted'
          ? DeletedSchema
          : objectSchema(output, 'output', statuses, verb.summary);
  return procedure({
    params: Object.keys(params).length ? objectSchema(params, 'params', statuses, 'Path parameters') : undefined,
    query: verb.query ? objectSchema(verb.query, 'query', statuses, 'Query parameters') : undefined,
    body: verb.body
      ? objectSchema(verb.body, 'body', statuses, `What to send: ${verb.summary.toLowerCase()}`)
      : undefined,
    output: outputSchema,
  }).handle(async (req) =>
    answer(plan, verb, {
      params: req.vovk.params() as Record<string, unknown>,
      // Only a procedure with a query reads it (a body-carrying request may reach it without Next.js's parsed URL).
      query: verb.query ? (req.vovk.query() as Record<string, unknown>) : {},
      body: verb.body ? ((await req.vovk.body()) as Record<string, unknown>) : {},
    }),
  );
}

/**
 * The module as a controller class with its first `count` procedures. What `@prefix`, `@get`…, `@toolset` and
 * `@operation` do written above a static field, done here as calls: the class decorator with the class, each
 * member decorator with (class, name) after the field is set, the one nearest the field first.
 */
function controllerOf(plan: Plan, count: number): object {
  const { key, path, verbs, edition, domain } = plan;
  const Controller = { [key]: class {} }[key];
  prefix(path)(Controller);
  const routes = new Set<string>();
  for (const verb of verbs.slice(0, count)) {
    const route = `${verb.method} ${verb.path.replace(/\{\w+\}/g, '{}')}`;
    if (routes.has(route) || verb.name in Controller) {
      throw new SyntaxError(`catalogue: ${key}.${verb.name} repeats a name or route`);
    }
    routes.add(route);
    Object.assign(Controller, { [verb.name]: procedureOf(plan, verb) });
    HTTP[verb.method](verb.path.replace('{id}', `{${plan.words.idName}}`))(Controller, verb.name);
    const toolsets = [
      ...new Set([...domain.toolsets, ...(verb.toolsets ?? []), ...(edition ? [edition.key.toLowerCase()] : [])]),
    ];
    if (toolsets.length) toolset(...(toolsets as [string, ...string[]]))(Controller, verb.name);
    if (verb.alwaysListed) alwaysListed()(Controller, verb.name);
    operation({
      summary: edition ? `${verb.summary} (${edition.label})` : verb.summary,
      description: edition ? `${verb.description} In ${edition.about}.` : verb.description,
      ...(verb.additive ? { 'x-tool-annotations': { destructiveHint: false } } : {}),
    })(Controller, verb.name);
  }
  return Controller;
}

const controllers = new Map<string, object>();

/**
 * The catalogue's first `count` procedures as controllers by module key, 20 a module (the last one may have fewer):
 * a smaller catalogue is a prefix of a larger one. Each controller is made once per process.
 */
export function catalogueControllers(count: number): Record<string, object> {
  if (!Number.isInteger(count) || count < 0 || count > CATALOGUE_CAPACITY) {
    throw new RangeError(`catalogue: ${count} procedures asked for, it has 0 to ${CATALOGUE_CAPACITY}`);
  }
  const modules: Record<string, object> = {};
  for (let index = 0; index * PROCEDURES_PER_MODULE < count; index++) {
    const plan = planOf(index);
    const size = Math.min(PROCEDURES_PER_MODULE, count - index * PROCEDURES_PER_MODULE);
    const cacheKey = `${plan.key}/${size}`;
    let controller = controllers.get(cacheKey);
    if (!controller) controllers.set(cacheKey, (controller = controllerOf(plan, size)));
    modules[plan.key] = controller;
  }
  return modules;
}
