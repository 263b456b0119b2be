import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeDefinitions, readExtensionPins } from '../../codegen/extensions.js';
import { generate, HEADER_PATTERN, syncPackageExports } from '../../codegen/main.js';
import { readPins } from '../../codegen/spec-source.js';
import { repoRoot } from './spec-examples.js';
import { extensionModule, resultAlternatives } from '../../generated/extensions/tasks/index.js';
import * as apps from '../../generated/extensions/apps/index.js';
import { buildExtension } from '../../codegen/extensions.js';
import { buildRevision } from '../../codegen/main.js';
import { ReferenceValidators, comparable } from './validator-reference.js';
import { createHash } from 'node:crypto';

describe('extension pins', () => {
  it('pins the tasks extension against the 2026-07-28 core revision', () => {
    const pin = readExtensionPins(repoRoot).find((p) => p.name === 'tasks');
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

  it("hoists a definition's nested $defs (Zod's recursive parts) once per distinct content, pointing its refs there", () => {
    const json = { anyOf: [{ type: 'string' }, { type: 'array', items: { $ref: '#/$defs/__schema0' } }] };
    const owner = (extra: object) => ({ type: 'object', properties: { v: { $ref: '#/$defs/__schema0' } }, $defs: { __schema0: json }, ...extra });
    const out = normalizeDefinitions('x', { $defs: { B: owner({}), A: owner({ required: ['v'] }), C: { type: 'string' } } });
    const defs = out.$defs as Record<string, Record<string, unknown>>;
    expect(Object.keys(defs).sort()).toEqual(['A', 'ASchema0', 'B', 'C']);
    expect(defs.ASchema0).toEqual({ anyOf: [{ type: 'string' }, { type: 'array', items: { $ref: '#/$defs/ASchema0' } }] });
    expect(defs.A).toEqual({ type: 'object', properties: { v: { $ref: '#/$defs/ASchema0' } }, required: ['v'] });
    expect(defs.B).toEqual({ type: 'object', properties: { v: { $ref: '#/$defs/ASchema0' } } });
    // A hoisted name that a top-level definition already has is refused, not overwritten.
    expect(() => normalizeDefinitions('x', { $defs: { A: owner({}), ASchema0: { type: 'string' } } })).toThrow(/taken/);
  });

  it('pins the apps extension (ext-apps 2.0.4), the very schema the official package ships', () => {
    const pin = readExtensionPins(repoRoot).find((p) => p.name === 'apps');
    expect(pin).toMatchObject({ id: 'io.modelcontextprotocol/ui', version: '2.0.4', core: '2025-11-25' });
    const shipped = readFileSync(join(repoRoot, 'node_modules/@modelcontextprotocol/ext-apps/dist/src/generated/schema.json'));
    expect(createHash('sha256').update(shipped).digest('hex')).toBe(pin!.sha256);
  });
});

describe('generated/extensions/tasks', () => {
  it('is what a fresh generation gives, with headers, core definitions referenced and not copied', async () => {
    const { files } = await generate({ mirror: process.env.MCP_SPEC_MIRROR });
    for (const name of ['types.ts', 'validators.ts', 'methods.ts', 'index.ts', 'core.ts']) {
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

describe('generated/extensions/apps', () => {
  it('is what a fresh generation gives: 41 local definitions (39 of the schema, one hoisted, one patched in), none shared with the core revision', async () => {
    const { files } = await generate({ mirror: process.env.MCP_SPEC_MIRROR });
    for (const name of ['types.ts', 'validators.ts', 'methods.ts', 'index.ts', 'core.ts']) {
      expect(readFileSync(join(repoRoot, 'generated', 'extensions', 'apps', name), 'utf8')).toBe(files.get(`extensions/apps/${name}`)!);
    }
    // The core revision is its own module, so importing the extension loads no revision.
    expect(files.get('extensions/apps/core.ts')).toContain(`export { revisionModule as coreRevisionModule } from '../../2025-11-25/index.js';`);
    expect(files.get('extensions/apps/index.ts')).not.toContain('2025-11-25/index.js');
    const manifest = JSON.parse(files.get('extensions/apps/MANIFEST.json')!) as { counts: Record<string, number>; patches: string[] };
    // 39 upstream definitions, the hoisted JSON value and the patched-in ui/update-model-context result.
    expect(manifest.counts).toMatchObject({ definitions: 41, referencedFromCore: 0, requests: 7, notifications: 10 });
    expect(manifest.patches).toEqual(['last-modified-plain-string', 'style-variables-optional', 'update-model-context-result']);
    expect(files.get('extensions/apps/types.ts')).not.toMatch(/from '\.\.\/\.\.\/2025-11-25/);
  }, 60_000);

  it('has every ui/* method, named from the schema, app-to-host as client-to-server and ungated', () => {
    const { methods } = apps.extensionModule;
    expect(Object.keys(methods).filter((m) => methods[m]!.direction === 'client-to-server').sort()).toEqual([
      'ui/download-file', 'ui/initialize', 'ui/message', 'ui/notifications/initialized', 'ui/notifications/request-teardown',
      'ui/notifications/sandbox-proxy-ready', 'ui/notifications/size-changed', 'ui/open-link', 'ui/request-display-mode', 'ui/update-model-context',
    ]);
    expect(Object.keys(methods).filter((m) => methods[m]!.direction === 'server-to-client').sort()).toEqual([
      'ui/notifications/host-context-changed', 'ui/notifications/sandbox-resource-ready', 'ui/notifications/tool-cancelled',
      'ui/notifications/tool-input', 'ui/notifications/tool-input-partial', 'ui/notifications/tool-result', 'ui/resource-teardown',
    ]);
    expect(Object.values(methods).every((info) => info.capability === null)).toBe(true);
    expect(apps.resourceMimeType).toBe('text/html;profile=mcp-app');
    expect(apps.protocolVersion).toBe('2026-01-26');
    const init = methods['ui/initialize']!;
    expect(init.params({ appInfo: { name: 'a', version: '1' }, appCapabilities: {}, protocolVersion: '2026-01-26' })).toBe(true);
    expect(init.params({ appInfo: { name: 'a' }, appCapabilities: {}, protocolVersion: '2026-01-26' })).toBe(false);
    expect(init.params.errors?.[0]).toMatchObject({ instancePath: '/appInfo', keyword: 'required' });
  });

  it('checks a restricting propertyNames (the style variable names) as ajv does', async () => {
    const mirror = process.env.MCP_SPEC_MIRROR;
    const pin = readExtensionPins(repoRoot).find((p) => p.name === 'apps')!;
    const core = await buildRevision(readPins(repoRoot).find((p) => p.revision === pin.core)!, { mirror });
    const built = await buildExtension(pin, core.model, { root: repoRoot, mirror });
    const reference = new ReferenceValidators(built.model).definition('McpUiHostStyles');
    for (const value of [{ variables: { '--font-sans': 'serif' } }, { variables: { '--font-sans': 'serif', '--not-a-variable': 'x' } }]) {
      const ok = apps.validateMcpUiHostStyles(value);
      expect(ok).toBe(reference(value));
      expect(comparable(apps.validateMcpUiHostStyles.errors)).toEqual(comparable(reference.errors));
    }
    expect(apps.validateMcpUiHostStyles.errors?.at(-1)).toMatchObject({ instancePath: '/variables', keyword: 'propertyNames', params: { propertyName: '--not-a-variable' } });
  }, 60_000);
});
