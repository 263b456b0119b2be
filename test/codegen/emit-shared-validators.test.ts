/**
 * What a revision shares with its extensions is compiled once, into generated/shared/, and both
 * the revision's validators and the extension's import it; neither compiles it again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedValidators, sharedValidatorsFile } from '../../codegen/emit-shared-validators.js';
import { emitValidatorsFile } from '../../codegen/emit-revision.js';
import type { RevisionTable } from '../../codegen/method-table.js';
import type { RevisionModel } from '../../codegen/model.js';
import { generate, HEADER_PATTERN } from '../../codegen/main.js';
import * as revision from '../../generated/2026-07-28/validators.js';
import * as shared from '../../generated/shared/validators-2026-07-28.js';
import * as tasks from '../../generated/extensions/tasks/validators.js';
import { repoRoot } from './spec-examples.js';

const pair = { type: 'object', properties: { a: { type: 'string', minLength: 1 }, b: { type: 'integer' } }, required: ['a'] };
const model: RevisionModel = {
  pin: { revision: '2099-01-01', url: 'x', sha256: '0'.repeat(64), era: 'stateless', status: 'draft' },
  schemaSha256: '0'.repeat(64),
  definitions: {
    Id: { type: 'string' },
    Envelope: { type: 'object', properties: { id: { $ref: '#/$defs/Id' }, pair, more: pair }, required: ['id'] },
    Own: { type: 'object', properties: { envelope: { $ref: '#/$defs/Envelope' }, pair } },
  },
  patches: [],
};
const table: RevisionTable = { methods: [], errorCodes: [], batching: false, features: { primingEvents: false, ssePolling: false, resumableStreams: false }, changeNotifications: [], loggingLevels: [], warnings: [] };
const targets = Object.entries(model.definitions).map(([name, schema]) => ({ name, schema }));

describe('sharedValidators', () => {
  it('is null when no extension shares a definition', () => {
    expect(sharedValidators(model, [])).toBeNull();
  });

  it('compiles the shared definitions once, exporting every check, and the revision imports them instead of compiling them', () => {
    const module = sharedValidators(model, ['Id', 'Envelope'])!;
    expect(module.file).toBe(sharedValidatorsFile('2099-01-01'));
    expect(module.file).toBe('shared/validators-2099-01-01.ts');
    expect([...module.checks]).toEqual([['Envelope', 'checkEnvelope'], ['Id', 'checkId']]);
    expect(module.text).toMatch(/^export function checkEnvelope\(/m);
    expect(module.text).toMatch(/^export function checkId\(/m);
    expect(module.text).toMatch(/^export const validateEnvelope = /m);
    expect(module.text).not.toMatch(/checkOwn/);
    // The recurring inline `pair` schema gets a function of its own, exported for the revision to call.
    const pairFunction = module.inline.get(JSON.stringify({ properties: { a: { minLength: 1, type: 'string' }, b: { type: 'integer' } }, required: ['a'], type: 'object' }));
    expect(pairFunction).toBe('checkEnvelope$1');
    expect(module.text).toContain('export function checkEnvelope$1(');

    const text = emitValidatorsFile(model, table, targets, module);
    expect(text).toContain(`import { checkEnvelope, checkEnvelope$1 } from '../shared/validators-2099-01-01.js';`);
    expect(text).toContain(`export { validateEnvelope, validateId } from '../shared/validators-2099-01-01.js';`);
    expect(text).toMatch(/^function checkOwn\(/m);
    expect(text).not.toMatch(/function checkEnvelope\(|function checkId\(|export const validateEnvelope/);
    // Without a shared module the revision compiles everything itself, as before.
    const alone = emitValidatorsFile(model, table, targets);
    expect(alone).toMatch(/^function checkEnvelope\(/m);
    expect(alone).not.toContain('../shared/validators-');
  });

  it('is deterministic', () => {
    expect(sharedValidators(model, ['Envelope', 'Id', 'Id'])!.text).toBe(sharedValidators(model, ['Id', 'Envelope'])!.text);
  });
});

describe('generated/shared/validators-2026-07-28.ts', () => {
  it('is what a fresh generation gives, with its header, and the tasks extension imports it, not its core revision', async () => {
    const { files } = await generate({ mirror: process.env.MCP_SPEC_MIRROR });
    const content = files.get('shared/validators-2026-07-28.ts')!;
    expect(HEADER_PATTERN.test(content)).toBe(true);
    expect(readFileSync(join(repoRoot, 'generated', 'shared', 'validators-2026-07-28.ts'), 'utf8')).toBe(content);
    const own = files.get('extensions/tasks/validators.ts')!;
    expect(own).toContain(`from '../../shared/validators-2026-07-28.js'`);
    expect(own).not.toContain('2026-07-28/validators.js');
    expect(files.get('2026-07-28/validators.ts')!).toContain(`from '../shared/validators-2026-07-28.js'`);
    // A revision no extension builds on keeps all its checks to itself.
    expect(files.get('2025-06-18/validators.ts')!).not.toContain('../shared/validators-');
    expect([...files.keys()].filter((path) => path.startsWith('shared/validators-'))).toEqual(['shared/validators-2026-07-28.ts']);
  }, 60_000);

  it('gives the revision and the extension one and the same validator for a shared definition, which checks as before', () => {
    expect(tasks.validateResult).toBe(shared.validateResult);
    expect(revision.validateResult).toBe(shared.validateResult);
    expect(revision.validateContentBlock({ type: 'text', text: 'hi' })).toBe(true);
    expect(revision.validateContentBlock({ type: 'text' })).toBe(false);
    expect(revision.validateContentBlock.errors?.length).toBeGreaterThan(0);
    // A revision-only definition that reaches a shared one reports the shared part's failure with its path.
    expect(revision.validateCallToolResult({ resultType: 'complete', content: [{ type: 'text', text: 1 }] })).toBe(false);
    expect(revision.validateCallToolResult.errors?.[0]?.instancePath).toBe('/content/0/text');
  });
});
