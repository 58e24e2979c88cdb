// Runs once when the server starts: reads the gateway's and the app's settings from the environment (exit 1 naming a
// bad variable), starts tracing when an OTLP endpoint is set, migrates the database (the gateway's tables, then the
// app's), sweeps orphaned jobs, and takes over SIGTERM/SIGINT for a graceful shutdown that closes the database last.
export async function register(): Promise<void> {
  // NEXT_RUNTIME is compiled in by Next.js (not read at run time): this keeps Node-only code out of the edge bundle.
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const gateway = await import('vovk-mcp-gateway');
  const { tracing, shutdownGraceMs } = gateway.configOrExit(process.env);
  const { appSettings } = await import('@/lib/settings');
  gateway.orExit(appSettings);
  const { store } = await import('@/lib/store');
  // Loaded only when on: with no endpoint, no tracer provider is registered and every span is a no-op.
  if (tracing) await gateway.startTracing(tracing);
  gateway.stampPeerAddresses();
  await gateway.migrateGateway();
  await store().ready();
  // Jobs whose instance died are failed, and expired ones removed, by every instance (at once, then every 2 s).
  gateway.jobRunner().startSweeping();
  gateway.installGracefulShutdown({ graceMs: shutdownGraceMs, close: () => gateway.database().close() });
}
