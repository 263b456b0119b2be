import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeDefinitions, readExtensionPins } from '../../codegen/extensions.js';
import { generate, HEADER_PATTERN, syncPackageExports } from '../../codegen/main.js';
import { readPins } from '../../codegen/spec-source.js';
import { repoRoot } from './spec-examples.js';
import { extensionModule, resultAlternatives } from '../../generated/extensions/tasks/index.js';

describe('extension pins', () => {
  it('pins the tasks extension against the 2026-07-28 core revision', () => {
    const [pin] = readExtensionPins(repoRoot);
    expect(pin).toMatchObject({ name: 'tasks', id: 'io.modelcontextprotocol/tasks', core: '2026-07-28' });
    expect(pin!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(readExtensionPins(join(repoRoot, 'test'))).toEqual([]);
  });

  it('drops the per-definition $schema Zod writes, and refuses another dialect', () => {
    const dialect = 'https://json-schema.org/draft/2020-12/schema';
    const out = normalizeDefinitions('x', { $schema: dialect, $defs: { A: { $schema: dialect, type: 'string' } } });
    expect(out.$defs).toEqual({ A: { type: 'string' } });
    expect(() => normalizeDefinitions('x', { $schema: dialect, $defs: { A: { $schema: 'http://json-schema.org/draft-07/schema#' } } })).toThrow(/dialect/);
  });
});

describe('generated/extensions/tasks', () => {
  it('is what a fresh generation gives, with headers, core definitions referenced and not copied', async () => {
    const { files } = await generate({ mirror: process.env.MCP_SPEC_MIRROR });
    for (const name of ['types.ts', 'validators.ts', 'methods.ts', 'index.ts']) {
      const content = files.get(`extensions/tasks/${name}`)!;
      expect(HEADER_PATTERN.test(content)).toBe(true);
      expect(readFileSync(join(repoRoot, 'generated', 'extensions', 'tasks', name), 'utf8')).toBe(content);
    }
    const types = files.get('extensions/tasks/types.ts')!;
    expect(types).toMatch(/export type \{[^}]*\bTool\b[^}]*\} from '\.\.\/\.\.\/2026-07-28\/types\.js'/);
    expect(types).not.toMatch(/export interface Tool\b/);
    expect(types).toMatch(/export type CreateTaskResult = Result &/);
    const manifest = JSON.parse(files.get('extensions/tasks/MANIFEST.json')!) as { counts: Record<string, number> };
    expect(manifest.counts).toMatchObject({ definitions: 20, referencedFromCore: 56, requests: 3, notifications: 1 });
    expect(syncPackageExports(repoRoot, readPins(repoRoot), true)).toEqual([]);
  }, 60_000);

  it('has a method table with generated validators and the task result for tools/call', () => {
    expect(Object.keys(extensionModule.methods).sort()).toEqual(['notifications/tasks', 'tasks/cancel', 'tasks/get', 'tasks/update']);
    const get = extensionModule.methods['tasks/get']!;
    expect(get.capability).toEqual({ holder: 'receiver', path: ['extensions', 'io.modelcontextprotocol/tasks'] });
    expect(get.params({ taskId: 'x' })).toBe(true);
    expect(get.params({})).toBe(false);
    const handle = { resultType: 'task', taskId: 'x', status: 'working', createdAt: 'a', lastUpdatedAt: 'b', ttlMs: null };
    expect(resultAlternatives['tools/call'].task(handle)).toBe(true);
    expect(resultAlternatives['tools/call'].task({ ...handle, ttlMs: 1.5 })).toBe(false);
    expect(get.result!({ resultType: 'complete', taskId: 'x', status: 'completed', createdAt: 'a', lastUpdatedAt: 'b', ttlMs: 5, result: {} })).toBe(true);
  });
});
