/**
 * Observability: middleware that times every request, McpServer hooks that authorize tool
 * calls by scope, handler errors reaching `onerror`, and OpenTelemetry (mcpgen/otel) on both
 * sides. It runs a client and a server in one process, calls a tool that samples the client's
 * model and then elicits a confirmation, and prints the one trace the call makes. In a
 * 2025-11-25 session (`-- 2025-11-25`) that is
 *
 *   tools/call plan-trip [client, CLIENT]
 *     tools/call plan-trip [server, SERVER]
 *       sampling/createMessage [server, CLIENT]
 *         sampling/createMessage [client, SERVER]
 *       elicitation/create [server, CLIENT]
 *         elicitation/create [client, SERVER]
 *
 * and in the 2026-07-28 era (the default) one server span per round of the multi round-trip
 * request, each question under the round that asked it (see docs/observability.md).
 *
 * Run it: `npx tsx examples/observability/trace.ts [2025-11-25]` (exits 1 on another tree).
 */
// #region setup
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Client, createLinkedPair, InputRequiredSignal, McpServer, type McpServerHooks, type Middleware } from '../../runtime/index.js';
import { telemetry } from '../../runtime/features/otel/index.js';
import { z } from 'zod';

// Any OpenTelemetry SDK setup works; this one keeps finished spans in memory to print them.
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
// #endregion setup

// #region middleware
/** Logs every request the server handles, with its duration and outcome. */
const timing: Middleware = {
  async incoming(call, next) {
    const started = performance.now();
    let outcome = 'ok';
    try {
      return await next();
    } catch (error) {
      // In the stateless era a question for the client ends the round: not a failure.
      outcome = error instanceof InputRequiredSignal ? 'input required' : `failed: ${error instanceof Error ? error.message : String(error)}`;
      throw error;
    } finally {
      console.log(`[${call.era}] ${call.method} #${String(call.requestId)} ${(performance.now() - started).toFixed(1)} ms ${outcome}`);
    }
  },
};
// #endregion middleware

// #region hooks
/** The scopes each tool needs; a call whose token lacks one is answered with an `isError` result. */
const requiredScopes: Readonly<Record<string, readonly string[]>> = { 'cancel-trip': ['trips:write'] };
const authorize: McpServerHooks = {
  beforeToolCall({ name }, context) {
    const granted = (context.extra?.authInfo as { scopes?: readonly string[] } | undefined)?.scopes ?? [];
    const missing = (requiredScopes[name] ?? []).filter((scope) => !granted.includes(scope));
    if (missing.length > 0) return { content: [{ type: 'text', text: `Forbidden: ${name} needs ${missing.join(' ')}` }], isError: true };
    return undefined;
  },
};
// #endregion hooks

// #region server
const mcp = new McpServer({ name: 'trip-planner', version: '1.0.0' }, {
  middleware: [timing, telemetry({ tracer: provider.getTracer('server') })],
  hooks: [authorize],
  // Handler bugs arrive here as SdkError('HANDLER_FAILED') with method, request id and tool.
  onerror: (error) => console.error(`server error: ${error.message}`),
});
mcp.registerTool('plan-trip', { inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }, async ({ city }, context) => {
  const idea = await context.sample({ messages: [{ role: 'user', content: { type: 'text', text: `One thing to do in ${city}?` } }], maxTokens: 50 });
  const [block] = Array.isArray(idea.content) ? idea.content : [idea.content];
  const text = block?.type === 'text' ? block.text : '';
  const answer = await context.elicitForm(`Book "${text}"?`, z.object({ confirm: z.boolean() }));
  return { content: [{ type: 'text', text: answer.action === 'accept' && answer.content.confirm ? `Booked: ${text}` : 'Nothing booked' }] };
});
mcp.registerTool('cancel-trip', {}, () => ({ content: [{ type: 'text', text: 'Cancelled' }] }));
// #endregion server

// #region client
const client = new Client({ name: 'trip-client', version: '1.0.0' }, {
  protocolVersion: process.argv[2] ?? '2026-07-28',
  capabilities: { sampling: {}, elicitation: { form: {} } },
  middleware: [telemetry({ tracer: provider.getTracer('client') })],
});
client.setRequestHandler('sampling/createMessage', () => ({ role: 'assistant', content: { type: 'text', text: 'a tram ride' }, model: 'demo-model' }));
client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { confirm: true } }));

const [clientSide, serverSide] = createLinkedPair();
await mcp.connect(serverSide);
await client.connect(clientSide);
const booked = await client.callTool({ name: 'plan-trip', arguments: { city: 'Lisbon' } });
const refused = await client.callTool({ name: 'cancel-trip', arguments: {} });
await client.close();
// #endregion client

// #region print
/** Prints the spans of the plan-trip call as a tree, children under their parent. */
function printTrace(spans: readonly ReadableSpan[]): string[] {
  const lines: string[] = [];
  const kinds = ['INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];
  const visit = (span: ReadableSpan, depth: number): void => {
    lines.push(`${'  '.repeat(depth)}${span.name} [${span.instrumentationScope.name}, ${kinds[span.kind]}]`);
    for (const child of spans.filter((other) => other.parentSpanContext?.spanId === span.spanContext().spanId)) visit(child, depth + 1);
  };
  const root = spans.find((span) => span.name === 'tools/call plan-trip' && span.parentSpanContext === undefined);
  if (root !== undefined) visit(root, 0);
  return lines;
}
const tree = printTrace(exporter.getFinishedSpans());
console.log(tree.join('\n'));
// #endregion print

const stateful = [
  'tools/call plan-trip [client, CLIENT]',
  '  tools/call plan-trip [server, SERVER]',
  '    sampling/createMessage [server, CLIENT]',
  '      sampling/createMessage [client, SERVER]',
  '    elicitation/create [server, CLIENT]',
  '      elicitation/create [client, SERVER]',
];
// Three rounds: the first asks for the sample, the second (the sample answered) for the
// confirmation, the third has both answers and completes.
const stateless = [
  'tools/call plan-trip [client, CLIENT]',
  '  tools/call plan-trip [server, SERVER]',
  '    sampling/createMessage [server, CLIENT]',
  '      sampling/createMessage [client, SERVER]',
  '  tools/call plan-trip [server, SERVER]',
  '    sampling/createMessage [server, CLIENT]',
  '    elicitation/create [server, CLIENT]',
  '      elicitation/create [client, SERVER]',
  '  tools/call plan-trip [server, SERVER]',
  '    sampling/createMessage [server, CLIENT]',
  '    elicitation/create [server, CLIENT]',
];
const expected = client.era === 'stateful' ? stateful : stateless;
const texts = [booked, refused].map((result) => (result.content[0] as { text: string }).text);
if (tree.join('\n') !== expected.join('\n') || texts[0] !== 'Booked: a tram ride' || texts[1] !== 'Forbidden: cancel-trip needs trips:write') {
  console.error('observability example: unexpected outcome', { tree, texts });
  process.exit(1);
}
