/**
 * generated/facts.ts carries each revision's facts without validators, so the runtime can pick
 * a revision before loading its module. The facts must be exactly what the module says.
 */
import { describe, expect, it } from 'vitest';
import { emitFactsFile } from '../../codegen/emit-revision-facts.js';
import type { MethodSpec } from '../../codegen/method-spec.js';
import type { RevisionTable } from '../../codegen/method-table.js';
import type { RevisionModel } from '../../codegen/model.js';
import { revisionModules } from '../../generated/all.js';
import { revisionFacts } from '../../generated/facts.js';
import { revisions } from '../../generated/index.js';

describe('generated/facts.ts', () => {
  it('has every pinned revision, with the era, status, batching and error codes of its module', () => {
    expect(Object.keys(revisionFacts)).toEqual([...revisions]);
    for (const revision of revisions) {
      const module = revisionModules[revision]!;
      const facts = revisionFacts[revision]!;
      expect({ revision: facts.revision, era: facts.era, status: facts.status, batching: facts.batching, errorCodes: facts.errorCodes })
        .toEqual({ revision: module.revision, era: module.era, status: module.status, batching: module.batching, errorCodes: { ...module.errorCodes } });
    }
  });

  it('lists each method with the kind, direction, embedding and capability gate of the method table', () => {
    for (const revision of revisions) {
      const module = revisionModules[revision]!;
      const facts = revisionFacts[revision]!;
      expect(Object.keys(facts.methods).sort()).toEqual(Object.keys(module.methods).sort());
      for (const [method, info] of Object.entries(module.methods)) {
        const { kind, direction, embedded, capability } = facts.methods[method]!;
        expect({ kind, direction, embedded, capability }).toEqual({ kind: info.kind, direction: info.direction, embedded: info.embedded, capability: info.capability });
      }
    }
  });

  it('names the stub the revision module binds for each method', async () => {
    const stateful = await import('../../generated/2025-11-25/index.js');
    const sent: string[] = [];
    const send = async (method: string) => {
      sent.push(method);
    };
    const stubs = { ...stateful.clientStubs(send), ...stateful.serverStubs(send), ...stateful.clientNotifiers(send), ...stateful.serverNotifiers(send) } as Record<string, (params: unknown) => Promise<unknown>>;
    for (const [name, stub] of Object.entries(stubs)) {
      sent.length = 0;
      await stub({});
      expect(revisionFacts['2025-11-25']!.methods[sent[0]!]!.stub).toBe(name);
    }
  });
});

describe('emitFactsFile', () => {
  const spec = (method: string, stubName: string): MethodSpec => ({
    method, kind: 'request', direction: 'client-to-server', embedded: false, definition: 'X', paramsDefinition: null, paramsSchema: null,
    paramsRequired: false, resultDefinitions: ['EmptyResult'], capability: { holder: 'receiver', path: ['tools'] }, paginatedField: null, cacheable: false, stubName, nameHeader: null,
  });
  const entry = (revision: string, methods: MethodSpec[]) => ({
    model: { pin: { revision, era: 'stateful', status: 'released' } } as unknown as RevisionModel,
    table: { methods, errorCodes: [{ name: 'PARSE_ERROR', code: -32700, cite: '' }], batching: false, features: { primingEvents: false, ssePolling: false, resumableStreams: false }, changeNotifications: [], loggingLevels: [], warnings: [] } as RevisionTable,
  });

  it('shares one object for a method whose facts several revisions agree on', () => {
    const text = emitFactsFile([entry('2000-01-01', [spec('a/b', 'ab')]), entry('2000-02-01', [spec('a/b', 'ab'), spec('c/d', 'cd')])]);
    expect(text.match(/^const m\d+: MethodFact/gm)).toHaveLength(2);
    expect(text).toContain(`'a/b': m0,`);
    expect(text).toContain(`'c/d': m1,`);
    expect(text).toContain(`errorCodes: e0,`);
  });

  it('shares one error code table between revisions that define the same codes', () => {
    const withCodes = (revision: string, codes: RevisionTable['errorCodes']) => {
      const made = entry(revision, [spec('a/b', 'ab')]);
      return { ...made, table: { ...made.table, errorCodes: codes } };
    };
    const parse = { name: 'PARSE_ERROR', code: -32700, cite: '' };
    const text = emitFactsFile([withCodes('2000-01-01', [parse]), withCodes('2000-02-01', [parse]), withCodes('2000-03-01', [parse, { name: 'OTHER', code: -32001, cite: '' }])]);
    expect(text.match(/^const e\d+: /gm)).toHaveLength(2);
    expect(text).toContain(`const e0: Readonly<Record<string, number>> = { PARSE_ERROR: -32700 };`);
    expect(text).toContain(`const e1: Readonly<Record<string, number>> = { PARSE_ERROR: -32700, OTHER: -32001 };`);
    expect(text.match(/errorCodes: e0,/g)).toHaveLength(2);
    expect(text).toContain(`errorCodes: e1,`);
  });
});
