// A real HTTP server on 127.0.0.1 (the Node adapter over an McpServer from the public entry),
// driven with raw fetch in both eras: a reply that cannot be encoded still answers its POST, and
// input nested beyond the limit is refused before any handler runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpNodeServer, type McpNodeServer } from '../../../../runtime/node.js';
import { createHostileToolServer } from '../../fixtures/hostile-tools.js';
import { initializeRequest, messageOf, POST_HEADERS, SseReader } from './server-support.js';

const STATELESS = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': STATELESS,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

let node: McpNodeServer;
let url: URL;
const reported: string[] = [];

beforeAll(async () => {
  const mcp = createHostileToolServer((error) => reported.push(error.message));
  node = createMcpNodeServer({ server: () => mcp.createServer(), path: '/mcp' });
  url = await node.listen();
});

afterAll(async () => {
  await node.close();
});

/** The JSON-RPC reply of a POST, whether it came as a JSON body or as an SSE stream. */
async function replyOf(response: Response): Promise<any> {
  if (response.headers.get('content-type')?.startsWith('text/event-stream') === true) {
    const events = await new SseReader(response.body).rest();
    return events.map(messageOf).find((message) => message !== undefined && 'id' in message && !('method' in message));
  }
  return response.json();
}

const deepJson = (depth: number): string => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

describe('stateful era (2025-11-25)', () => {
  let session: Record<string, string>;

  beforeAll(async () => {
    const init = await fetch(url, { method: 'POST', headers: POST_HEADERS, body: JSON.stringify(initializeRequest('2025-11-25')) });
    await init.text();
    session = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    const initialized = await fetch(url, { method: 'POST', headers: { ...POST_HEADERS, ...session }, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
    expect(initialized.status).toBe(202);
  });

  const post = (body: string) => fetch(url, { method: 'POST', headers: { ...POST_HEADERS, ...session }, body });

  it.each(['deep', 'bigint', 'cycle'])('answers the POST of a %s result with -32603 naming tools/call, and nothing stays pending', async (tool) => {
    const response = await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: tool, arguments: {} } }));
    const reply = await replyOf(response);
    expect(reply).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32603 } });
    expect(reply.error.message).toContain('tools/call');
    expect(node.mcp.stats().pendingRequests).toBe(0);
  });

  it('refuses 10,000-deep arguments with -32602 naming the path', async () => {
    const reply = await replyOf(await post(`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{"x":${deepJson(10_000)}}}}`));
    expect(reply.error.code).toBe(-32602);
    expect(reply.error.message).toMatch(/^Invalid params for tools\/call: \/arguments\/x(\/a)+ nests deeper than 100 levels$/);
  });

  it('hands the tool no __proto__ key', async () => {
    const reply = await replyOf(await post('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"keys","arguments":{"__proto__":{"polluted":"yes"},"b":1}}}'));
    expect(JSON.parse(reply.result.content[0].text)).toMatchObject({ own: ['b'], ownProto: false, polluted: null });
  });
});

describe('stateless era (2026-07-28)', () => {
  const post = (id: number, name: string, argumentsJson: string) =>
    fetch(url, {
      method: 'POST',
      headers: { ...POST_HEADERS, 'mcp-protocol-version': STATELESS, 'mcp-method': 'tools/call', 'mcp-name': name },
      body: `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","_meta":${JSON.stringify(META)},"arguments":${argumentsJson}}}`,
    });

  it('answers the POST of an unencodable result with -32603 naming tools/call, and nothing stays pending', async () => {
    const reply = await replyOf(await post(1, 'deep', '{}'));
    expect(reply).toMatchObject({ id: 1, error: { code: -32603 } });
    expect(reply.error.message).toContain('tools/call');
    expect(node.mcp.stats().pendingRequests).toBe(0);
  });

  it('refuses deep arguments of a multi round-trip tool with -32602 instead of a stack overflow', async () => {
    const before = reported.length;
    const first = await replyOf(await post(2, 'ask', '{}'));
    expect(first.result.resultType).toBe('input_required');
    const reply = await replyOf(await post(3, 'ask', `{"x":${deepJson(10_000)}}`));
    expect(reply.error.code).toBe(-32602);
    expect(reply.error.message).toContain('nests deeper than 100 levels');
    expect(reported.slice(before)).toEqual([]);
  });
});
