/**
 * The stable names of generated/protocol/: each comes from a method path through the schema,
 * so a renamed definition resolves to its new name, and a schema lacking a path fails with the
 * fact it lacks. Runs on the 2025-11-25 and 2026-07-28 schemas of the mirror, edited in memory.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTable } from '../../codegen/method-table.js';
import { buildModel, CodegenError } from '../../codegen/model.js';
import { emitErrorCodesFile, emitProtocolFile, resolveFacts, STATEFUL_FACTS, STATELESS_FACTS } from '../../codegen/protocol-facts.js';
import type { RevisionPin } from '../../codegen/spec-source.js';
import { specMirrorDir } from './spec-examples.js';

type Json = Record<string, unknown>;

function built(revision: string, era: 'stateful' | 'stateless', edit: (text: string) => string = (text) => text, defs: (defs: Record<string, Json>) => void = () => {}) {
  const document = JSON.parse(edit(readFileSync(join(specMirrorDir(), revision, 'schema.json'), 'utf8'))) as { $defs: Record<string, Json> };
  defs(document.$defs);
  const pin: RevisionPin = { revision, url: 'https://example.invalid/schema.json', sha256: '0'.repeat(64), era, status: 'released' };
  const model = buildModel(pin, document, []);
  return { model, table: buildTable(model) };
}

describe('resolveFacts', () => {
  it('names the definitions of 2025-11-25 and 2026-07-28 as the runtime knows them', () => {
    const stateful = built('2025-11-25', 'stateful');
    const types = new Map(resolveFacts(stateful.model, stateful.table, STATEFUL_FACTS).map((fact) => [fact.name, fact.type]));
    expect(types.get('Tool')).toBe('T.Tool');
    expect(types.get('Icon')).toBe('T.Icon');
    expect(types.get('ElicitRequestURLParams')).toBe('T.ElicitRequestURLParams');
    expect(types.get('ElicitRequestFormParams')).toBe('T.ElicitRequestFormParams');
    expect(types.get('ClientCapabilities')).toBe('T.ClientCapabilities');
    expect(types.size).toBe(STATEFUL_FACTS.length);
    const stateless = built('2026-07-28', 'stateless');
    expect(resolveFacts(stateless.model, stateless.table, STATELESS_FACTS).map((fact) => fact.type)).toEqual(['T.ClientCapabilities', 'T.LoggingLevel', 'T.DiscoverResult', 'T.SubscriptionFilter']);
  });

  it('follows a renamed definition to its new name', () => {
    const { model, table } = built(
      '2025-11-25',
      'stateful',
      (text) => text.replaceAll('"#/$defs/Annotations"', '"#/$defs/ContentAnnotations"'),
      (defs) => {
        defs.ContentAnnotations = defs.Annotations!;
        delete defs.Annotations;
      },
    );
    const file = emitProtocolFile(model, table, STATEFUL_FACTS, true);
    expect(file).toContain('/** Resource → .annotations. */\nexport type Annotations = T.ContentAnnotations;');
    expect(file).not.toMatch(/T\.Annotations\b/);
  });

  it('writes an indexed type when the path ends inside a definition', () => {
    const { model, table } = built('2025-11-25', 'stateful', (text) => text, (defs) => {
      const properties = defs.ListRootsResult!.properties as Json;
      properties.roots = { type: 'array', items: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] } };
    });
    const root = resolveFacts(model, table, STATEFUL_FACTS).find((fact) => fact.name === 'Root');
    expect(root?.type).toBe(`T.ListRootsResult['roots'][number]`);
  });

  it('fails naming the fact when the schema lacks its path', () => {
    const { model, table } = built('2025-11-25', 'stateful', (text) => text, (defs) => {
      const properties = defs.ListResourceTemplatesResult!.properties as Json;
      properties.templates = properties.resourceTemplates;
      delete properties.resourceTemplates;
    });
    expect(() => resolveFacts(model, table, STATEFUL_FACTS)).toThrow(CodegenError);
    expect(() => resolveFacts(model, table, STATEFUL_FACTS)).toThrow(
      'revision 2025-11-25: the runtime needs ResourceTemplate (the `resources/templates/list` result → .resourceTemplates → items), but definition ListResourceTemplatesResult has no property resourceTemplates',
    );
  });

  it('fails when a method the runtime relies on is gone', () => {
    const { model, table } = built('2026-07-28', 'stateless', (text) => text, (defs) => {
      defs.ClientRequest!.anyOf = (defs.ClientRequest!.anyOf as Json[]).filter((member) => member.$ref !== '#/$defs/SubscriptionsListenRequest');
    });
    expect(() => resolveFacts(model, table, STATELESS_FACTS)).toThrow(/the runtime needs SubscriptionFilter \(the params of `subscriptions\/listen` → \.notifications\), but the revision has no method subscriptions\/listen/);
  });
});

describe('emitErrorCodesFile', () => {
  it('lists each name once with the revisions that have it, and refuses a name with two codes', () => {
    const a = built('2025-11-25', 'stateful').table;
    const b = built('2026-07-28', 'stateless').table;
    const file = emitErrorCodesFile([['2025-11-25', a], ['2026-07-28', b]]);
    expect(file).toContain('/** In 2025-11-25. */\n  URL_ELICITATION_REQUIRED: -32042,');
    expect(file).toContain('/** In 2025-11-25, 2026-07-28. */\n  INVALID_PARAMS: -32602,');
    const clash = { ...b, errorCodes: b.errorCodes.map((code) => (code.name === 'INVALID_PARAMS' ? { ...code, code: -1 } : code)) };
    expect(() => emitErrorCodesFile([['2025-11-25', a], ['2026-07-28', clash]])).toThrow('revision 2026-07-28: error INVALID_PARAMS is -1, but 2025-11-25 say -32602; one name must keep one code');
  });
});
