// W3C trace context in `_meta`: what a peer sends is read only when it is well-formed, and a
// malformed value never fails the request; what is written is what the next hop can read.
import { createTraceState, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { Client, createLinkedPair, McpServer } from '../../../../runtime/index.js';
import { telemetry } from '../../../../runtime/features/otel/index.js';
import { extractTraceContext, injectTraceContext } from '../../../../runtime/features/otel/trace-context.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

function extracted(meta: unknown) {
  const context = extractTraceContext(ROOT_CONTEXT, meta, undefined);
  return context === undefined ? undefined : trace.getSpanContext(context as typeof ROOT_CONTEXT);
}

describe('extracting', () => {
  it('reads a valid traceparent and tracestate as a remote parent', () => {
    expect(extracted({ traceparent: `00-${TRACE}-${SPAN}-01`, tracestate: 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE' })).toMatchObject({
      traceId: TRACE,
      spanId: SPAN,
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
    });
    expect(extracted({ traceparent: `00-${TRACE}-${SPAN}-01`, tracestate: 'rojo=00f067aa0ba902b7' })!.traceState?.get('rojo')).toBe('00f067aa0ba902b7');
  });

  it.each([
    ['no _meta', undefined],
    ['a _meta that is no object', 'traceparent'],
    ['no traceparent', {}],
    ['a traceparent that is no string', { traceparent: 7 }],
    ['another version', { traceparent: `01-${TRACE}-${SPAN}-01` }],
    ['upper-case hex', { traceparent: `00-${TRACE.toUpperCase()}-${SPAN}-01` }],
    ['an all-zero trace id', { traceparent: `00-${'0'.repeat(32)}-${SPAN}-01` }],
    ['an all-zero span id', { traceparent: `00-${TRACE}-${'0'.repeat(16)}-01` }],
    ['a short span id', { traceparent: `00-${TRACE}-${SPAN.slice(1)}-01` }],
    ['trailing members', { traceparent: `00-${TRACE}-${SPAN}-01-extra` }],
  ])('ignores %s', (_label, meta) => {
    expect(extracted(meta)).toBeUndefined();
  });

  it('drops a tracestate past the W3C limit of 512 characters, keeping the parent', () => {
    const parent = extracted({ traceparent: `00-${TRACE}-${SPAN}-00`, tracestate: `a=${'b'.repeat(600)}` });
    expect(parent).toMatchObject({ traceId: TRACE, traceFlags: TraceFlags.NONE });
    expect(parent!.traceState).toBeUndefined();
  });
});

describe('injecting', () => {
  it('writes what extracting reads back, and nothing for a context without a valid span', () => {
    const context = trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE, spanId: SPAN, traceFlags: TraceFlags.SAMPLED, traceState: createTraceState('k=v') });
    const meta: Record<string, unknown> = { progressToken: 1 };
    injectTraceContext(context, meta, undefined);
    expect(meta).toEqual({ progressToken: 1, traceparent: `00-${TRACE}-${SPAN}-01`, tracestate: 'k=v' });
    expect(extracted(meta)).toMatchObject({ traceId: TRACE, spanId: SPAN });
    const empty: Record<string, unknown> = {};
    injectTraceContext(ROOT_CONTEXT, empty, undefined);
    expect(empty).toEqual({});
  });
});

it('serves a request whose traceparent is garbage, as the root of a trace of its own', async () => {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('server');
  const mcp = new McpServer({ name: 'traced', version: '1.0.0' }, { middleware: [telemetry({ tracer })] });
  mcp.registerTool('echo', {}, () => ({ content: [{ type: 'text', text: 'ok' }] }));
  const [clientSide, serverSide] = createLinkedPair({ serialize: true });
  await mcp.connect(serverSide);
  const client = new Client({ name: 'client', version: '1.0.0' }, { protocolVersion: '2025-11-25', eraCache: false });
  await client.connect(clientSide);
  const result = await client.callTool({ name: 'echo', arguments: {}, _meta: { traceparent: 'ff-not-a-trace-context', tracestate: 42 } });
  expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
  const served = exporter.getFinishedSpans().find((span) => span.name === 'tools/call echo');
  expect(served?.parentSpanContext).toBeUndefined();
  await client.close();
});
