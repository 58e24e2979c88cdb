// Unit tests of MCP Apps for derived tools: `@mcpApp` records a UI next to a handler, the tool lists it in `_meta`, and
// the UI is registered as one `ui://` resource of MIME text/html;profile=mcp-app with an empty CSP.
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, test } from 'vitest';
import { gatewayTools } from '@gateway/mcp/gateway-server';
import { APP_RESOURCE_META, MCP_APP_KEY, registerAppResources, withAppUis } from '@gateway/mcp/mcp-apps';
import { ToModelOutput } from '@gateway/tools';
import { mcpApps } from '@/mcp-apps';
import { gatewayModules } from '@/modules';
import BoardController from '@/modules/board/board-controller';

const derived = gatewayTools(gatewayModules, ToModelOutput.MCP, () => 'http://localhost:3000');
const byName = Object.fromEntries(withAppUis(derived, mcpApps).map((tool) => [tool.name, tool]));
const boardUri = 'ui://vovk-mcp-gateway/board.html';

describe('declaring an app', () => {
  test('@mcpApp records the UI’s name in the procedure’s operation, beside what @operation says', () => {
    const { operationObject } = (BoardController.getBoard as unknown as { schema: { operationObject: Record<string, unknown> } }).schema;
    expect(operationObject).toMatchObject({ summary: 'Get board', [MCP_APP_KEY]: 'board' });
  });

  test('the tool lists its UI under _meta.ui.resourceUri and the legacy ui/resourceUri; other tools list none', () => {
    expect(byName.BoardController_getBoard._meta).toEqual({
      'dev.vovk/rest': { method: 'GET', path: '/api/board' },
      'dev.vovk/toolsets': ['BoardController'],
      ui: { resourceUri: boardUri },
      'ui/resourceUri': boardUri,
    });
    expect(byName.UserController_getUser._meta).toMatchObject({ ui: { resourceUri: 'ui://vovk-mcp-gateway/user.html' } });
    expect(byName.TaskController_createTask._meta).toEqual({
      'dev.vovk/rest': { method: 'POST', path: '/api/tasks' },
      'dev.vovk/toolsets': ['TaskController'],
    });
  });

  test('an app-only tool (`@mcpApp(name, { visibility: [\'app\'] })`) lists its UI with that visibility', () => {
    const { operationObject } = (BoardController.waitForChange as unknown as { schema: { operationObject: Record<string, unknown> } })
      .schema;
    expect(operationObject[MCP_APP_KEY]).toEqual({ name: 'board', visibility: ['app'] });
    expect(byName.BoardController_waitForChange._meta).toMatchObject({
      ui: { resourceUri: boardUri, visibility: ['app'] },
      'ui/resourceUri': boardUri,
    });
    expect(byName.BoardController_getBoard._meta?.ui).not.toHaveProperty('visibility');
  });

  test('a procedure naming a UI the registry lacks stops the gateway at start, naming both', () => {
    expect(() => withAppUis(derived, { user: mcpApps.user })).toThrow(
      'BoardController_getBoard declares the MCP app "board", which the registry\'s apps do not have',
    );
  });
});

describe('serving a UI', () => {
  test('each UI is one resource: its HTML as text/html;profile=mcp-app, with a CSP allowing no network at all', async () => {
    type Registered = { uri: string; config: Record<string, unknown>; read: () => Promise<unknown> };
    const resources: Registered[] = [];
    const server = {
      registerResource: (_: string, uri: string, config: Registered['config'], read: Registered['read']) =>
        resources.push({ uri, config, read }),
    };
    const board = { title: 'Task board', description: 'The board', html: '<!doctype html>' };
    registerAppResources(server as unknown as McpServer, { board });
    expect(resources.map(({ uri, config }) => ({ uri, config }))).toEqual([
      {
        uri: boardUri,
        config: { mimeType: 'text/html;profile=mcp-app', title: 'Task board', description: 'The board', _meta: { ui: APP_RESOURCE_META } },
      },
    ]);
    expect(await resources[0].read()).toEqual({
      contents: [{ uri: boardUri, mimeType: 'text/html;profile=mcp-app', text: '<!doctype html>', _meta: { ui: APP_RESOURCE_META } }],
    });
    expect(APP_RESOURCE_META.csp).toEqual({ connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] });
  });
});
