// McpServer's typed hooks: their order, denial by result and by JSON-RPC error, replaced
// results, reads and prompts; and authorization by the scopes of the caller's token over real
// HTTP (per tool with a hook, per method with a middleware), on the 2025-11-25 session path and
// the 2026-07-28 stateless path, against our Client and the official v1 client.
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { Client, ErrorCodes, isCallOf, McpServer, ProtocolError, StreamableHttpClientTransport, type McpServerHooks, type Middleware } from '../../../../runtime/index.js';
import { createMcpNodeServer } from '../../../../runtime/node.js';
import { connect, textOf } from './harness.js';

function notesServer(hooks: McpServerHooks[], middleware: Middleware[] = []): McpServer {
  const mcp = new McpServer({ name: 'notes', version: '1.0.0' }, { hooks, middleware });
  mcp.registerTool('read-notes', {}, () => ({ content: [{ type: 'text', text: 'three notes' }] }));
  mcp.registerTool('delete-note', { inputSchema: { type: 'object', properties: { id: { type: 'string' } } } }, ({ id }) => ({ content: [{ type: 'text', text: `deleted ${id}` }] }));
  mcp.registerResource('index', 'notes://index', {}, (uri) => ({ contents: [{ uri, text: 'the index' }] }));
  mcp.registerPrompt('summarize', {}, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarize my notes' } }] }));
  return mcp;
}

describe('hooks', () => {
  it('run before in the order added and after in reverse, may deny with a result or a ProtocolError, and may replace results', async () => {
    const trail: string[] = [];
    const hooks = (name: string): McpServerHooks => ({
      beforeToolCall(call) {
        trail.push(`${name} before ${call.name} ${JSON.stringify(call.arguments)}`);
        if (name === 'b' && call.tool.name === 'delete-note') return { content: [{ type: 'text', text: 'denied by b' }], isError: true };
        return undefined;
      },
      afterToolCall(call, result) {
        trail.push(`${name} after ${call.name}`);
        return name === 'a' ? { ...result, content: [...result.content, { type: 'text', text: 'checked by a' }] } : undefined;
      },
    });
    const mcp = notesServer([hooks('a')]);
    mcp.addHooks(hooks('b'));
    const { client } = await connect(mcp);
    const read = await client.callTool({ name: 'read-notes', arguments: {} });
    expect(read.content).toEqual([{ type: 'text', text: 'three notes' }, { type: 'text', text: 'checked by a' }]);
    expect(trail).toEqual(['a before read-notes {}', 'b before read-notes {}', 'b after read-notes', 'a after read-notes']);
    trail.length = 0;
    const denied = await client.callTool({ name: 'delete-note', arguments: { id: '7' } });
    expect(denied).toEqual({ content: [{ type: 'text', text: 'denied by b' }], isError: true });
    expect(trail).toEqual(['a before delete-note {"id":"7"}', 'b before delete-note {"id":"7"}']);
    await client.close();
  });

  it('guard resource reads and prompt gets, and unknown names are refused before any hook runs', async () => {
    const seen: string[] = [];
    const mcp = notesServer([{
      beforeResourceRead({ uri }) {
        seen.push(`read ${uri}`);
        throw new ProtocolError(ErrorCodes.INVALID_REQUEST, `Reading ${uri} is not allowed`);
      },
      afterPromptGet(get, result) {
        seen.push(`prompt ${get.name}`);
        return { ...result, description: 'annotated' };
      },
      beforeToolCall({ name }) {
        seen.push(`tool ${name}`);
      },
    }]);
    const { client } = await connect(mcp);
    await expect(client.readResource({ uri: 'notes://index' })).rejects.toMatchObject({ code: ErrorCodes.INVALID_REQUEST, message: 'Reading notes://index is not allowed' });
    expect((await client.getPrompt({ name: 'summarize' })).description).toBe('annotated');
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: ErrorCodes.INVALID_PARAMS });
    expect(seen).toEqual(['read notes://index', 'prompt summarize']);
    await client.close();
  });
});

// #region authorize
/** The scopes each tool needs; tools not named need none. */
const requiredScopes: Readonly<Record<string, readonly string[]>> = { 'delete-note': ['notes:write'] };

/** Per-tool authorization: a tool call whose token lacks a scope the tool needs is refused. */
const authorize: McpServerHooks = {
  beforeToolCall({ name }, context) {
    const granted = (context.extra?.authInfo as { scopes?: readonly string[] } | undefined)?.scopes ?? [];
    const missing = (requiredScopes[name] ?? []).filter((scope) => !granted.includes(scope));
    if (missing.length === 0) return undefined;
    return { content: [{ type: 'text', text: `Forbidden: ${name} needs the scope ${missing.join(' ')}` }], isError: true };
  },
};
// #endregion authorize

/** The same rule as middleware, for resources: reading needs notes:read, refused with a JSON-RPC error. */
const readScope: Middleware = {
  incoming(call, next) {
    const granted = (call.authInfo as { scopes?: readonly string[] } | undefined)?.scopes ?? [];
    if (isCallOf(call, 'resources/read') && !granted.includes('notes:read')) {
      throw new ProtocolError(ErrorCodes.INVALID_REQUEST, `Forbidden: reading ${call.params.uri} needs the scope notes:read`);
    }
    return next();
  },
};

describe('per-tool authorization by scope, over HTTP', () => {
  /** A stand-in for a bearer check: the token is the list of its scopes. */
  async function protectedNotes(): Promise<{ url: URL; close: () => Promise<void> }> {
    const mcp = notesServer([authorize], [readScope]);
    const node = createMcpNodeServer({
      server: () => mcp.createServer(),
      path: '/mcp',
      guard: async (request) => {
        const token = /^Bearer (.+)$/.exec(request.header('authorization') ?? '')?.[1];
        return token === undefined
          ? { reply: { kind: 'body', status: 401, headers: { 'content-type': 'text/plain' }, body: 'no token' } }
          : { request: { ...request, header: (name) => request.header(name), readBody: (max, budget) => request.readBody(max, budget), authInfo: { token, scopes: token.split(',') } } };
      },
    });
    return { url: await node.listen(0), close: () => node.close() };
  }

  for (const era of ['2025-11-25', '2026-07-28']) {
    it(`refuses delete-note without notes:write (a hook) and reads without notes:read (a middleware), ${era}`, async () => {
      const server = await protectedNotes();
      const reader = new Client({ name: 'reader', version: '1.0.0' }, { protocolVersion: era, negotiation: 'pin', eraCache: false });
      const writer = new Client({ name: 'writer', version: '1.0.0' }, { protocolVersion: era, negotiation: 'pin', eraCache: false });
      const stranger = new Client({ name: 'stranger', version: '1.0.0' }, { protocolVersion: era, negotiation: 'pin', eraCache: false });
      try {
        await reader.connect(new StreamableHttpClientTransport(server.url, { headers: { authorization: 'Bearer notes:read' } }));
        await writer.connect(new StreamableHttpClientTransport(server.url, { headers: { authorization: 'Bearer notes:read,notes:write' } }));
        expect(reader.era).toBe(era === '2025-11-25' ? 'stateful' : 'stateless');
        expect(textOf(await reader.callTool({ name: 'read-notes', arguments: {} }))).toBe('three notes');
        const refused = await reader.callTool({ name: 'delete-note', arguments: { id: '7' } });
        expect(refused).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Forbidden: delete-note needs the scope notes:write' }] });
        expect(textOf(await writer.callTool({ name: 'delete-note', arguments: { id: '7' } }))).toBe('deleted 7');
        // The middleware's rule: reader has notes:read, the third token has none.
        expect((await reader.readResource({ uri: 'notes://index' })).contents).toEqual([{ uri: 'notes://index', text: 'the index' }]);
        await stranger.connect(new StreamableHttpClientTransport(server.url, { headers: { authorization: 'Bearer profile' } }));
        await expect(stranger.readResource({ uri: 'notes://index' })).rejects.toMatchObject({ code: ErrorCodes.INVALID_REQUEST, message: 'Forbidden: reading notes://index needs the scope notes:read' });
      } finally {
        await stranger.close();
        await reader.close();
        await writer.close();
        await server.close();
      }
    });
  }

  it('refuses the official v1 client the same way', async () => {
    const server = await protectedNotes();
    const client = new V1Client({ name: 'v1', version: '1.0.0' });
    try {
      await client.connect(new V1HttpTransport(server.url, { requestInit: { headers: { authorization: 'Bearer notes:read' } } }));
      const refused = await client.callTool({ name: 'delete-note', arguments: { id: '7' } });
      expect(refused).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Forbidden: delete-note needs the scope notes:write' }] });
    } finally {
      await client.close();
      await server.close();
    }
  });
});
