/**
 * Plumbing shared by the example stories, kept out of the story files so that what the docs
 * show is the MCP code alone. A story's server module exports `createServer()` (an McpServer)
 * and serves it over stdio, or over HTTP with `--http`, when run directly; its client module
 * exports `run(connect)`, which connects one or more Clients through `connect` and throws on
 * anything it did not expect. {@link runStory} connects over each transport:
 *
 * - `stdio`: the server file runs as a child process (through tsx), one per connected client;
 * - `http`: the McpServer is served by `createMcpNodeServer` on 127.0.0.1 (a real socket);
 * - `memory`: a linked in-memory pair in this process.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client, createLinkedPair, StreamableHttpClientTransport, type Server } from '../../runtime/index.js';
import { createMcpNodeServer, StdioClientTransport, StdioServerTransport } from '../../runtime/node.js';

export type TransportKind = 'stdio' | 'http' | 'memory';

export const TRANSPORTS: readonly TransportKind[] = ['stdio', 'http', 'memory'];

/** Connects a Client to a fresh connection of the story's server; options tune the transport. */
export type Connect = (client: StoryClient, options?: ConnectOptions) => Promise<void>;

/** A Client of any protocol types: the harness only connects and closes it. */
export type StoryClient = Pick<Client, 'connect' | 'close'>;

export interface ConnectOptions {
  /** HTTP only: the protocol version header the transport starts with (tests of the dual-era endpoint). */
  readonly protocolVersion?: string;
}

/** What a story's client module exports. */
export type StoryRun = (connect: Connect, transport: TransportKind) => Promise<void>;

/** What serves a story: an McpServer, or anything else that makes a Server per connection. */
export interface ServerFactory {
  createServer(): Server;
}

/** The repository root, where tsx resolves. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Whether the module at `moduleUrl` is the program being run. */
export function isMain(moduleUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && pathToFileURL(entry).href === moduleUrl;
}

/**
 * A server module's entry point: stdio by default, `--http [port]` for Streamable HTTP (the
 * endpoint URL goes to stdout).
 */
export async function serveFromArgs(mcp: ServerFactory, args: readonly string[] = process.argv.slice(2)): Promise<void> {
  const http = args.indexOf('--http');
  if (http === -1) {
    await mcp.createServer().connect(new StdioServerTransport());
    return;
  }
  const node = createMcpNodeServer({ server: () => mcp.createServer() });
  const url = await node.listen(Number(args[http + 1] ?? 0));
  console.log(url.href);
  const stop = (): void => void node.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** Everything a story needs to be run by {@link runStory}. */
export interface Story {
  readonly name: string;
  /** The server module's URL (its `import.meta.url`), started as a child process for stdio. */
  readonly serverModule?: string;
  readonly createServer?: () => ServerFactory;
  readonly run: StoryRun;
  readonly transports?: readonly TransportKind[];
}

/** Runs `story.run` with clients connected over `transport`, then closes everything it opened. */
export async function runStory(story: Story, transport: TransportKind): Promise<void> {
  const clients: StoryClient[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  let factory: ServerFactory | undefined;
  let url: URL | undefined;
  const servers: Server[] = [];
  const server = (): Server => {
    if (story.createServer === undefined) throw new Error(`${story.name} has no server factory`);
    factory ??= story.createServer();
    const created = factory.createServer();
    servers.push(created);
    return created;
  };
  const connect: Connect = async (client, options = {}) => {
    clients.push(client);
    if (transport === 'stdio') {
      if (story.serverModule === undefined) throw new Error(`${story.name} has no server module to start`);
      const serverFile = fileURLToPath(story.serverModule);
      await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', serverFile], cwd: ROOT }));
    } else if (transport === 'http') {
      if (url === undefined) {
        const node = createMcpNodeServer({ server });
        cleanups.push(() => node.close());
        url = await node.listen(0);
      }
      await client.connect(new StreamableHttpClientTransport(url, options.protocolVersion === undefined ? {} : { protocolVersion: options.protocolVersion }));
    } else {
      const [clientEnd, serverEnd] = createLinkedPair();
      await server().connect(serverEnd);
      await client.connect(clientEnd);
    }
  };
  try {
    await story.run(connect, transport);
  } finally {
    await Promise.allSettled(clients.map((client) => client.close()));
    await Promise.allSettled(cleanups.map((cleanup) => cleanup()));
    await Promise.allSettled(servers.map((created) => created.close()));
  }
}

/**
 * A client module's entry point: `tsx examples/<story>/client.ts [stdio|http|memory…]` runs
 * the story over the transports named (default: all it supports) and exits non-zero on the
 * first mismatch.
 */
export async function runStoryFromArgs(story: Story, args: readonly string[] = process.argv.slice(2)): Promise<void> {
  const supported = story.transports ?? TRANSPORTS;
  const wanted = args.length === 0 ? supported : (args as TransportKind[]);
  for (const transport of wanted) {
    if (!supported.includes(transport)) {
      console.error(`${story.name}: unknown or unsupported transport ${transport} (supported: ${supported.join(', ')})`);
      process.exit(2);
    }
    const started = performance.now();
    try {
      await runStory(story, transport);
    } catch (error) {
      console.error(`✗ ${story.name} over ${transport}:`, error);
      process.exit(1);
    }
    console.log(`✓ ${story.name} over ${transport} (${Math.round(performance.now() - started)} ms)`);
  }
}
