// One server replica for the scale-out tests: an McpServer on mcpgen/redis shared state, served
// over node:http on 127.0.0.1. Prints `READY <port>` once listening. Environment: REDIS_URL,
// REDIS_PREFIX, REPLICA_NAME.
import { McpServer } from '../../../../runtime/index.js';
import { createMcpNodeServer } from '../../../../runtime/node.js';
import { createRedisScaleOut } from '../../../../runtime/features/redis/index.js';

const name = process.env.REPLICA_NAME ?? 'replica';
const shared = await createRedisScaleOut({
  url: process.env.REDIS_URL,
  prefix: process.env.REDIS_PREFIX,
  commandTimeoutMs: 500,
  keyRing: { refreshMs: 1_000 },
  onerror: (error) => process.stderr.write(`[${name}] ${error.message}\n`),
});
const mcp = new McpServer({ name: 'scale-out-test', version: '1.0.0' }, {
  requestState: shared.keyRing.codec(),
  capabilities: { tools: { listChanged: true } },
  onerror: (error) => process.stderr.write(`[${name}] mcp: ${error.message}\n`),
});
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
mcp.registerTool('whoami', {}, () => text(name));
// A notification outside the request's stream (the GET stream), acknowledged once stored.
mcp.registerTool('notify', { inputSchema: { type: 'object', properties: { seq: { type: 'number' } }, required: ['seq'] } }, async ({ seq }, context) => {
  await context.session.server.notifyLoggingMessage({ level: 'info', data: { seq, from: name } });
  return text(`${name}:${seq}`);
});
mcp.registerTool('add-tool', { inputSchema: { type: 'object', properties: { tool: { type: 'string' } }, required: ['tool'] } }, ({ tool }) => {
  mcp.registerTool(tool, {}, () => text(tool));
  return text(`${name} added ${tool}`);
});
mcp.registerTool('confirm', { inputSchema: { type: 'object', properties: { what: { type: 'string' } } } }, async ({ what }, context) => {
  const answer = await context.elicitForm(`Confirm ${String(what)}?`, { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }, { inputKey: 'confirm' });
  return text(`${name}: ${answer.action === 'accept' && (answer.content as { ok?: boolean }).ok === true ? 'confirmed' : 'refused'} ${String(what)}`);
});
// Sampling and elicitation round trips on the request's stream; the answers reach any replica.
mcp.registerTool('consult', { inputSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] } }, async ({ topic }, context) => {
  const sampled = await context.sample({ messages: [{ role: 'user', content: { type: 'text', text: `About ${topic}?` } }], maxTokens: 20 });
  const answer = await context.elicitForm(`Publish the answer on ${topic}?`, { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] });
  const block = Array.isArray(sampled.content) ? sampled.content[0] : sampled.content;
  const said = block?.type === 'text' ? block.text : String(block?.type);
  return text(`${name}: ${said}; ${answer.action === 'accept' && (answer.content as { ok?: boolean }).ok === true ? 'published' : 'withheld'}`);
});
// A request outside the call's stream: it goes out on the GET stream, wherever that is held.
mcp.registerTool('roots-aside', {}, async (_args, context) => {
  const { roots } = await context.session.server.listRoots();
  return text(`${name}: ${roots.map((root) => root.uri).join(',')}`);
});
// Fault tests: one sampling round trip; a burst of concurrent ones (each answer counted once, by
// request, however many arrive); a call that reports progress and then runs until cancelled.
const sampleParams = (text: string) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }], maxTokens: 5 });
mcp.registerTool('sample-once', {}, async (_args, context) => {
  const sampled = await context.sample(sampleParams('once'));
  const block = Array.isArray(sampled.content) ? sampled.content[0] : sampled.content;
  return text(`${name}: ${block?.type === 'text' ? block.text : '?'}`);
});
// The client's progress for the sampling request is heard here, wherever its POSTs land, and
// echoed as progress of the call so the client knows.
mcp.registerTool('sample-progress', {}, async (_args, context) => {
  const heard: number[] = [];
  await context.sample(sampleParams('progress'), {
    onprogress: (progress) => {
      heard.push(progress.progress);
      void context.reportProgress(progress.progress, undefined, 'heard');
    },
  });
  return text(`${name}: heard ${heard.join(',')}`);
});
mcp.registerTool('burst', { inputSchema: { type: 'object', properties: { count: { type: 'number' }, timeoutMs: { type: 'number' } }, required: ['count', 'timeoutMs'] } }, async ({ count, timeoutMs }, context) => {
  const outcomes = await Promise.allSettled(Array.from({ length: count }, (_, i) => context.sample(sampleParams(`burst ${i}`), { timeout: timeoutMs })));
  const delivered = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
  return text(JSON.stringify({ replica: name, delivered, failed: count - delivered }));
});
mcp.registerTool('linger', {}, async (_args, context) => {
  await context.reportProgress(1, 2, `running on ${name}`);
  await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
  return text(`${name}: cancelled`);
});
// A resource clients may subscribe to, and a tool that announces an update of it from whichever replica runs it.
mcp.registerResource('doc', 'test://doc', { mimeType: 'text/plain' }, (uri) => ({ contents: [{ uri, text: `served by ${name}` }] }));
mcp.registerTool('touch-doc', {}, async () => {
  await mcp.notifyResourceUpdated('test://doc');
  return text(`${name} touched test://doc`);
});
await shared.bus.attach(mcp);
const node = createMcpNodeServer({ ...shared.handlerOptions(() => mcp.createServer()), sessionIdleTimeoutMs: 60_000, keepAliveMs: 1_000, retryMs: 100 });
const url = await node.listen(0);
process.stdout.write(`READY ${url.port}\n`);
const stop = async (): Promise<void> => {
  await node.close();
  await shared.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
