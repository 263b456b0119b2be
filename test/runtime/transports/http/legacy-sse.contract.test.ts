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
  async injectInvalidJson(makeServer) {
    const handler = createMcpHttpHandler({ allowedHosts: ['contract.test'], legacySse: true, server: makeServer });
    // The stream's first event names the session's message endpoint.
    const stream = await handler.fetch(new Request('http://contract.test/sse', { headers: { accept: 'text/event-stream' } }));
    const reader = stream.body!.getReader();
    let text = '';
    while (!/data: (\S+)\n/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    const endpoint = /data: (\S+)\n/.exec(text)![1]!;
    const response = await handler.fetch(new Request(new URL(endpoint, 'http://contract.test'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc": "2.0", "id": 1, "method": ',
    }));
    const code = ((await response.json()) as { error: { code: number } }).error.code;
    await reader.cancel();
    await handler.close();
    return code;
  },
});
