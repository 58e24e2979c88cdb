// OpenTelemetry tracing of both doors (Next.js's span per request, mcp-handler's span per MCP message) over OTLP.
import 'server-only';
import type { GatewayConfig } from './config.js';

/**
 * Registers the tracer provider; the SDK reads the exporter's `OTEL_*` variables (protocol, headers…) itself. The
 * OpenTelemetry SDK is loaded only here: with tracing off, no tracer provider is registered and every span is a no-op.
 */
export async function startTracing({ serviceName }: NonNullable<GatewayConfig['tracing']>): Promise<void> {
  const { registerMcpOTel } = await import('mcp-handler/otel');
  // @vercel/otel labels every resource `cloud.provider: vercel`; this server runs wherever it is started.
  registerMcpOTel({ serviceName, attributes: { 'cloud.provider': undefined } });
}
