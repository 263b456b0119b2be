/**
 * The conformance "everything" server: every fixture of `fixtures.ts` served by mcpgen's
 * low-level `Server`, over Streamable HTTP (createMcpNodeServer, with an event store for
 * resumability and SEP-1699 polling) or over stdio.
 *
 * The wiring is deliberately thin — one handler per method, each a lookup in a fixture table —
 * so that moving to the high-level server API means registering the same tables there.
 *
 * Run: node --import tsx conformance/everything-server.ts [--port N] [--stdio]
 * (HTTP prints the endpoint URL on stdout; stdio writes nothing but protocol messages there.)
 */
import { pathToFileURL } from 'node:url';
import { httpExtra, ProtocolError, SdkError, Server, statefulRevisions, type RequestContext } from '../runtime/index.js';
import { headerParameters, InMemoryEventStore } from '../runtime/http.js';
import { StatelessContext } from '../runtime/advanced.js';
// Values of the newest revisions (error codes) come from their modules; the root entry exports their types only.
import { Stateful } from '../generated/latest.js';
import { createMcpNodeServer, StdioServerTransport, type McpNodeServer } from '../runtime/node.js';
import { complete, prompts, readResource, resources, templates, tools as baseTools, type ToolIo } from './fixtures.js';
import { inputPrompt, inputTools } from './fixtures-input.js';
import { taskTools } from './fixtures-tasks.js';
import { TasksExtension } from '../runtime/features/tasks/index.js';
import { skills } from './fixtures-skills.js';

/** Every tool fixture: the stateful-era ones, then those added for the stateless era. */
const tools = [...baseTools, ...inputTools];

/**
 * The tasks extension, one for the whole process: on HTTP each stateless request gets its own
 * Server, and every one of them must see the same tasks.
 */
const tasks = new TasksExtension({ pollIntervalMs: 200 });

/** Servers that are live, so that a list change reaches every client (on HTTP, each stateless request has its own). */
const liveServers = new Set<Server>();

export const EVERYTHING_SERVER_INFO: Stateful.Implementation = { name: 'mcpgen-everything-server', version: '0.1.0' };

/** The per-call services a fixture tool gets, backed by the low-level server and the request context. */
function toolIo(server: Server, context: RequestContext): ToolIo {
  const related = { signal: context.signal, relatedRequestId: context.requestId };
  const stateless = context instanceof StatelessContext ? context : undefined;
  return {
    ask: (method, params, key) => context.sendRequest(method, params, { ...related, inputKey: key }),
    get clientCapabilities() {
      return (stateless?.clientCapabilities ?? server.clientCapabilities) as Stateful.ClientCapabilities | undefined;
    },
    get requestState() {
      return stateless?.requestState;
    },
    set requestState(value: unknown) {
      if (stateless !== undefined) stateless.requestState = value;
    },
    toolsChanged: async () => {
      await Promise.all([...liveServers].map((live) => live.notifyToolListChanged().catch(() => undefined)));
    },
    signal: context.signal,
    protocolVersion: server.protocolVersion,
    log: (level, data) => context.log(level, data),
    progress: (progress, total, message) => context.reportProgress(progress, total, message),
    createMessage: (params) => server.createMessage(params, related),
    elicit: (params) => server.elicit(params, related),
    closeStream: async () => (await httpExtra(context).closeStream?.()) ?? false,
  };
}

/** A tool failure the client should see as a tool result rather than a protocol error. */
function toolFailure(name: string, error: SdkError): Stateful.CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `${name}: ${error.message}` }] };
}

/** Reports errors that have no caller to go to (default: one line on stderr). */
export type ErrorSink = (error: Error) => void;

const stderrSink: ErrorSink = (error) => process.stderr.write(`everything-server: ${error.message}\n`);

/** Options of {@link createEverythingServer}. */
export interface EverythingOptions {
  /** Where errors without a caller go (default: stderr). */
  readonly onerror?: ErrorSink;
  /**
   * The newest revision to negotiate (default: the newest stateful one). A client asking for a
   * newer one gets this one, which is how a test pins the revision a session runs at.
   */
  readonly maxRevision?: string;
}

/** Creates one server, i.e. one session's worth of state. */
export function createEverythingServer(options: EverythingOptions = {}): Server {
  const { onerror = stderrSink, maxRevision } = options;
  const server = new Server(EVERYTHING_SERVER_INFO, {
    capabilities: { tools: { listChanged: true }, resources: { subscribe: true }, prompts: {}, logging: {}, completions: {} },
    instructions: 'Fixtures for the MCP conformance suite: test_* tools, test:// resources, test_* prompts and the skill skill://pdf-processing/SKILL.md.',
    onerror,
    extensions: [tasks, skills],
    ...(maxRevision === undefined ? {} : { supportedRevisions: statefulRevisions.filter((revision) => revision <= maxRevision) }),
  });
  const subscriptions = new Set<string>();
  liveServers.add(server);
  const closed = server.protocol.onclose;
  server.protocol.onclose = () => {
    liveServers.delete(server);
    closed?.();
  };
  server.toolHeaderParameters = (name) => {
    const fixture = tools.find((candidate) => candidate.tool.name === name);
    const read = fixture === undefined ? undefined : headerParameters(fixture.tool.inputSchema);
    return read?.ok === true ? read.parameters : undefined;
  };

  server.setRequestHandler('tools/list', () => ({ tools: [...tools.map((fixture) => fixture.tool), ...taskTools.map((fixture) => fixture.tool)] }));
  server.setRequestHandler('tools/call', async (params, context) => {
    const taskFixture = taskTools.find((candidate) => candidate.tool.name === params.name);
    if (taskFixture !== undefined) return (await taskFixture.call(params.arguments ?? {}, context, tasks)) as Stateful.CallToolResult;
    const fixture = tools.find((candidate) => candidate.tool.name === params.name);
    if (fixture === undefined) {
      throw new ProtocolError(Stateful.ErrorCode.INVALID_PARAMS, `Unknown tool: ${params.name}`);
    }
    try {
      return await fixture.call(params.arguments ?? {}, toolIo(server, context));
    } catch (error) {
      // A client without sampling or elicitation, or a revision without the method: the tool
      // reports it in its result, as the scenarios ask.
      if (error instanceof SdkError && (error.code === 'CAPABILITY_MISSING' || error.code === 'UNKNOWN_METHOD')) {
        return toolFailure(params.name, error);
      }
      throw error;
    }
  });

  // The skills extension's files are resources beside the fixtures'.
  server.setRequestHandler('resources/list', () => ({ resources: [...resources.map((fixture) => fixture.resource), ...skills.listResources()] }));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: templates.map((fixture) => fixture.template) }));
  server.setRequestHandler('resources/read', (params) => skills.readResource(params.uri) ?? readResource(params.uri, server.protocol.revision?.errorCodes));
  server.setRequestHandler('resources/subscribe', (params) => {
    subscriptions.add(params.uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', (params) => {
    subscriptions.delete(params.uri);
    return {};
  });

  server.setRequestHandler('prompts/list', () => ({ prompts: [...prompts.map((fixture) => fixture.prompt), inputPrompt.prompt] }));
  server.setRequestHandler('prompts/get', (params, context) => {
    if (params.name === inputPrompt.prompt.name) return inputPrompt.get(toolIo(server, context));
    const fixture = prompts.find((candidate) => candidate.prompt.name === params.name);
    if (fixture === undefined) {
      throw new ProtocolError(Stateful.ErrorCode.INVALID_PARAMS, `Unknown prompt: ${params.name}`);
    }
    const args = params.arguments ?? {};
    const missing = (fixture.prompt.arguments ?? []).filter((argument) => argument.required === true && args[argument.name] === undefined);
    if (missing.length > 0) {
      throw new ProtocolError(Stateful.ErrorCode.INVALID_PARAMS, `${params.name} needs the argument(s) ${missing.map((argument) => argument.name).join(', ')}`);
    }
    return fixture.get(args);
  });

  server.setRequestHandler('completion/complete', (params) => complete(params));
  return server;
}

/** Options of {@link startEverythingServer}. */
export interface EverythingServerOptions extends EverythingOptions {
  /** Port to listen on (default 0: a free one). */
  readonly port?: number;
}

/** A running HTTP everything server. */
export interface RunningEverythingServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:41234/mcp. */
  readonly url: URL;
  readonly node: McpNodeServer;
  close(): Promise<void>;
}

/** Serves the everything server over Streamable HTTP on 127.0.0.1 (DNS-rebinding protection on). */
export async function startEverythingServer(options: EverythingServerOptions = {}): Promise<RunningEverythingServer> {
  const onerror = options.onerror ?? stderrSink;
  const node = createMcpNodeServer({
    server: () => createEverythingServer(options),
    path: '/mcp',
    eventStore: new InMemoryEventStore(),
    onerror,
  });
  const url = await node.listen(options.port ?? 0);
  return { url, node, close: () => node.close() };
}

async function main(argv: readonly string[]): Promise<void> {
  if (argv.includes('--stdio')) {
    await createEverythingServer().connect(new StdioServerTransport());
    return;
  }
  const portIndex = argv.indexOf('--port');
  const port = portIndex === -1 ? 0 : Number(argv[portIndex + 1]);
  if (!Number.isInteger(port) || port < 0) {
    throw new Error(`--port needs a port number, got ${argv[portIndex + 1]}`);
  }
  const running = await startEverythingServer({ port });
  process.stdout.write(`${running.url.href}\n`);
  const stop = (): void => {
    running.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`everything-server: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
