// Home page: the tool explorer, told the public origin of this request when configured or forwarded by a trusted proxy.
import { headers } from 'next/headers';
import { Explorer } from '@/components/explorer/explorer';
import { knownPublicOrigin } from '@/lib/http/public-origin';

export default async function HomePage() {
  return <Explorer publicOrigin={knownPublicOrigin(await headers())} />;
}
