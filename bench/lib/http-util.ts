import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The path every benchmark server serves MCP on. */
export const MCP_PATH = '/mcp';

/** Listens on 127.0.0.1 with an ephemeral port; resolves with the port. */
export function listenLoopback(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}
