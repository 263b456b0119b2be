import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileOAuthStore } from '../../../../../runtime/node.js';

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
});
