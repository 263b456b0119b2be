/**
 * A new revision needs no runtime edit: a synthetic revision (the 2025-11-25 schema plus a
 * request method, a notification and a capability, with one definition renamed) is generated
 * into a temporary folder, type-checks together with code that uses it through the runtime's
 * public API, and a client and server built from that runtime exchange the new method and
 * notification over the in-memory transport with validation on.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generate } from '../../codegen/main.js';
import { sha256, type RevisionPin } from '../../codegen/spec-source.js';
import { linkedRoot, type TempRoot } from './fixture-root.js';
import { repoRoot } from './spec-examples.js';

const run = promisify(execFile);
const REVISION = '2099-01-01';

type Json = Record<string, unknown>;

/** The 2025-11-25 schema with the synthetic additions; refs to the renamed definition follow it. */
function syntheticSchema(): string {
  const mirror = process.env.MCP_SPEC_MIRROR;
  if (!mirror) throw new Error('MCP_SPEC_MIRROR is not set: export it as the absolute path of the spec mirror folder');
  const text = readFileSync(join(mirror, '2025-11-25', 'schema.json'), 'utf8').replaceAll('"#/$defs/Implementation"', '"#/$defs/ImplementationInfo"');
  const schema = JSON.parse(text) as { $defs: Record<string, Json> };
  const defs = schema.$defs;
  defs.ImplementationInfo = defs.Implementation!;
  delete defs.Implementation;
  const envelope = (method: string, params: string, withId: boolean): Json => ({
    type: 'object',
    properties: {
      ...(withId ? { id: { $ref: '#/$defs/RequestId' } } : {}),
      jsonrpc: { type: 'string', const: '2.0' },
      method: { type: 'string', const: method },
      params: { $ref: `#/$defs/${params}` },
    },
    required: [...(withId ? ['id'] : []), 'jsonrpc', 'method', 'params'],
  });
  defs.SpinWidgetRequest = envelope('widgets/spin', 'SpinWidgetRequestParams', true);
  defs.SpinWidgetRequestParams = { type: 'object', properties: { count: { type: 'integer', minimum: 1 } }, required: ['count'] };
  defs.SpinWidgetResult = { type: 'object', properties: { _meta: { type: 'object', additionalProperties: {} }, spun: { type: 'integer' } }, required: ['spun'] };
  defs.WidgetSpunNotification = envelope('notifications/widgets/spun', 'WidgetSpunNotificationParams', false);
  defs.WidgetSpunNotificationParams = { type: 'object', properties: { total: { type: 'integer' } }, required: ['total'] };
  (defs.ClientRequest!.anyOf as Json[]).push({ $ref: '#/$defs/SpinWidgetRequest' });
  (defs.ServerNotification!.anyOf as Json[]).push({ $ref: '#/$defs/WidgetSpunNotification' });
  (defs.ServerCapabilities!.properties as Json).widgets = { type: 'object', properties: { turbo: { type: 'boolean' } } };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

// Uses only the runtime's public entry; every revision-specific name comes from the generated folder.
const usage = (runtimeEntry: string) => `import { Client, createLinkedPair, Server } from '${runtimeEntry}';
import { revisionModule, validateImplementationInfo, type ProtocolTypes } from './${REVISION}/index.js';

const info = { name: 'synthetic', version: '1.0.0' };
const server = new Server<ProtocolTypes>(info, { revisions: [revisionModule], capabilities: { widgets: { turbo: true } } });
server.setRequestHandler('widgets/spin', (params) => ({ spun: params.count * 2 }));
const client = new Client<ProtocolTypes>(info, { revisions: [revisionModule] });
const totals: number[] = [];
client.setNotificationHandler('notifications/widgets/spun', (params) => {
  totals.push(params.total);
});
const [a, b] = createLinkedPair();
await server.connect(b);
await client.connect(a);
const result = await client.request('widgets/spin', { count: 21 });
const spun: number = result.spun;
await server.notification('notifications/widgets/spun', { total: spun });
const invalid = await client.request('widgets/spin', { count: 0 }).then(() => 'accepted', (error: Error) => error.message);
// @ts-expect-error count must be a number in the generated params type
await client.request('widgets/spin', { count: 'many' }).catch(() => undefined);
await client.ping();
console.log(JSON.stringify({ version: client.protocolVersion, spun, totals, invalid, infoValid: validateImplementationInfo(info), capabilities: client.serverCapabilities }));
await client.close();
`;

let temp: string;
let root: TempRoot;
let out: string;

beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), 'mcpgen-synthetic-'));
  root = linkedRoot([REVISION]);
  const bytes = syntheticSchema();
  const mirror = join(temp, 'mirror');
  mkdirSync(join(mirror, REVISION), { recursive: true });
  writeFileSync(join(mirror, REVISION, 'schema.json'), bytes);
  const pin: RevisionPin = { revision: REVISION, url: 'https://example.invalid/schema.json', sha256: sha256(bytes), era: 'stateful', status: 'released' };
  const { files } = await generate({ root: root.root, mirror, pins: [pin] });
  out = join(temp, 'generated');
  for (const [path, content] of files) {
    mkdirSync(dirname(join(out, path)), { recursive: true });
    writeFileSync(join(out, path), content);
  }
  writeFileSync(join(out, 'usage.ts'), usage(join(repoRoot, 'runtime', 'index.js')));
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(out, 'tsconfig.json'),
    JSON.stringify({
      extends: join(repoRoot, 'tsconfig.json'),
      compilerOptions: { noEmit: true, typeRoots: [join(repoRoot, 'node_modules', '@types')] },
      include: [],
      files: ['usage.ts'],
    }),
  );
}, 120_000);

afterAll(() => {
  rmSync(temp, { recursive: true, force: true });
  root.remove();
});

it('type-checks the generated revision together with runtime code that uses it', async () => {
  const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = await run(process.execPath, [tsc, '-p', join(out, 'tsconfig.json')]).then(
    () => 'ok',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  expect(result).toBe('ok');
}, 120_000);

it('exchanges the new method and notification through the unchanged runtime, validating both ways', async () => {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', join(out, 'usage.ts')], { cwd: repoRoot });
  const report = JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;
  expect(report.version).toBe(REVISION);
  expect(report.spun).toBe(42);
  expect(report.totals).toEqual([42]);
  expect(report.invalid).toMatch(/widgets\/spin.*count.*>= 1/);
  expect(report.infoValid).toBe(true);
  expect(report.capabilities).toEqual({ widgets: { turbo: true } });
}, 60_000);
