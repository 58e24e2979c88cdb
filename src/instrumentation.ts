// Runs once when the server starts: checks the configuration (exit 1 naming the bad variable), starts tracing when an
// OTLP endpoint is set, opens the store, sweeps orphaned jobs, and takes over SIGTERM/SIGINT for a graceful shutdown.
export async function register(): Promise<void> {
  // NEXT_RUNTIME is compiled in by Next.js (not read at run time): this keeps Node-only code out of the edge bundle.
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { configOrExit } = await import('@/lib/config');
  const { tracing, shutdownGraceMs } = configOrExit();
  // Loaded only when on: with no endpoint, no tracer provider is registered and every span is a no-op.
  if (tracing) (await import('@/lib/telemetry')).startTracing(tracing);
  const { stampPeerAddresses } = await import('@/lib/http/peer-address');
  stampPeerAddresses();
  const { store } = await import('@/lib/db/store');
  await store().ready();
  // Jobs whose instance died are failed, and expired ones removed, by every instance (at once, then every 2 s).
  (await import('@/lib/long-work/job-runner')).jobRunner().startSweeping();
  const { installGracefulShutdown } = await import('@/lib/lifecycle');
  installGracefulShutdown({ graceMs: shutdownGraceMs, close: () => store().close() });
}
