// The transport contract over the 2024-11-05 HTTP+SSE transport: the legacy client transport
// and the Fetch handler with `legacySse` on, joined in process through the client's fetch.
import { createMcpHttpHandler, type Server } from '../../../../runtime/index.js';
import { LegacySseClientTransport } from '../../../../runtime/http.js';
import { transportContract } from '../contract.case.js';

transportContract('HTTP+SSE (2024-11-05)', {
  async connect(client, makeServer) {
    let resolveClosed: () => void = () => undefined;
    const serverClosed = new Promise<void>((resolve) => {
      resolveClosed = resolve;
    });
    const handler = createMcpHttpHandler({
      // The in-process URL names a host of its own, which the rebinding check must accept.
      allowedHosts: ['contract.test'],
      legacySse: true,
      server: () => {
        const server = makeServer();
        server.onclose = resolveClosed;
        return server;
      },
    });
    await client.connect(new LegacySseClientTransport('http://contract.test/sse', { fetch: (url, init) => handler.fetch(new Request(url, init)) }));
    return { serverClosed, cleanup: () => handler.close() };
  },
});
