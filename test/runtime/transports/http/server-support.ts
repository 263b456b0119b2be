// Shared helpers of the HTTP server tests: a server with HTTP-specific tools, a reader for raw
// SSE bodies, and request builders for the Fetch core.
import { createMcpHttpHandler, httpExtra, ProtocolError, Server, type McpHttpHandler, type McpHttpHandlerOptions } from '../../../../runtime/index.js';
// Values of the newest revisions (error codes) come from their modules; the root entry exports their types only.
import { Stateful } from '../../../../generated/latest.js';

/** Parsed SSE event (or comment) as the tests see it. */
export interface TestEvent {
  readonly id?: string;
  readonly event?: string;
  readonly data?: string;
  readonly retry?: number;
  readonly comment?: string;
}

/** Reads SSE events from a response body, one at a time. */
export class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private queue: TestEvent[] = [];
  ended = false;

  constructor(body: ReadableStream<Uint8Array> | null) {
    if (body === null) throw new Error('no body');
    this.reader = body.getReader();
  }

  /** The next event, or undefined when the stream ended. */
  async next(): Promise<TestEvent | undefined> {
    while (this.queue.length === 0) {
      if (this.ended) return undefined;
      const { done, value } = await this.reader.read();
      if (done) {
        this.ended = true;
        break;
      }
      this.buffer += this.decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = this.buffer.indexOf('\n\n')) >= 0) {
        const block = this.buffer.slice(0, cut);
        this.buffer = this.buffer.slice(cut + 2);
        this.queue.push(parseBlock(block));
      }
    }
    return this.queue.shift();
  }

  /** Every remaining event until the stream ends. */
  async rest(): Promise<TestEvent[]> {
    const events: TestEvent[] = [];
    for (let event = await this.next(); event !== undefined; event = await this.next()) events.push(event);
    return events;
  }

  /** Events up to and including the first that satisfies `predicate`. */
  async until(predicate: (event: TestEvent) => boolean): Promise<TestEvent[]> {
    const events: TestEvent[] = [];
    for (let event = await this.next(); event !== undefined; event = await this.next()) {
      events.push(event);
      if (predicate(event)) return events;
    }
    throw new Error(`stream ended before the expected event: ${JSON.stringify(events)}`);
  }

  /** Disconnects, as a client closing the connection would. */
  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }
}

function parseBlock(block: string): TestEvent {
  const event: { id?: string; event?: string; data?: string; retry?: number; comment?: string } = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      event.comment = line.slice(1).trim();
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') event.data = event.data === undefined ? value : `${event.data}\n${value}`;
    else if (field === 'id') event.id = value;
    else if (field === 'event') event.event = value;
    else if (field === 'retry') event.retry = Number(value);
  }
  return event;
}

/** The JSON message an event carries, or undefined for priming events and comments. */
export function messageOf(event: TestEvent): Record<string, unknown> | undefined {
  return event.data === undefined || event.data === '' ? undefined : (JSON.parse(event.data) as Record<string, unknown>);
}

/** True for the event carrying the response to request `id`. */
export const isResponseTo = (id: number | string) => (event: TestEvent): boolean => messageOf(event)?.id === id && messageOf(event)?.method === undefined;

const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A server with the tools the HTTP tests need:
 * - `echo` answers at once (a JSON reply);
 * - `whoami` reports progress carrying its `tag` argument, then answers with the tag and the session id;
 * - `poll` closes its SSE connection (SEP-1699), keeps working, then answers;
 * - `sample` asks the client for a sampling result on its own stream;
 * - `roots` asks the client for its roots, unrelated to the call (so on the standalone stream);
 * - `hangup` closes the standalone GET stream's connection (SEP-1699) and says whether it could;
 * - `announce` sends a tools/list_changed notification on the standalone stream;
 * - `hang` waits for cancellation.
 */
const hangWaiters: Array<() => void> = [];

/** Resolves when the next `hang` handler is running; call it before sending the request. */
export function hangStarted(): Promise<void> {
  return new Promise((resolve) => hangWaiters.push(resolve));
}

export function createHttpTestServer(): Server {
  const server = new Server({ name: 'http-test-server', version: '1.0.0' }, { capabilities: { tools: { listChanged: true }, logging: {} } });
  server.setRequestHandler('tools/list', () => ({
    tools: ['echo', 'whoami', 'poll', 'sample', 'roots', 'hangup', 'announce', 'hang'].map((name) => ({ name, inputSchema: { type: 'object' as const } })),
  }));
  server.setRequestHandler('tools/call', async (params, context) => {
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
    switch (params.name) {
      case 'echo':
        return text(`echo: ${String(args.text)}`);
      case 'whoami': {
        const steps = Number(args.steps ?? 3);
        for (let step = 1; step <= steps; step++) {
          await tick(Number(args.stepMs ?? 5));
          await context.reportProgress(step, steps, `${String(args.tag)}:${step}`);
        }
        return text(`${String(args.tag)}@${context.extra?.sessionId ?? 'stateless'}`);
      }
      case 'poll': {
        await context.reportProgress(1, 3, 'before close');
        const closed = await httpExtra(context).closeStream?.();
        await tick(Number(args.pauseMs ?? 30));
        await context.reportProgress(2, 3, 'while away');
        await tick(Number(args.pauseMs ?? 30));
        await context.reportProgress(3, 3, 'still away');
        return text(`polled:${String(closed)}`);
      }
      case 'sample': {
        const result = await server.createMessage(
          { messages: [{ role: 'user', content: { type: 'text', text: String(args.text) } }], maxTokens: 10 },
          { relatedRequestId: context.requestId },
        );
        return text(`sampled: ${(result.content as { text?: string }).text}`);
      }
      case 'roots': {
        // Unrelated to the call on purpose: it travels on the standalone GET stream.
        const result = await server.listRoots();
        return text(result.roots.map((root) => root.uri).join(','));
      }
      case 'hangup':
        return text(`hangup:${String(await httpExtra(context).closeStandaloneStream?.())}`);
      case 'announce':
        await server.notifyToolListChanged();
        return text('announced');
      case 'hang': {
        const aborted = new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
        for (const started of hangWaiters.splice(0)) started();
        await aborted;
        return text('cancelled');
      }
      default:
        throw new ProtocolError(Stateful.ErrorCode.INVALID_PARAMS, `unknown tool ${params.name}`);
    }
  });
  return server;
}

/** Headers of a well-formed POST. */
export const POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/**
 * POSTs one 2026-07-28 request to `url` as a raw client would: the protocol headers, `Mcp-Name`
 * when given, and `meta` as the request's `_meta`.
 */
export async function postStateless(url: URL, meta: Record<string, unknown>, method: string, params: Record<string, unknown>, name?: string): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { ...POST_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) };
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }) });
  return { status: response.status, body: await response.json() };
}

/** An `initialize` request asking for `version`. */
export function initializeRequest(version: string, id: number | string = 0, capabilities: Record<string, unknown> = {}): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: version, capabilities, clientInfo: { name: 'raw-test-client', version: '1.0.0' } } };
}

/** A tools/call request. */
export function callTool(id: number | string, name: string, args: Record<string, unknown> = {}, progressToken?: string | number): Record<string, unknown> {
  const params: Record<string, unknown> = { name, arguments: args };
  if (progressToken !== undefined) params._meta = { progressToken };
  return { jsonrpc: '2.0', id, method: 'tools/call', params };
}

/** Polls `condition` until it holds or `timeoutMs` passes. */
export async function eventually(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await tick(5);
  }
}

/** A Fetch-level test rig around one handler. */
export interface Rig {
  readonly mcp: McpHttpHandler;
  /** Sends a request to `path` (default `/mcp`). */
  send(method: string, headers?: Record<string, string>, body?: string, path?: string): Promise<Response>;
  /** POSTs a JSON body with well-formed headers plus `headers`. */
  post(body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** Opens an initialised session; returns the headers later requests need. */
  open(version?: string, capabilities?: Record<string, unknown>): Promise<Record<string, string>>;
}

/** Creates a handler over {@link createHttpTestServer} (unless `server` is given) and a rig around it. */
export function createRig(options: Partial<McpHttpHandlerOptions> = {}): Rig {
  const mcp = createMcpHttpHandler({ server: createHttpTestServer, ...options });
  const send = (method: string, headers: Record<string, string> = {}, body?: string, path = '/mcp'): Promise<Response> =>
    mcp.fetch(new Request(`http://localhost:3000${path}`, { method, headers, ...(body === undefined ? {} : { body }) }));
  const post = (body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    send('POST', { ...POST_HEADERS, ...headers }, typeof body === 'string' ? body : JSON.stringify(body));
  const open = async (version = '2025-11-25', capabilities: Record<string, unknown> = {}): Promise<Record<string, string>> => {
    const init = await post(initializeRequest(version, 0, capabilities));
    if (init.status !== 200) throw new Error(`initialize failed: ${init.status} ${await init.text()}`);
    await init.text();
    const headers = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': version };
    const initialized = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
    if (initialized.status !== 202) throw new Error(`initialized failed: ${initialized.status}`);
    return headers;
  };
  return { mcp, send, post, open };
}
