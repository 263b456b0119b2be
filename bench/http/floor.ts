// The HTTP floor: the same JSON-RPC exchange as plain POSTs with JSON bodies over keep-alive
// connections (node:http on both ends), a session id checked against a Set when stateful.
import { randomUUID } from 'node:crypto';
import { Agent, createServer, request, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { benchClient } from '../impl/floor/client.js';
import { createFloorServer, FloorClient, type FloorRequest, type FloorResponse } from '../impl/floor/protocol.js';
import { listenLoopback } from '../lib/http-util.js';
import { ioWait } from '../lib/tools.js';
import type { HttpAdapter } from '../lib/types.js';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export const httpAdapter: HttpAdapter = {
  async serve(mode, spec) {
    const answer = createFloorServer(spec);
    const sessions = new Set<string>();
    const server = createServer((req, res) => {
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      readBody(req).then(async (body) => {
        const message = JSON.parse(body) as FloorRequest;
        if (spec.ioDelayMs !== undefined && message.method === 'tools/call') await ioWait(spec.ioDelayMs);
        const headers: OutgoingHttpHeaders = {};
        if (mode === 'stateful') {
          if (message.method === 'initialize') {
            const id = randomUUID();
            sessions.add(id);
            headers['mcp-session-id'] = id;
          } else if (!sessions.has(String(req.headers['mcp-session-id']))) {
            res.writeHead(404).end();
            return;
          }
        }
        const reply = answer(message);
        if (reply === undefined) {
          res.writeHead(202, headers).end();
          return;
        }
        headers['content-type'] = 'application/json';
        res.writeHead(200, headers).end(JSON.stringify(reply));
      }, () => res.writeHead(400).end());
    });
    return listenLoopback(server);
  },

  async connect(url) {
    const agent = new Agent({ keepAlive: true });
    let session: string | undefined;
    const post = (message: FloorRequest): Promise<FloorResponse | undefined> =>
      new Promise((resolve, reject) => {
        const headers: OutgoingHttpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
        if (session !== undefined) headers['mcp-session-id'] = session;
        const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers }, (res) => {
          const id = res.headers['mcp-session-id'];
          if (typeof id === 'string') session = id;
          readBody(res).then((body) => resolve(body === '' ? undefined : (JSON.parse(body) as FloorResponse)), reject);
        });
        req.on('error', reject);
        req.end(JSON.stringify(message));
      });
    const client: FloorClient = new FloorClient((message) => {
      post(message).then(
        (reply) => {
          if (reply !== undefined) client.receive(reply);
        },
        (error: unknown) => client.failAll(error instanceof Error ? error : new Error(String(error))),
      );
    });
    await client.initialize();
    return benchClient(client, async () => agent.destroy());
  },
};
