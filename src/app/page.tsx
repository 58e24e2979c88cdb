// Home page: the tool explorer, with this request's public origin (when known), the handlers that are not tools, and
// links to the reference app's other pages.
import { headers } from 'next/headers';
import { Explorer } from 'vovk-mcp-gateway/explorer';
import { knownPublicOrigin, leftOutProcedures } from 'vovk-mcp-gateway';
import { gatewayModules } from '@/modules';

const links = [
  { label: 'The live task board', href: '/board' },
  { label: 'the REST reference', href: '/docs' },
  { label: 'its OpenAPI document', href: '/api/openapi.json' },
];

export default async function HomePage() {
  return <Explorer publicOrigin={knownPublicOrigin(await headers())} leftOut={leftOutProcedures(gatewayModules)} links={links} />;
}
