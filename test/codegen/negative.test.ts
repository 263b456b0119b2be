/**
 * Mutated messages are rejected with the right instancePath, keyword and params. Every case
 * starts from a value the same validator accepts, so the mutation is what gets caught.
 */
import { describe, expect, it } from 'vitest';
import type { Validator } from '../../generated/contract.js';
import * as r20241105 from '../../generated/2024-11-05/index.js';
import * as r20250326 from '../../generated/2025-03-26/index.js';
import * as r20250618 from '../../generated/2025-06-18/index.js';
import * as r20251125 from '../../generated/2025-11-25/index.js';
import * as r20260728 from '../../generated/2026-07-28/index.js';
import * as rDraft from '../../generated/draft/index.js';
import { issues, readExample, requireValidator } from './spec-examples.js';

type Json = Record<string, unknown>;
interface Issue {
  readonly instancePath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** Runs `validate` on `value`; returns its issues, or null when it accepted the value. */
function rejection(validate: Validator, value: unknown): Issue[] | null {
  return validate(value) ? null : issues(validate);
}

/** A tools/call request as the envelope-free (pre-2025-11-25) CallToolRequest definition has it. */
const STATEFUL_CALL = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_weather', arguments: { location: 'New York' } } };

const CALL_TOOL_BASES: ReadonlyArray<[string, object, () => Json]> = [
  ['2024-11-05', r20241105, () => structuredClone(STATEFUL_CALL)],
  ['2025-03-26', r20250326, () => structuredClone(STATEFUL_CALL)],
  ['2025-06-18', r20250618, () => structuredClone(STATEFUL_CALL)],
  ['2025-11-25', r20251125, () => structuredClone(STATEFUL_CALL)],
  // 2026 params require the per-request _meta; the official example carries it.
  ['2026-07-28', r20260728, () => readExample('2026-07-28', 'CallToolRequest/call-tool-request.json')],
  ['draft', rDraft, () => readExample('2026-07-28', 'CallToolRequest/call-tool-request.json')],
];

interface Mutation {
  readonly note: string;
  readonly mutate: (message: Json) => void;
  readonly issue: Issue;
}

const params = (message: Json) => message.params as Json;

const CALL_TOOL_MUTATIONS: readonly Mutation[] = [
  { note: 'params.name removed', mutate: (m) => delete params(m).name, issue: { instancePath: '/params', keyword: 'required', params: { missingProperty: 'name' } } },
  { note: 'params.name is a number', mutate: (m) => (params(m).name = 42), issue: { instancePath: '/params/name', keyword: 'type', params: { type: 'string' } } },
  { note: 'params.arguments is an array', mutate: (m) => (params(m).arguments = []), issue: { instancePath: '/params/arguments', keyword: 'type', params: { type: 'object' } } },
  { note: 'method names another request', mutate: (m) => (m.method = 'tools/list'), issue: { instancePath: '/method', keyword: 'const', params: { allowedValue: 'tools/call' } } },
  { note: 'params removed', mutate: (m) => delete m.params, issue: { instancePath: '', keyword: 'required', params: { missingProperty: 'params' } } },
];

/** From 2025-11-25 on, request definitions carry the JSON-RPC envelope themselves. */
const ENVELOPE_MUTATIONS: readonly Mutation[] = [
  { note: "jsonrpc '1.0'", mutate: (m) => (m.jsonrpc = '1.0'), issue: { instancePath: '/jsonrpc', keyword: 'const', params: { allowedValue: '2.0' } } },
  { note: 'id is null', mutate: (m) => (m.id = null), issue: { instancePath: '/id', keyword: 'type', params: { type: ['string', 'integer'] } } },
  { note: 'id removed', mutate: (m) => delete m.id, issue: { instancePath: '', keyword: 'required', params: { missingProperty: 'id' } } },
];

/** Revisions whose request definitions include jsonrpc and id (2024-11-05 to 2025-06-18 leave them to JSONRPCRequest). */
const ENVELOPED = new Set(['2025-11-25', '2026-07-28', 'draft']);

describe.each(CALL_TOOL_BASES)('%s CallToolRequest', (revision, mod, base) => {
  const validate = requireValidator(mod, 'CallToolRequest');
  const envelope = ENVELOPED.has(revision);

  it('accepts the unmutated request', () => {
    expect(rejection(validate, base())).toBeNull();
  });

  it.each([...CALL_TOOL_MUTATIONS, ...(envelope ? ENVELOPE_MUTATIONS : [])].map((m) => [m.note, m] as const))('rejects: %s', (_note, mutation) => {
    const message = base();
    mutation.mutate(message);
    expect(rejection(validate, message)).toEqual([mutation.issue]);
  });

  it('rejects a non-object', () => {
    expect(rejection(validate, 'tools/call')).toEqual([{ instancePath: '', keyword: 'type', params: { type: 'object' } }]);
  });

  if (!envelope) {
    it("leaves the envelope to JSONRPCRequest, which rejects jsonrpc '1.0'", () => {
      const message = { ...base(), jsonrpc: '1.0' };
      // The request definition of these revisions has no jsonrpc property at all.
      expect(rejection(validate, message)).toBeNull();
      expect(rejection(requireValidator(mod, 'JSONRPCRequest'), message)).toEqual([
        { instancePath: '/jsonrpc', keyword: 'const', params: { allowedValue: '2.0' } },
      ]);
    });
  }
});

describe('2026-07-28 result validators dispatch on resultType', () => {
  const callResult = r20260728.methods['tools/call'].result;
  const readResult = r20260728.methods['resources/read'].result;
  const sampling = () => readExample('2026-07-28', 'CreateMessageRequest/sampling-request.json');
  const text = [{ type: 'text', text: 'ok' }];

  it('lists the final result first and InputRequiredResult as the alternative', () => {
    expect(r20260728.methods['tools/call'].resultDefinitions).toEqual(['CallToolResult', 'InputRequiredResult']);
    expect(r20260728.methods['resources/read'].resultDefinitions).toEqual(['ReadResourceResult', 'InputRequiredResult']);
  });

  it('accepts a complete CallToolResult and input_required results with state or embedded requests', () => {
    expect(rejection(callResult, { resultType: 'complete', content: text })).toBeNull();
    expect(rejection(callResult, { resultType: 'input_required', requestState: 'opaque' })).toBeNull();
    expect(rejection(callResult, { resultType: 'input_required', inputRequests: { summary: sampling() } })).toBeNull();
  });

  it.each<[string, unknown, Issue[]]>([
    ['inputRequests that is not a map', { resultType: 'input_required', inputRequests: 'x' }, [{ instancePath: '/inputRequests', keyword: 'type', params: { type: 'object' } }]],
    ['requestState that is not a string', { resultType: 'input_required', requestState: 5 }, [{ instancePath: '/requestState', keyword: 'type', params: { type: 'string' } }]],
    // An unknown resultType falls back to the final result, whose resultType is the const 'complete' (patch complete-result-type-const).
    ['an unknown resultType', { resultType: 'bogus', content: text }, [{ instancePath: '/resultType', keyword: 'const', params: { allowedValue: 'complete' } }]],
    ['an absent resultType', { content: text }, [{ instancePath: '', keyword: 'required', params: { missingProperty: 'resultType' } }]],
    ['a complete result without content', { resultType: 'complete' }, [{ instancePath: '', keyword: 'required', params: { missingProperty: 'content' } }]],
  ])('tools/call result rejects %s', (_note, value, want) => {
    expect(rejection(callResult, value)).toEqual(want);
  });

  it('tools/call result rejects an embedded request that is not an InputRequest', () => {
    const found = rejection(callResult, { resultType: 'input_required', inputRequests: { a: { method: 'tools/call', params: { name: 'x' } } } });
    expect(found).toContainEqual({ instancePath: '/inputRequests/a', keyword: 'anyOf', params: {} });
    expect(found).toContainEqual({ instancePath: '/inputRequests/a/method', keyword: 'const', params: { allowedValue: 'sampling/createMessage' } });
  });

  it('tools/call result rejects a broken embedded sampling request at its own path', () => {
    const request = sampling();
    delete (request.params as Json).maxTokens;
    expect(rejection(callResult, { resultType: 'input_required', inputRequests: { summary: request } })).toContainEqual({
      instancePath: '/inputRequests/summary/params',
      keyword: 'required',
      params: { missingProperty: 'maxTokens' },
    });
  });

  it('rejects an input_required result carrying neither inputRequests nor requestState (patch input-required-result-needs-input)', () => {
    const found = rejection(callResult, { resultType: 'input_required' });
    expect(found).toContainEqual(expect.objectContaining({ instancePath: '', keyword: 'required', params: { missingProperty: 'inputRequests' } }));
    expect(found).toContainEqual(expect.objectContaining({ instancePath: '', keyword: 'required', params: { missingProperty: 'requestState' } }));
  });

  const contents = [{ uri: 'file:///project/README.md', mimeType: 'text/markdown', text: '# Project' }];

  it('resources/read result: a complete result without ttlMs fails, with it passes', () => {
    expect(rejection(readResult, { resultType: 'complete', contents, cacheScope: 'private' })).toEqual([
      { instancePath: '', keyword: 'required', params: { missingProperty: 'ttlMs' } },
    ]);
    expect(rejection(readResult, { resultType: 'complete', contents, ttlMs: 60_000 })).toEqual([
      { instancePath: '', keyword: 'required', params: { missingProperty: 'cacheScope' } },
    ]);
    expect(rejection(readResult, { resultType: 'complete', contents, cacheScope: 'private', ttlMs: 60_000 })).toBeNull();
  });

  it('resources/read result: cacheScope outside its enum fails', () => {
    expect(rejection(readResult, { resultType: 'complete', contents, cacheScope: 'shared', ttlMs: 60_000 })).toEqual([
      { instancePath: '/cacheScope', keyword: 'enum', params: { allowedValues: ['private', 'public'] } },
    ]);
  });

  it('resources/read result: an input_required result needs no caching fields', () => {
    expect(rejection(readResult, { resultType: 'input_required', requestState: 'x' })).toBeNull();
  });

  it('2025-11-25 tools/call result is plain CallToolResult: no resultType needed', () => {
    expect(r20251125.methods['tools/call'].resultDefinitions).toEqual(['CallToolResult']);
    expect(rejection(r20251125.methods['tools/call'].result, { content: text })).toBeNull();
    expect(rejection(r20251125.methods['tools/call'].result, { content: 'ok' })).toEqual([{ instancePath: '/content', keyword: 'type', params: { type: 'array' } }]);
  });
});

describe('patched number handling', () => {
  it('2025-06-18 ElicitResult accepts a fractional answer (patch elicit-result-content-number) but not an object', () => {
    const validate = r20250618.validateElicitResult;
    expect(rejection(validate, { action: 'accept', content: { age: 2.5 } })).toBeNull();
    expect(rejection(validate, { action: 'accept', content: { age: { years: 2 } } })).toEqual([
      { instancePath: '/content/age', keyword: 'type', params: { type: ['string', 'number', 'boolean'] } },
    ]);
    expect(rejection(validate, { action: 'maybe' })).toEqual([{ instancePath: '/action', keyword: 'enum', params: { allowedValues: ['accept', 'cancel', 'decline'] } }]);
  });

  it('2026-07-28 CreateMessageRequestParams accepts fractional and null metadata values (patch json-value-number-null)', () => {
    const validate = r20260728.validateCreateMessageRequestParams;
    const base = readExample('2026-07-28', 'CreateMessageRequestParams/basic-request.json');
    expect(rejection(validate, base)).toBeNull();
    expect(rejection(validate, { ...base, metadata: { a: 1.5 } })).toBeNull();
    expect(rejection(validate, { ...base, metadata: { a: null, nested: { list: [0.25, null, 'x'] } } })).toBeNull();
    expect(rejection(validate, { ...base, metadata: 'x' })).toEqual([{ instancePath: '/metadata', keyword: 'type', params: { type: 'object' } }]);
    const withoutMax = { ...base };
    delete withoutMax.maxTokens;
    expect(rejection(validate, withoutMax)).toEqual([{ instancePath: '', keyword: 'required', params: { missingProperty: 'maxTokens' } }]);
  });
});
