// Home page: the tool explorer.
import { Explorer } from '@/components/explorer/explorer';

export default function HomePage() {
  return <Explorer />;
}
