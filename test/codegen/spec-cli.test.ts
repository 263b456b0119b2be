/**
 * The `spec` maintainer commands on throw-away copies of the repository root (never the real
 * spec/revisions.json): add from the mirror and by download, update of a draft, forced update of
 * a released pin with its reason recorded, and bad input that must fail with one line and leave
 * generated/, docs/ and spec/ exactly as they were. A few runs go through the CLI as a child
 * process; the rest call runSpecCommand in-process, which is what the CLI dispatches to.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { generateAll, writeOutput } from '../../codegen/main.js';
import { runSpecCommand } from '../../codegen/spec-cli.js';
import { readPins, sha256, type RevisionPin } from '../../codegen/spec-source.js';
import { cliRoot, fixturePin, fixturesDir, runCli, type CliOutcome, type TempRoot } from './fixture-root.js';
import { repoRoot, specMirrorDir } from './spec-examples.js';

const scratch = mkdtempSync(join(tmpdir(), 'mcpgen-spec-cli-'));
const FIXTURE = fixturePin();
const NEW = '2025-02-01';


/** The same command in-process: `args` as after `spec`. */
async function spec(root: string, args: readonly string[], mirror: string): Promise<CliOutcome> {
  let stdout = '';
  let stderr = '';
  const code = await runSpecCommand(args, { root, mirror, out: (text) => void (stdout += text), err: (text) => void (stderr += text) });
  return { code, stdout, stderr };
}

/** Lines of stderr other than the overlay's warnings about the fixture's unknown method. */
const errors = (outcome: CliOutcome) => outcome.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('warning: '));

const fixtureBytes = readFileSync(join(fixturesDir, FIXTURE.revision, 'schema.json'));

/** The fixture schema with one change, as the next revision would publish it. */
function editedSchema(edit: (defs: Record<string, Record<string, unknown>>) => void): string {
  const doc = JSON.parse(fixtureBytes.toString('utf8')) as { $defs: Record<string, Record<string, unknown>> };
  edit(doc.$defs);
  return `${JSON.stringify(doc, null, 2)}\n`;
}
const nextSchema = editedSchema((defs) => {
  const params = defs.EchoRequestParams!.properties as Record<string, unknown>;
  params.language = { type: 'string' };
  delete params.extra;
});
const unmappableSchema = editedSchema((defs) => {
  delete defs.EmptyResult;
});
const files = {
  next: join(scratch, 'next.json'),
  unmappable: join(scratch, 'unmappable.json'),
  notJson: join(scratch, 'not-json.json'),
};
writeFileSync(files.next, nextSchema);
writeFileSync(files.unmappable, unmappableSchema);
writeFileSync(files.notJson, '{"$schema": ');

/** A mirror holding the fixture revision, plus any extra `<revision>/schema.json`. */
function mirrorWith(name: string, extra: Record<string, string> = {}): string {
  const dir = join(scratch, name);
  mkdirSync(join(dir, FIXTURE.revision), { recursive: true });
  copyFileSync(join(fixturesDir, FIXTURE.revision, 'schema.json'), join(dir, FIXTURE.revision, 'schema.json'));
  for (const [rev, text] of Object.entries(extra)) {
    mkdirSync(join(dir, rev), { recursive: true });
    writeFileSync(join(dir, rev, 'schema.json'), text);
  }
  return dir;
}
const plainMirror = mirrorWith('mirror-plain');

/** A root with the given pins and a generated/ (and docs/) written as `generate` would. */
async function preparedRoot(pins: readonly RevisionPin[], mirror: string): Promise<TempRoot> {
  const root = cliRoot(pins);
  writeOutput(root.root, await generateAll({ root: root.root, mirror, pins }), pins);
  return root;
}

/** Every file under generated/, docs/, spec/ and package.json with its hash, plus stray temp folders. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    const full = join(root, rel);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) for (const entry of readdirSync(full).sort()) walk(rel === '' ? entry : `${rel}/${entry}`);
    else out[rel] = createHash('sha256').update(readFileSync(full)).digest('hex');
  };
  for (const top of ['generated', 'docs', 'spec', 'package.json']) walk(top);
  for (const entry of readdirSync(root)) if (/\.(tmp|old)-/.test(entry)) out[entry] = 'stray';
  return out;
}

let server: Server;
let base: string;
let closedPort: number;
beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/next/schema.json') response.end(nextSchema);
    else response.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(scratch, { recursive: true, force: true });
});

describe.concurrent('spec add', () => {
  it('(CLI) pins a revision from the mirror, computing its hash, then generates it and its changelog', async ({ expect }) => {
    const mirror = mirrorWith('mirror-add', { [NEW]: nextSchema });
    const root = await preparedRoot([FIXTURE], mirror);
    try {
      const added = await runCli(root.root, ['spec', 'add', NEW, '--url', 'https://example.invalid/next/schema.json'], mirror);
      expect(errors(added)).toEqual([]);
      expect(added.code).toBe(0);
      // The fixture has no InitializeRequest, so without --era the new revision counts as stateless.
      expect(added.stdout).toBe(`codegen: pinned ${NEW} (stateless, released, sha256 ${sha256(nextSchema)}) from ${join(mirror, NEW, 'schema.json')}; wrote 21 files to generated/ and 3 to docs/changes/\n`);

      const pins = readPins(root.root);
      expect(pins.map((p) => p.revision)).toEqual([FIXTURE.revision, NEW]);
      expect(pins[1]).toEqual({ revision: NEW, url: 'https://example.invalid/next/schema.json', sha256: sha256(nextSchema), era: 'stateless', status: 'released' });
      expect(readFileSync(join(root.root, 'spec', 'patches', `${NEW}.json`), 'utf8')).toBe('[]\n');
      const pkg = JSON.parse(readFileSync(join(root.root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
      expect(pkg.exports[`./${NEW}`]).toEqual({ types: `./dist/generated/${NEW}/index.d.ts`, default: `./dist/esm/generated/${NEW}/index.js` });
      expect(existsSync(join(root.root, 'generated', NEW, 'index.ts'))).toBe(true);
      const changelog = readFileSync(join(root.root, 'docs', 'changes', `${FIXTURE.revision}..${NEW}.md`), 'utf8');
      expect(changelog).toContain('### `EchoRequestParams`\n\n- removed `extra` (was optional): `unknown`\n- added `language` (optional): `string`\n');

      const check = await runCli(root.root, ['generate', '--check'], mirror);
      expect(errors(check)).toEqual([]);
      expect(check.code).toBe(0);
    } finally {
      root.remove();
    }
  }, 60_000);

  it('downloads a revision the mirror lacks, checks --sha256, and caches it for later runs', async ({ expect }) => {
    const root = await preparedRoot([FIXTURE], plainMirror);
    try {
      const url = `${base}/next/schema.json`;
      const added = await spec(root.root, ['add', NEW, '--url', url, '--sha256', sha256(nextSchema).toUpperCase(), '--status', 'released', '--era', 'stateful'], plainMirror);
      expect(errors(added)).toEqual([]);
      expect(added.code).toBe(0);
      expect(added.stdout).toContain(`pinned ${NEW} (stateful, released, sha256 ${sha256(nextSchema)}) from ${url};`);
      expect(readFileSync(join(root.root, '.cache', 'spec', NEW, `${sha256(nextSchema)}.json`), 'utf8')).toBe(nextSchema);
      // A later generation finds the bytes in the cache although the mirror lacks them.
      const again = await generateAll({ root: root.root, mirror: plainMirror, pins: readPins(root.root) });
      expect(again.files.get(`${NEW}/MANIFEST.json`)).toBe(readFileSync(join(root.root, 'generated', NEW, 'MANIFEST.json'), 'utf8'));
    } finally {
      root.remove();
    }
  }, 60_000);
});

describe.concurrent('spec update', () => {
  it('moves the draft pin to new bytes and regenerates; the mirror still holds the old ones', async ({ expect }) => {
    const draft: RevisionPin = { ...FIXTURE, revision: 'draft', status: 'draft' };
    const mirror = mirrorWith('mirror-draft', { draft: fixtureBytes.toString('utf8') });
    const root = await preparedRoot([FIXTURE, draft], mirror);
    try {
      const url = pathToFileURL(files.next).href;
      const moved = await spec(root.root, ['update', 'draft', '--url', url, '--era', 'stateful'], mirror);
      expect(errors(moved)).toEqual([]);
      expect(moved.code).toBe(0);
      expect(moved.stdout).toBe(`codegen: moved draft from sha256 ${FIXTURE.sha256} to ${sha256(nextSchema)}; wrote 21 files to generated/ and 3 to docs/changes/\n`);
      const pin = readPins(root.root).find((p) => p.revision === 'draft')!;
      expect(pin).toEqual({ revision: 'draft', url, sha256: sha256(nextSchema), era: 'stateful', status: 'draft' });
      const manifest = JSON.parse(readFileSync(join(root.root, 'generated', 'draft', 'MANIFEST.json'), 'utf8')) as { schemaSha256: string };
      expect(manifest.schemaSha256).toBe(sha256(nextSchema));
      expect(readFileSync(join(root.root, 'docs', 'changes', `${FIXTURE.revision}..draft.md`), 'utf8')).toContain('- added `language` (optional): `string`');

      const again = await spec(root.root, ['update', 'draft', '--url', url, '--era', 'stateful'], mirror);
      expect(again).toEqual({ code: 0, stdout: `codegen: revision draft is already pinned to ${url} (sha256 ${sha256(nextSchema)}); nothing to do\n`, stderr: '' });
      // Without --era the era follows the schema: no InitializeRequest, so stateless.
      const era = await spec(root.root, ['update', 'draft', '--url', url], mirror);
      expect(era.stdout).toMatch(/, era stateful → stateless; wrote /);
    } finally {
      root.remove();
    }
  }, 60_000);

  it('refuses to move a released pin without --force, and records the reason with it', async ({ expect }) => {
    const root = await preparedRoot([FIXTURE], plainMirror);
    try {
      const url = pathToFileURL(files.next).href;
      const before = snapshot(root.root);
      const refused = await spec(root.root, ['update', FIXTURE.revision, '--url', url], plainMirror);
      expect(refused).toEqual({
        code: 1,
        stdout: '',
        stderr: `codegen: revision ${FIXTURE.revision} is released and its pin is immutable; to move it anyway pass --force --reason "<why>" (recorded in spec/revisions.json)\n`,
      });
      const noReason = await spec(root.root, ['update', FIXTURE.revision, '--url', url, '--force'], plainMirror);
      expect(noReason).toEqual({ code: 2, stdout: '', stderr: 'codegen: --force needs --reason "<why the released pin moves>"; the reason is recorded in spec/revisions.json\n' });
      expect(snapshot(root.root)).toEqual(before);

      const reason = 'upstream fixed a typo in "EchoRequestParams" after release';
      const forced = await spec(root.root, ['update', FIXTURE.revision, '--url', url, '--force', '--reason', reason, '--era', 'stateful'], plainMirror);
      expect(errors(forced)).toEqual([]);
      expect(forced.code).toBe(0);
      const [pin] = readPins(root.root);
      expect(pin).toEqual({
        ...FIXTURE,
        url,
        sha256: sha256(nextSchema),
        history: [{ date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), url: FIXTURE.url, sha256: FIXTURE.sha256, reason }],
      });
      expect(JSON.parse(readFileSync(join(root.root, 'spec', 'revisions.json'), 'utf8'))).toEqual({ revisions: [pin] });
    } finally {
      root.remove();
    }
  }, 60_000);
});

describe('bad input: one line, and nothing written', () => {
  let root: TempRoot;
  let before: Record<string, string>;
  beforeAll(async () => {
    root = await preparedRoot([FIXTURE], plainMirror);
    before = snapshot(root.root);
  });
  afterAll(() => root.remove());

  const hash0 = '0'.repeat(64);
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const cases: ReadonlyArray<{ name: string; args: () => string[]; code: number; message: () => string | RegExp }> = [
    { name: 'a revision name that is no date', args: () => ['add', 'latest', '--url', `${base}/next/schema.json`], code: 2, message: () => 'revision name "latest" is not a protocol revision: use a date YYYY-MM-DD (such as 2025-11-25) or draft' },
    { name: 'an impossible date', args: () => ['update', '2025-02-30', '--url', `${base}/next/schema.json`], code: 2, message: () => 'revision name "2025-02-30" is not a protocol revision: use a date YYYY-MM-DD (such as 2025-11-25) or draft' },
    { name: 'a revision already pinned', args: () => ['add', FIXTURE.revision, '--url', `${base}/next/schema.json`], code: 1, message: () => `revision ${FIXTURE.revision} is already pinned in spec/revisions.json; use \`spec update ${FIXTURE.revision} --url …\` to move it` },
    { name: 'an update of a revision not pinned', args: () => ['update', NEW, '--url', `${base}/next/schema.json`], code: 1, message: () => `revision ${NEW} is not pinned in spec/revisions.json; use \`spec add ${NEW} --url …\` to pin it` },
    { name: 'a URL that is none', args: () => ['add', NEW, '--url', 'schemas/next.json'], code: 2, message: () => '--url "schemas/next.json" is not a URL; give an https:// (or file://) address of a schema.json' },
    {
      name: 'an unreachable URL',
      args: () => ['add', NEW, '--url', `http://127.0.0.1:${closedPort}/schema.json`],
      code: 1,
      message: () => new RegExp(`^revision ${NEW}: download of http://127\\.0\\.0\\.1:${closedPort}/schema\\.json failed \\(fetch failed: ECONNREFUSED\\); nor does the mirror hold ${escape(join(plainMirror, NEW, 'schema.json'))}$`),
    },
    { name: 'a URL that answers 404', args: () => ['add', NEW, '--url', `${base}/gone/schema.json`], code: 1, message: () => `revision ${NEW}: download of ${base}/gone/schema.json answered HTTP 404; nor does the mirror hold ${join(plainMirror, NEW, 'schema.json')}` },
    { name: 'a missing file', args: () => ['add', NEW, '--url', pathToFileURL(join(scratch, 'nowhere.json')).href], code: 1, message: () => `revision ${NEW}: download of ${pathToFileURL(join(scratch, 'nowhere.json')).href} failed (ENOENT); nor does the mirror hold ${join(plainMirror, NEW, 'schema.json')}` },
    { name: 'a hash mismatch', args: () => ['add', NEW, '--url', `${base}/next/schema.json`, '--sha256', hash0], code: 1, message: () => `revision ${NEW}: sha256 of ${base}/next/schema.json is ${sha256(nextSchema)}, but --sha256 says ${hash0}; check the URL and the hash` },
    { name: 'a malformed hash', args: () => ['add', NEW, '--url', `${base}/next/schema.json`, '--sha256', 'abc'], code: 2, message: () => '--sha256 "abc" is not a sha256 (64 hex digits)' },
    { name: 'a file that is not JSON', args: () => ['add', NEW, '--url', pathToFileURL(files.notJson).href], code: 1, message: () => new RegExp(`^revision ${NEW}: ${escape(pathToFileURL(files.notJson).href)} is not valid JSON \\(.+\\); fetch it again$`) },
    { name: 'a schema the IR cannot map', args: () => ['add', NEW, '--url', pathToFileURL(files.unmappable).href], code: 1, message: () => `revision ${NEW}: definition PingRequest: cannot derive its result (no PingResultResponse, PingResult or EmptyResult); to correct the schema, write spec/patches/${NEW}.json and run spec add again` },
    { name: 'a released draft', args: () => ['add', 'draft', '--url', `${base}/next/schema.json`, '--status', 'released'], code: 2, message: () => 'revision draft is always --status draft; pin a release under its date' },
    { name: 'an unknown option', args: () => ['add', NEW, '--url', `${base}/next/schema.json`, '--sha', hash0], code: 2, message: () => /^spec add: Unknown option '--sha'/ },
    { name: 'a diff of an unpinned revision', args: () => ['diff', FIXTURE.revision, NEW], code: 2, message: () => `revision ${NEW} is not pinned in spec/revisions.json (pinned: ${FIXTURE.revision})` },
  ];

  it('each case exits with its code and one line naming what is wrong', async ({ expect }) => {
    const outcomes = await Promise.all(cases.map(async (c) => ({ c, outcome: await spec(root.root, c.args(), plainMirror) })));
    for (const { c, outcome } of outcomes) {
      expect(outcome.code, `${c.name}: ${outcome.stderr}`).toBe(c.code);
      expect(outcome.stdout, c.name).toBe('');
      expect(errors(outcome), c.name).toHaveLength(1);
      const line = errors(outcome)[0]!;
      expect(line, c.name).toMatch(/^codegen: /);
      const message = c.message();
      if (typeof message === 'string') expect(line.slice('codegen: '.length), c.name).toBe(message);
      else expect(line.slice('codegen: '.length), c.name).toMatch(message);
    }
    expect(snapshot(root.root)).toEqual(before);
  }, 60_000);

  it('(CLI) the same, with exit codes 2 and 1', async ({ expect }) => {
    const [usage, unmappable] = await Promise.all([
      runCli(root.root, ['spec', 'add', 'v2', '--url', `${base}/next/schema.json`], plainMirror),
      runCli(root.root, ['spec', 'add', NEW, '--url', pathToFileURL(files.unmappable).href], plainMirror),
    ]);
    expect(usage).toEqual({ code: 2, stdout: '', stderr: 'codegen: revision name "v2" is not a protocol revision: use a date YYYY-MM-DD (such as 2025-11-25) or draft\n' });
    expect(unmappable.code).toBe(1);
    expect(errors(unmappable)).toEqual([`codegen: revision ${NEW}: definition PingRequest: cannot derive its result (no PingResultResponse, PingResult or EmptyResult); to correct the schema, write spec/patches/${NEW}.json and run spec add again`]);
    expect(snapshot(root.root)).toEqual(before);
  }, 60_000);
});

describe('spec diff on the pinned revisions', () => {
  it('prints the committed changelog: Markdown through the CLI, JSON with --json', async ({ expect }) => {
    const mirror = specMirrorDir();
    const [markdown, json] = await Promise.all([runCli(repoRoot, ['spec', 'diff', '2025-11-25', '2026-07-28'], mirror), spec(repoRoot, ['diff', '2025-11-25', '2026-07-28', '--json'], mirror)]);
    const doc = (ext: string) => readFileSync(join(repoRoot, 'docs', 'changes', `2025-11-25..2026-07-28.${ext}`), 'utf8');
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(markdown.stdout).toBe(doc('md').slice(doc('md').indexOf('\n') + 1));
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).toBe(doc('json'));
  }, 60_000);
});
