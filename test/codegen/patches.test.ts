import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyPatches, loadPatches, type Patch } from '../../codegen/patches.js';
import {
  REVISIONS,
  definitionValidators,
  isObject,
  readSchema,
  repoRoot,
  specMirror,
  type DefinitionValidator,
  type JsonObject,
} from './spec-mirror.js';

/**
 * One message checked against one schema definition. `before` is the verdict of the schema
 * without the patch under test (both the raw schema and the schema carrying the revision's
 * other patches); `after` is the verdict once every patch of the revision is applied.
 */
interface Vector {
  readonly note: string;
  readonly definition: string;
  readonly value: unknown;
  readonly before: boolean;
  readonly after: boolean;
}

// 2026-era requests carry their protocol version and capabilities in _meta.
const META_2026 = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'example-client', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { sampling: {}, elicitation: { form: {} } },
};

function samplingRequest(metadata: JsonObject): JsonObject {
  return {
    method: 'sampling/createMessage',
    params: {
      messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the release notes.' } }],
      maxTokens: 200,
      metadata,
    },
  };
}

/** Test messages per patch id. Widening patches turn a rejection into acceptance; narrowing ones the reverse. */
const VECTORS: Readonly<Record<string, readonly Vector[]>> = {
  'json-value-number-null': [
    {
      note: 'tools/call answered with an InputRequiredResult whose embedded sampling request has fractional metadata',
      definition: 'CallToolResultResponse',
      value: {
        jsonrpc: '2.0',
        id: 7,
        result: {
          resultType: 'input_required',
          inputRequests: { summary: samplingRequest({ temperatureHint: 1.5 }) },
          requestState: 'opaque-state',
        },
      },
      before: false,
      after: true,
    },
    {
      note: 'sampling request with metadata {"a": 1.5}',
      definition: 'CreateMessageRequest',
      value: samplingRequest({ a: 1.5 }),
      before: false,
      after: true,
    },
    {
      note: 'sampling request with null metadata value',
      definition: 'CreateMessageRequest',
      value: samplingRequest({ traceId: null }),
      before: false,
      after: true,
    },
    {
      note: 'tools/call whose per-request client capabilities carry a fractional extension setting',
      definition: 'CallToolRequest',
      value: {
        jsonrpc: '2.0',
        id: 'call-1',
        method: 'tools/call',
        params: {
          _meta: {
            ...META_2026,
            'io.modelcontextprotocol/clientCapabilities': {
              extensions: { 'com.example/retry': { backoffFactor: 1.5, maxDelayMs: null } },
            },
          },
          name: 'get_weather',
          arguments: { city: 'Oslo' },
        },
      },
      before: false,
      after: true,
    },
    {
      note: 'server capabilities with a fractional experimental setting',
      definition: 'ServerCapabilities',
      value: { tools: {}, experimental: { 'com.example/cache': { hitRatio: 0.25 } } },
      before: false,
      after: true,
    },
    {
      note: 'integer metadata stays valid',
      definition: 'CreateMessageRequest',
      value: samplingRequest({ attempt: 2, nested: { tags: ['a', true] } }),
      before: true,
      after: true,
    },
  ],
  'elicit-result-content-number': [
    {
      note: 'form answer 2.5 to a number field',
      definition: 'ElicitResult',
      value: { action: 'accept', content: { age: 2.5, name: 'Ada' } },
      before: false,
      after: true,
    },
    {
      note: 'integer answers stay valid',
      definition: 'ElicitResult',
      value: { action: 'accept', content: { age: 30, subscribe: true } },
      before: true,
      after: true,
    },
    {
      note: 'objects stay invalid as answers',
      definition: 'ElicitResult',
      value: { action: 'accept', content: { address: { city: 'Oslo' } } },
      before: false,
      after: false,
    },
  ],
  'result-type-core-values': [
    {
      note: 'an extension value is not a core ResultType',
      definition: 'ResultType',
      value: 'task',
      before: true,
      after: false,
    },
    {
      note: 'input_required is a core ResultType',
      definition: 'ResultType',
      value: 'input_required',
      before: true,
      after: true,
    },
    {
      note: 'the base Result stays open for extension result types',
      definition: 'Result',
      value: { resultType: 'task', task: { taskId: 't-1' } },
      before: true,
      after: true,
    },
  ],
  'input-required-result-needs-input': [
    {
      note: 'an input_required result with nothing to answer and nothing to echo',
      definition: 'InputRequiredResult',
      value: { resultType: 'input_required' },
      before: true,
      after: false,
    },
    {
      note: 'a result that only carries request state still passes',
      definition: 'InputRequiredResult',
      value: { resultType: 'input_required', requestState: 'opaque-state' },
      before: true,
      after: true,
    },
  ],
  'input-required-result-type-const': [
    {
      note: 'a "complete" result no longer passes as an InputRequiredResult',
      definition: 'InputRequiredResult',
      value: { resultType: 'complete', requestState: 'opaque-state' },
      before: true,
      after: false,
    },
    {
      note: 'tools/call response with a result type the core protocol does not define',
      definition: 'CallToolResultResponse',
      value: { jsonrpc: '2.0', id: 3, result: { resultType: 'task', requestState: 'opaque', task: { taskId: 't-1', status: 'working' } } },
      before: true,
      after: false,
    },
    {
      note: 'tools/call answered with a genuine InputRequiredResult',
      definition: 'CallToolResultResponse',
      value: {
        jsonrpc: '2.0',
        id: 4,
        result: {
          resultType: 'input_required',
          inputRequests: {
            login: {
              method: 'elicitation/create',
              params: {
                mode: 'form',
                message: 'Your GitHub username?',
                requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
              },
            },
          },
        },
      },
      before: true,
      after: true,
    },
  ],
  'complete-result-type-const': [
    {
      note: 'a CallToolResult cannot claim to be input_required',
      definition: 'CallToolResult',
      value: { resultType: 'input_required', content: [] },
      before: true,
      after: false,
    },
    {
      note: 'a ListToolsResult cannot carry an unknown result type',
      definition: 'ListToolsResult',
      value: { resultType: 'task', tools: [], ttlMs: 0, cacheScope: 'public' },
      before: true,
      after: false,
    },
    {
      note: 'tools/call completed normally',
      definition: 'CallToolResultResponse',
      value: {
        jsonrpc: '2.0',
        id: 5,
        result: { resultType: 'complete', content: [{ type: 'text', text: 'Sunny, 21 °C' }] },
      },
      before: true,
      after: true,
    },
  ],
};

function verdict(validate: DefinitionValidator, vector: Vector): boolean {
  return validate(vector.definition)(vector.value) === true;
}

describe('spec/patches files', () => {
  it.each(REVISIONS)('%s loads and every patch opens with a test op', (revision) => {
    const patches = loadPatches(revision, repoRoot);
    for (const patch of patches) {
      expect(patch.ops[0]?.op).toBe('test');
      expect(patch.reason.length).toBeGreaterThan(40);
    }
  });

  it('lists exactly the expected patches per revision', () => {
    const ids = Object.fromEntries(REVISIONS.map((revision) => [revision, loadPatches(revision, repoRoot).map((p) => p.id)]));
    const stateless = [
      'json-value-number-null',
      'elicit-result-content-number',
      'result-type-core-values',
      'input-required-result-type-const',
      'input-required-result-needs-input',
      'complete-result-type-const',
    ];
    expect(ids).toEqual({
      '2024-11-05': [],
      '2025-03-26': [],
      '2025-06-18': ['elicit-result-content-number'],
      '2025-11-25': ['elicit-result-content-number'],
      '2026-07-28': stateless,
      draft: stateless,
    });
  });
});

describe.each(REVISIONS)('patches of %s against the official schema', (revision) => {
  const patches = loadPatches(revision, repoRoot);

  it('applies cleanly and leaves the input schema untouched', () => {
    const raw = readSchema(revision);
    const snapshot = JSON.stringify(raw);
    const patched = applyPatches(revision, raw, patches);
    expect(JSON.stringify(raw)).toBe(snapshot);
    if (patches.length > 0) expect(JSON.stringify(patched)).not.toBe(snapshot);
  });

  if (patches.length === 0) return;

  // Compiling a 150-definition schema is the slow part, so each variant is built once.
  const variants = new Map<string, DefinitionValidator>();
  const validatorFor = (key: string, build: () => unknown): DefinitionValidator => {
    let validator = variants.get(key);
    if (validator === undefined) {
      const schema = build();
      if (!isObject(schema)) throw new Error(`revision ${revision}: patched schema is not an object`);
      validator = definitionValidators(schema);
      variants.set(key, validator);
    }
    return validator;
  };
  const raw = (): DefinitionValidator => validatorFor('raw', () => readSchema(revision));
  const all = (): DefinitionValidator => validatorFor('all', () => applyPatches(revision, readSchema(revision), patches));
  const allBut = (id: string): DefinitionValidator =>
    validatorFor(`without:${id}`, () =>
      applyPatches(
        revision,
        readSchema(revision),
        patches.filter((p) => p.id !== id),
      ),
    );

  describe.each(patches.map((p) => [p.id, p] as const))('%s', (id, patch) => {
    const vectors = VECTORS[id] ?? [];

    it('has test messages, at least one of which the patch changes the verdict of', () => {
      expect(vectors.length, `add vectors for patch ${id} to VECTORS in this file`).toBeGreaterThan(0);
      expect(vectors.some((v) => v.before !== v.after)).toBe(true);
    });

    it.each(vectors.map((v) => [v.note, v] as const))('%s', (_note, vector) => {
      expect(verdict(raw(), vector), 'verdict of the unpatched schema').toBe(vector.before);
      expect(verdict(allBut(id), vector), `verdict with every patch but ${id}`).toBe(vector.before);
      expect(verdict(all(), vector), 'verdict of the patched schema').toBe(vector.after);
    });

    it('fails loudly, naming revision, patch and pointer, once the guarded value moves', () => {
      const guard = patch.ops[0];
      if (guard?.op !== 'test') throw new Error(`patch ${id} does not start with a test op`);
      const moved = applyPatches(revision, readSchema(revision), [
        {
          id: 'move-guarded-value',
          reason: 'simulates an upstream schema change under the patch',
          ops: [guard, { op: 'replace', path: guard.path, value: 'moved upstream' }],
        },
      ]);
      let message = '';
      try {
        applyPatches(revision, moved, [patch]);
      } catch (error) {
        message = error instanceof Error ? error.message : String(error);
      }
      expect(message).toContain(`revision ${revision}`);
      expect(message).toContain(`patch ${id}`);
      expect(message).toContain(guard.path);
      expect(message).not.toContain('\n');
    });
  });
});

/**
 * Specification examples the patched schema rejects, with the reason. Each is wrong by the
 * spec's own prose; the raw schema accepts it only through a loophole a patch closes.
 */
const KNOWN_INVALID_EXAMPLES: Readonly<Record<string, string>> = {
  'ReadResourceResultResponse/read-resource-result-response.json':
    'omits ttlMs and cacheScope, which ReadResourceResult requires (docs/specification/2026-07-28/changelog.mdx minor change 5); ' +
    'the raw schema accepts it only as an InputRequiredResult, whose resultType is any string until input-required-result-type-const',
};

describe('the specification examples after patching', () => {
  it.each(['2026-07-28', 'draft'])('%s: every example validates against its definition, except the known-invalid ones', (revision) => {
    const examplesDir = join(specMirror(), revision, 'examples');
    const rawValidate = definitionValidators(readSchema(revision));
    const validate = definitionValidators(applyPatches(revision, readSchema(revision), loadPatches(revision, repoRoot)) as JsonObject);
    const failures: string[] = [];
    const rejected: string[] = [];
    let count = 0;
    for (const definition of readdirSync(examplesDir)) {
      for (const file of readdirSync(join(examplesDir, definition))) {
        count += 1;
        const key = `${definition}/${file}`;
        const value: unknown = JSON.parse(readFileSync(join(examplesDir, definition, file), 'utf8'));
        expect(rawValidate(definition)(value), `${key} against the raw schema`).toBe(true);
        const check = validate(definition);
        if (check(value)) continue;
        if (key in KNOWN_INVALID_EXAMPLES) rejected.push(key);
        else failures.push(`${key}: ${JSON.stringify(check.errors)}`);
      }
    }
    expect(count).toBeGreaterThan(100);
    expect(failures).toEqual([]);
    // An upstream fix of a known-invalid example shows up here: drop its entry then.
    expect(rejected.sort()).toEqual(Object.keys(KNOWN_INVALID_EXAMPLES).sort());
  });
});

describe('applyPatches', () => {
  const patch = (id: string, ops: Patch['ops']): Patch => ({ id, reason: 'unit test', ops });

  it('names the revision, patch id and pointer on a failed test, in one line', () => {
    const document = { $defs: { Thing: { type: ['string', 'integer'] } } };
    const run = (): unknown =>
      applyPatches('2099-01-01', document, [
        patch('widen-thing', [
          { op: 'test', path: '/$defs/Thing/type', value: ['string', 'number'] },
          { op: 'replace', path: '/$defs/Thing/type', value: ['string', 'number', 'null'] },
        ]),
      ]);
    expect(run).toThrowError(/revision 2099-01-01, patch widen-thing, ops\[0\] test "\/\$defs\/Thing\/type": test failed/);
    try {
      run();
    } catch (error) {
      expect(String(error)).not.toContain('\n');
    }
  });

  it('names the pointer when a path does not resolve', () => {
    expect(() =>
      applyPatches('draft', { a: {} }, [patch('missing', [{ op: 'test', path: '/a/b/c', value: 1 }])]),
    ).toThrowError(/revision draft, patch missing, ops\[0\] test "\/a\/b\/c": no member "b" at \/a/);
    expect(() =>
      applyPatches('draft', { a: [1] }, [patch('bad-index', [{ op: 'test', path: '/a/0', value: 1 }, { op: 'remove', path: '/a/1' }])]),
    ).toThrowError(/patch bad-index, ops\[1\] remove "\/a\/1": array index 1 is out of range/);
    expect(() =>
      applyPatches('draft', { a: [1] }, [patch('leading-zero', [{ op: 'test', path: '/a/01', value: 1 }])]),
    ).toThrowError(/"01" is not an array index/);
    expect(() =>
      applyPatches('draft', { a: 1 }, [patch('scalar', [{ op: 'test', path: '/a/b', value: 1 }])]),
    ).toThrowError(/\/a is 1, not an object or array/);
    expect(() =>
      applyPatches('draft', { a: 1 }, [patch('escape', [{ op: 'test', path: '/a~2', value: 1 }])]),
    ).toThrowError(/bad escape/);
    expect(() =>
      applyPatches('draft', { a: 1 }, [patch('relative', [{ op: 'test', path: 'a', value: 1 }])]),
    ).toThrowError(/must be empty or start with "\/"/);
  });

  it('decodes ~1 as "/" and ~0 as "~", in that order', () => {
    const document = { 'a/b': { 'c~d': 1 }, '~1': 'literal tilde-one' };
    const result = applyPatches('draft', document, [
      patch('escapes', [
        { op: 'test', path: '/a~1b/c~0d', value: 1 },
        { op: 'replace', path: '/a~1b/c~0d', value: 2 },
        { op: 'test', path: '/~01', value: 'literal tilde-one' },
        { op: 'remove', path: '/~01' },
      ]),
    ]);
    expect(result).toEqual({ 'a/b': { 'c~d': 2 } });
  });

  it('appends with "-", inserts at an index and adds at the end index', () => {
    const document = { list: ['a', 'c'] };
    const result = applyPatches('draft', document, [
      patch('arrays', [
        { op: 'test', path: '/list', value: ['a', 'c'] },
        { op: 'add', path: '/list/-', value: 'd' },
        { op: 'add', path: '/list/1', value: 'b' },
        { op: 'add', path: '/list/4', value: 'e' },
      ]),
    ]);
    expect(result).toEqual({ list: ['a', 'b', 'c', 'd', 'e'] });
    expect(() =>
      applyPatches('draft', document, [patch('too-far', [{ op: 'test', path: '/list', value: ['a', 'c'] }, { op: 'add', path: '/list/3', value: 'x' }])]),
    ).toThrowError(/array index 3 is out of range/);
  });

  it('removes object members and array elements', () => {
    const document = { keep: 1, drop: 2, list: [1, 2, 3] };
    const result = applyPatches('draft', document, [
      patch('removals', [
        { op: 'test', path: '/drop', value: 2 },
        { op: 'remove', path: '/drop' },
        { op: 'remove', path: '/list/1' },
      ]),
    ]);
    expect(result).toEqual({ keep: 1, list: [1, 3] });
    expect(() =>
      applyPatches('draft', document, [patch('gone', [{ op: 'test', path: '/keep', value: 1 }, { op: 'remove', path: '/absent' }])]),
    ).toThrowError(/no member "absent" to remove/);
    expect(() =>
      applyPatches('draft', document, [patch('root', [{ op: 'test', path: '', value: document }, { op: 'remove', path: '' }])]),
    ).toThrowError(/cannot remove the whole document/);
  });

  it('replace needs an existing target, add creates or overwrites a member', () => {
    const document = { a: 1 };
    expect(() =>
      applyPatches('draft', document, [patch('replace-missing', [{ op: 'test', path: '/a', value: 1 }, { op: 'replace', path: '/b', value: 2 }])]),
    ).toThrowError(/no member "b" to replace/);
    const result = applyPatches('draft', document, [
      patch('adds', [
        { op: 'test', path: '/a', value: 1 },
        { op: 'add', path: '/a', value: 10 },
        { op: 'add', path: '/b', value: { c: [] } },
        { op: 'add', path: '/b/c/-', value: null },
      ]),
    ]);
    expect(result).toEqual({ a: 10, b: { c: [null] } });
  });

  it('compares test values as JSON, ignoring member order', () => {
    const document = { schema: { type: 'string', const: 'x' } };
    expect(() =>
      applyPatches('draft', document, [patch('order', [{ op: 'test', path: '/schema', value: { const: 'x', type: 'string' } }])]),
    ).not.toThrow();
    expect(() =>
      applyPatches('draft', document, [patch('extra', [{ op: 'test', path: '/schema', value: { const: 'x', type: 'string', enum: [] } }])]),
    ).toThrowError(/test failed/);
    expect(() =>
      applyPatches('draft', { list: [1, 2] }, [patch('array-order', [{ op: 'test', path: '/list', value: [2, 1] }])]),
    ).toThrowError(/test failed/);
  });

  it('returns a deep copy and never mutates the input or shares patch values', () => {
    const document = { nested: { list: [1] }, untouched: { deep: { value: true } } };
    const snapshot = structuredClone(document);
    const inserted = { fresh: [1] };
    const result = applyPatches('draft', document, [
      patch('copy', [
        { op: 'test', path: '/nested/list', value: [1] },
        { op: 'add', path: '/nested/list/-', value: 2 },
        { op: 'add', path: '/nested/extra', value: inserted },
      ]),
    ]) as { nested: { list: number[]; extra: { fresh: number[] } }; untouched: object };
    expect(document).toEqual(snapshot);
    expect(result.nested.list).toEqual([1, 2]);
    expect(result.untouched).not.toBe(document.untouched);
    inserted.fresh.push(2);
    expect(result.nested.extra.fresh).toEqual([1]);
    const unpatched = applyPatches('draft', document, []);
    expect(unpatched).toEqual(document);
    expect(unpatched).not.toBe(document);
  });

  it('keeps "__proto__" an ordinary member', () => {
    const document: unknown = JSON.parse('{"__proto__": {"polluted": false}}');
    const result = applyPatches('draft', document, [
      patch('proto', [
        { op: 'test', path: '/__proto__/polluted', value: false },
        { op: 'add', path: '/__proto__/polluted', value: true },
      ]),
    ]) as Record<string, unknown>;
    expect(Object.hasOwn(result, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('loadPatches', () => {
  const root = mkdtempSync(join(tmpdir(), 'mcpgen-patches-'));
  mkdirSync(join(root, 'spec', 'patches'), { recursive: true });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const load = (revision: string, content: unknown): (() => Patch[]) => {
    writeFileSync(join(root, 'spec', 'patches', `${revision}.json`), typeof content === 'string' ? content : JSON.stringify(content));
    return () => loadPatches(revision, root);
  };
  const guard = { op: 'test', path: '/a', value: 1 };

  it('reads a valid file', () => {
    expect(load('r-valid', [{ id: 'fix-a', reason: 'because', ops: [guard, { op: 'remove', path: '/a' }] }])()).toEqual([
      { id: 'fix-a', reason: 'because', ops: [guard, { op: 'remove', path: '/a' }] },
    ]);
    expect(load('r-empty', [])()).toEqual([]);
  });

  it('names the revision and file in every error', () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['r-missing-file', undefined, /cannot be read.*needs a file containing \[\]/],
      ['r-bad-json', '[{', /is not valid JSON/],
      ['r-not-array', { id: 'x' }, /must hold a JSON array/],
      ['r-bad-id', [{ id: 'Fix_A', reason: 'r', ops: [guard] }], /patch #0 needs a kebab-case string id/],
      ['r-dup-id', [{ id: 'a', reason: 'r', ops: [guard] }, { id: 'a', reason: 'r', ops: [guard] }], /patch a reuses an id/],
      ['r-no-reason', [{ id: 'a', reason: ' ', ops: [guard] }], /patch a needs a non-empty reason/],
      ['r-no-ops', [{ id: 'a', reason: 'r', ops: [] }], /patch a needs a non-empty ops array/],
      ['r-no-guard', [{ id: 'a', reason: 'r', ops: [{ op: 'remove', path: '/a' }] }], /patch a must start with a test op/],
      ['r-move', [{ id: 'a', reason: 'r', ops: [guard, { op: 'move', from: '/a', path: '/b' }] }], /ops\[1\] has unsupported op "move"/],
      ['r-no-value', [{ id: 'a', reason: 'r', ops: [{ op: 'test', path: '/a' }] }], /ops\[0\] \(test\) needs a value/],
      ['r-bad-path', [{ id: 'a', reason: 'r', ops: [{ op: 'test', path: 'a', value: 1 }] }], /ops\[0\] \(test\) has a bad path "a"/],
      ['r-extra-key', [{ id: 'a', reason: 'r', ops: [guard], note: 'x' }], /patch #0 has unknown member\(s\) note/],
    ];
    for (const [revision, content, pattern] of cases) {
      const run = content === undefined ? () => loadPatches(revision, root) : load(revision, content);
      expect(run, revision).toThrowError(pattern);
      expect(run, revision).toThrowError(`revision ${revision}`);
      expect(run, revision).toThrowError(join(root, 'spec', 'patches', `${revision}.json`));
    }
  });
});
