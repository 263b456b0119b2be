/**
 * Codegen output for the hand-written fixture schema (test/codegen/fixtures/2025-01-01) compared
 * byte for byte with the committed golden files. After an intended change to codegen or to the
 * fixture, run `UPDATE_GOLDEN=1 npx vitest run test/codegen/golden.test.ts`, which re-pins the
 * fixture and rewrites the golden files, and review the diff.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RevisionModule } from '../../generated/contract.js';
import { generate, HEADER_PATTERN, type GeneratedFiles } from '../../codegen/main.js';
import { sha256 } from '../../codegen/spec-source.js';
import { fixturePin, fixturePinsFile, fixturesDir, linkedRoot, type TempRoot } from './fixture-root.js';

const UPDATE = process.env['UPDATE_GOLDEN'] === '1';
const goldenDir = join(fixturesDir, 'golden');
const REV = '2025-01-01';
const schemaFile = join(fixturesDir, REV, 'schema.json');

/** Template copies change with the templates, not with the schema, so they are not golden. */
const NOT_GOLDEN = new Set(['contract.ts', 'shared/validator-support.ts']);

/** MANIFEST.json records the hash of codegen's own sources, which any codegen edit changes. */
function normalize(path: string, content: string): string {
  return path.endsWith('MANIFEST.json') ? content.replace(/"codegenSha256": "[0-9a-f]{64}"/, '"codegenSha256": "<codegen sources>"') : content;
}

/** Paths (relative to the output folder) that have a golden file. */
function listGolden(): string[] {
  const walk = (dir: string, prefix: string): string[] =>
    readdirSync(dir)
      .sort()
      .flatMap((entry) => (statSync(join(dir, entry)).isDirectory() ? walk(join(dir, entry), `${prefix}${entry}/`) : [`${prefix}${entry}`]));
  if (!existsSync(goldenDir)) return [];
  return walk(goldenDir, '')
    .filter((path) => path.endsWith('.golden'))
    .map((path) => path.slice(0, -'.golden'.length));
}

if (UPDATE) {
  // Re-pin first, so generate() accepts an edited fixture.
  const pins = readFileSync(fixturePinsFile, 'utf8');
  writeFileSync(fixturePinsFile, pins.replace(/"sha256": "[0-9a-f]{64}"/, `"sha256": "${sha256(readFileSync(schemaFile))}"`));
}

let temp: TempRoot;
let files: GeneratedFiles;
const logged: string[] = [];

beforeAll(async () => {
  temp = linkedRoot([REV]);
  ({ files } = await generate({ pins: [fixturePin()], mirror: fixturesDir, root: temp.root, log: (line) => logged.push(line) }));
  if (UPDATE) {
    rmSync(goldenDir, { recursive: true, force: true });
    for (const [path, content] of files) {
      if (NOT_GOLDEN.has(path)) continue;
      mkdirSync(dirname(join(goldenDir, path)), { recursive: true });
      writeFileSync(join(goldenDir, `${path}.golden`), normalize(path, content));
    }
  }
});
afterAll(() => temp?.remove());

describe('fixture schema', () => {
  it('is pinned by its sha256 (run UPDATE_GOLDEN=1 after editing it)', () => {
    expect(fixturePin().sha256).toBe(sha256(readFileSync(schemaFile)));
  });

  it('produces exactly the golden file set plus the template copies', () => {
    const produced = [...files.keys()].filter((p) => !NOT_GOLDEN.has(p)).sort();
    expect(produced).toEqual(listGolden().sort());
    expect([...files.keys()].filter((p) => NOT_GOLDEN.has(p)).sort()).toEqual([...NOT_GOLDEN].sort());
  });

  it('warns about the one method the capability overlay does not know and the list notification without a list', () => {
    expect(logged).toEqual([
      `warning: revision ${REV}: method echo has no capability overlay entry; treating it as ungated`,
      `warning: revision ${REV}: definition ToolListChangedNotification (notifications/tools/list_changed) invalidates no list: the revision has no ListToolsRequest; add the lists to LIST_CHANGED_OVERLAY`,
    ]);
  });

  it('marks every source file with the generated-file header naming the fixture hash', () => {
    for (const [path, content] of files) {
      if (!path.endsWith('.ts')) continue;
      expect(content, path).toMatch(HEADER_PATTERN);
      expect(content.split('\n', 1)[0], path).toContain(`sha256:${path.startsWith(`${REV}/`) || path === 'latest.ts' ? fixturePin().sha256 : sha256(fixturePin().sha256)}`);
    }
  });
});

describe.each(listGolden().map((path) => [path] as const))('golden %s', (path) => {
  it('matches the fresh output byte for byte', () => {
    const content = files.get(path);
    expect(content, `codegen no longer produces ${path}`).toBeDefined();
    expect(normalize(path, content!)).toBe(readFileSync(join(goldenDir, `${path}.golden`), 'utf8'));
  });
});

describe('the generated fixture module', () => {
  let mod: { revisionModule: RevisionModule } & Record<string, unknown>;

  beforeAll(async () => {
    for (const [path, content] of files) {
      mkdirSync(dirname(join(temp.root, 'generated', path)), { recursive: true });
      writeFileSync(join(temp.root, 'generated', path), content);
    }
    mod = (await import(pathToFileURL(join(temp.root, 'generated', REV, 'index.ts')).href)) as typeof mod;
  });

  it('derives the method table from the fixture unions', () => {
    const { methods, batching, errorCodes } = mod.revisionModule;
    expect(Object.values(methods).map((m) => [m.method, m.kind, m.direction, m.definition, m.resultDefinitions.join('|'), m.capability?.path.join('.') ?? null])).toEqual([
      ['echo', 'request', 'client-to-server', 'EchoRequest', 'EchoResult', null],
      ['notifications/tools/list_changed', 'notification', 'server-to-client', 'ToolListChangedNotification', '', 'tools.listChanged'],
      ['ping', 'request', 'both', 'PingRequest', 'EmptyResult', null],
    ]);
    expect(batching).toBe(true);
    // 2025-01-01 sits between 2024-11-05 and the first revision that retires a code.
    expect(errorCodes).toEqual({ PARSE_ERROR: -32700, INTERNAL_ERROR: -32603, INVALID_PARAMS: -32602, METHOD_NOT_FOUND: -32601, INVALID_REQUEST: -32600, RESOURCE_NOT_FOUND: -32002 });
  });

  it('validates through the $ref chain, the formats and the union', () => {
    const validate = mod.revisionModule.definitions['EchoRequest']!;
    const request = { jsonrpc: '2.0', id: 'a', method: 'echo', params: { text: 'hi', progressToken: 7, replyTo: 'https://example.com/x', extra: [null] } };
    expect(validate(request)).toBe(true);
    expect(validate({ ...request, params: { ...request.params, progressToken: 1.5 } })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: '/params/progressToken', keyword: 'type' });
    expect(validate({ ...request, params: { ...request.params, replyTo: 'not a uri' } })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: '/params/replyTo', keyword: 'format' });
    expect(validate({ ...request, params: { text: '' } })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: '/params/text', keyword: 'minLength' });
    const result = mod.revisionModule.methods['echo']!.result!;
    expect(result({ content: [{ type: 'text', text: 'hi' }, { type: 'image', data: 'aGk=', mimeType: 'image/png' }], nextCursor: 'c' })).toBe(true);
    expect(result({ content: [{ type: 'image', data: 'not base64!', mimeType: 'image/png' }] })).toBe(false);
  });

  it('checks inline params with the validator compiled for them', () => {
    const ping = mod.revisionModule.methods['ping']!;
    expect(ping.paramsDefinition).toBeNull();
    expect(ping.params({ _meta: { anything: 1 } })).toBe(true);
    expect(ping.params({ _meta: 'x' })).toBe(false);
  });
});
