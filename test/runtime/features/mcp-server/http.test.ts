import { expect, it } from 'vitest';
import { Client, createMcpHttpHandler, latestStatefulRevision, McpServer, StreamableHttpClientTransport } from '../../../../runtime/index.js';
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
