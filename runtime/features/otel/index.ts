/**
 * mcpgen/otel: OpenTelemetry spans, duration histograms and W3C trace context for MCP, as
 * middleware for a Client, a Server or an McpServer. It needs `@opentelemetry/api` (an
 * optional peer of mcpgen, loaded by this entry alone) and an SDK to export anything.
 */
export { instrument, telemetry, type TelemetryMeter, type TelemetryOptions, type TelemetryPropagator, type TelemetryTracer } from './telemetry.js';
