/**
 * Given/want cases for the pure transforms: schema walks, type preparation and emission, and
 * method-table derivation on hand-built models.
 */
import { describe, expect, it } from 'vitest';
import { emitTypes, metaTargets, prepareForTypes, repairLinks } from '../../codegen/emit-types.js';
import type { MethodSpec } from '../../codegen/method-spec.js';
import { buildTable } from '../../codegen/method-table.js';
import { CodegenError, type RevisionModel } from '../../codegen/model.js';
import { canonicalJson, mapSchema, refTarget, type Schema, stripAnnotations, walkSchema } from '../../codegen/schema-walk.js';

const ref = (name: string) => ({ $ref: `#/definitions/${name}` });

function modelOf(definitions: Record<string, Schema>, revision = '2025-06-18'): RevisionModel {
  return {
    pin: { revision, url: `https://example.invalid/${revision}/schema.json`, sha256: '0'.repeat(64), era: 'stateful', status: 'released' },
    schemaSha256: '0'.repeat(64),
    definitions,
    patches: [],
  };
}

describe('schema-walk', () => {
  it('stripAnnotations drops annotation keywords but keeps a property named `description` or `title`', () => {
    const given = {
      type: 'object',
      title: 'Doc',
      description: 'dropped',
      $comment: 'dropped',
      properties: {
        description: { type: 'string', description: 'the text', default: 'x', examples: ['y'] },
        title: { type: 'string', deprecated: true },
      },
      required: ['description', 'title'],
    };
    expect(stripAnnotations(given)).toEqual({
      type: 'object',
      properties: { description: { type: 'string' }, title: { type: 'string' } },
      required: ['description', 'title'],
    });
  });

  it('stripAnnotations leaves data positions (const, enum) alone', () => {
    const given = { const: { description: 'data, not a keyword' }, enum: [{ title: 'x' }], description: 'drop' };
    expect(stripAnnotations(given)).toEqual({ const: { description: 'data, not a keyword' }, enum: [{ title: 'x' }] });
  });

  it('mapSchema visits every schema position bottom-up with its path, and only those', () => {
    const given = {
      properties: { a: { items: { type: 'string' } }, b: { anyOf: [{ type: 'null' }, ref('X')] } },
      additionalProperties: { not: { type: 'number' } },
      items: [{ type: 'integer' }],
      definitions: { D: { type: 'boolean' } },
      patternProperties: { '^x-': { type: 'string' } },
      const: { properties: { notASchema: { type: 'string' } } },
      required: ['a'],
    };
    const paths: string[] = [];
    mapSchema(given, (schema, path) => {
      paths.push(path.join('/'));
      return schema;
    });
    expect(paths).toEqual([
      'properties/a/items',
      'properties/a',
      'properties/b/anyOf/0',
      'properties/b/anyOf/1',
      'properties/b',
      'additionalProperties/not',
      'additionalProperties',
      'items/0',
      'definitions/D',
      'patternProperties/^x-',
      '',
    ]);
  });

  it('mapSchema rebuilds without touching the input', () => {
    const given = { properties: { a: { type: 'string' } } };
    const out = mapSchema(given, (schema) => (schema.type === 'string' ? { ...schema, minLength: 1 } : schema));
    expect(out).toEqual({ properties: { a: { type: 'string', minLength: 1 } } });
    expect(given).toEqual({ properties: { a: { type: 'string' } } });
  });

  it('walkSchema visits parents after children (mapSchema order) and returns nothing', () => {
    const seen: string[] = [];
    walkSchema({ title: 'root', properties: { p: { title: 'child' } } }, (schema) => void seen.push(String(schema.title)));
    expect(seen).toEqual(['child', 'root']);
  });

  it('canonicalJson sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }, 3], c: null } })).toBe('{"a":{"c":null,"d":[{"y":2,"z":1},3]},"b":1}');
    expect(canonicalJson({ x: 1, y: [2, 1] })).toBe(canonicalJson({ y: [2, 1], x: 1 }));
    expect(canonicalJson({ y: [1, 2] })).not.toBe(canonicalJson({ y: [2, 1] }));
    expect(canonicalJson('s"')).toBe('"s\\""');
  });

  it.each<[unknown, string | null]>([
    ['#/definitions/Foo', 'Foo'],
    ['#/$defs/Foo', 'Foo'],
    ['#/definitions/a~1b', 'a/b'],
    ['#/definitions/a~0b', 'a~b'],
    ['#/definitions/a~01', 'a~1'],
    ['#/definitions/with%20space', 'with space'],
    ['#/definitions/Foo/properties/x', null],
    ['other.json#/definitions/Foo', null],
    ['#/components/Foo', null],
    [undefined, null],
    [42, null],
  ])('refTarget(%j) is %j', (given, want) => {
    expect(refTarget(given)).toBe(want);
  });
});

describe('emit-types', () => {
  const names = new Set(['CallToolRequest', 'ListToolsRequest', 'PingRequest', 'Tool', 'MetaObject', 'Call']);

  it.each<[string, string]>([
    ['see {@link CallToolRequesttools/call}.', 'see {@link CallToolRequest | tools/call}.'],
    ['{@link ListToolsRequesttools/list} and {@link PingRequestping}', '{@link ListToolsRequest | tools/list} and {@link PingRequest | ping}'],
    ['{@link Tool}', '{@link Tool}'],
    ['{@link Unknownthing/call}', '{@link Unknownthing/call}'],
    ['{@link Widget}', '{@link Widget}'],
    ['{@link Tool.outputSchema}', '{@link Tool.outputSchema}'],
    ['{@link MetaObject`_meta` key naming rules}', '{@link MetaObject`_meta` key naming rules}'],
    ['{@link CallToolRequest | tools/call}', '{@link CallToolRequest | tools/call}'],
    ['no links here', 'no links here'],
  ])('repairLinks(%j)', (given, want) => {
    expect(repairLinks(given, names)).toBe(want);
  });

  it('prepareForTypes turns $refs into named types, drops nested titles and opens _meta objects', () => {
    const def = {
      title: 'Thing',
      type: 'object',
      description: 'Answers a {@link PingRequestping}.',
      properties: {
        cursor: { ...ref('Cursor'), description: 'Where to go on.' },
        nested: { title: 'Nested', type: 'object', properties: { n: { type: 'number', title: 'N' } } },
        _meta: { type: 'object', properties: { progressToken: { type: 'string' } } },
        list: { type: 'array', items: ref('Tool') },
      },
    };
    expect(prepareForTypes(def, names, new Set(), false)).toEqual({
      type: 'object',
      description: 'Answers a {@link PingRequest | ping}.',
      properties: {
        cursor: { tsType: 'Cursor', description: 'Where to go on.' },
        nested: { type: 'object', properties: { n: { type: 'number' } } },
        _meta: { type: 'object', properties: { progressToken: { type: 'string' } }, additionalProperties: {} },
        list: { type: 'array', items: { tsType: 'Tool' } },
      },
    });
  });

  it('prepareForTypes leaves a referenced or explicitly closed _meta as it is', () => {
    const given = { type: 'object', properties: { _meta: ref('MetaObject') } };
    expect(prepareForTypes(given, names, new Set(), false)).toEqual({ type: 'object', properties: { _meta: { tsType: 'MetaObject' } } });
    const closed = { type: 'object', properties: { _meta: { type: 'object', additionalProperties: false } } };
    expect(prepareForTypes(closed, names, new Set(), false)).toEqual(closed);
  });

  it('prepareForTypes opens the root of a _meta definition only', () => {
    const def = { type: 'object', properties: { a: { type: 'object' } } };
    expect(prepareForTypes(def, names, new Set(), true)).toEqual({ ...def, additionalProperties: {} });
    expect(prepareForTypes(def, names, new Set(), false)).toEqual(def);
    expect(prepareForTypes({ type: 'object', additionalProperties: false }, names, new Set(), true)).toEqual({ type: 'object', additionalProperties: false });
    expect(prepareForTypes({ type: 'string' }, names, new Set(), true)).toEqual({ type: 'string' });
  });

  it('prepareForTypes types a node without validation keywords as unknown', () => {
    const def = { type: 'object', properties: { anything: { description: 'Any JSON value.' }, empty: {} } };
    expect(prepareForTypes(def, names, new Set(), false)).toEqual({
      type: 'object',
      properties: { anything: { description: 'Any JSON value.', tsType: 'unknown' }, empty: { tsType: 'unknown' } },
    });
  });

  it('metaTargets finds the definitions referenced from a _meta position, at any depth', () => {
    const model = modelOf({
      A: { type: 'object', properties: { _meta: ref('MetaObject') } },
      B: { type: 'object', properties: { params: { type: 'object', properties: { _meta: ref('RequestMeta') } } } },
      MetaObject: { type: 'object' },
      RequestMeta: { type: 'object' },
      NotMeta: { type: 'object', properties: { meta: ref('Other') } },
      Other: { type: 'object' },
    });
    expect([...metaTargets(model)].sort()).toEqual(['MetaObject', 'RequestMeta']);
  });

  it('emitTypes declares every definition once under its own name', async () => {
    const model = modelOf({
      Cursor: { type: 'string', description: 'An opaque token.' },
      RequestId: { type: ['string', 'integer'] },
      MetaObject: { type: 'object', description: 'Open metadata.' },
      Page: {
        type: 'object',
        properties: {
          _meta: ref('MetaObject'),
          nextCursor: ref('Cursor'),
          anything: { description: 'Any JSON value.' },
          detail: { title: 'Detail', type: 'object', properties: { size: { type: 'integer' } }, required: ['size'] },
          items: { type: 'array', items: ref('Item') },
        },
        required: ['items'],
      },
      Item: { type: 'object', properties: { id: ref('RequestId'), page: ref('Page') }, required: ['id'] },
    });
    const source = await emitTypes(model);
    const declared = [...source.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
    expect(declared.sort()).toEqual(['Cursor', 'Item', 'MetaObject', 'Page', 'RequestId']);
    expect(source).toContain('export type Cursor = string;');
    expect(source).toContain('export type RequestId = string | number;');
    expect(source).toContain('export interface MetaObject {\n  [k: string]: unknown;\n}');
    expect(source).toContain('  anything?: unknown;');
    expect(source).toContain('  nextCursor?: Cursor;');
    expect(source).toContain('  _meta?: MetaObject;');
    expect(source).toContain('  items: Item[];');
    expect(source).toContain('  id: RequestId;');
    expect(source).toContain('  page?: Page;');
    expect(source).toMatch(/ {2}detail\?: \{\n {4}size: number;\n {2}\};/);
    expect(source).not.toMatch(/\b(?:Cursor|Item|Page|RequestId|MetaObject)1\b/);
    expect(source).not.toContain('Detail');
    // Objects stay closed unless a schema opens them.
    expect(source.match(/\[k: string\]: unknown;/g)).toHaveLength(1);
  });
});

describe('method-table buildTable', () => {
  /** A request or notification definition with a method const and optional params. */
  const message = (method: string, params?: Schema, required: string[] = ['method']): Schema => ({
    type: 'object',
    properties: { method: { const: method, type: 'string' }, ...(params === undefined ? {} : { params }) },
    required,
  });
  const result = (props: Schema = {}): Schema => ({ type: 'object', properties: props });

  const base = (): Record<string, Schema> => ({
    PingRequest: message('ping'),
    CallToolRequest: message('tools/call', ref('CallToolRequestParams'), ['method', 'params']),
    CallToolRequestParams: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    CallToolResult: result({ content: { type: 'array' } }),
    SetLevelRequest: message('logging/setLevel', { type: 'object', properties: { level: { type: 'string' } } }, ['method', 'params']),
    ListRootsRequest: message('roots/list'),
    ListRootsResult: result({ roots: { type: 'array' } }),
    CreateMessageRequest: message('sampling/createMessage', ref('CreateMessageRequestParams'), ['method', 'params']),
    CreateMessageRequestParams: { type: 'object' },
    CreateMessageResult: result(),
    ToolListChangedNotification: message('notifications/tools/list_changed'),
    CancelledNotification: message('notifications/cancelled'),
    EmptyResult: result(),
    ServerCapabilities: { type: 'object', properties: { tools: { type: 'object' }, logging: { type: 'object' } } },
    ClientCapabilities: { type: 'object', properties: { sampling: { type: 'object' } } },
    ClientRequest: { anyOf: [ref('PingRequest'), ref('CallToolRequest'), ref('SetLevelRequest')] },
    ServerRequest: { anyOf: [ref('PingRequest'), ref('ListRootsRequest')] },
    InputRequest: { anyOf: [ref('CreateMessageRequest')] },
    ClientNotification: { anyOf: [ref('CancelledNotification')] },
    ServerNotification: { anyOf: [ref('CancelledNotification'), ref('ToolListChangedNotification')] },
  });
  const NO_TOOLS_LIST =
    'revision 2025-06-18: definition ToolListChangedNotification (notifications/tools/list_changed) invalidates no list: the revision has no ListToolsRequest; add the lists to LIST_CHANGED_OVERLAY';
  const spec = (methods: readonly MethodSpec[], method: string): MethodSpec => {
    const found = methods.find((m) => m.method === method);
    if (found === undefined) throw new Error(`no ${method} in the table`);
    return found;
  };

  it('derives direction from the unions that list a method, sorted by method name', () => {
    const { methods, warnings } = buildTable(modelOf(base()));
    expect(methods.map((m) => [m.method, m.kind, m.direction, m.embedded])).toEqual([
      ['logging/setLevel', 'request', 'client-to-server', false],
      ['notifications/cancelled', 'notification', 'both', false],
      ['notifications/tools/list_changed', 'notification', 'server-to-client', false],
      ['ping', 'request', 'both', false],
      ['roots/list', 'request', 'server-to-client', false],
      ['sampling/createMessage', 'request', 'server-to-client', true],
      ['tools/call', 'request', 'client-to-server', false],
    ]);
    // The base schema has the tools list_changed notification but no ListToolsRequest.
    expect(warnings).toEqual([NO_TOOLS_LIST]);
  });

  it('records params, results, gates and stub names', () => {
    const { methods } = buildTable(modelOf(base()));
    expect(spec(methods, 'tools/call')).toMatchObject({
      definition: 'CallToolRequest',
      paramsDefinition: 'CallToolRequestParams',
      paramsSchema: null,
      paramsRequired: true,
      resultDefinitions: ['CallToolResult'],
      capability: { holder: 'receiver', path: ['tools'] },
      stubName: 'callTool',
    });
    expect(spec(methods, 'logging/setLevel')).toMatchObject({
      paramsDefinition: null,
      paramsSchema: { type: 'object', properties: { level: { type: 'string' } } },
      resultDefinitions: ['EmptyResult'],
      capability: { holder: 'receiver', path: ['logging'] },
      stubName: 'setLoggingLevel',
    });
    expect(spec(methods, 'ping')).toMatchObject({ paramsDefinition: null, paramsSchema: null, paramsRequired: false, resultDefinitions: ['EmptyResult'], capability: null, stubName: 'ping' });
    expect(spec(methods, 'sampling/createMessage')).toMatchObject({ resultDefinitions: ['CreateMessageResult'], capability: { holder: 'receiver', path: ['sampling'] }, stubName: 'createMessage' });
    expect(spec(methods, 'notifications/tools/list_changed')).toMatchObject({
      resultDefinitions: [],
      capability: { holder: 'sender', path: ['tools', 'listChanged'] },
      stubName: 'notifyToolListChanged',
    });
  });

  it('takes the result from <B>ResultResponse.result members, final result first', () => {
    const defs = base();
    defs.InputRequiredResult = result({ resultType: { const: 'input_required', type: 'string' } });
    defs.CallToolResultResponse = { type: 'object', properties: { result: { anyOf: [ref('InputRequiredResult'), ref('CallToolResult')] } } };
    defs.ListRootsResultResponse = { type: 'object', properties: { result: ref('ListRootsResult') } };
    // A response definition wins over <B>Result even when it names something else.
    defs.ListRootsResult = result();
    defs.OtherRootsResult = result();
    defs.ListRootsResultResponse = { type: 'object', properties: { result: ref('OtherRootsResult') } };
    const { methods } = buildTable(modelOf(defs));
    expect(spec(methods, 'tools/call').resultDefinitions).toEqual(['CallToolResult', 'InputRequiredResult']);
    expect(spec(methods, 'roots/list').resultDefinitions).toEqual(['OtherRootsResult']);
  });

  it('rejects a <B>ResultResponse whose result is missing or inline', () => {
    const noResult = base();
    noResult.CallToolResultResponse = { type: 'object', properties: {} };
    expect(() => buildTable(modelOf(noResult))).toThrow(new CodegenError('revision 2025-06-18: definition CallToolResultResponse has no result property'));
    const inline = base();
    inline.CallToolResultResponse = { type: 'object', properties: { result: { anyOf: [ref('CallToolResult'), { type: 'object' }] } } };
    expect(() => buildTable(modelOf(inline))).toThrow(/definition CallToolResultResponse has a result member that is not a definition reference/);
  });

  it('throws a CodegenError naming the request whose result cannot be derived', () => {
    const defs = base();
    delete defs.EmptyResult;
    defs.ClientRequest = { anyOf: [ref('CallToolRequest'), ref('SetLevelRequest')] };
    defs.ServerRequest = { anyOf: [ref('ListRootsRequest')] };
    let caught: unknown;
    try {
      buildTable(modelOf(defs));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CodegenError);
    expect((caught as Error).message).toBe(
      'revision 2025-06-18: definition SetLevelRequest: cannot derive its result (no SetLevelResultResponse, SetLevelResult or EmptyResult)',
    );
  });

  it('resolves a union collapsed to one inline object by its properties.method.const', () => {
    const defs = base();
    defs.ServerNotification = message('notifications/tools/list_changed');
    const { methods } = buildTable(modelOf(defs));
    expect(spec(methods, 'notifications/tools/list_changed')).toMatchObject({ definition: 'ToolListChangedNotification', direction: 'server-to-client' });
    expect(spec(methods, 'notifications/cancelled').direction).toBe('client-to-server');
  });

  it('falls back to the union name when no other definition has the collapsed method', () => {
    const defs = base();
    delete defs.ToolListChangedNotification;
    defs.ServerNotification = message('notifications/tools/list_changed');
    const { methods } = buildTable(modelOf(defs));
    expect(spec(methods, 'notifications/tools/list_changed').definition).toBe('ServerNotification');
  });

  it('rejects a union member without a method const, naming it', () => {
    const defs = base();
    defs.PingRequest = { type: 'object', properties: { method: { type: 'string' } } };
    expect(() => buildTable(modelOf(defs))).toThrow('revision 2025-06-18: definition PingRequest (member of ClientRequest) has no properties.method.const');
  });

  it("drops a capability gate whose first segment the revision's capabilities lack", () => {
    const defs = base();
    defs.CompleteRequest = message('completion/complete', ref('CallToolRequestParams'), ['method', 'params']);
    defs.CompleteResult = result();
    defs.ClientRequest = { anyOf: [ref('PingRequest'), ref('CompleteRequest')] };
    expect(spec(buildTable(modelOf(defs)).methods, 'completion/complete').capability).toBeNull();
    // The gate is the server's, so a client-side flag of that name does not count.
    defs.ClientCapabilities = { type: 'object', properties: { completions: { type: 'object' } } };
    expect(spec(buildTable(modelOf(defs)).methods, 'completion/complete').capability).toBeNull();
    defs.ServerCapabilities = { type: 'object', properties: { tools: { type: 'object' }, completions: { type: 'object' } } };
    expect(spec(buildTable(modelOf(defs)).methods, 'completion/complete').capability).toEqual({ holder: 'receiver', path: ['completions'] });
  });

  it('warns about a method the capability overlay does not list and leaves it ungated', () => {
    const defs = base();
    defs.FrobnicateRequest = message('x/frobnicate');
    defs.ClientRequest = { anyOf: [ref('PingRequest'), ref('FrobnicateRequest')] };
    const table = buildTable(modelOf(defs));
    expect(table.warnings).toEqual(['revision 2025-06-18: method x/frobnicate has no capability overlay entry; treating it as ungated', NO_TOOLS_LIST]);
    expect(spec(table.methods, 'x/frobnicate')).toMatchObject({ capability: null, resultDefinitions: ['EmptyResult'], stubName: 'frobnicate' });
  });

  it('derives error codes from the overlay for the revision and cross-checks *Error definitions', () => {
    const codes = (revision: string, defs = base()) => buildTable(modelOf(defs, revision)).errorCodes.map((c) => `${c.name}=${c.code}`);
    expect(codes('2025-06-18')).toEqual(['PARSE_ERROR=-32700', 'INTERNAL_ERROR=-32603', 'INVALID_PARAMS=-32602', 'METHOD_NOT_FOUND=-32601', 'INVALID_REQUEST=-32600', 'RESOURCE_NOT_FOUND=-32002']);
    expect(codes('2026-07-28')).not.toContain('RESOURCE_NOT_FOUND=-32002');
    expect(codes('2026-07-28')).toContain('HEADER_MISMATCH=-32020');
    const defs = base();
    defs.TeapotError = { type: 'object', properties: { code: { const: -32418, type: 'integer' } } };
    expect(() => buildTable(modelOf(defs))).toThrow('definition TeapotError declares error code -32418, which codegen/overlay.ts does not list as TEAPOT; add it with a citation');
  });

  it('allows batching only where JSONRPCMessage admits an array', () => {
    const defs = base();
    defs.JSONRPCRequest = { type: 'object' };
    defs.JSONRPCMessage = { anyOf: [ref('JSONRPCRequest')] };
    expect(buildTable(modelOf(defs)).batching).toBe(false);
    defs.JSONRPCBatchRequest = { type: 'array', items: ref('JSONRPCRequest') };
    defs.JSONRPCMessage = { anyOf: [ref('JSONRPCRequest'), ref('JSONRPCBatchRequest')] };
    expect(buildTable(modelOf(defs)).batching).toBe(true);
  });
});
