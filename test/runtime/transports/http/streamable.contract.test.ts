// The transport contract over Streamable HTTP: the client transport and the Fetch handler,
// joined in process by handing the client's fetch to the handler.
import { createMcpHttpHandler, StreamableHttpClientTransport, type Server } from '../../../../runtime/index.js';
import { transportContract } from '../contract.case.js';

const URL_BASE = 'http://contract.test/mcp';

function handlerFor(makeServer: () => Server, onServer: (server: Server) => void) {
  return createMcpHttpHandler({
    // The in-process URL names a host of its own, which the rebinding check must accept.
    allowedHosts: ['contract.test'],
    server: () => {
      const server = makeServer();
      onServer(server);
      return server;
    },
  });
}

for (const [era, clientOptions] of [['stateless era', {}], ['stateful era', { protocolVersion: '2025-11-25' }]] as const) {
  transportContract(`Streamable HTTP, ${era}`, {
    clientOptions,
    async connect(client, makeServer) {
      let resolveClosed: () => void = () => undefined;
      const serverClosed = new Promise<void>((resolve) => {
        resolveClosed = resolve;
      });
      const handler = handlerFor(makeServer, (server) => {
        server.onclose = resolveClosed;
      });
      await client.connect(new StreamableHttpClientTransport(URL_BASE, { fetch: (url, init) => handler.fetch(new Request(url, init)) }));
      return { serverClosed, cleanup: () => handler.close() };
    },
    async injectInvalidJson(makeServer) {
      const handler = handlerFor(makeServer, () => undefined);
      const response = await handler.fetch(new Request(URL_BASE, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{"jsonrpc": "2.0", "id": 1, "method": ',
      }));
      const code = ((await response.json()) as { error: { code: number } }).error.code;
      await handler.close();
      return code;
    },
  });
}
