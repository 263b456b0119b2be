/**
 * The `Mcp-Name` fact per method: codegen gives a stateless-era request the params member its
 * header carries where NAME_HEADER_OVERLAY names its definition, nothing to any other method or
 * to a stateful revision, and refuses an overlay entry whose member the params lack.
 */
import { describe, expect, it } from 'vitest';
import { extensionModule } from '../../generated/extensions/tasks/index.js';
import { buildTable } from '../../codegen/method-table.js';
import { buildModel, CodegenError } from '../../codegen/model.js';
import { nameHeaderMember } from '../../codegen/name-header.js';
import { applyPatches, loadPatches } from '../../codegen/patches.js';
import { readSchema, repoRoot, type JsonObject } from './spec-mirror.js';

function modelOf(source: string) {
  const schema = applyPatches(source, structuredClone(readSchema(source)), loadPatches(source, repoRoot)) as JsonObject;
  return buildModel({ revision: source, url: 'https://example.invalid/schema.json', sha256: '0'.repeat(64), era: 'stateful', status: 'released' }, schema, []);
}

const headers = (source: string) => Object.fromEntries(buildTable(modelOf(source)).methods.filter((spec) => spec.nameHeader !== null).map((spec) => [spec.method, spec.nameHeader]));

describe('nameHeader', () => {
  it('names the target member of tools/call, prompts/get and resources/read in the stateless era, and of no other method', () => {
    expect(headers('2026-07-28')).toEqual({ 'prompts/get': 'name', 'resources/read': 'uri', 'tools/call': 'name' });
  });

  it('is null for every method of a stateful revision, which has no Mcp-Name header', () => {
    expect(headers('2025-11-25')).toEqual({});
  });

  it('reaches the generated modules: the tasks extension addresses its task by id', () => {
    expect(Object.fromEntries(Object.values(extensionModule.methods).map((info) => [info.method, info.nameHeader]))).toEqual({
      'notifications/tasks': null,
      'tasks/cancel': 'taskId',
      'tasks/get': 'taskId',
      'tasks/update': 'taskId',
    });
  });

  it('refuses an overlay entry naming a member the params do not have', () => {
    const model = modelOf('2026-07-28');
    const params = { $ref: '#/$defs/PaginatedRequestParams' };
    const input = { definition: 'ListToolsRequest', kind: 'request' as const, embedded: false, params, stateless: true };
    expect(() => nameHeaderMember(model, input, { ListToolsRequest: { member: 'name', cite: 'test' } })).toThrow(CodegenError);
    expect(() => nameHeaderMember(model, input, { ListToolsRequest: { member: 'name', cite: 'test' } })).toThrow(/params member name of ListToolsRequest/);
    expect(nameHeaderMember(model, { ...input, stateless: false }, { ListToolsRequest: { member: 'name', cite: 'test' } })).toBeNull();
  });
});
