// OpenTelemetry tracing of both doors (Next.js's span per request, mcp-handler's span per MCP message) over OTLP.
import 'server-only';
import { registerMcpOTel } from 'mcp-handler/otel';
import type { GatewayConfig } from '@/lib/config';

/** Registers the tracer provider; the SDK reads the exporter's `OTEL_*` variables (protocol, headers…) itself. */
export function startTracing({ serviceName }: NonNullable<GatewayConfig['tracing']>): void {
  // @vercel/otel labels every resource `cloud.provider: vercel`; this server runs wherever it is started.
  registerMcpOTel({ serviceName, attributes: { 'cloud.provider': undefined } });
}
