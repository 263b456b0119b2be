/**
 * The generator against real history: four earlier states of the spec's draft schema
 * (MCP_SPEC_MIRROR/history/draft-*, see its SOURCES.md), each generated on its own as it was
 * published, with no patches. Those that map are type-checked (all in one tsc run) and their
 * validators tried on hand-made messages; those that do not fail with an error naming the
 * definition and why, pinned here. The last one also generates once given the patches that
 * fixed the same defects in 2026-07-28.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RevisionModule } from '../../generated/contract.js';
import { generate } from '../../codegen/main.js';
import { CodegenError } from '../../codegen/model.js';
import { loadPatches, type Patch } from '../../codegen/patches.js';
import { inferEra } from '../../codegen/spec-pins.js';
import { sha256, type RevisionPin } from '../../codegen/spec-source.js';
import { linkedRoot } from './fixture-root.js';
import { repoRoot, specMirrorDir } from './spec-examples.js';

const run = promisify(execFile);
const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');

interface Expectation {
  readonly era: RevisionPin['era'];
  /** The one-line error when the schema cannot be mapped; undefined when it generates. */
  readonly error?: string;
}

const HISTORY: Readonly<Record<string, Expectation>> = {
  'draft-2025-09-30': { era: 'stateful' },
  'draft-2026-01-30': { era: 'stateful' },
  // GetPromptResultResponse.result is IncompleteResult | GetPromptResult: the interim result had
  // another name then, so codegen takes IncompleteResult as the final result and finds no
  // resultType const on GetPromptResult to tell the two apart.
  'draft-2026-04-14': { era: 'stateful', error: 'revision draft-2026-04-14: result GetPromptResult of prompts/get has no resultType const to dispatch on; patch the schema' },
  // InputRequiredResult.resultType is any string, the defect spec/patches/2026-07-28.json fixes.
  'draft-2026-06-23': { era: 'stateless', error: 'revision draft-2026-06-23: result InputRequiredResult of prompts/get has no resultType const to dispatch on; patch the schema' },
};
/** Generated again with the released revision's patch list, which applies to it unchanged. */
const PATCHED = 'draft-2026-06-23';
const PATCHED_WITH = '2026-07-28';

interface Outcome {
  readonly pin: RevisionPin;
  readonly error?: Error;
  /** Folder holding the generated tree, when generation succeeded. */
  readonly out?: string;
  readonly warnings: string[];
}

const scratch = mkdtempSync(join(tmpdir(), 'mcpgen-history-'));
const outcomes = new Map<string, Outcome>();
let typecheck: Promise<{ code: number; output: string }>;

async function generateInto(pin: RevisionPin, mirror: string, folder: string, patches?: readonly Patch[]): Promise<Outcome> {
  const root = linkedRoot([pin.revision]);
  const warnings: string[] = [];
  try {
    const { files } = await generate({ root: root.root, mirror, pins: [pin], log: (line) => warnings.push(line), ...(patches ? { patches: new Map([[pin.revision, patches]]) } : {}) });
    const out = join(scratch, 'out', folder);
    for (const [path, content] of files) {
      mkdirSync(dirname(join(out, path)), { recursive: true });
      writeFileSync(join(out, path), content);
    }
    return { pin, out, warnings };
  } catch (error) {
    return { pin, error: error as Error, warnings };
  } finally {
    root.remove();
  }
}

beforeAll(async () => {
  // A mirror laid out as <revision>/schema.json, holding the history files under their own names.
  const mirror = join(scratch, 'mirror');
  for (const name of Object.keys(HISTORY)) {
    const source = join(specMirrorDir(), 'history', name, 'schema.json');
    const bytes = readFileSync(source);
    mkdirSync(join(mirror, name), { recursive: true });
    copyFileSync(source, join(mirror, name, 'schema.json'));
    const document = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    // Generated alone, each history pin is the "latest release" of its own output tree.
    const pin: RevisionPin = { revision: name, url: pathToFileURL(source).href, sha256: sha256(bytes), era: inferEra(document), status: 'released' };
    outcomes.set(name, await generateInto(pin, mirror, name));
  }
  const base = outcomes.get(PATCHED)!.pin;
  outcomes.set(`${PATCHED}+patches`, await generateInto(base, mirror, `${PATCHED}+patches`, loadPatches(PATCHED_WITH, repoRoot)));

  // One tsc run over every generated tree.
  const out = join(scratch, 'out');
  writeFileSync(
    join(out, 'tsconfig.json'),
    JSON.stringify({ extends: join(repoRoot, 'tsconfig.json'), compilerOptions: { noEmit: true, types: [] }, include: ['**/*.ts'] }),
  );
  typecheck = run(process.execPath, [tsc, '-p', join(out, 'tsconfig.json')], { maxBuffer: 1 << 24 }).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code?: number; stdout?: string }) => ({ code: error.code ?? -1, output: error.stdout ?? String(error) }),
  );
}, 60_000);
afterAll(async () => {
  await typecheck?.catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
});

async function load(key: string): Promise<RevisionModule> {
  const { out, pin } = outcomes.get(key)!;
  const mod = (await import(pathToFileURL(join(out!, pin.revision, 'index.ts')).href)) as { revisionModule: RevisionModule };
  return mod.revisionModule;
}

describe('each history schema', () => {
  it.each(Object.entries(HISTORY))('%s generates, or fails with one line naming the definition', (name, expected) => {
    const outcome = outcomes.get(name)!;
    expect(outcome.pin.era).toBe(expected.era);
    if (expected.error === undefined) {
      expect(outcome.error, outcome.error?.message).toBeUndefined();
      const manifest = JSON.parse(readFileSync(join(outcome.out!, name, 'MANIFEST.json'), 'utf8')) as { era: string; counts: { definitions: number } };
      expect(manifest.era).toBe(expected.era);
    } else {
      expect(outcome.error).toBeInstanceOf(CodegenError);
      expect(outcome.error!.message).toBe(expected.error);
    }
  });

  it('the patched draft-2026-06-23 generates', () => {
    const outcome = outcomes.get(`${PATCHED}+patches`)!;
    expect(outcome.error, outcome.error?.message).toBeUndefined();
  });

});

describe('the generated validators accept and reject hand-made messages', () => {
  const stateless = {
    'io.modelcontextprotocol/protocolVersion': 'DRAFT-2026-v1',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
  };
  const cases = [
    { key: 'draft-2025-09-30', meta: undefined, result: {} },
    { key: 'draft-2026-01-30', meta: undefined, result: {} },
    { key: `${PATCHED}+patches`, meta: stateless, result: { resultType: 'complete', cacheScope: 'public', ttlMs: 0 } },
  ];

  it.each(cases)('$key: CallToolRequest params and ListToolsResult', async ({ key, meta, result }) => {
    const mod = await load(key);
    const call = mod.methods['tools/call']!;
    const params = { name: 'echo', arguments: { text: 'hi' }, ...(meta ? { _meta: meta } : {}) };
    expect(call.params(params), JSON.stringify(call.params.errors)).toBe(true);
    expect(call.params({ ...params, name: 7 })).toBe(false);
    expect(call.params.errors?.[0]).toMatchObject({ instancePath: '/name', keyword: 'type' });

    const list = mod.methods['tools/list']!.result!;
    const tools = { tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }], ...result };
    expect(list(tools), JSON.stringify(list.errors)).toBe(true);
    expect(list({ ...tools, tools: [{ name: 'echo' }] })).toBe(false);
    expect(list.errors?.[0]).toMatchObject({ instancePath: '/tools/0', keyword: 'required', params: { missingProperty: 'inputSchema' } });
  });

  it('the stateless draft insists on the per-request _meta the stateful ones lack', async () => {
    const mod = await load(`${PATCHED}+patches`);
    expect(mod.era).toBe('stateless');
    expect(mod.methods['initialize']).toBeUndefined();
    expect(mod.methods['tools/call']!.params({ name: 'echo' })).toBe(false);
    expect((await load('draft-2025-09-30')).methods['initialize']).toBeDefined();
  });
});

// Last, so the imports above overlap with the tsc run.
describe('the generated code', () => {
  it('type-checks: every generated tree in one tsc run', async () => {
    const { code, output } = await typecheck;
    expect(output).toBe('');
    expect(code).toBe(0);
  }, 90_000);
});
