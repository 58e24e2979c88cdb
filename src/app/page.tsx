// Home page: the tool explorer, with this request's public origin (when known) and the handlers that are not tools.
import { headers } from 'next/headers';
import { Explorer } from '@/components/explorer/explorer';
import { knownPublicOrigin } from '@/lib/http/public-origin';
import { leftOutProcedures } from '@/lib/mcp/left-out';
import { gatewayModules } from '@/modules';

export default async function HomePage() {
  return <Explorer publicOrigin={knownPublicOrigin(await headers())} leftOut={leftOutProcedures(gatewayModules)} />;
}
