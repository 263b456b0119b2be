// Spans of notifications, both ways, over Streamable HTTP (node:http) in both eras: a tool's
// progress report is a server CLIENT span under the tool call's server span and a client SERVER
// span under that, and the client's `notifications/initialized` (the stateful era's handshake)
// a client CLIENT span with the server's SERVER span under it. Notifications have no request id.
import { SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { Client, McpServer, StreamableHttpClientTransport, type Transport } from '../../../../runtime/index.js';
import { createMcpNodeServer } from '../../../../runtime/node.js';
import { telemetry } from '../../../../runtime/features/otel/index.js';
import { spanRecord, type SpanRecord } from './fixtures/span-file.js';

function tracing(name: string): { exporter: InMemorySpanExporter; tracer: Tracer } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer(name) };
}

function countingServer(tracer: Tracer): McpServer {
  const mcp = new McpServer({ name: 'counting', version: '1.0.0' }, { middleware: [telemetry({ tracer, metrics: false })] });
  mcp.registerTool('count', {}, async (_args, context) => {
    await context.reportProgress(1, 1, 'counted');
    return { content: [{ type: 'text', text: 'done' }] };
  });
  return mcp;
}

function only(spans: readonly SpanRecord[], side: SpanRecord['side'], kind: SpanRecord['kind'], name: string): SpanRecord {
  const found = spans.filter((span) => span.side === side && span.kind === kind && span.name === name);
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe.each(['2025-11-25', '2026-07-28'] as const)('notification spans over Streamable HTTP, %s', (era) => {
  it('traces notifications both ways, nested under what they were sent for', async () => {
    const server = tracing('server');
    const node = createMcpNodeServer({ server: () => countingServer(server.tracer).createServer(), path: '/mcp' });
    const url = await node.listen(0);
    const { exporter, tracer } = tracing('client');
    const client = new Client({ name: 'counting-client', version: '1.0.0' }, { protocolVersion: era, negotiation: 'pin', eraCache: false, middleware: [telemetry({ tracer, metrics: false })] });
    const transport = new StreamableHttpClientTransport(url);
    try {
      await client.connect(transport as Transport);
      const progress: unknown[] = [];
      const result = await client.callTool({ name: 'count', arguments: {} }, { onprogress: (reported) => progress.push(reported) });
      expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
      expect(progress).toEqual([{ progress: 1, total: 1, message: 'counted' }]);
      const spans = [
        ...exporter.getFinishedSpans().map((span) => spanRecord(span, 'client')),
        ...server.exporter.getFinishedSpans().map((span) => spanRecord(span, 'server')),
      ];
      const call = only(spans, 'client', 'CLIENT', 'tools/call count');
      const served = spans.filter((span) => span.side === 'server' && span.kind === 'SERVER' && span.name === 'tools/call count');
      expect(served.length).toBeGreaterThan(0);
      const sent = only(spans, 'server', 'CLIENT', 'notifications/progress');
      const received = only(spans, 'client', 'SERVER', 'notifications/progress');
      expect(served.map((span) => span.spanId)).toContain(sent.parentSpanId);
      expect(received.parentSpanId).toBe(sent.spanId);
      for (const span of [sent, received]) {
        expect(span.traceId).toBe(call.traceId);
        expect(span.status).toBe(SpanStatusCode.UNSET);
        expect(span.attributes).toMatchObject({ 'mcp.method.name': 'notifications/progress', 'mcp.protocol.version': era, 'network.transport': 'tcp' });
        expect(span.attributes['jsonrpc.request.id']).toBeUndefined();
      }
      if (era === '2025-11-25') {
        const initialized = only(spans, 'client', 'CLIENT', 'notifications/initialized');
        const handled = only(spans, 'server', 'SERVER', 'notifications/initialized');
        expect(initialized.parentSpanId).toBeUndefined();
        expect(handled.parentSpanId).toBe(initialized.spanId);
        expect(handled.traceId).toBe(initialized.traceId);
        for (const span of [initialized, handled, sent, received]) {
          expect(span.attributes['mcp.session.id']).toBe(transport.sessionId);
          expect(span.attributes['jsonrpc.request.id']).toBeUndefined();
        }
      } else {
        // No handshake, and so no notification from the client, in the stateless era.
        expect(spans.filter((span) => span.side === 'client' && span.kind === 'CLIENT' && span.name.startsWith('notifications/'))).toEqual([]);
        expect(sent.attributes['mcp.session.id']).toBeUndefined();
      }
    } finally {
      await client.close();
      await node.close();
    }
  }, 30_000);
});
