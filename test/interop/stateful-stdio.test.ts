// Interop between mcpgen and the official TypeScript SDKs over stdio, in both directions, for
// every stateful revision:
//   a. our Client against the v1 and v2 peer servers;
//   b. the v1 and v2 peer clients (their summary script) against our server
//      (peers/mcpgen-stdio-server.ts);
//   c. our dual-era server against a client that opens the 2026 way, with server/discover;
//   d. the official clients in-process against our server, for what the summary leaves out
//      (progress, cancellation, timeouts, logging levels).
//
// Spawning a TypeScript peer costs about a second of CPU, so every process this file needs is
// started up front (a few at a time) in the first hook, and each suite only awaits its own.
import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, SdkError, Stateful, statefulRevisions } from '../../runtime/index.js';
import { StdioClientTransport } from '../../runtime/node.js';
import type { PeerSummary } from './peers/client-support.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const peer = (file: string): string => fileURLToPath(new URL(`./peers/${file}`, import.meta.url));
// Every peer is a TypeScript file run by Node with the tsx loader.
const tsNode = (file: string): string[] => ['--import', 'tsx', peer(file)];

// Generous limits: on a loaded machine (the whole suite in parallel) start-ups queue up. A run
// that passes takes a few seconds; these only bound how long a broken one can hang.
/** How long one peer-client run may take once started; its own timeout (PEER_TIMEOUT_MS) is shorter. */
const RUN_TIMEOUT_MS = 80_000;
const PEER_TIMEOUT_MS = '70000';
/** Long enough for a suite to wait for its process behind the others in the queue. */
const SETUP_TIMEOUT_MS = 90_000;

const fillerTools = Array.from({ length: 30 }, (_, i) => `t${String(i).padStart(2, '0')}`);
const allTools = ['echo', 'add', 'slow', 'sample', 'elicit', 'roots', ...fillerTools];

/** Whether a revision has server→client elicitation (2025-06-18 and later). */
const hasElicitation = (revision: string): boolean => revision >= '2025-06-18';

// ---------------------------------------------------------------------------------------------
// A tiny job queue: at most `limit` process start-ups at a time, in submission order.

function createQueue(limit: number): <T>(job: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  const next = (): void => {
    if (running >= limit) return;
    const start = waiting.shift();
    if (start === undefined) return;
    running += 1;
    start();
  };
  return (job) =>
    new Promise((resolve, reject) => {
      waiting.push(() => {
        job()
          .then(resolve, reject)
          .finally(() => {
            running -= 1;
            next();
          });
      });
      next();
    });
}

/** A promise whose rejection is observed now and rethrown when it is awaited. */
function deferred<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

// ---------------------------------------------------------------------------------------------
// a. Our Client against the official peer servers.

interface ServerPeer {
  readonly label: string;
  readonly file: string;
  readonly name: string;
}

const serverPeers: ServerPeer[] = [
  { label: 'v1', file: 'v1-stdio-server.ts', name: 'peer-v1-stdio-server' },
  { label: 'v2', file: 'v2-stdio-server.ts', name: 'peer-v2-stdio-server' },
];

/** What our client's handlers answer and what they saw. */
const SAMPLED_TEXT = 'sampled by mcpgen';
const ELICITED = { action: 'accept', content: { name: 'Grace', age: 85 } } as const;
const ROOT_URI = 'file:///tmp/mcpgen-root';

interface Connection {
  readonly client: Client<Stateful.ProtocolTypes>;
  /** Errors reported through the client's onerror (nobody to throw them to). */
  readonly errors: Error[];
  /** Logging notifications received. */
  readonly logs: Stateful.LoggingMessageNotificationParams[];
  /** Params of the server→client requests our handlers served. */
  readonly sampling: Stateful.CreateMessageRequestParams[];
  readonly elicitation: Stateful.ElicitRequestParams[];
  rootsRequests: number;
}

async function connectTo(server: ServerPeer, revision: string): Promise<Connection> {
  const errors: Error[] = [];
  const client = new Client<Stateful.ProtocolTypes>(
    { name: 'mcpgen-interop-client', version: '1.0.0' },
    {
      protocolVersion: revision,
      capabilities: { sampling: {}, roots: { listChanged: true }, ...(hasElicitation(revision) ? { elicitation: {} } : {}) },
      onerror: (error) => errors.push(error),
    },
  );
  const transport = new StdioClientTransport({ command: process.execPath, args: tsNode(server.file), cwd: repoRoot });
  const connection: Connection = { client, errors, logs: [], sampling: [], elicitation: [], rootsRequests: 0 };
  client.setNotificationHandler('notifications/message', (params) => {
    connection.logs.push(params);
  });
  client.setRequestHandler('sampling/createMessage', (params) => {
    connection.sampling.push(params);
    return { role: 'assistant', content: { type: 'text', text: SAMPLED_TEXT }, model: 'mcpgen-model' };
  });
  client.setRequestHandler('roots/list', () => {
    connection.rootsRequests += 1;
    return { roots: [{ uri: ROOT_URI, name: 'root' }] };
  });
  if (hasElicitation(revision)) {
    client.setRequestHandler('elicitation/create', (params) => {
      connection.elicitation.push(params);
      return { action: ELICITED.action, content: { ...ELICITED.content } };
    });
  }
  await client.connect(transport);
  return connection;
}

function textOf(result: Stateful.CallToolResult): string {
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error(`expected text content, got ${JSON.stringify(result.content)}`);
  return first.text;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Checks that a server stopped a cancelled (or timed-out) call: runs `roundTrip` (a request sent
 * after notifications/cancelled, so once it is answered the server has seen the cancellation and
 * any progress it sent before is in), then expects no further errors for a while. A client
 * reports progress for a request it no longer tracks through onerror.
 */
async function expectQuietAfterCancellation(errors: readonly Error[], roundTrip: () => Promise<void>): Promise<void> {
  await roundTrip();
  const settled = errors.length;
  await sleep(300);
  expect(errors.slice(settled).map((error) => error.message)).toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// b. The official peer clients against our server.

interface RunResult {
  readonly code: number;
  readonly summary: unknown;
  readonly stderr: string;
}

function runPeerClient(clientFile: string, env: Record<string, string>): Promise<RunResult> {
  const args = [...tsNode(clientFile), process.execPath, ...tsNode('mcpgen-stdio-server.ts')];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      args,
      { cwd: repoRoot, env: { ...process.env, PEER_TIMEOUT_MS, ...env }, timeout: RUN_TIMEOUT_MS },
      (error, stdout, stderr) => {
        if (error !== null && typeof error.code !== 'number') {
          reject(new Error(`${clientFile} did not finish: ${error.message}; stderr: ${stderr}`));
          return;
        }
        const lines = stdout.trim().split('\n');
        try {
          resolve({ code: error === null ? 0 : Number(error.code), summary: JSON.parse(lines[lines.length - 1] ?? ''), stderr });
        } catch {
          reject(new Error(`${clientFile} printed no summary; stdout: ${stdout}; stderr: ${stderr}`));
        }
      },
    );
  });
}

/** The summary an official client prints against our server at `revision`. */
function expectedSummary(revision: string): PeerSummary {
  const elicit = hasElicitation(revision);
  return {
    protocolVersion: revision,
    serverInfo: { name: 'mcpgen-stdio-server', version: '1.0.0' },
    // Our server lists `elicit` only where the negotiated revision can carry it.
    tools: elicit ? allTools : allTools.filter((tool) => tool !== 'elicit'),
    echo: 'echo: hi',
    add: '5',
    resource: 'hello',
    prompt: 'Hello, Ada!',
    sample: 'sampled',
    // Both official peer clients answer elicitation with client-support.ts' ELICITATION_RESULT.
    elicit: elicit ? { action: 'accept', content: { name: 'Ada', age: 36 } } : null,
    roots: ['file:///tmp/peer-root'],
  };
}

const clientPeers = [
  { label: 'v1', file: 'v1-stdio-client.ts' },
  { label: 'v2', file: 'v2-stdio-client.ts' },
] as const;

// ---------------------------------------------------------------------------------------------
// c. Our dual-era server and a client that opens with server/discover.

interface RawExchange {
  readonly lines: unknown[];
}

/**
 * Writes raw JSON-RPC to our server, one step after the answer to the previous one, and
 * collects every line it prints. A step is a request, or a notification followed by a request.
 */
function rawExchange(steps: ReadonlyArray<object | readonly object[]>): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, tsNode('mcpgen-stdio-server.ts'), { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] });
    const lines: unknown[] = [];
    let buffer = '';
    let sent = 0;
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`no answer after ${lines.length} lines`));
    }, RUN_TIMEOUT_MS);
    const sendNext = (): void => {
      const step = steps[sent];
      sent += 1;
      if (step === undefined) {
        child.stdin.end();
        return;
      }
      const messages = Array.isArray(step) ? step : [step];
      child.stdin.write(messages.map((message) => `${JSON.stringify(message)}\n`).join(''));
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        lines.push(JSON.parse(buffer.slice(0, newline)));
        buffer = buffer.slice(newline + 1);
        sendNext();
        newline = buffer.indexOf('\n');
      }
    });
    child.on('error', reject);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve({ lines });
    });
    sendNext();
  });
}

// ---------------------------------------------------------------------------------------------
// d. The official clients in-process against our server: what the summary does not cover
// (our progress notifications and our handling of notifications/cancelled).

/** The part of the v1 and v2 Client APIs these tests use; both SDKs have it with these names. */
interface OfficialClient {
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    options?: { onprogress?: (progress: { progress: number; total?: number }) => void; signal?: AbortSignal; timeout?: number },
  ): Promise<unknown>;
  setLoggingLevel(level: Stateful.LoggingLevel): Promise<unknown>;
  close(): Promise<void>;
}

interface OfficialConnection {
  readonly client: OfficialClient;
  readonly errors: Error[];
  /** Params of the notifications/message the client received. */
  readonly logs: unknown[];
}

/** Our server as the official stdio client transports spawn it. */
function ourServer(): { command: string; args: string[]; cwd: string; stderr: 'inherit' } {
  return { command: process.execPath, args: tsNode('mcpgen-stdio-server.ts'), cwd: repoRoot, stderr: 'inherit' };
}

async function connectV1(): Promise<OfficialConnection> {
  const client = new V1Client({ name: 'interop-v1', version: '1.0.0' });
  const errors: Error[] = [];
  const logs: unknown[] = [];
  client.onerror = (error) => errors.push(error);
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logs.push(notification.params);
  });
  await client.connect(new V1StdioClientTransport(ourServer()));
  return {
    client: {
      callTool: (params, options) => client.callTool(params, undefined, options),
      setLoggingLevel: (level) => client.setLoggingLevel(level),
      close: () => client.close(),
    },
    errors,
    logs,
  };
}

async function connectV2(): Promise<OfficialConnection> {
  const client = new V2Client({ name: 'interop-v2', version: '1.0.0' });
  const errors: Error[] = [];
  const logs: unknown[] = [];
  client.onerror = (error) => errors.push(error);
  client.setNotificationHandler('notifications/message', (notification) => {
    logs.push(notification.params);
  });
  await client.connect(new V2StdioClientTransport(ourServer()));
  return { client, errors, logs };
}

// ---------------------------------------------------------------------------------------------
// Start everything once: connections first (the a-suites need them first), then the runs.

const connections = new Map<string, Promise<Connection>>();
const runs = new Map<string, Promise<RunResult>>();
const official = new Map<string, Promise<OfficialConnection>>();
let discoverExchange: Promise<RawExchange> | undefined;
const key = (...parts: string[]): string => parts.join(' ');

beforeAll(() => {
  const enqueue = createQueue(4);
  for (const server of serverPeers) {
    for (const revision of statefulRevisions) {
      connections.set(key(server.label, revision), deferred(enqueue(() => connectTo(server, revision))));
    }
  }
  official.set('v1', deferred(enqueue(connectV1)));
  official.set('v2', deferred(enqueue(connectV2)));
  for (const client of clientPeers) {
    for (const revision of statefulRevisions) {
      runs.set(key(client.label, revision), deferred(enqueue(() => runPeerClient(client.file, { PEER_PROTOCOL_VERSION: revision }))));
    }
  }
  for (const mode of ['2026-07-28', 'auto']) {
    runs.set(key('v2', mode), deferred(enqueue(() => runPeerClient('v2-stdio-client.ts', { PEER_PROTOCOL_VERSION: mode }))));
  }
  discoverExchange = deferred(
    enqueue(() =>
      rawExchange([
        { jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} },
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'initialize',
          params: { protocolVersion: '2026-07-28', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
        },
        [
          { jsonrpc: '2.0', method: 'notifications/initialized' },
          { jsonrpc: '2.0', id: 3, method: 'ping' },
        ],
        { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'elicit', arguments: {} } },
        { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'sample', arguments: {} } },
      ]),
    ),
  );
});

afterAll(async () => {
  const settled = await Promise.allSettled([...connections.values(), ...official.values()]);
  await Promise.all(settled.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.client.close() : undefined)));
}, SETUP_TIMEOUT_MS);

for (const server of serverPeers) {
  describe.each(statefulRevisions)(`mcpgen Client -> ${server.label} server, %s`, (revision) => {
    let connection: Connection;
    beforeAll(async () => {
      connection = await connections.get(key(server.label, revision))!;
    }, SETUP_TIMEOUT_MS);

    it('negotiates the requested revision and exchanges identities', async () => {
      const { client } = connection;
      expect(client.protocolVersion).toBe(revision);
      expect(client.serverInfo).toEqual({ name: server.name, version: '1.0.0' });
      expect(client.serverCapabilities).toMatchObject({ tools: expect.any(Object), resources: expect.any(Object), prompts: expect.any(Object), logging: {} });
      expect(await client.ping()).toEqual({});
    });

    it('lists all 36 tools and calls echo and add', async () => {
      const { client } = connection;
      const tools = await client.listAll('tools/list');
      expect(tools.map((tool) => tool.name)).toEqual(allTools);
      expect(tools.find((tool) => tool.name === 'add')?.outputSchema).toMatchObject({ type: 'object', properties: { sum: { type: 'number' } } });

      const echo = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      expect(echo.content).toEqual([{ type: 'text', text: 'echo: hi' }]);
      // The peers log every echo call; the notification precedes the response on the pipe.
      expect(connection.logs).toContainEqual({ level: 'info', logger: 'peer', data: 'echo called with hi' });

      const add = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
      expect(add.content).toEqual([{ type: 'text', text: '5' }]);
      expect(add.structuredContent).toEqual({ sum: 5 });
      expect(add.isError).not.toBe(true);
    });

    it('reads resources and a resource template, and gets a prompt', async () => {
      const { client } = connection;
      expect((await client.listAll('resources/list')).map((resource) => resource.uri)).toEqual(['mem://hello']);
      expect(await client.readResource({ uri: 'mem://hello' })).toEqual({ contents: [{ uri: 'mem://hello', mimeType: 'text/plain', text: 'hello' }] });
      const templates = await client.listAll('resources/templates/list');
      expect(templates.map((template) => template.uriTemplate)).toEqual(['mem://items/{id}']);
      expect(await client.readResource({ uri: 'mem://items/7' })).toEqual({ contents: [{ uri: 'mem://items/7', mimeType: 'text/plain', text: 'item 7' }] });

      expect((await client.listAll('prompts/list')).map((prompt) => prompt.name)).toEqual(['greet']);
      const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
      expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }]);
    });

    it('serves sampling and roots requests from the server', async () => {
      const { client } = connection;
      const sample = await client.callTool({ name: 'sample', arguments: {} });
      expect(sample.content).toEqual([{ type: 'text', text: SAMPLED_TEXT }]);
      expect(connection.sampling).toHaveLength(1);
      expect(connection.sampling[0]).toMatchObject({ messages: [{ role: 'user', content: { type: 'text', text: 'Say something.' } }], maxTokens: 32 });

      const roots = await client.callTool({ name: 'roots', arguments: {} });
      expect(JSON.parse(textOf(roots))).toEqual([ROOT_URI]);
      expect(connection.rootsRequests).toBe(1);
    });

    if (hasElicitation(revision)) {
      it('serves an elicitation request from the server', async () => {
        const { client } = connection;
        const result = await client.callTool({ name: 'elicit', arguments: {} });
        expect(JSON.parse(textOf(result))).toEqual(ELICITED);
        expect(connection.elicitation).toHaveLength(1);
        expect(connection.elicitation[0]).toMatchObject({
          message: 'Who are you?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'number' } } },
        });
      });
    } else {
      it('has the peer elicit tool fail cleanly, since the revision has no elicitation', async () => {
        const { client } = connection;
        // We declare no elicitation capability here, so both official servers refuse to send
        // elicitation/create and answer the call with a tool error naming elicitation.
        const result = await client.callTool({ name: 'elicit', arguments: {} });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/elicitation/);
        expect(connection.elicitation).toEqual([]);
        expect((await client.callTool({ name: 'echo', arguments: { text: 'after elicit' } })).content).toEqual([
          { type: 'text', text: 'echo: after elicit' },
        ]);
      });
    }

    it('reports progress in increasing steps', async () => {
      const { client } = connection;
      const progress: number[] = [];
      const result = await client.callTool({ name: 'slow', arguments: { ms: 300 } }, { onprogress: (update) => progress.push(update.progress) });
      expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
      expect(progress.length).toBeGreaterThanOrEqual(1);
      for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]!);
    });

    it('cancels a call through an AbortSignal and keeps the session', async () => {
      const { client } = connection;
      const abort = new AbortController();
      let outcome: Promise<unknown> = Promise.resolve();
      const firstProgress = new Promise<void>((resolve) => {
        outcome = client
          .callTool({ name: 'slow', arguments: { ms: 5_000 } }, { signal: abort.signal, onprogress: () => resolve() })
          .catch((error: unknown) => error);
      });
      // Cancel once the call is demonstrably running on the server (it sent progress).
      await firstProgress;
      abort.abort('test gave up');
      const failure = await outcome;
      expect(failure).toBeInstanceOf(SdkError);
      expect(failure).toMatchObject({ code: 'REQUEST_CANCELLED' });
      await expectQuietAfterCancellation(connection.errors, async () => {
        expect((await client.callTool({ name: 'echo', arguments: { text: 'still here' } })).content).toEqual([
          { type: 'text', text: 'echo: still here' },
        ]);
      });
    });

    it('times out a slow call and keeps the session', async () => {
      const { client } = connection;
      const failure = await client
        .callTool({ name: 'slow', arguments: { ms: 5_000 } }, { timeout: 150, onprogress: () => undefined })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(SdkError);
      expect(failure).toMatchObject({ code: 'REQUEST_TIMEOUT' });
      await expectQuietAfterCancellation(connection.errors, async () => {
        expect((await client.callTool({ name: 'echo', arguments: { text: 'after timeout' } })).content).toEqual([
          { type: 'text', text: 'echo: after timeout' },
        ]);
      });
    });

    it('saw no protocol errors', () => {
      // Late progress for a cancelled or timed-out call is tolerated above; nothing else is.
      const unexpected = connection.errors.filter((error) => !/^Progress for unknown token/.test(error.message));
      expect(unexpected.map((error) => error.message)).toEqual([]);
    });
  });
}

// ---------------------------------------------------------------------------------------------

for (const client of clientPeers) {
  describe(`${client.label} client -> mcpgen server`, () => {
    it.each(statefulRevisions)('requests %s and gets the full summary', async (revision) => {
      const run = await runs.get(key(client.label, revision))!;
      expect(run.summary).toEqual(expectedSummary(revision));
      expect(run.code).toBe(0);
      expect(run.stderr).not.toMatch(/mcpgen-stdio-server:/);
    }, SETUP_TIMEOUT_MS);
  });
}

describe('v2 client, 2026-era negotiation -> mcpgen dual-era server', () => {
  it.each(['2026-07-28', 'auto'])('with %s, runs the whole script statelessly: sampling, elicitation and roots as input requests', async (mode) => {
    const run = await runs.get(key('v2', mode))!;
    const expected = expectedSummary('2026-07-28');
    // The stateless era lists tools in name order, so that caches and prompt caches can reuse the list.
    expect(run.summary).toEqual({ ...expected, tools: [...expected.tools].sort() });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/mcpgen-stdio-server:/);
  }, SETUP_TIMEOUT_MS);

  it('refuses a discovery probe without _meta (-32602), then negotiates initialize as usual', async () => {
    const { lines } = await discoverExchange!;
    const toolError = (text: string): object => ({ content: [{ type: 'text', text }], isError: true });
    expect(lines).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: expect.objectContaining({ code: -32602, message: expect.stringContaining("must have required property '_meta'") }),
      },
      {
        jsonrpc: '2.0',
        id: 2,
        result: expect.objectContaining({ protocolVersion: '2025-11-25', serverInfo: { name: 'mcpgen-stdio-server', version: '1.0.0' } }),
      },
      { jsonrpc: '2.0', id: 3, result: {} },
      // This client declared no capabilities, so the server-to-client round trips fail as tool errors.
      { jsonrpc: '2.0', id: 4, result: toolError('elicit: Cannot send elicitation/create: the peer did not declare capability elicitation') },
      { jsonrpc: '2.0', id: 5, result: toolError('sample: Cannot send sampling/createMessage: the peer did not declare capability sampling') },
    ]);
  }, SETUP_TIMEOUT_MS);
});

describe.each(['v1', 'v2'])('official %s client in-process -> mcpgen server', (label) => {
  let connection: OfficialConnection;
  beforeAll(async () => {
    connection = await official.get(label)!;
  }, SETUP_TIMEOUT_MS);

  it('receives increasing progress from the slow tool', async () => {
    const updates: Array<{ progress: number; total?: number }> = [];
    const result = await connection.client.callTool({ name: 'slow', arguments: { ms: 300 } }, { onprogress: (update) => updates.push(update) });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'done' }] });
    // Ticks come every 50 ms, but a starved machine may run fewer of them within the 300 ms.
    expect(updates.length).toBeGreaterThanOrEqual(1);
    for (const update of updates) {
      expect(update.total).toBe(300);
      expect(update.progress).toBeLessThanOrEqual(300);
    }
    for (let i = 1; i < updates.length; i++) expect(updates[i]!.progress).toBeGreaterThan(updates[i - 1]!.progress);
  });

  it('stops the slow tool when the call is cancelled or times out', async () => {
    const { client, errors } = connection;
    const abort = new AbortController();
    let outcome: Promise<unknown> = Promise.resolve();
    const firstProgress = new Promise<void>((resolve) => {
      outcome = client.callTool({ name: 'slow', arguments: { ms: 5_000 } }, { signal: abort.signal, onprogress: () => resolve() }).then(
        () => 'resolved',
        (error: unknown) => error,
      );
    });
    await firstProgress;
    abort.abort();
    expect(await outcome).toBeInstanceOf(Error);
    const timedOut = await client.callTool({ name: 'slow', arguments: { ms: 5_000 } }, { timeout: 150, onprogress: () => undefined }).then(
      () => 'resolved',
      (error: unknown) => error,
    );
    expect(timedOut).toBeInstanceOf(Error);
    expect(String(timedOut)).toMatch(/timed out|timeout/i);
    await expectQuietAfterCancellation(errors, async () => {
      expect(await client.callTool({ name: 'echo', arguments: { text: 'still here' } })).toMatchObject({
        content: [{ type: 'text', text: 'echo: still here' }],
      });
    });
  });

  it('honours the minimum level the client sets with logging/setLevel', async () => {
    const { client, logs } = connection;
    const info = { level: 'info', logger: 'peer', data: 'echo called with loud' };
    await client.callTool({ name: 'echo', arguments: { text: 'loud' } });
    expect(logs).toContainEqual(info);
    expect(await client.setLoggingLevel('error')).toEqual({});
    logs.length = 0;
    expect(await client.callTool({ name: 'echo', arguments: { text: 'quiet' } })).toMatchObject({ content: [{ type: 'text', text: 'echo: quiet' }] });
    // "The server should send all logs at this level and higher" (SetLevelRequestParams.level):
    // an info message is below `error` and must not reach the client (given time to arrive).
    await sleep(100);
    expect(logs).toEqual([]);
  });
});
