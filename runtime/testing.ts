/**
 * mcpgen's testing entry (`mcpgen/testing`), runtime-neutral: a server and a Client connected
 * in memory in one call, for unit tests of tools, resources and prompts that go through the
 * real protocol engine (validation, capabilities, both eras) without a process or a socket.
 */
import type * as Stateful from '../generated/protocol/stateful.js';
import { createLinkedPair } from './core/in-memory.js';
import { McpServer } from './features/mcp-server/mcp-server.js';
import { Client } from './peers/client.js';
import type { ClientOptions } from './peers/client-options.js';
import type { Server } from './peers/server.js';

/** Options of {@link connectTestClient}. */
export interface TestClientOptions {
  /** The client's name and version (default `mcpgen-test-client` 0.0.0). */
  readonly clientInfo?: Stateful.Implementation;
  /**
   * The Client's options: `protocolVersion: '2025-11-25'` tests the stateful era, the default
   * speaks the newest (stateless) revision; `capabilities` declares sampling, elicitation or roots
   * for handlers registered on `client`.
   */
  readonly client?: ClientOptions;
}

/** A connected pair made by {@link connectTestClient}. */
export interface TestConnection {
  readonly client: Client;
  /** The low-level Server answering the client (for an McpServer, the one it created for this connection). */
  readonly server: Server;
  /** Closes both ends. */
  close(): Promise<void>;
}

/**
 * Connects a Client to `server` over an in-memory pair and resolves once the client is
 * connected (the era is negotiated, `initialize` or `server/discover` answered). `server` is an
 * McpServer, a low-level Server not yet connected, or a function making one.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpgen';
 * import { connectTestClient } from 'mcpgen/testing';
 *
 * const mcp = new McpServer({ name: 'calculator', version: '1.0.0' });
 * mcp.registerTool('add', {
 *   inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
 * }, ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
 *
 * const { client, close } = await connectTestClient(mcp);
 * const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
 * console.assert(result.content[0]?.type === 'text' && result.content[0].text === '5');
 * await close();
 * ```
 */
export async function connectTestClient(server: McpServer | Server | (() => Server), options: TestClientOptions = {}): Promise<TestConnection> {
  const low = server instanceof McpServer ? server.createServer() : typeof server === 'function' ? server() : server;
  const [clientEnd, serverEnd] = createLinkedPair();
  await low.connect(serverEnd);
  const client = new Client(options.clientInfo ?? { name: 'mcpgen-test-client', version: '0.0.0' }, options.client);
  try {
    await client.connect(clientEnd);
  } catch (error) {
    await low.close();
    throw error;
  }
  return {
    client,
    server: low,
    close: async () => {
      await client.close();
      await low.close();
    },
  };
}
