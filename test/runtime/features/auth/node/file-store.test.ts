import { fork, type ChildProcess } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileOAuthStore } from '../../../../../runtime/node.js';
import type { StoredTokens } from '../../../../../runtime/features/auth/index.js';
import { json, serveRoutes } from '../fixtures/route-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('FileOAuthStore', () => {
  it('persists values across instances in an owner-only file, and serialises concurrent writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpgen-oauth-'));
    dirs.push(dir);
    const path = join(dir, 'nested', 'oauth.json');
    const store = new FileOAuthStore(path);
    expect(await store.get('missing')).toBeUndefined();
    await Promise.all(Array.from({ length: 10 }, (_, i) => store.set(`client:${i}`, { client_id: `c${i}` })));
    await store.delete('client:3');
    const again = new FileOAuthStore(path);
    expect(await again.get('client:7')).toEqual({ client_id: 'c7' });
    expect(await again.get('client:3')).toBeUndefined();
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')) as object)).toHaveLength(9);
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('never writes through a symlink planted at the temporary name or at the path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpgen-oauth-'));
    dirs.push(dir);
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'untouched');
    const path = join(dir, 'oauth.json');
    // The name the store used to write through, predictable from the pid.
    symlinkSync(victim, `${path}.${process.pid}.tmp`);
    const store = new FileOAuthStore(path);
    await store.set('tokens:x', { secret: 'refresh-token' });
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(lstatSync(path).isSymbolicLink()).toBe(false);
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    rmSync(path);
    symlinkSync(victim, path);
    await expect(store.set('tokens:y', { secret: 'refresh-token' })).rejects.toThrow(/is a symbolic link; refusing/);
    await expect(store.get('tokens:y')).rejects.toThrow(/is a symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp') && !name.startsWith(`oauth.json.${process.pid}.`))).toEqual([]);
  });

  it('takes over a lock whose owner is gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpgen-oauth-'));
    dirs.push(dir);
    const path = join(dir, 'oauth.json');
    const gone = fork('-e', [''], { execArgv: [] });
    await new Promise((resolve) => gone.once('exit', resolve));
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: gone.pid, at: Date.now(), id: 'abandoned' }));
    expect(await new FileOAuthStore(path).lock('tokens:x', async () => 'held')).toBe('held');
    expect(readdirSync(dir)).not.toContain('oauth.json.lock');
  });

  it('lets two processes refreshing at once spend the refresh token once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpgen-oauth-'));
    dirs.push(dir);
    const refreshes: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const as = await serveRoutes((base) => ({
      'GET /.well-known/oauth-authorization-server': json({ issuer: base, token_endpoint: `${base}/token`, code_challenge_methods_supported: ['S256'] }),
      'POST /token': (_request, body, response) => {
        refreshes.push(new URLSearchParams(body).get('refresh_token') ?? '');
        // The first refresh is answered once the second process has asked for its token, so both ask while it is under way.
        void held.then(() => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: `fresh-${refreshes.length}`, token_type: 'Bearer', expires_in: 3600, refresh_token: `r-${refreshes.length + 1}` })));
      },
    }), cleanups);
    const mcp = await serveRoutes((base) => ({ 'GET /.well-known/oauth-protected-resource': json({ resource: base, authorization_servers: [as] }) }), cleanups);
    const path = join(dir, 'oauth.json');
    const expired: StoredTokens = { tokens: { access_token: 'old', token_type: 'Bearer', refresh_token: 'r-1' }, issuer: as, resource: mcp, expiresAt: Date.now() - 60_000 };
    const store = new FileOAuthStore(path);
    await store.set(`client:${as}`, { client_id: 'cli' });
    await store.set(`tokens:${mcp}`, expired);

    const children: ChildProcess[] = [0, 1].map(() => fork(join(import.meta.dirname, 'fixtures', 'refresh-child.ts'), [path, mcp], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }));
    cleanups.push(async () => void children.forEach((child) => child.kill()));
    const next = (child: ChildProcess, wanted?: string): Promise<unknown> => new Promise((resolve) => {
      const listen = (message: unknown): void => {
        if (wanted !== undefined && message !== wanted) return;
        child.off('message', listen);
        resolve(message);
      };
      child.on('message', listen);
    });
    await Promise.all(children.map((child) => next(child, 'ready')));
    const [first, second] = children as [ChildProcess, ChildProcess];
    const firstDone = next(first, undefined).then(() => next(first));
    first.send('go');
    // The first process is refreshing once its request reached the token endpoint.
    while (refreshes.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const secondCalling = next(second, 'calling');
    const secondDone = secondCalling.then(() => next(second));
    second.send('go');
    await secondCalling;
    release();
    const results = await Promise.all([firstDone, secondDone]);
    expect(results).toEqual([{ token: 'fresh-1' }, { token: 'fresh-1' }]);
    expect(refreshes).toEqual(['r-1']);
    expect((await new FileOAuthStore(path).get(`tokens:${mcp}`)) as StoredTokens).toMatchObject({ tokens: { access_token: 'fresh-1', refresh_token: 'r-2' } });
  });
});
