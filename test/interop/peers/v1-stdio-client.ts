// Interop peer: an MCP client built with the official v1 SDK (@modelcontextprotocol/sdk).
// It spawns the server given on the command line over stdio, runs a fixed script and
// prints one JSON summary line (see client-support.ts); `{error}` and exit 1 on failure.
//
// Run: node --import tsx test/interop/peers/v1-stdio-client.ts <server-command> [args...]
//
// PEER_PROTOCOL_VERSION: the v1 Client always offers its LATEST_PROTOCOL_VERSION and has
// no option to change it, so this peer rewrites `params.protocolVersion` of the outgoing
// `initialize` request in a thin transport wrapper. The negotiated version is read from the
// `setProtocolVersion` hook the v1 Client calls on its transport after `initialize`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  isJSONRPCRequest,
  ListRootsRequestSchema,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';
import {
  childEnv,
  ELICITATION_RESULT,
  parseJsonText,
  promptText,
  requestedProtocolVersion,
  resourceText,
  ROOTS_RESULT,
  runPeerClient,
  SAMPLING_RESULT,
  serverCommand,
  toolText,
  type PeerSummary,
} from './client-support.js';

/** Delegating transport that can pin the offered protocol version and records the negotiated one. */
class VersionPinningTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  negotiatedVersion: string | undefined;

  constructor(
    private readonly inner: Transport,
    private readonly offeredVersion: string | undefined,
  ) {}

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => this.onclose?.();
    await this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.offeredVersion !== undefined && isJSONRPCRequest(message) && message.method === 'initialize') {
      const pinned: JSONRPCMessage = {
        ...message,
        params: { ...message.params, protocolVersion: this.offeredVersion },
      };
      await this.inner.send(pinned, options);
      return;
    }
    await this.inner.send(message, options);
  }

  async close(): Promise<void> {
    await this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.negotiatedVersion = version;
  }
}

async function main(): Promise<PeerSummary> {
  const { command, args } = serverCommand(process.argv);
  const transport = new VersionPinningTransport(
    new StdioClientTransport({ command, args, env: childEnv(), stderr: 'inherit' }),
    requestedProtocolVersion(),
  );

  const client = new Client(
    { name: 'peer-v1-stdio-client', version: '1.0.0' },
    { capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } } },
  );
  client.setRequestHandler(CreateMessageRequestSchema, () => ({
    ...SAMPLING_RESULT,
    content: { ...SAMPLING_RESULT.content },
  }));
  client.setRequestHandler(ElicitRequestSchema, () => ({
    ...ELICITATION_RESULT,
    content: { ...ELICITATION_RESULT.content },
  }));
  client.setRequestHandler(ListRootsRequestSchema, () => ROOTS_RESULT);

  await client.connect(transport);
  try {
    const tools: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);

    const call = async (name: string, args: Record<string, unknown> = {}): Promise<string> =>
      toolText(await client.callTool({ name, arguments: args }), name);
    const optional = async (name: string): Promise<string | null> =>
      tools.includes(name) ? call(name) : null;

    const echo = await call('echo', { text: 'hi' });
    const add = await call('add', { a: 2, b: 3 });
    const resource = resourceText(await client.readResource({ uri: 'mem://hello' }), 'mem://hello');
    const prompt = promptText(await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } }), 'greet');
    const sample = await optional('sample');
    const elicit = await optional('elicit');
    const roots = await optional('roots');

    const info = client.getServerVersion();
    return {
      protocolVersion: transport.negotiatedVersion ?? null,
      serverInfo: info === undefined ? null : { name: info.name, version: info.version },
      tools,
      echo,
      add,
      resource,
      prompt,
      sample,
      elicit: elicit === null ? null : parseJsonText(elicit),
      roots: roots === null ? null : parseJsonText(roots),
    };
  } finally {
    await client.close();
  }
}

runPeerClient(main);
