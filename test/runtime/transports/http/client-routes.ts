// Default behaviour of a minimal Streamable HTTP MCP server for the client transport tests;
// each test overrides the routes it is about.
import type { ServerResponse } from 'node:http';
import { Client } from '../../../../runtime/index.js';
import {
  initializeResult,
  result,
  rpcIdOf,
  rpcMethodOf,
  sendJson,
  sendStatus,
  type FakeRequest,
  type Route,
} from './client-fake-server.js';

/** Per-method overrides: a JSON-RPC method name, or GET / DELETE / notification / response. */
export type Routes = Partial<Record<string, Route>>;

/** The session id the default `initialize` route assigns. */
export const SESSION = 'sess-1';

/** A tool list result with one tool. */
export const TOOLS = { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] };

/**
 * Routes requests like a small stateful server: `initialize` answers JSON with session
 * SESSION, notifications and responses get 202, GET 405, DELETE 200, `tools/list` returns
 * TOOLS and `tools/call` echoes its arguments; `overrides` replace any of these.
 */
export function mcpRoutes(overrides: Routes = {}): Route {
  const defaults: Routes = {
    initialize: (request, res) => sendJson(res, 200, initializeResult(request.body), { 'mcp-session-id': SESSION }),
    notification: (_request, res) => sendStatus(res, 202),
    response: (_request, res) => sendStatus(res, 202),
    GET: (_request, res) => sendStatus(res, 405),
    DELETE: (_request, res) => sendStatus(res, 200),
    'tools/list': (request, res) => sendJson(res, 200, result(rpcIdOf(request.body), TOOLS)),
    'tools/call': (request, res) => sendJson(res, 200, callResult(request)),
  };
  const routes = { ...defaults, ...overrides };
  return (request: FakeRequest, res: ServerResponse) => {
    const key = request.method === 'POST' ? postKey(request.body) : request.method;
    const route = routes[key];
    if (route === undefined) {
      sendJson(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32601, message: `no route for ${key}` } });
      return;
    }
    return route(request, res);
  };
}

function postKey(body: unknown): string {
  const method = rpcMethodOf(body);
  if (method === undefined) return 'response';
  return typeof body === 'object' && body !== null && 'id' in body ? method : 'notification';
}

/** The default `tools/call` answer: the arguments as text. */
export function callResult(request: FakeRequest): unknown {
  const params = (request.body as { params: { arguments?: unknown } }).params;
  return result(rpcIdOf(request.body), { content: [{ type: 'text', text: JSON.stringify(params.arguments ?? {}) }] });
}

/** A client of the newest stateful revision with sampling, answering sampling with a fixed text. */
export function newClient(protocolVersion = '2025-11-25', onerror?: (error: Error) => void): Client {
  const client = new Client({ name: 'http-test', version: '1.0.0' }, { protocolVersion, capabilities: { sampling: {} }, onerror });
  client.setRequestHandler('sampling/createMessage', () => ({ role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'm' }));
  return client;
}
