/** The in-memory store's bounds: each table holds at most its limit and forgets in the documented order. */
import { describe, expect, it } from 'vitest';
import { InMemoryAuthorizationStore, type CodeRecord, type RegisteredClient, type TokenRecord } from '../../../../runtime/features/auth-server/index.js';

const client = (id: string): RegisteredClient => ({ client_id: id, redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] });
const token = (grantId: string, expiresAt: number, kind: 'access' | 'refresh' = 'access'): TokenRecord => ({ kind, grantId, clientId: 'c', scopes: [], resource: 'https://r.example/mcp', subject: 's', expiresAt });
const codeRecord = (expiresAt: number): CodeRecord => ({ clientId: 'c', redirectUri: 'https://a.example/cb', redirectUriGiven: true, codeChallenge: 'x', scopes: [], resource: 'https://r.example/mcp', subject: 's', grantId: 'g', expiresAt });

describe('InMemoryAuthorizationStore', () => {
  it('forgets the least recently used client beyond maxClients', async () => {
    const store = new InMemoryAuthorizationStore({ maxClients: 2 });
    await store.saveClient(client('a'));
    await store.saveClient(client('b'));
    await store.getClient('a');
    await store.saveClient(client('c'));
    expect(await store.getClient('b')).toBeUndefined();
    expect((await store.getClient('a'))?.client_id).toBe('a');
    expect(store.size.clients).toBe(2);
  });

  it('keeps at most maxCodes and maxTokens, and revoking a grant after eviction stays consistent', async () => {
    let now = 1_000_000;
    const store = new InMemoryAuthorizationStore({ maxCodes: 2, maxTokens: 3, now: () => now });
    for (const key of ['c1', 'c2', 'c3']) await store.saveCode(key, codeRecord(now + 60_000));
    expect(store.size.codes).toBe(2);
    expect(await store.consumeCode('c1')).toBeUndefined();
    expect(await store.consumeCode('c3')).toMatchObject({ firstUse: true });
    expect(await store.consumeCode('c3')).toMatchObject({ firstUse: false });
    for (const key of ['t1', 't2', 't3', 't4']) await store.saveToken(key, token(key === 't4' ? 'g2' : 'g1', now + 3_600_000));
    expect(store.size.tokens).toBe(3);
    expect(await store.getToken('t1')).toBeUndefined();
    await store.revokeGrant('g1');
    expect(store.size.tokens).toBe(1);
    expect(await store.getToken('t4')).toBeDefined();
    // Entries whose replay memory is over are swept on the next save.
    now += 3_600_000 + 10 * 60_000;
    await store.saveToken('t5', token('g3', now + 1_000));
    expect(await store.getToken('t4')).toBeUndefined();
    expect(store.size.tokens).toBe(1);
  });

  it('hands a refresh token out for an exchange once, and never an access token', async () => {
    const store = new InMemoryAuthorizationStore();
    await store.saveToken('r', token('g', Date.now() + 1_000, 'refresh'));
    await store.saveToken('a', token('g', Date.now() + 1_000));
    expect(await store.consumeRefreshToken('a')).toBeUndefined();
    expect(await store.consumeRefreshToken('r')).toMatchObject({ firstUse: true });
    expect(await store.consumeRefreshToken('r')).toMatchObject({ firstUse: false });
    expect(await store.getToken('r')).toBeUndefined();
    expect(() => new InMemoryAuthorizationStore({ maxTokens: 0 })).toThrow(/maxTokens/);
  });
});
