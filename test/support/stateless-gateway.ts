// One stateless MCP request to a gateway set up from the reference app's registry, in either era, as a caller: for unit
// tests of what an answer carries (its cache hints, its errors) without a server.
import { createMcpHandler } from 'mcp-handler';
import { testGatewayOptions } from './gateway-options';
import { createGatewayServer, noteCalledTool } from '@gateway/mcp/gateway-server';
import { type Caller, requestContext, runInRequestContext } from '@gateway/request-context';
import { mcpApps } from '@/mcp-apps';
import { gatewayModules } from '@/modules';

const MODERN = '2026-07-28';
const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };

export interface Asked {
  /** Who calls (as the guards set it when auth is on); undefined: auth is off. */
  caller?: Caller;
  /** The request's extra headers (a catalogue selection). */
  headers?: Record<string, string>;
  /** A 2025-11-25 stateless request instead of a 2026-07-28 one. */
  legacy?: boolean;
  /** The MCP URL's query (a catalogue selection), with its `?`. @default none */
  query?: string;
}

/** The JSON-RPC answer of a request: its result or its error. */
export interface Answer {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  /** The HTTP status it came with. */
  status: number;
}

/** A gateway of the reference app's registry whose listings may be kept `listTtlMs`; `ask` sends it one request. */
export function statelessGateway(listTtlMs = 300_000) {
  const gateway = createGatewayServer(
    { ...gatewayModules, apps: mcpApps },
    { ...testGatewayOptions(), listTtlMs },
  );
  const handler = createMcpHandler(gateway.setup, { serverInfo: { name: 'test', version: '1' }, onEvent: noteCalledTool, ...gateway.serverOptions });
  const ask = async (method: string, params: Record<string, unknown> = {}, asked: Asked = {}): Promise<Answer> => {
    const eraHeaders = asked.legacy
      ? { 'mcp-protocol-version': '2025-11-25' }
      : { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(typeof params.uri === 'string' && { 'mcp-name': params.uri }) };
    const request = new Request(`http://localhost/api/mcp${asked.query ?? ''}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...eraHeaders, ...asked.headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: asked.legacy ? params : { ...params, _meta: envelope } }),
    });
    const response = await runInRequestContext(
      'mcp',
      async () => {
        requestContext()!.caller = asked.caller;
        return gateway.selecting(handler)(request);
      },
      request,
    );
    const text = await response.text();
    const json = text.startsWith('{') ? text : text.match(/^data: (.*)$/m)?.[1];
    return { ...(json ? (JSON.parse(json) as Omit<Answer, 'status'>) : {}), status: response.status };
  };
  return { gateway, ask };
}
