// The catalogue at scale (issue 24's "done when"): with the 1,000 generated procedures, a client that connects with
// nothing configured sees a few KiB of tools, and finds and calls any tool through them — in both eras.
import { expect, test } from '@playwright/test';
import { connect, eras } from './support/mcp';
import { e2ePort, type RunningServer, startServer } from './support/server';

let server: RunningServer;

test.beforeAll(async () => {
  server = await startServer(e2ePort + 230, { GATEWAY_CATALOGUE_PROCEDURES: '1000' }, 'test-results/catalogue-at-scale.log');
});
test.afterAll(async () => server?.stop());

type ListedTool = { name: string; _meta: Record<string, string[]> };

/** One tools/list (2025 framing) with `query` in the URL: its size on the wire, and its tools. */
const listingOf = async (query = '') => {
  const response = await fetch(`${server.baseURL}/api/mcp${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  const text = await response.text();
  const tools = JSON.parse(text.startsWith('{') ? text : text.match(/^data: (.+)$/m)![1]).result.tools as ListedTool[];
  return { bytes: Buffer.byteLength(text), tools, names: tools.map((tool) => tool.name) };
};

test('with 1,000 procedures and nothing configured, tools/list is the search surface: a few KiB, not the whole catalogue', async () => {
  const all = await listingOf('?tools=all');
  expect(all.names.length).toBeGreaterThan(1000);
  const byDefault = await listingOf();
  expect(byDefault.names).toEqual(['search_tools', 'call_tool', 'ContactController_getContactTimeline']);
  expect(byDefault.bytes).toBeLessThan(5 * 1024);
  expect(byDefault.bytes * 100).toBeLessThan(all.bytes);
});

test('a toolset a procedure declares with @toolset gathers tools of several modules: ?toolsets=billing lists them all, and only them', async () => {
  const { tools } = await listingOf('?toolsets=billing&tools=all');
  const modules = new Set(tools.map((tool) => tool._meta['dev.vovk/toolsets'][0]));
  expect(modules.size).toBeGreaterThan(3);
  expect(tools.every((tool) => tool._meta['dev.vovk/toolsets'].includes('billing'))).toBe(true);
  // A module outside the area whose tools declare billing (an order's refund and invoice) comes with those, not its others.
  const fromOrders = tools.filter((tool) => tool.name.startsWith('OrderController_')).map((tool) => tool.name);
  expect(fromOrders.sort()).toEqual(['OrderController_getOrderInvoice', 'OrderController_refundOrder']);
});

for (const era of eras) {
  test(`${era}: a client with nothing configured finds a generated tool and a product tool with search_tools and runs them with call_tool`, async () => {
    const client = await connect(era, server.baseURL);
    try {
      expect((await client.listTools()).map((tool) => tool.name)).toContain('search_tools');
      const found = await client.callTool('search_tools', { query: 'mark invoice 12 as paid', limit: 3 });
      const hits = (found.structuredContent as { tools: Array<{ name: string; toolset: string; inputSchema: object }> }).tools;
      expect(hits[0]).toMatchObject({ name: 'InvoiceController_markInvoicePaid', toolset: 'InvoiceController' });
      const paid = await client.callTool('call_tool', { name: hits[0].name, arguments: { params: { invoiceId: 12 } } });
      expect(paid.isError).toBeFalsy();
      expect(paid.structuredContent).toMatchObject({ status: 'paid', amountDue: 0 });

      const product = await client.callTool('search_tools', { query: 'who is user 1' });
      const names = (product.structuredContent as { tools: Array<{ name: string }> }).tools.map((hit) => hit.name);
      expect(names.slice(0, 3)).toContain('UserController_getUser');
      const ada = await client.callTool('call_tool', { name: 'UserController_getUser', arguments: { params: { id: 1 } } });
      expect(ada.structuredContent).toMatchObject({ id: 1, name: 'Ada Lovelace' });
    } finally {
      await client.close();
    }
  });
}
