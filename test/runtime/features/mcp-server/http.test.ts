import { expect, it } from 'vitest';
import { Client, createMcpHttpHandler, latestStatefulRevision, McpServer, ProtocolError, StreamableHttpClientTransport } from '../../../../runtime/index.js';
import { createMcpNodeServer } from '../../../../runtime/node.js';
import { settle, textOf, until } from './harness.js';

it('serves one definition to many HTTP sessions through createServer', async () => {
  const mcp = new McpServer({ name: 'http-mcp', version: '1.0.0' });
  mcp.registerTool('hello', {}, (_args, context) => ({ content: [{ type: 'text', text: `hello from session ${context.session.server.protocolVersion}` }] }));
  const handler = createMcpHttpHandler({ server: () => mcp.createServer(), allowedHosts: ['mcp.test'] });
  const fetchThrough = (url: string | URL, init?: RequestInit): Promise<Response> => handler.fetch(new Request(url, init));

  // Sessions are the subject here: both clients pin the stateful era.
  const clients = [new Client({ name: 'a', version: '1' }, { protocolVersion: latestStatefulRevision }), new Client({ name: 'b', version: '1' }, { protocolVersion: latestStatefulRevision })];
  const changed: string[] = [];
  for (const client of clients) {
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changed.push(client.serverInfo?.name ?? '');
    });
    await client.connect(new StreamableHttpClientTransport('http://mcp.test/mcp', { fetch: fetchThrough }));
  }
  expect(mcp.sessions.size).toBe(2);
  expect(textOf(await clients[0]!.callTool({ name: 'hello', arguments: {} }))).toBe('hello from session 2025-11-25');

  mcp.registerTool('later', {}, () => ({ content: [{ type: 'text', text: 'later' }] }));
  await until(() => changed.length === 2);
  expect(textOf(await clients[1]!.callTool({ name: 'later', arguments: {} }))).toBe('later');

  for (const client of clients) await client.close();
  await settle();
  expect(mcp.sessions.size).toBe(0);
  await handler.close();
});

it('refuses a URI longer than maxUriLength before matching it against templates, over HTTP in both eras', async () => {
  const mcp = new McpServer({ name: 'files', version: '1.0.0' }, { maxUriLength: 1_000 });
  const matched: string[] = [];
  mcp.registerResourceTemplate('file', 'file:///{+path}', {}, (uri, { path }) => {
    matched.push(String(path));
    return { contents: [{ uri, text: 'x' }] };
  });
  const long = `file:///${'a'.repeat(2_000)}`;
  mcp.registerResource('long-but-fixed', long, {}, (uri) => ({ contents: [{ uri, text: 'fixed' }] }));
  const node = createMcpNodeServer({ server: () => mcp.createServer(), path: '/mcp' });
  const url = await node.listen(0);
  try {
    for (const protocolVersion of ['2025-11-25', '2026-07-28']) {
      const client = new Client({ name: 'c', version: '1' }, { protocolVersion });
      await client.connect(new StreamableHttpClientTransport(url));
      // The 2026-07-28 request carries the URI in its Mcp-Name header too, so it stays under Node's 16 KiB header limit.
      const lengths = protocolVersion === '2025-11-25' ? [5_000, 1_000_000] : [5_000];
      for (const length of lengths) {
        const error = await client.readResource({ uri: `file:///${'b'.repeat(length)}` }).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ProtocolError);
        expect(error).toMatchObject({ code: -32602, data: { field: 'uri', maxLength: 1_000 } });
      }
      // At the bound it still matches, and a fixed resource is found at any length.
      const atBound = `file:///${'c'.repeat(1_000 - 'file:///'.length)}`;
      expect((await client.readResource({ uri: atBound })).contents).toHaveLength(1);
      expect((await client.readResource({ uri: long })).contents).toEqual([{ uri: long, text: 'fixed' }]);
      await client.close();
    }
    expect(matched.every((path) => path.length < 1_000)).toBe(true);
    expect(matched).toHaveLength(2);
  } finally {
    await node.close();
  }
});
