/**
 * `spec diff`: given two small hand-written schemas, the changelog wants exactly these entries,
 * in this order, rendered as this Markdown; and docs/changes/ holds the changelogs of the
 * pinned revisions as a fresh computation gives them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRevision, diffOutput } from '../../codegen/main.js';
import { buildTable } from '../../codegen/method-table.js';
import { buildModel } from '../../codegen/model.js';
import { describe as describeType, diffRevisions, isEmptyDiff, type ProtocolDiff, type RevisionSide } from '../../codegen/spec-diff.js';
import { renderDiffMarkdown } from '../../codegen/spec-diff-markdown.js';
import { changelogDocs, DOCS_DIR, MARKDOWN_HEADER_PATTERN, unmarkedDocs } from '../../codegen/spec-docs.js';
import { readPins, sha256, type RevisionPin } from '../../codegen/spec-source.js';
import { repoRoot, specMirrorDir } from './spec-examples.js';

type Defs = Record<string, Record<string, unknown>>;
const ref = (name: string) => ({ $ref: `#/$defs/${name}` });
const method = (name: string, params?: Record<string, unknown>) => ({
  type: 'object',
  properties: { jsonrpc: { const: '2.0', type: 'string' }, method: { const: name, type: 'string' }, ...(params ? { params } : {}) },
  required: ['jsonrpc', 'method'],
});

function side(revision: string, defs: Defs): RevisionSide {
  const pin: RevisionPin = { revision, url: 'https://example.invalid/schema.json', sha256: sha256(revision), era: 'stateful', status: 'released' };
  const model = buildModel(pin, { $defs: defs }, []);
  return { model, table: buildTable(model) };
}

/** A tiny protocol: ping both ways, tools/list from the client, a Tool and its content. */
function baseDefs(): Defs {
  return {
    EmptyResult: { type: 'object', properties: { _meta: { type: 'object', additionalProperties: {} } } },
    PingRequest: method('ping'),
    ListToolsRequest: method('tools/list', { type: 'object', properties: { cursor: { type: 'string' } } }),
    ListToolsResult: { type: 'object', properties: { nextCursor: { type: 'string' }, tools: { type: 'array', items: ref('Tool') } }, required: ['tools'] },
    Tool: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        title: { type: 'string' },
        icon: { type: 'string', format: 'uri' },
        annotations: { type: 'object', properties: { audience: { type: 'array', items: ref('Role') } } },
      },
      required: ['name', 'title'],
    },
    Role: { type: 'string', enum: ['user', 'assistant'] },
    TextContent: { type: 'object', properties: { type: { const: 'text', type: 'string' }, text: { type: 'string' } }, required: ['type', 'text'] },
    ImageContent: { type: 'object', properties: { type: { const: 'image', type: 'string' }, data: { type: 'string' } }, required: ['type', 'data'] },
    ContentBlock: { anyOf: [ref('TextContent'), ref('ImageContent')] },
    ClientRequest: { anyOf: [ref('PingRequest'), ref('ListToolsRequest')] },
    ServerRequest: { anyOf: [ref('PingRequest')] },
    ClientCapabilities: { type: 'object', properties: { roots: { type: 'object', properties: { listChanged: { type: 'boolean' } } } } },
    ServerCapabilities: { type: 'object', properties: { logging: { type: 'object' } } },
  };
}

function changed(edit: (defs: Defs) => void): Defs {
  const defs = baseDefs();
  edit(defs);
  return defs;
}

const props = (defs: Defs, name: string) => defs[name]!.properties as Defs;

function diffOf(edit: (defs: Defs) => void): ProtocolDiff {
  return diffRevisions(side('2025-01-01', baseDefs()), side('2025-02-01', changed(edit)));
}

describe('given two schemas, the changelog wants', () => {
  it('nothing when they are the same, whatever the member order', () => {
    const shuffled = Object.fromEntries(Object.entries(baseDefs()).reverse());
    const diff = diffRevisions(side('2025-01-01', baseDefs()), side('2025-02-01', shuffled));
    expect(isEmptyDiff(diff)).toBe(true);
    expect(renderDiffMarkdown(diff)).toContain('\nNo protocol changes.\n');
  });

  it('fields added, removed, made required or optional, with their types', () => {
    const diff = diffOf((defs) => {
      const tool = props(defs, 'Tool');
      tool.description = { type: 'string' };
      tool.inputSchema = ref('ToolInput');
      delete tool.icon;
      defs.Tool!.required = ['name', 'inputSchema'];
      defs.ToolInput = { type: 'object' };
    });
    expect(diff.fields).toEqual([
      { definition: 'Tool', path: 'description', change: 'added', type: 'string', required: false },
      { definition: 'Tool', path: 'icon', change: 'removed', type: 'string (uri)', required: false },
      { definition: 'Tool', path: 'inputSchema', change: 'added', type: 'ToolInput', required: true },
      { definition: 'Tool', path: 'title', change: 'optional' },
    ]);
    expect(diff.definitions).toEqual({ added: ['ToolInput'], removed: [] });
  });

  it('type changes described as types, nested fields by path, union members by name', () => {
    const diff = diffOf((defs) => {
      props(defs, 'Tool').name = { type: ['string', 'number'] };
      (props(defs, 'Tool').annotations!.properties as Defs).priority = { type: 'number' };
      (props(defs, 'ListToolsRequest').params!.properties as Defs).cursor = { type: 'string', format: 'uri' };
      defs.AudioContent = { type: 'object', properties: { type: { const: 'audio', type: 'string' } } };
      defs.ContentBlock = { anyOf: [ref('TextContent'), ref('AudioContent')] };
      props(defs, 'ListToolsResult').tools = { type: 'array', items: { anyOf: [ref('Tool'), { type: 'null' }] } };
    });
    expect(diff.fields).toEqual([
      { definition: 'ContentBlock', path: '', change: 'members', added: ['AudioContent'], removed: ['ImageContent'] },
      { definition: 'ListToolsRequest', path: 'params.cursor', change: 'type', from: 'string', to: 'string (uri)' },
      { definition: 'ListToolsResult', path: 'tools[]', change: 'type', from: 'Tool', to: 'Tool | null' },
      { definition: 'Tool', path: 'annotations.priority', change: 'added', type: 'number', required: false },
      { definition: 'Tool', path: 'name', change: 'type', from: 'string', to: 'string | number' },
    ]);
  });

  it('an inline object turned into a definition is compared member by member', () => {
    const diff = diffOf((defs) => {
      defs.Annotations = { type: 'object', properties: { audience: { type: 'array', items: ref('Role') }, lastModified: { type: 'string' } } };
      props(defs, 'Tool').annotations = ref('Annotations');
    });
    expect(diff.fields).toEqual([
      { definition: 'Tool', path: 'annotations', change: 'type', from: 'object', to: 'Annotations' },
      { definition: 'Tool', path: 'annotations.lastModified', change: 'added', type: 'string', required: false },
    ]);
  });

  it('enum values and consts, reported once (not again as a type change)', () => {
    const diff = diffOf((defs) => {
      defs.Role!.enum = ['user', 'assistant', 'system'].filter((r) => r !== 'assistant');
      props(defs, 'TextContent').type = { const: 'plain', type: 'string' };
      props(defs, 'ImageContent').type = { type: 'string' };
    });
    expect(diff.fields).toEqual([]);
    expect(diff.values).toEqual([
      { definition: 'ImageContent', path: 'type', change: 'const', from: 'image' },
      { definition: 'Role', path: '', change: 'enum', added: ['system'], removed: ['assistant'] },
      { definition: 'TextContent', path: 'type', change: 'const', from: 'text', to: 'plain' },
    ]);
  });

  it('methods added, removed, and changed in direction, capability gate and results', () => {
    const diff = diffOf((defs) => {
      defs.ServerCapabilities = { type: 'object', properties: { logging: { type: 'object' }, tools: { type: 'object' } } };
      defs.ServerRequest = { anyOf: [ref('ListToolsRequest')] };
      defs.ClientRequest = { anyOf: [ref('ListToolsRequest'), ref('CallToolRequest')] };
      defs.CallToolRequest = method('tools/call', { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
      defs.CallToolResult = { type: 'object', properties: { content: { type: 'array', items: ref('ContentBlock') } } };
      delete defs.PingRequest;
    });
    expect(diff.methods).toEqual({
      added: [{ method: 'tools/call', kind: 'request', direction: 'client-to-server', capability: { side: 'server', path: 'tools' } }],
      removed: [{ method: 'ping', kind: 'request', direction: 'both', capability: null }],
      changed: [{ method: 'tools/list', direction: { from: 'client-to-server', to: 'both' }, capability: { from: null, to: { side: 'receiver', path: 'tools' } } }],
    });
  });

  it('capabilities by side, nested by path, kept out of the fields section', () => {
    const diff = diffOf((defs) => {
      defs.ClientCapabilities = { type: 'object', properties: { roots: { type: 'object' }, elicitation: { type: 'object', properties: { url: { type: 'object' } } } } };
      defs.ServerCapabilities = { type: 'object', properties: { logging: ref('JSONObject') } };
      defs.JSONObject = { type: 'object', additionalProperties: {} };
    });
    expect(diff.capabilities).toEqual({
      client: [
        { definition: 'ClientCapabilities', path: 'elicitation', change: 'added', type: 'object', required: false },
        { definition: 'ClientCapabilities', path: 'roots.listChanged', change: 'removed', type: 'boolean', required: false },
      ],
      server: [{ definition: 'ServerCapabilities', path: 'logging', change: 'type', from: 'object', to: 'JSONObject' }],
    });
    expect(diff.fields).toEqual([]);
    expect(diff.definitions.added).toEqual(['JSONObject']);
  });

  it('Markdown with headed sections in a stable order', () => {
    const diff = diffOf((defs) => {
      defs.ServerCapabilities = { type: 'object', properties: { logging: { type: 'object' }, tools: { type: 'object', properties: { listChanged: { type: 'boolean' } } } } };
      props(defs, 'Tool').name = { type: ['string', 'number'] };
      defs.Role!.enum = ['user', 'assistant', 'system'];
      delete defs.ImageContent;
      defs.ContentBlock = { anyOf: [ref('TextContent')] };
    });
    expect(renderDiffMarkdown(diff)).toBe(
      [
        '# MCP protocol changes: 2025-01-01 → 2025-02-01',
        '',
        `Computed by \`tsx codegen/cli.ts spec diff 2025-01-01 2025-02-01\` from the normalized schemas of \`2025-01-01\` (schema sha256 \`${sha256('2025-01-01').slice(0, 12)}\`, patches: none) and \`2025-02-01\` (schema sha256 \`${sha256('2025-02-01').slice(0, 12)}\`, patches: none).`,
        '',
        '| | added | removed | changed |',
        '|---|---|---|---|',
        '| methods | 0 | 0 | 1 |',
        '| capabilities | 1 | 0 | 0 |',
        '| definitions | 0 | 1 | 2 |',
        '| fields | 0 | 0 | 2 |',
        '| enum and const values | 1 | 0 | 0 |',
        '',
        '## Methods changed',
        '',
        '- `tools/list`: gate ungated → server capability `tools`',
        '',
        '## Capabilities',
        '',
        '### Server capabilities',
        '',
        '- added `tools` (optional): `object`',
        '',
        '## Definitions removed',
        '',
        '- `ImageContent`',
        '',
        '## Fields',
        '',
        '### `ContentBlock`',
        '',
        '- members: removed `ImageContent`',
        '',
        '### `Tool`',
        '',
        '- `name` type `string` → `string | number`',
        '',
        '## Enum and const values',
        '',
        '- `Role` enum: added `"system"`',
        '',
      ].join('\n'),
    );
  });

  it('JSON with the inputs named, for tools', () => {
    const diff = diffOf((defs) => {
      delete defs.ImageContent;
      defs.ContentBlock = { anyOf: [ref('TextContent')] };
    });
    const json = JSON.parse(JSON.stringify(diff)) as ProtocolDiff;
    expect(json.from).toEqual({ revision: '2025-01-01', sha256: sha256('2025-01-01'), patches: [] });
    expect(json.definitions.removed).toEqual(['ImageContent']);
    expect(Object.keys(json)).toEqual(['from', 'to', 'methods', 'capabilities', 'definitions', 'fields', 'values']);
  });

  it('type descriptions', () => {
    expect(describeType({ type: 'array', items: { anyOf: [{ type: 'string' }, ref('X')] } })).toBe('(string | X)[]');
    expect(describeType({ type: 'object', additionalProperties: { type: 'integer' } })).toBe('Record<string, integer>');
    expect(describeType({ enum: ['a', 'b'] })).toBe('string');
    expect(describeType({ enum: ['a', 'b'] }, { literals: true })).toBe('"a" | "b"');
    expect(describeType({ anyOf: [{ type: 'number' }, { type: 'string' }] }, { sorted: true })).toBe('number | string');
    expect(describeType({ description: 'anything' })).toBe('unknown');
  });
});

describe('docs/changes', () => {
  it('holds the changelog of each pair of consecutive pins, as generated', async () => {
    const mirror = specMirrorDir();
    const revisions = await Promise.all(readPins().map((pin) => buildRevision(pin, { mirror })));
    const docs = changelogDocs(revisions);
    const pins = readPins().map((p) => p.revision);
    const pairs = pins.slice(1).map((rev, i) => `${pins[i]}..${rev}`);
    expect([...docs.keys()].sort()).toEqual([...pairs.flatMap((p) => [`${p}.json`, `${p}.md`]), 'README.md'].sort());
    const dir = join(repoRoot, DOCS_DIR);
    expect([...diffOutput(docs, dir, DOCS_DIR), ...unmarkedDocs(dir)], 'run `make generate`').toEqual([]);
    for (const [path, content] of docs) if (path.endsWith('.md')) expect(content, path).toMatch(MARKDOWN_HEADER_PATTERN);
    expect(readFileSync(join(dir, '2026-07-28..draft.md'), 'utf8')).toContain('\nNo protocol changes.\n');
  });
});
