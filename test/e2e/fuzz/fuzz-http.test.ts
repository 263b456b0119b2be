/**
 * Fuzzing the Streamable HTTP endpoint over real sockets: seeded runs of hostile frames (see
 * frames.ts), each POSTed with hostile headers (content and accept types, protocol versions of
 * both eras and none, a live session id, a made-up one or none, a matching or wrong Mcp-Method).
 * Every answer has an expected status; a 200 answers each request with a readable id exactly
 * once and nothing else; a 202 is only for input that owes no answer; nothing stays pending; the
 * process stays up with bounded memory and a live session still works afterwards.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpNodeServer, type McpNodeServer } from '../../../runtime/node.js';
import { createHostileToolServer } from '../../runtime/fixtures/hostile-tools.js';
import { TRANSPORT_ERROR_CODES } from '../../../runtime/transports/http/replies.js';
import { ALLOWED_CODES, frameOf, FUZZ_SEED, fuzzRuns, shapes } from './frames.js';

/** Statuses the endpoint may answer hostile input with. */
const STATUSES = new Set([200, 202, 400, 403, 404, 405, 406, 413, 415, 429, 503]);
/** The protocol's codes and the transport's own refusals (bad headers, unknown session). */
const HTTP_CODES: ReadonlySet<number> = new Set([...ALLOWED_CODES, ...Object.values(TRANSPORT_ERROR_CODES)]);
/** Heap and buffers the test process may gain over a run: bounded buffering stays far below it. */
const MAX_RSS_GROWTH_BYTES = 300 * 1024 * 1024;

type Message = { id?: unknown; method?: unknown; error?: { code: number }; result?: unknown };

let node: McpNodeServer;
let url: URL;
let session: string;
const errors: Error[] = [];

async function post(body: Buffer | string, headers: Record<string, string>): Promise<{ status: number; messages: Message[] }> {
  const response = await fetch(url, { method: 'POST', headers, body: typeof body === 'string' ? body : new Uint8Array(body) });
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  let messages: Message[] = [];
  if (type.includes('text/event-stream')) {
    messages = text.split('\n').filter((line) => line.startsWith('data:') && line.length > 5).map((line) => JSON.parse(line.slice(5)) as Message);
  } else if (type.includes('application/json') && text !== '') {
    const parsed = JSON.parse(text) as Message | Message[];
    messages = Array.isArray(parsed) ? parsed : [parsed];
  }
  return { status: response.status, messages: messages.filter((message) => message.method === undefined) };
}

beforeAll(async () => {
  node = createMcpNodeServer({ server: () => createHostileToolServer().createServer(), path: '/mcp', onerror: (error) => errors.push(error) });
  url = await node.listen(0);
  const init = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } }),
  });
  await init.text();
  session = init.headers.get('mcp-session-id')!;
  const initialized = await post('{"jsonrpc":"2.0","method":"notifications/initialized"}', { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
  expect(initialized.status).toBe(202);
});

afterAll(() => node.close());

const headerProfile = fc.record({
  contentType: fc.constantFrom('application/json', 'application/json', 'application/json; charset=utf-8', 'text/plain', undefined),
  accept: fc.constantFrom('application/json, text/event-stream', 'application/json, text/event-stream', 'application/json', '*/*', undefined),
  version: fc.constantFrom('2025-11-25', '2026-07-28', '2025-03-26', 'bogus', undefined),
  session: fc.constantFrom('live', 'forged', undefined),
  methodHeader: fc.constantFrom('body', 'wrong', undefined),
});

describe('fuzzing the Streamable HTTP endpoint', () => {
  it('answers every POST with an expected status and every readable request exactly once', async () => {
    const rssBefore = process.memoryUsage().rss;
    await fc.assert(
      fc.asyncProperty(shapes, fc.array(headerProfile, { minLength: 1, maxLength: 3 }), async (items, profiles) => {
        for (const [index, item] of items.entries()) {
          const frame = frameOf(item);
          const profile = profiles[index % profiles.length]!;
          const headers: Record<string, string> = {};
          if (profile.contentType !== undefined) headers['content-type'] = profile.contentType;
          if (profile.accept !== undefined) headers.accept = profile.accept;
          if (profile.version !== undefined) headers['mcp-protocol-version'] = profile.version;
          if (profile.session === 'live') headers['mcp-session-id'] = session;
          if (profile.session === 'forged') headers['mcp-session-id'] = '00000000-0000-4000-8000-000000000000';
          const method = item.kind === 'request' ? item.method : undefined;
          if (profile.methodHeader === 'body' && typeof method === 'string' && /^[\x21-\x7e]*$/.test(method) && method !== '') headers['mcp-method'] = method;
          if (profile.methodHeader === 'wrong') headers['mcp-method'] = 'tools/list';
          const { status, messages } = await post(frame.bytes, headers);
          expect(STATUSES.has(status), `status ${status}`).toBe(true);
          if (status === 202) expect(frame.owed, 'a 202 for a request that is owed an answer').toEqual([]);
          for (const message of messages) {
            if (message.error !== undefined) expect(HTTP_CODES.has(message.error.code), `code ${message.error.code}`).toBe(true);
            if (message.id !== null) expect(frame.owed, `an answer to ${JSON.stringify(message.id)}, which nobody asked`).toContain(message.id);
          }
          if (status === 200) for (const id of frame.owed) expect(messages.filter((message) => message.id === id), `answers to ${id}`).toHaveLength(1);
        }
      }),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(100), endOnFailure: true },
    );
    // Nothing is left pending, the live session still answers, and memory stayed bounded.
    await expect.poll(() => node.mcp.stats().pendingRequests, { timeout: 10_000 }).toBe(0);
    const ping = await post('{"jsonrpc":"2.0","id":"after","method":"ping"}', { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
    expect(ping).toEqual({ status: 200, messages: [{ jsonrpc: '2.0', id: 'after', result: {} }] });
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(MAX_RSS_GROWTH_BYTES);
  }, 120_000);
});
