// Interop peer: the same surface as the official-SDK peer servers (v1-stdio-server.ts,
// v2-stdio-server.ts), built with mcpgen's own Server and StdioServerTransport, so that the
// official clients can be pointed at it. Handler params and results are typed from the
// generated method table of the newest stateful revision.
//
// Run: node --import tsx test/interop/peers/mcpgen-stdio-server.ts
//
// One deliberate difference from the official peers: `elicit` is listed only when the
// negotiated revision has elicitation/create (2025-06-18 and later). mcpgen refuses to send a
// method the negotiated revision lacks, so on older revisions the tool could never work;
// calling it anyway answers with an isError result naming the revision. Like the official
// peers, `sample`, `elicit` and `roots` answer with an isError result when the client did not
// declare the capability their request needs.
//
// Nothing is written to stdout except protocol messages; diagnostics go to stderr.
import { ProtocolError, SdkError, Server, Stateful } from '../../../runtime/index.js';
import { StdioServerTransport } from '../../../runtime/node/index.js';

const PROGRESS_INTERVAL_MS = 50;
const ITEM_URI = /^mem:\/\/items\/([^/]+)$/;

function text(value: string): Stateful.CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

function failure(message: string): Stateful.CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function objectSchema(properties: Record<string, { type: 'string' | 'number' }>): Stateful.Tool['inputSchema'] {
  return { type: 'object', properties, required: Object.keys(properties) };
}

const fillerNames = Array.from({ length: 30 }, (_, i) => `t${String(i).padStart(2, '0')}`);

const tools: Stateful.Tool[] = [
  { name: 'echo', description: 'Echoes the given text back', inputSchema: objectSchema({ text: { type: 'string' } }) },
  {
    name: 'add',
    description: 'Adds two numbers',
    inputSchema: objectSchema({ a: { type: 'number' }, b: { type: 'number' } }),
    outputSchema: objectSchema({ sum: { type: 'number' } }),
  },
  { name: 'slow', description: 'Waits ms milliseconds, reporting progress every 50 ms', inputSchema: objectSchema({ ms: { type: 'number' } }) },
  { name: 'sample', description: 'Asks the client to sample a message', inputSchema: { type: 'object' } },
  { name: 'elicit', description: 'Asks the client for a name and an age', inputSchema: { type: 'object' } },
  { name: 'roots', description: "Lists the client's roots", inputSchema: { type: 'object' } },
  ...fillerNames.map((name): Stateful.Tool => ({ name, description: `Filler tool ${name}`, inputSchema: { type: 'object' } })),
];

const server = new Server(
  { name: 'mcpgen-stdio-server', version: '1.0.0' },
  {
    capabilities: { tools: {}, resources: {}, prompts: {}, logging: {} },
    onerror: (error) => process.stderr.write(`mcpgen-stdio-server: ${error.message}\n`),
  },
);

/** Whether the negotiated revision has a method (elicitation/create is 2025-06-18 and later). */
function negotiatedHas(method: string): boolean {
  return server.protocol.revision?.methods[method] !== undefined;
}

/** Resolves after `ms`, calling `tick` every PROGRESS_INTERVAL_MS; rejects as soon as `signal` aborts. */
function waitWithTicks(ms: number, signal: AbortSignal, tick: (elapsed: number) => Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error('cancelled'));
      return;
    }
    const started = Date.now();
    const finish = (): void => {
      clearInterval(interval);
      clearTimeout(timeout);
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = (): void => {
      finish();
      reject(new Error('cancelled'));
    };
    const interval = setInterval(() => {
      tick(Math.min(Date.now() - started, ms)).catch(() => undefined);
    }, PROGRESS_INTERVAL_MS);
    const timeout = setTimeout(() => {
      finish();
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

server.setRequestHandler('tools/list', () => ({
  tools: negotiatedHas('elicitation/create') ? tools : tools.filter((tool) => tool.name !== 'elicit'),
}));

/** Runs a tool that needs a client capability; a refusal becomes a tool error, as in the peers. */
async function needingClient(tool: string, body: () => Promise<Stateful.CallToolResult>): Promise<Stateful.CallToolResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof SdkError && error.code === 'CAPABILITY_MISSING') return failure(`${tool}: ${error.message}`);
    throw error;
  }
}

server.setRequestHandler('tools/call', async (params, context) => {
  const args = params.arguments ?? {};
  switch (params.name) {
    case 'echo': {
      const value = String(args.text);
      await context.log('info', `echo called with ${value}`, 'peer');
      return text(`echo: ${value}`);
    }
    case 'add': {
      const { a, b } = args;
      if (typeof a !== 'number' || typeof b !== 'number') return failure('add: a and b must be numbers');
      const sum = a + b;
      return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } };
    }
    case 'slow': {
      const ms = Number(args.ms);
      await waitWithTicks(ms, context.signal, (elapsed) => context.reportProgress(elapsed, ms));
      return text('done');
    }
    case 'sample':
      return needingClient('sample', async () => {
        const result = await server.createMessage(
          { messages: [{ role: 'user', content: { type: 'text', text: 'Say something.' } }], maxTokens: 32 },
          { signal: context.signal, relatedRequestId: context.requestId },
        );
        const first = Array.isArray(result.content) ? result.content[0] : result.content;
        return text(first === undefined ? '' : first.type === 'text' ? first.text : `[${first.type}]`);
      });
    case 'elicit':
      if (!negotiatedHas('elicitation/create')) {
        return failure(`elicit: protocol ${server.protocolVersion} has no elicitation`);
      }
      return needingClient('elicit', async () => {
        const requestedSchema: Stateful.ElicitRequestFormParams['requestedSchema'] = {
          type: 'object',
          properties: { name: { type: 'string' }, age: { type: 'number' } },
          required: ['name', 'age'],
        };
        // `mode` exists from 2025-11-25 on; 2025-06-18 has form elicitation only, without the field.
        // Revision identifiers are ISO dates, so string order is date order.
        const request: Stateful.ElicitRequestFormParams = (server.protocolVersion ?? '') >= '2025-11-25'
          ? { mode: 'form', message: 'Who are you?', requestedSchema }
          : { message: 'Who are you?', requestedSchema };
        const result = await server.elicit(request, { signal: context.signal, relatedRequestId: context.requestId });
        return text(JSON.stringify({ action: result.action, content: result.content }));
      });
    case 'roots':
      return needingClient('roots', async () => {
        const result = await server.listRoots(undefined, { signal: context.signal, relatedRequestId: context.requestId });
        return text(JSON.stringify(result.roots.map((root) => root.uri)));
      });
    default:
      if (fillerNames.includes(params.name)) return text(params.name);
      throw new ProtocolError(Stateful.ErrorCode.INVALID_PARAMS, `Unknown tool ${params.name}`);
  }
});

server.setRequestHandler('resources/list', () => ({
  resources: [{ uri: 'mem://hello', name: 'hello', description: 'A fixed greeting', mimeType: 'text/plain' }],
}));

server.setRequestHandler('resources/templates/list', () => ({
  resourceTemplates: [{ uriTemplate: 'mem://items/{id}', name: 'item', description: 'An item by id', mimeType: 'text/plain' }],
}));

server.setRequestHandler('resources/read', (params) => {
  if (params.uri === 'mem://hello') {
    return { contents: [{ uri: params.uri, mimeType: 'text/plain', text: 'hello' }] };
  }
  const item = ITEM_URI.exec(params.uri);
  if (item !== null) {
    return { contents: [{ uri: params.uri, mimeType: 'text/plain', text: `item ${decodeURIComponent(item[1] ?? '')}` }] };
  }
  throw new ProtocolError(Stateful.ErrorCode.RESOURCE_NOT_FOUND, `Resource ${params.uri} not found`, { uri: params.uri });
});

server.setRequestHandler('prompts/list', () => ({
  prompts: [{ name: 'greet', description: 'Greets someone by name', arguments: [{ name: 'name', required: true }] }],
}));

server.setRequestHandler('prompts/get', (params) => {
  const name = params.arguments?.name;
  if (params.name !== 'greet') throw new ProtocolError(Stateful.ErrorCode.INVALID_PARAMS, `Unknown prompt ${params.name}`);
  if (name === undefined) throw new ProtocolError(Stateful.ErrorCode.INVALID_PARAMS, 'greet needs the argument name');
  return { messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${name}!` } }] };
});

await server.connect(new StdioServerTransport());
