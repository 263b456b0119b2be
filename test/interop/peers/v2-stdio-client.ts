// Interop peer: an MCP client built with the official v2 SDK (@modelcontextprotocol/client).
// It spawns the server given on the command line over stdio, runs a fixed script and
// prints one JSON summary line (see client-support.ts); `{error}` and exit 1 on failure.
//
// Run: node --import tsx test/interop/peers/v2-stdio-client.ts <server-command> [args...]
//
// PEER_PROTOCOL_VERSION selects what the client asks for, through the SDK's own options:
//   unset                  SDK default: versionNegotiation 'legacy', `initialize` offering
//                          LATEST_PROTOCOL_VERSION (2025-11-25)
//   'auto'                 versionNegotiation { mode: 'auto' }: probe with server/discover
//                          (on a throw-away sibling process), fall back to `initialize`
//   2026-07-28 or later    versionNegotiation { mode: { pin: version } }: modern era only
//   any earlier version    supportedProtocolVersions [version, ...the SDK's list]: the
//                          `initialize` request offers it; a counter-offer from the SDK's
//                          list is still accepted
import { Client, SUPPORTED_PROTOCOL_VERSIONS, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
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

const FIRST_MODERN_VERSION = '2026-07-28';

function versionOptions(requested: string | undefined): ClientOptions {
  if (requested === undefined) return {};
  if (requested === 'auto') return { versionNegotiation: { mode: 'auto' } };
  // Revision identifiers are ISO dates, so string order is date order.
  if (requested >= FIRST_MODERN_VERSION) return { versionNegotiation: { mode: { pin: requested } } };
  return {
    supportedProtocolVersions: [requested, ...SUPPORTED_PROTOCOL_VERSIONS.filter((version) => version !== requested)],
  };
}

async function main(): Promise<PeerSummary> {
  const { command, args } = serverCommand(process.argv);
  const transport = new StdioClientTransport({ command, args, env: childEnv(), stderr: 'inherit' });

  const client = new Client(
    { name: 'peer-v2-stdio-client', version: '1.0.0' },
    {
      capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } },
      ...versionOptions(requestedProtocolVersion()),
    },
  );
  client.setRequestHandler('sampling/createMessage', () => ({
    ...SAMPLING_RESULT,
    content: { ...SAMPLING_RESULT.content },
  }));
  client.setRequestHandler('elicitation/create', () => ({
    ...ELICITATION_RESULT,
    content: { ...ELICITATION_RESULT.content },
  }));
  client.setRequestHandler('roots/list', () => ROOTS_RESULT);

  await client.connect(transport);
  try {
    // Without a cursor, the v2 listTools() walks every page (following nextCursor) itself.
    const tools = (await client.listTools()).tools.map((tool) => tool.name);

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
      protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
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
