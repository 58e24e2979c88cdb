// Unit tests of the generated large catalogue (GATEWAY_CATALOGUE_PROCEDURES): size, names, texts, toolsets, answers, REST.
import { NextRequest } from 'next/server';
import { describe, expect, test } from 'vitest';
import { initSegment } from 'vovk';
import { TOOLSETS_KEY } from '@gateway/catalogue/toolsets';
import { gatewayTools } from '@gateway/mcp/gateway-server';
import { deriveGatewayTools, type GatewayTool } from '@gateway/mcp/gateway-tools';
import { ToModelOutput } from '@gateway/tools';
import { controllers, gatewayModules } from '@/modules';
import { catalogueControllers, SEARCH_QUALITY_CASES } from '@/testing/catalogue';

type JsonSchema = {
  type?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  format?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  maxLength?: number;
};
type Operation = { operationObject?: Record<string, unknown> };

const origin = () => 'http://localhost:3000';
const toolsOf = (count: number) => deriveGatewayTools(catalogueControllers(count), ToModelOutput.MCP, origin);
const thousand = toolsOf(1000);
const byName = new Map(thousand.map((tool) => [tool.name, tool]));
const moduleOf = (name: string) => name.slice(0, name.indexOf('_'));
const inputJsonSchema = (tool: GatewayTool) =>
  (tool.inputSchema?.['~standard'].jsonSchema.input({ target: 'draft-2020-12' }) ?? { properties: {} }) as JsonSchema;
const call = (name: string, input: unknown) => byName.get(name)!.execute(input);
const operationOf = (module: string, handler: string) =>
  (catalogueControllers(1000)[module] as Record<string, { schema?: Operation }>)[handler].schema?.operationObject ?? {};

/** Every property of a JSON Schema at any depth, by its path. */
function propertiesOf(schema: JsonSchema, path = ''): [string, JsonSchema][] {
  const nested = [schema.items, ...(schema.anyOf ?? [])].filter((inner): inner is JsonSchema => !!inner);
  return [
    ...Object.entries(schema.properties ?? {}).flatMap(([name, property]) => [
      [`${path}.${name}`, property] as [string, JsonSchema],
      ...propertiesOf(property, `${path}.${name}`),
    ]),
    ...nested.flatMap((inner) => propertiesOf(inner, `${path}[]`)),
  ];
}

/** A value the schema accepts, made from the schema alone (every property given, optional ones too). */
function sampleOf(schema: JsonSchema): unknown {
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sampleOf(schema.anyOf.find((inner) => inner.type !== 'null') ?? schema.anyOf[0]);
  switch (schema.type ?? (schema.properties ? 'object' : undefined)) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, property]) => [name, sampleOf(property)]),
      );
    case 'array':
      return [sampleOf(schema.items ?? {})];
    case 'integer':
    case 'number':
      return Math.min(Math.max(schema.minimum ?? (schema.exclusiveMinimum ?? 0) + 1, 1), schema.maximum ?? Infinity);
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'email') return 'ada@example.com';
      if (schema.format === 'uri') return 'https://files.example.com/sample.pdf';
      if (schema.format === 'date') return '2026-03-01';
      if (schema.format === 'date-time') return '2026-03-01T10:00:00.000Z';
      return schema.maxLength === 2 ? 'DE' : 'sample words';
    default:
      throw new TypeError(`no sample for ${JSON.stringify(schema)}`);
  }
}

describe('size and names', () => {
  test('1,000 procedures are 1,000 tools over 50 modules, each name once, under /api/catalogue/', () => {
    const names = thousand.map((tool) => tool.name);
    expect(names).toHaveLength(1000);
    expect(new Set(names).size).toBe(1000);
    const modules = new Set(names.map(moduleOf));
    expect(modules.size).toBe(50);
    for (const module of modules) expect(module).toMatch(/^[A-Z][A-Za-z]+Controller$/);
    for (const key of [
      'ContactController',
      'InvoiceController',
      'ShipmentController',
      'TicketController',
      'ProjectTaskController',
    ]) {
      expect(modules).toContain(key);
    }
    for (const tool of thousand) expect(tool.restRoute?.path).toMatch(/^\/api\/catalogue\/[a-z-]+(\/|$)/);
  });

  test('no module key of the product or of the test build is reused', () => {
    const taken = [
      ...Object.keys(controllers),
      'FixtureController',
      'ConformanceController',
      'ConformanceInputController',
      'BenchController',
    ];
    expect(taken).toContain('TaskController');
    for (const key of taken) expect(catalogueControllers(1000)).not.toHaveProperty(key);
  });

  test('200 procedures are the first 200 of 1,000 (10 modules, the same controllers); 1,010 cuts the 51st module to 10', () => {
    const twoHundred = toolsOf(200);
    expect(twoHundred.map((tool) => tool.name)).toEqual(thousand.slice(0, 200).map((tool) => tool.name));
    expect(new Set(twoHundred.map((tool) => moduleOf(tool.name))).size).toBe(10);
    expect(catalogueControllers(200).InvoiceController).toBe(catalogueControllers(1000).InvoiceController);
    const more = toolsOf(1010);
    expect(more).toHaveLength(1010);
    expect(more.filter((tool) => moduleOf(tool.name) === moduleOf(more.at(-1)!.name))).toHaveLength(10);
  });

  test('the largest catalogue the configuration allows (5,000) is 250 modules, further systems of the same domains', () => {
    const modules = Object.keys(catalogueControllers(5000));
    expect(modules).toHaveLength(250);
    expect(new Set(modules).size).toBe(250);
    expect(modules).toContain('LegacyInvoiceController');
    expect(() => catalogueControllers(1_000_000)).toThrow(RangeError);
  });
});

describe('what a model reads', () => {
  test('every tool has a title and a description longer than it; every parameter, at any depth, a description', () => {
    for (const tool of thousand) {
      expect(tool.title, tool.name).toMatch(/^[A-Z]/);
      expect(tool.description.length, tool.name).toBeGreaterThan(tool.title!.length + 20);
      const slots = inputJsonSchema(tool).properties ?? {};
      for (const [slot, schema] of Object.entries(slots)) {
        expect(['params', 'query', 'body'], tool.name).toContain(slot);
        for (const [path, property] of propertiesOf(schema, slot))
          expect(property.description, `${tool.name} ${path}`).toBeTruthy();
      }
    }
  });

  test('the vocabulary overlaps the product’s on purpose: tasks, boards, users, images, audio, feeds, imports, moves', () => {
    const titles = thousand.map((tool) => tool.title!.toLowerCase()).join('\n');
    for (const word of [
      'task',
      'board',
      'user',
      'image',
      'audio',
      'feed',
      'import',
      'move',
      'assign',
      'overdue',
      'comment',
      'status',
    ]) {
      expect(titles, word).toContain(word);
    }
    expect(byName.get('ProjectTaskController_moveProjectTask')?.title).toBe('Move project task');
    expect(byName.get('SprintController_getSprintBoard')).toBeDefined();
  });

  test('annotations follow the method, and additive procedures say they destroy nothing', () => {
    expect(byName.get('InvoiceController_listInvoices')?.annotations).toEqual({ readOnlyHint: true });
    expect(byName.get('InvoiceController_deleteInvoice')?.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.get('InvoiceController_createInvoice')?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
    });
    expect(byName.get('InvoiceController_voidInvoice')?.annotations).toEqual({ readOnlyHint: false });
  });
});

describe('toolsets', () => {
  test('@toolset records extra toolsets on the operation (x-toolsets): the domain’s area and cross-cutting ones', () => {
    expect(operationOf('PaymentController', 'refundPayment')[TOOLSETS_KEY]).toEqual(['billing']);
    expect(operationOf('OrderController', 'refundOrder')[TOOLSETS_KEY]).toEqual(['sales', 'billing']);
    expect(operationOf('ShipmentController', 'printShippingLabel')[TOOLSETS_KEY]).toEqual(['logistics', 'documents']);
    expect(operationOf('TicketController', 'escalateTicket')[TOOLSETS_KEY]).toEqual(['support']);
    expect(operationOf('InvoiceController', 'sendInvoice')).toMatchObject({ summary: 'Send invoice' });
  });

  test('every procedure is in a toolset besides its module, and billing gathers money from several modules', () => {
    const billing = new Set<string>();
    for (const [module, controller] of Object.entries(catalogueControllers(1000))) {
      for (const [handler, procedure] of Object.entries(controller as Record<string, { schema?: Operation }>)) {
        const operation = procedure?.schema?.operationObject;
        if (!operation) continue;
        const toolsets = operation[TOOLSETS_KEY] as string[];
        expect(toolsets?.length, `${module}_${handler}`).toBeGreaterThan(0);
        if (toolsets.includes('billing')) billing.add(module);
      }
    }
    expect([...billing]).toEqual(
      expect.arrayContaining(['InvoiceController', 'PaymentController', 'OrderController', 'RefundController']),
    );
  });
});

describe('answers', () => {
  test('get answers the record asked for; an action answers the record in its new state', async () => {
    const invoice = await call('InvoiceController_getInvoice', { params: { invoiceId: 42 } });
    expect(invoice.isError).toBeUndefined();
    expect(invoice.structuredContent).toMatchObject({ id: 42, currency: 'EUR', number: 'INV-2026-0042' });
    expect(['draft', 'sent', 'paid', 'overdue', 'void']).toContain(
      (invoice.structuredContent as { status: string }).status,
    );
    expect((await call('InvoiceController_getInvoice', { params: { invoiceId: 42 } })).structuredContent).toEqual(
      invoice.structuredContent,
    );
    const paid = await call('InvoiceController_markInvoicePaid', {
      params: { invoiceId: 7 },
      body: { method: 'cash' },
    });
    expect(paid.structuredContent).toMatchObject({ id: 7, status: 'paid', amountDue: 0 });
    const escalated = await call('TicketController_escalateTicket', {
      params: { ticketId: 3 },
      body: { level: 'tier2', reason: 'Tried a reset' },
    });
    expect(escalated.structuredContent).toMatchObject({ id: 3, priority: 'urgent', status: 'open' });
  });

  test('create answers what it was given with a new id; a list honours its filters and limit; delete answers { deleted, id }', async () => {
    const body = { subject: 'Printer on fire', description: 'Smoke', requesterId: 9, priority: 'high' };
    const created = await call('TicketController_createTicket', { body });
    expect(created.structuredContent).toMatchObject({ ...body, id: expect.any(Number), status: 'new' });
    const page = await call('ContactController_listContacts', { query: { status: 'customer', limit: 2 } });
    const { items, nextCursor } = page.structuredContent as { items: { status: string }[]; nextCursor: string | null };
    expect(items).toHaveLength(2);
    expect(items.every((item) => item.status === 'customer')).toBe(true);
    expect(nextCursor).toEqual(expect.any(String));
    expect((await call('ContactController_deleteContact', { params: { contactId: 3 } })).structuredContent).toEqual({
      deleted: true,
      id: 3,
    });
    const tracking = await call('ShipmentController_trackShipment', { params: { shipmentId: 5 } });
    expect(tracking.structuredContent).toMatchObject({
      trackingNumber: '1Z999AA10123456784',
      events: expect.any(Array),
    });
  });

  test('input is checked by the procedure’s schema: a missing field is an error naming it', async () => {
    const result = await call('InvoiceController_addLineItemToInvoice', {
      params: { invoiceId: 1 },
      body: { description: 'Consulting' },
    });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/quantity/);
  });

  test('every procedure of every domain answers what its output schema says, for input made from its input schema', async () => {
    const failures: string[] = [];
    for (const tool of toolsOf(1200)) {
      const result = await tool.execute(sampleOf(inputJsonSchema(tool)));
      if (result.isError) failures.push(`${tool.name}: ${JSON.stringify(result.content).slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });
});

describe('REST', () => {
  const segment = initSegment({ controllers: { ...controllers, ...catalogueControllers(1000) } });
  const rest = async (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => {
    const request = new NextRequest(`http://localhost/api/${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    const response = await segment[method](request as never, { params: Promise.resolve({ vovk: path.split('/') }) });
    return { status: response.status, body: await response.text() };
  };

  test('the generated procedures answer under /api/catalogue/…, beside the product’s routes', async () => {
    expect(JSON.parse((await rest('GET', 'catalogue/invoices/42')).body)).toMatchObject({ id: 42 });
    const overdue = JSON.parse((await rest('GET', 'catalogue/invoices/overdue')).body) as {
      items: { status: string }[];
    };
    expect(overdue.items.map((item) => item.status)).toEqual(['overdue', 'overdue', 'overdue']);
    expect(JSON.parse((await rest('POST', 'catalogue/invoices/7/mark-paid', {})).body)).toMatchObject({
      id: 7,
      status: 'paid',
    });
    expect(JSON.parse((await rest('DELETE', 'catalogue/invoices/7/lines/3')).body)).toEqual({ deleted: true, id: 3 });
    expect((await rest('POST', 'catalogue/invoices/7/lines', { description: 'Consulting' })).status).toBe(400);
    expect(await rest('GET', 'text/greeting')).toEqual({ status: 200, body: 'Hello, world!' });
  });
});

describe('search quality cases', () => {
  // The tools a model is offered: not those only their MCP App calls (search leaves them out).
  const offered = (tool: GatewayTool) => typeof tool.app !== 'object' || tool.app.visibility.includes('model');
  const productTools = new Map(
    gatewayTools(gatewayModules, ToModelOutput.MCP, origin)
      .filter(offered)
      .map((tool) => [tool.name, tool] as [string, { title?: string }]),
  );

  test('at least 25 distinct requests, each naming a tool of the product (never of the catalogue)', () => {
    expect(SEARCH_QUALITY_CASES.length).toBeGreaterThanOrEqual(25);
    expect(new Set(SEARCH_QUALITY_CASES.map((entry) => entry.query)).size).toBe(SEARCH_QUALITY_CASES.length);
    for (const { expected } of SEARCH_QUALITY_CASES) {
      expect(productTools.has(expected), expected).toBe(true);
      expect(byName.has(expected)).toBe(false);
    }
  });

  test('they cover the product’s tools, and are phrased as people ask (none repeats its tool’s title)', () => {
    const covered = new Set(SEARCH_QUALITY_CASES.map((entry) => entry.expected));
    expect(covered.size).toBe(productTools.size);
    for (const { query, expected } of SEARCH_QUALITY_CASES) {
      const title = productTools.get(expected)?.title?.toLowerCase();
      if (title) expect(query.toLowerCase(), query).not.toContain(title);
    }
  });
});
