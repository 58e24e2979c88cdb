// The child process of `vovk-mcp-gateway tools`: loads an app's MCP route (under tsx) and sends its gateway's tool contract.
import { GATEWAY_REGISTRY_KEY, type RecordedGateway, type ToolContract } from '../shared/tool-contract.js';

/** What the child sends its parent: the contract, or why there is none (one line). */
export type RouteContractMessage = { contract: ToolContract } | { error: string };

/** The contract of the one gateway the route at `routeUrl` creates when it loads. */
async function contractOfRoute(routeUrl: string): Promise<RouteContractMessage> {
  const gateways: RecordedGateway[] = [];
  Object.assign(globalThis, { [Symbol.for(GATEWAY_REGISTRY_KEY)]: gateways });
  try {
    await import(routeUrl);
  } catch (error) {
    return { error: `it could not be loaded: ${String((error as Error)?.message ?? error).split('\n')[0]}` };
  }
  if (gateways.length !== 1) {
    return { error: `it created ${gateways.length} gateways when it loaded; it should call createMcpGateway once, at the top level` };
  }
  return { contract: gateways[0].contract() };
}

const message = await contractOfRoute(process.argv[2]);
// The route may leave timers or pools open: the child's work is done once its parent has the message.
process.send!(message, () => process.exit(0));
