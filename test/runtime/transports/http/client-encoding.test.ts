// A request whose params cannot be encoded as JSON, sent over the real Streamable HTTP
// transport to a real server: it fails at once with a local error and leaves nothing pending.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, SdkError, Server, StreamableHttpClientTransport } from '../../../../runtime/index.js';
import { createMcpNodeServer, type McpNodeServer } from '../../../../runtime/node.js';

let node: McpNodeServer;
let url: URL;
let posts = 0;
beforeAll(async () => {
  node = createMcpNodeServer({
    server: () => {
      const server = new Server({ name: 'encoding', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/call', async (params) => {
        posts++;
        return { content: [{ type: 'text', text: String(params.name) }] };
      });
      return server;
    },
    path: '/mcp',
  });
  url = await node.listen(0);
});
afterAll(async () => {
  await node.close();
});

const cycle: Record<string, unknown> = {};
cycle.self = cycle;
const unencodable: Record<string, unknown> = {
  'a BigInt': { n: 1n },
  'a cycle': cycle,
  'a throwing toJSON': { toJSON: () => { throw new Error('no JSON for you'); } },
};

describe.each(['2025-11-25', '2026-07-28'])('Streamable HTTP client, %s, params that cannot be encoded', (protocolVersion) => {
  it.each(Object.keys(unencodable))('rejects a request carrying %s at once with SdkError and keeps working', async (what) => {
    const transport = new StreamableHttpClientTransport(url);
    const errors: Error[] = [];
    const client = new Client({ name: 'encoding-client', version: '1.0.0' }, { protocolVersion });
    await client.connect(transport);
    const engineHook = transport.onerror;
    transport.onerror = (error) => {
      errors.push(error);
      engineHook?.(error);
    };
    const before = posts;
    const failure = await client.callTool({ name: 'bad', arguments: { value: unencodable[what] } }, { timeout: 600_000 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).code).toBe('SEND_FAILED');
    expect((failure as SdkError).cause).toBeInstanceOf(SdkError);
    expect(((failure as SdkError).cause as SdkError).code).toBe('INVALID_ARGUMENT');
    expect((failure as Error).message).toMatch(/cannot be encoded as JSON/);
    expect(errors).toEqual([]);
    expect(posts).toBe(before);
    // Nothing of the failed request is left: the next call goes through and is answered.
    expect(await client.callTool({ name: 'good' })).toMatchObject({ content: [{ type: 'text', text: 'good' }] });
    await client.close();
  });
});
