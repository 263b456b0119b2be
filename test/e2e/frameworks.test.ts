import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHttpClientTransport } from '../../runtime/index.js';
import { serveWithExpress } from '../../examples/frameworks/express.js';
import { serveWithHono } from '../../examples/frameworks/hono.js';

const frameworks = { express: serveWithExpress, hono: serveWithHono };

for (const [name, serve] of Object.entries(frameworks)) {
  describe(`an MCP endpoint mounted in ${name}`, () => {
    let served: { url: string; close: () => Promise<void> };
    beforeAll(async () => {
      served = await serve();
    });
    afterAll(async () => {
      await served.close();
    });

    for (const protocolVersion of ['2026-07-28', '2025-11-25']) {
      it(`answers a ${protocolVersion} client's tool call`, async () => {
        const client = new Client({ name: 'framework-test', version: '1.0.0' }, { protocolVersion });
        await client.connect(new StreamableHttpClientTransport(served.url));
        try {
          expect(client.protocolVersion).toBe(protocolVersion);
          const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
          expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
          const invalid = await client.callTool({ name: 'greet', arguments: {} });
          expect(invalid.isError).toBe(true);
        } finally {
          await client.close();
        }
      });
    }

    it('refuses a body that is not JSON with -32700', async () => {
      const response = await fetch(served.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
        body: '{"jsonrpc":',
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32700);
    });
  });
}
