/**
 * The DPoP replay cache of the bearer guard. Over real HTTP on 127.0.0.1: proofs signed by an
 * attacker's own key, with a token the verifier refuses, leave nothing behind; proofs that come
 * with a valid token are remembered up to `maxReplayEntries`, and a replay is still refused.
 * Then the cache itself under 100,000 proof ids.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpHttpHandler, McpServer } from '../../../../runtime/index.js';
import { createBearerGuard, DpopProver, type BearerGuard } from '../../../../runtime/features/auth/index.js';
import { DEFAULT_DPOP_REPLAY_CACHE_ENTRIES, ReplayCache } from '../../../../runtime/features/auth/replay-cache.js';
import { toNodeHandler } from '../../../../runtime/node.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** An MCP endpoint behind a DPoP guard that accepts one token, bound to `validKey`'s thumbprint. */
async function endpoint(validKey: DpopProver, maxReplayEntries?: number): Promise<{ url: string; guard: BearerGuard; statuses: number[] }> {
  const httpServer = createServer();
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
  const jkt = await validKey.thumbprint();
  const guard = createBearerGuard({
    verifier: { verifyAccessToken: async (token) => (token === 'valid-token' ? { token, scopes: [], resource: url, confirmation: { jkt } } : undefined) },
    resource: url,
    authorizationServers: ['https://as.example.com'],
    dpop: maxReplayEntries === undefined ? true : { maxReplayEntries },
  });
  const mcp = new McpServer({ name: 'bound', version: '1.0.0' });
  const handler = createMcpHttpHandler({ server: () => mcp.createServer(), path: '/mcp', guard: (request) => guard.check(request) });
  httpServer.on('request', toNodeHandler(handler));
  cleanups.push(async () => {
    await handler.close();
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  });
  return { url, guard, statuses: [] };
}

const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

async function post(url: string, token: string, proof: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `DPoP ${token}`, dpop: proof, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: ping,
  });
  await response.body?.cancel();
  return response.status;
}

describe('the DPoP replay cache', () => {
  it('remembers nothing of proofs whose token does not verify', async () => {
    const { url, guard } = await endpoint(new DpopProver());
    const attacker = new DpopProver();
    const statuses = new Set<number>();
    const first = await attacker.proof({ method: 'POST', url, accessToken: 'made-up-token' });
    statuses.add(await post(url, 'made-up-token', first));
    for (let i = 1; i < 300; i++) statuses.add(await post(url, 'made-up-token', await attacker.proof({ method: 'POST', url, accessToken: 'made-up-token' })));
    expect([...statuses]).toEqual([401]);
    expect(guard.dpopReplayEntries).toBe(0);
    // The first proof again: refused for its token, as before, not as a replay of something remembered.
    const again = await fetch(url, { method: 'POST', headers: { authorization: 'DPoP made-up-token', dpop: first, 'content-type': 'application/json' }, body: ping });
    expect(await again.json()).toMatchObject({ error: 'invalid_token' });
  });

  it('keeps at most maxReplayEntries ids of accepted proofs, and still refuses a replay', async () => {
    const key = new DpopProver();
    const { url, guard } = await endpoint(key, 50);
    const first = await key.proof({ method: 'POST', url, accessToken: 'valid-token' });
    expect(await post(url, 'valid-token', first)).not.toBe(401);
    expect(await post(url, 'valid-token', first)).toBe(401);
    for (let i = 0; i < 120; i++) expect(await post(url, 'valid-token', await key.proof({ method: 'POST', url, accessToken: 'valid-token' }))).not.toBe(401);
    expect(guard.dpopReplayEntries).toBe(50);
    const last = await key.proof({ method: 'POST', url, accessToken: 'valid-token' });
    expect(await post(url, 'valid-token', last)).not.toBe(401);
    expect(await post(url, 'valid-token', last)).toBe(401);
  });

  it('stays bounded under 100,000 proof ids, dropping the oldest first and the expired as it goes', () => {
    const cache = new ReplayCache(10_000, 600_000);
    let now = 1_000_000;
    let accepted = 0;
    let largest = 0;
    for (let i = 0; i < 100_000; i++) {
      if (cache.use(`attacker.${i}`, now)) accepted++;
      largest = Math.max(largest, cache.size);
    }
    expect(accepted).toBe(100_000);
    expect(largest).toBe(10_000);
    expect(cache.size).toBe(10_000);
    expect(cache.use('attacker.99999', now)).toBe(false);
    expect(cache.use('attacker.0', now)).toBe(true);
    now += 600_000;
    expect(cache.use('later', now)).toBe(true);
    expect(cache.size).toBe(1);
    expect(DEFAULT_DPOP_REPLAY_CACHE_ENTRIES).toBe(100_000);
  });
});
