// mcpgen/otel end to end: a client and a server, each with its own tracer, over stdio (the
// server a child process writing its spans to a file) and over Streamable HTTP (node:http), in
// both eras. One tool call that samples and elicits is one trace: client → server → client →
// server, with the conventions' attributes on every span and the duration histograms recorded.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { context, SpanStatusCode, trace, type Meter, type Tracer } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MeterProvider, MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createLinkedPair, McpServer, StreamableHttpClientTransport, type Transport } from '../../../../runtime/index.js';
import { createMcpNodeServer, StdioClientTransport } from '../../../../runtime/node.js';
import { telemetry } from '../../../../runtime/features/otel/index.js';
import { spanRecord, type SpanRecord } from './fixtures/span-file.js';
import { tripServer } from './fixtures/trip-server.js';

const ERAS = ['2025-11-25', '2026-07-28'] as const;
type Era = (typeof ERAS)[number];
const script = fileURLToPath(new URL('./fixtures/stdio-traced-server.ts', import.meta.url));

/** A reader the test collects from when it wants, instead of on a timer. */
class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

function tracing(name: string): { exporter: InMemorySpanExporter; tracer: Tracer } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer(name) };
}

function metering(): { reader: CollectingReader; meter: Meter } {
  const reader = new CollectingReader();
  return { reader, meter: new MeterProvider({ readers: [reader] }).getMeter('test') };
}

function tripClient(era: Era, tracer: Tracer, meter?: Meter): Client {
  const client = new Client({ name: 'trip-client', version: '1.0.0' }, {
    protocolVersion: era,
    negotiation: 'pin',
    eraCache: false,
    capabilities: { sampling: {}, elicitation: { form: {} } },
    middleware: [telemetry({ tracer, meter })],
  });
  client.setRequestHandler('sampling/createMessage', () => ({ role: 'assistant', content: { type: 'text', text: 'a tram ride' }, model: 'test-model' }));
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { confirm: true } }));
  return client;
}

async function planTrip(client: Client): Promise<void> {
  const result = await client.callTool({ name: 'plan-trip', arguments: { city: 'Lisbon' } });
  expect(result.content).toEqual([{ type: 'text', text: 'Booked a tram ride in Lisbon' }]);
}

/** Checks the one trace of the tool call; returns its client and server tools/call spans. */
function checkTrace(spans: readonly SpanRecord[], era: Era, network: 'pipe' | 'tcp'): { call: SpanRecord; served: SpanRecord[] } {
  const calls = spans.filter((span) => span.side === 'client' && span.kind === 'CLIENT' && span.name === 'tools/call plan-trip');
  expect(calls).toHaveLength(1);
  const call = calls[0]!;
  expect(call.parentSpanId).toBeUndefined();
  const inTrace = spans.filter((span) => span.traceId === call.traceId);
  // Each stateless round is a request of its own: three rounds (ask, ask, answer).
  const served = inTrace.filter((span) => span.side === 'server' && span.kind === 'SERVER' && span.name === 'tools/call plan-trip');
  expect(served).toHaveLength(era === '2025-11-25' ? 1 : 3);
  for (const span of served) expect(span.parentSpanId).toBe(call.spanId);
  for (const method of ['sampling/createMessage', 'elicitation/create']) {
    const handled = inTrace.filter((span) => span.side === 'client' && span.kind === 'SERVER' && span.name === method);
    expect(handled).toHaveLength(1);
    const asked = inTrace.find((span) => span.spanId === handled[0]!.parentSpanId);
    expect(asked).toMatchObject({ side: 'server', kind: 'CLIENT', name: method });
    expect(served.map((span) => span.spanId)).toContain(asked!.parentSpanId);
    expect(handled[0]!.attributes).toMatchObject({ 'mcp.method.name': method, 'mcp.protocol.version': era, 'network.transport': network });
    expect(asked!.attributes).toMatchObject({ 'mcp.method.name': method, 'mcp.protocol.version': era, 'network.transport': network });
  }
  const common = { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'plan-trip', 'gen_ai.operation.name': 'execute_tool', 'mcp.protocol.version': era, 'network.transport': network };
  expect(call.attributes).toMatchObject(common);
  expect(call.attributes['jsonrpc.request.id']).toMatch(/^\d+$/);
  for (const span of [call, ...served]) {
    expect(span.attributes).toMatchObject(common);
    expect(span.status).toBe(SpanStatusCode.UNSET);
    expect(span.attributes['error.type']).toBeUndefined();
  }
  expect(served[0]!.attributes['jsonrpc.request.id']).toBe(call.attributes['jsonrpc.request.id']);
  return { call, served };
}

describe('over stdio (the server a child process)', () => {
  for (const era of ERAS) {
    it(`one trace across both processes, ${era}`, async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'mcpgen-otel-'));
      const file = path.join(dir, 'spans.jsonl');
      const { exporter, tracer } = tracing('client');
      const client = tripClient(era, tracer);
      await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', script], env: { SPAN_FILE: file } }));
      expect(client.protocolVersion).toBe(era);
      await planTrip(client);
      await client.close();
      const serverSpans = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as SpanRecord);
      const spans = [...exporter.getFinishedSpans().map((span) => spanRecord(span, 'client')), ...serverSpans];
      checkTrace(spans, era, 'pipe');
    }, 30_000);
  }
});

describe('over Streamable HTTP (node:http)', () => {
  for (const era of ERAS) {
    it(`one trace, session ids on the session path, and both duration histograms, ${era}`, async () => {
      const server = tracing('server');
      const serverMetrics = metering();
      const mcp = tripServer({ middleware: [telemetry({ tracer: server.tracer, meter: serverMetrics.meter })] });
      const node = createMcpNodeServer({ server: () => mcp.createServer(), path: '/mcp' });
      const url = await node.listen(0);
      const { exporter, tracer } = tracing('client');
      const clientMetrics = metering();
      const client = tripClient(era, tracer, clientMetrics.meter);
      const transport = new StreamableHttpClientTransport(url);
      try {
        await client.connect(transport as Transport);
        await planTrip(client);
        const spans = [
          ...exporter.getFinishedSpans().map((span) => spanRecord(span, 'client')),
          ...server.exporter.getFinishedSpans().map((span) => spanRecord(span, 'server')),
        ];
        const { call, served } = checkTrace(spans, era, 'tcp');
        if (era === '2025-11-25') {
          expect(transport.sessionId).toBeDefined();
          expect(call.attributes['mcp.session.id']).toBe(transport.sessionId);
          expect(served[0]!.attributes['mcp.session.id']).toBe(transport.sessionId);
        } else {
          expect(call.attributes['mcp.session.id']).toBeUndefined();
        }
        for (const [reader, name] of [[clientMetrics.reader, 'mcp.client.operation.duration'], [serverMetrics.reader, 'mcp.server.operation.duration']] as const) {
          const { resourceMetrics } = await reader.collect();
          const metric = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics).find((found) => found.descriptor.name === name) as HistogramMetricData | undefined;
          expect(metric?.descriptor.unit).toBe('s');
          const point = metric!.dataPoints.find((data) => data.attributes['mcp.method.name'] === 'tools/call');
          expect(point?.attributes).toMatchObject({ 'gen_ai.tool.name': 'plan-trip', 'mcp.protocol.version': era, 'network.transport': 'tcp' });
          // High-cardinality attributes stay on spans.
          expect(point?.attributes['mcp.session.id']).toBeUndefined();
          expect(point?.attributes['jsonrpc.request.id']).toBeUndefined();
          expect(point!.value.count).toBe(name === 'mcp.client.operation.duration' ? 1 : served.length);
          expect(point!.value.buckets.boundaries).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
        }
      } finally {
        await client.close();
        await node.close();
      }
    }, 30_000);
  }
});

describe('ambient context and failures', () => {
  const manager = new AsyncLocalStorageContextManager();
  beforeAll(() => {
    context.setGlobalContextManager(manager.enable());
  });
  afterAll(() => {
    context.disable();
  });

  it("parents the client span on the application's active span, and marks tool errors and JSON-RPC errors", async () => {
    const server = tracing('server');
    const mcp = tripServer({ middleware: [telemetry({ tracer: server.tracer })] });
    mcp.registerTool('broken', {}, () => {
      throw new TypeError('no such city');
    });
    const node = createMcpNodeServer({ server: () => mcp.createServer(), path: '/mcp' });
    const url = await node.listen(0);
    const { exporter, tracer } = tracing('client');
    const client = tripClient('2025-11-25', tracer);
    try {
      await client.connect(new StreamableHttpClientTransport(url));
      await tracer.startActiveSpan('agent turn', async (turn) => {
        const broken = await client.callTool({ name: 'broken', arguments: {} });
        expect(broken.isError).toBe(true);
        await expect(client.callTool({ name: 'missing', arguments: {} })).rejects.toMatchObject({ code: -32602 });
        turn.end();
      });
      const clientSpans = exporter.getFinishedSpans().map((span) => spanRecord(span, 'client'));
      const turn = clientSpans.find((span) => span.name === 'agent turn')!;
      const broken = clientSpans.find((span) => span.name === 'tools/call broken')!;
      const missing = clientSpans.find((span) => span.name === 'tools/call missing')!;
      expect(broken.parentSpanId).toBe(turn.spanId);
      expect(missing.parentSpanId).toBe(turn.spanId);
      expect(broken.attributes['error.type']).toBe('tool_error');
      expect(broken.status).toBe(SpanStatusCode.ERROR);
      expect(missing.attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
      const served = server.exporter.getFinishedSpans().map((span) => spanRecord(span, 'server'));
      expect(served.find((span) => span.name === 'tools/call broken')).toMatchObject({ traceId: turn.traceId, parentSpanId: broken.spanId, attributes: { 'error.type': 'tool_error' } });
      expect(served.find((span) => span.name === 'tools/call missing')).toMatchObject({ parentSpanId: missing.spanId, status: SpanStatusCode.ERROR, attributes: { 'error.type': '-32602' } });
      expect(trace.getActiveSpan()).toBeUndefined();
    } finally {
      await client.close();
      await node.close();
    }
  });
});

describe('the global providers', () => {
  afterAll(() => {
    trace.disable();
  });

  it('passes calls through while no SDK is registered, and traces them once one is', async () => {
    const mcp = new McpServer({ name: 'echo', version: '1.0.0' }, { middleware: [telemetry()] });
    mcp.registerTool('echo', {}, () => ({ content: [{ type: 'text', text: 'ok' }] }));
    const [clientSide, serverSide] = createLinkedPair({ serialize: true });
    await mcp.connect(serverSide);
    const client = new Client({ name: 'client', version: '1.0.0' }, { protocolVersion: '2025-11-25', eraCache: false, middleware: [telemetry()] });
    await client.connect(clientSide);
    try {
      expect((await client.callTool({ name: 'echo', arguments: {} })).content).toEqual([{ type: 'text', text: 'ok' }]);
      const exporter = new InMemorySpanExporter();
      trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
      expect((await client.callTool({ name: 'echo', arguments: {} })).content).toEqual([{ type: 'text', text: 'ok' }]);
      const spans = exporter.getFinishedSpans().map((span) => spanRecord(span, 'client'));
      const call = spans.find((span) => span.kind === 'CLIENT' && span.name === 'tools/call echo');
      expect(call).toBeDefined();
      expect(spans.find((span) => span.kind === 'SERVER' && span.name === 'tools/call echo')?.parentSpanId).toBe(call!.spanId);
      expect(spans).toHaveLength(2);
    } finally {
      await client.close();
    }
  });
});
