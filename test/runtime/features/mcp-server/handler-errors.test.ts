// A handler's exception reaches the developer (onerror, and middleware's `failed`) with the
// method, the request id and the tool, resource or prompt, while the client gets what the spec
// says: a tool execution error as an `isError` result, anything else as -32603.
import { describe, expect, it } from 'vitest';
import { Client, createLinkedPair, ErrorCodes, McpServer, ProtocolError, SdkError, Server, type HandlerFailure, type RequestId } from '../../../../runtime/index.js';

interface Watched {
  readonly client: Client;
  readonly errors: SdkError[];
  readonly failures: HandlerFailure[];
  /** The JSON-RPC ids the client gave its requests, in order. */
  readonly ids: RequestId[];
}

function failingServer(errors: SdkError[], failures: HandlerFailure[]): McpServer {
  const mcp = new McpServer({ name: 'failing', version: '1.0.0' }, {
    onerror: (error) => errors.push(error as SdkError),
    middleware: [{ failed: (failure) => failures.push(failure) }],
  });
  mcp.registerTool('explode', {}, () => {
    throw new TypeError("Cannot read properties of undefined (reading 'city')");
  });
  mcp.registerTool('refuse', {}, () => {
    throw new ProtocolError(ErrorCodes.INVALID_PARAMS, 'city is required');
  });
  mcp.registerResource('disk', 'file:///disk', {}, () => {
    throw new Error('disk gone');
  });
  mcp.registerPrompt('broken', {}, () => {
    throw new RangeError('no template');
  });
  return mcp;
}

async function watched(era: string): Promise<Watched> {
  const errors: SdkError[] = [];
  const failures: HandlerFailure[] = [];
  const ids: RequestId[] = [];
  const [clientSide, serverSide] = createLinkedPair({ serialize: true });
  await failingServer(errors, failures).connect(serverSide);
  const client = new Client({ name: 'client', version: '1.0.0' }, {
    protocolVersion: era,
    negotiation: 'pin',
    eraCache: false,
    middleware: [{ outgoing: (call, next) => next(undefined, { ...call.options, onRequestId: (id) => ids.push(id) }) }],
  });
  await client.connect(clientSide);
  return { client, errors, failures, ids };
}

describe.each(['2025-11-25', '2026-07-28'])('McpServer handlers that throw, %s', (era) => {
  it('a tool: the model gets an isError result, the developer the failure with tool and request id', async () => {
    const { client, errors, failures, ids } = await watched(era);
    const result = await client.callTool({ name: 'explode', arguments: {} });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: "Cannot read properties of undefined (reading 'city')" }] });
    const id = ids[ids.length - 1];
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(SdkError);
    expect(errors[0]!.code).toBe('HANDLER_FAILED');
    expect(errors[0]!.message).toBe(`The tools/call handler for tool explode failed (request ${id}): Cannot read properties of undefined (reading 'city')`);
    expect(errors[0]!.data).toEqual({ method: 'tools/call', requestId: id, tool: 'explode' });
    expect(errors[0]!.cause).toBeInstanceOf(TypeError);
    expect(failures).toEqual([{ method: 'tools/call', requestId: id, tool: 'explode', error: errors[0]!.cause }]);
    await client.close();
  });

  it('a resource read and a prompt get: the client gets -32603, the developer the URI or prompt name', async () => {
    const { client, errors, failures, ids } = await watched(era);
    await expect(client.readResource({ uri: 'file:///disk' })).rejects.toMatchObject({ code: ErrorCodes.INTERNAL_ERROR, message: 'disk gone' });
    const readId = ids[ids.length - 1];
    await expect(client.getPrompt({ name: 'broken' })).rejects.toMatchObject({ code: ErrorCodes.INTERNAL_ERROR, message: 'no template' });
    const promptId = ids[ids.length - 1];
    expect(errors.map((error) => error.data)).toEqual([
      { method: 'resources/read', requestId: readId, resource: 'file:///disk' },
      { method: 'prompts/get', requestId: promptId, prompt: 'broken' },
    ]);
    expect(failures.map((failure) => failure.error)).toEqual(errors.map((error) => error.cause));
    await client.close();
  });

  it('a ProtocolError is the handler answering, not failing: nothing is reported', async () => {
    const { client, errors, failures } = await watched(era);
    await expect(client.callTool({ name: 'refuse', arguments: {} })).rejects.toMatchObject({ code: ErrorCodes.INVALID_PARAMS, message: 'city is required' });
    expect(errors).toEqual([]);
    expect(failures).toEqual([]);
    await client.close();
  });
});

it('a low-level Server handler that throws is answered -32603 and reported with method and request id', async () => {
  const errors: Error[] = [];
  const server = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} }, onerror: (error) => errors.push(error) });
  server.setRequestHandler('tools/list', () => {
    throw new Error('registry offline');
  });
  const [clientSide, serverSide] = createLinkedPair({ serialize: true });
  await server.connect(serverSide);
  const client = new Client({ name: 'client', version: '1.0.0' }, { protocolVersion: '2025-11-25', eraCache: false });
  await client.connect(clientSide);
  await expect(client.listTools()).rejects.toMatchObject({ code: ErrorCodes.INTERNAL_ERROR, message: 'registry offline' });
  expect(errors).toHaveLength(1);
  expect((errors[0] as SdkError).code).toBe('HANDLER_FAILED');
  expect((errors[0] as SdkError).data).toEqual({ method: 'tools/list', requestId: expect.any(Number) });
  await client.close();
});
