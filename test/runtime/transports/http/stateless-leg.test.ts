// The stateless leg serves each POST with a Server from the handler's factory, whether the
// factory returns the Server itself or a promise of it, and closes that Server once answered.
import { describe, expect, it } from 'vitest';
import { createMcpHttpHandler, Server } from '../../../../runtime/index.js';

const VERSION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

function echoServer(closed: Server[]): Server {
  const server = new Server({ name: 'echo', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/call', (params) => ({ content: [{ type: 'text', text: String(params.arguments?.text ?? '') }] }));
  const close = server.close.bind(server);
  server.close = async () => {
    closed.push(server);
    await close();
  };
  return server;
}

function call(id: number, text: string): Request {
  return new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: '127.0.0.1', 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text }, _meta: META } }),
  });
}

describe('the stateless leg', () => {
  it.each([
    ['returns its Server', (closed: Server[]) => () => echoServer(closed)],
    ['returns a promise of its Server', (closed: Server[]) => async () => echoServer(closed)],
  ])('serves each POST from a factory that %s, and closes that Server once answered', async (_name, factoryOf) => {
    const closed: Server[] = [];
    const made: number[] = [];
    const factory = factoryOf(closed);
    const handler = createMcpHttpHandler({ path: '/mcp', server: () => (made.push(made.length), factory()) });
    const replies = await Promise.all([handler.fetch(call(1, 'one')), handler.fetch(call(2, 'two'))]);
    expect(replies.map((reply) => reply.status)).toEqual([200, 200]);
    const bodies = await Promise.all(replies.map((reply) => reply.json() as Promise<{ id: number; result: { content: { text: string }[] } }>));
    expect(bodies.map((body) => [body.id, body.result.content[0]!.text])).toEqual([[1, 'one'], [2, 'two']]);
    expect(made).toHaveLength(2);
    expect(closed).toHaveLength(2);
    expect(handler.stats()).toMatchObject({ pendingRequests: 0, timers: 0 });
    await handler.close();
  });
});
