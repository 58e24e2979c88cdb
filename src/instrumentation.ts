// Runs once when the server starts: checks the configuration (exit 1 naming the bad variable), then opens the store.
export async function register(): Promise<void> {
  // NEXT_RUNTIME is compiled in by Next.js (not read at run time): this keeps Node-only code out of the edge bundle.
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { configOrExit } = await import('@/lib/config');
  configOrExit();
  const { stampPeerAddresses } = await import('@/lib/http/peer-address');
  stampPeerAddresses();
  const { store } = await import('@/lib/db/store');
  await store().ready();
}
