// fetchOverHttpClient: a fetch over an HttpClient, as OAuth wraps it when a transport has an
// httpClient. A scripted HttpClient stands in for the network.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClientResponse, HttpClientRequest } from '../../../../runtime/http.js';
import { fetchOverHttpClient } from '../../../../runtime/transports/http/client-fetch-bridge.js';

/** A response with `chunks` as its body, and a record of whether it was cancelled. */
function scripted(status: number, headers: Record<string, string>, chunks: string[]): { response: ClientResponse; cancelled: () => boolean } {
  let cancelled = false;
  const queue = chunks.map((chunk) => new TextEncoder().encode(chunk));
  const reader = {
    read: async (): Promise<ReadableStreamReadResult<Uint8Array>> => (queue.length === 0 ? { done: true, value: undefined } : { done: false, value: queue.shift()! }),
    cancel: async () => {
      cancelled = true;
    },
    releaseLock: () => undefined,
  };
  const response: ClientResponse = {
    ok: status >= 200 && status < 300,
    status,
    statusText: 'scripted',
    headers: {
      get: (name) => headers[name.toLowerCase()] ?? null,
      forEach: (callback) => Object.entries(headers).forEach(([name, value]) => callback(value, name)),
    },
    body: { getReader: () => reader, cancel: reader.cancel },
  };
  return { response, cancelled: () => cancelled };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('fetchOverHttpClient', () => {
  it('sends a string body with lower-cased headers, labelling an untyped body as fetch does, and streams the answer', async () => {
    const sent: HttpClientRequest[] = [];
    const answer = scripted(200, { 'content-type': 'application/json', 'www-authenticate': 'Bearer a, Bearer b' }, ['{"a":', '1}']);
    const bridged = fetchOverHttpClient({ request: async (request) => (sent.push(request), answer.response) });
    const response = await bridged(new URL('http://127.0.0.1/token'), { method: 'post', headers: { 'X-Trace': '7' }, body: 'grant=x', redirect: 'error' });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST', body: 'grant=x', redirect: 'error', headers: { 'x-trace': '7', 'content-type': 'text/plain;charset=UTF-8' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('www-authenticate')).toBe('Bearer a, Bearer b');
    expect(await response.json()).toEqual({ a: 1 });
  });

  it('gives statuses without a body a null body and cancels what the client had', async () => {
    const answer = scripted(204, {}, ['ignored']);
    const response = await fetchOverHttpClient({ request: async () => answer.response })(new URL('http://127.0.0.1/x'), { method: 'DELETE' });
    expect([response.status, response.body]).toEqual([204, null]);
    expect(answer.cancelled()).toBe(true);
  });

  it('hands requests it cannot express to globalThis.fetch', async () => {
    const fallback = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('from fetch'));
    const client = { request: vi.fn() };
    const bridged = fetchOverHttpClient(client);
    expect(await (await bridged(new URL('http://127.0.0.1/a'), { method: 'POST', body: new URLSearchParams({ a: '1' }) })).text()).toBe('from fetch');
    expect(await (await bridged(new URL('http://127.0.0.1/a'), { method: 'PUT', body: 'x' })).text()).toBe('from fetch');
    expect(fallback).toHaveBeenCalledTimes(2);
    expect(client.request).not.toHaveBeenCalled();
  });
});
