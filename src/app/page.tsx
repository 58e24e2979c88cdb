// Home page: the tool explorer, with this request's public origin (when known) and the handlers that are not tools.
import { headers } from 'next/headers';
import { Explorer } from 'vovk-mcp-gateway/explorer';
import { knownPublicOrigin, leftOutProcedures } from 'vovk-mcp-gateway';
import { gatewayModules } from '@/modules';

export default async function HomePage() {
  return <Explorer publicOrigin={knownPublicOrigin(await headers())} leftOut={leftOutProcedures(gatewayModules)} />;
}
