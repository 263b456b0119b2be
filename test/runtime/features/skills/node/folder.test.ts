import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client, SdkError } from '../../../../../runtime/index.js';
import { SkillCatalog, SkillsClient, MAX_SKILL_BYTES, MAX_SKILL_RESOURCES } from '../../../../../runtime/features/skills/index.js';
import { StdioClientTransport } from '../../../../../runtime/node.js';
import { loadSkillFolder, syncSkillFolder } from '../../../../../runtime/features/skills/node/index.js';

let root: string;
const skillMd = (name: string): string => `---\nname: ${name}\ndescription: The ${name} skill\n---\n\n# ${name}\n`;

async function put(relative: string, content: string | Uint8Array): Promise<void> {
  const file = path.join(root, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

async function refusal(work: Promise<unknown>): Promise<string> {
  const error = await work.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(SdkError);
  expect((error as SdkError).code).toBe('INVALID_ARGUMENT');
  return (error as SdkError).message;
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'mcpgen-skills-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('loadSkillFolder', () => {
  it('finds every directory with a SKILL.md, nested prefixes and nested skills included, skipping dot-files', async () => {
    await put('git-workflow/SKILL.md', skillMd('git-workflow'));
    await put('git-workflow/.DS_Store', 'junk');
    await put('acme/billing/refunds/SKILL.md', skillMd('refunds'));
    await put('acme/billing/refunds/examples/email.md', 'Dear customer');
    await put('acme/billing/refunds/partial/SKILL.md', skillMd('partial'));
    await put('acme/README.md', 'not a skill');
    const definitions = await loadSkillFolder(root);
    expect(definitions.map((definition) => [definition.path, Object.keys(definition.files).sort()])).toEqual([
      ['acme/billing/refunds', ['SKILL.md', 'examples/email.md', 'partial/SKILL.md']],
      ['acme/billing/refunds/partial', ['SKILL.md']],
      ['git-workflow', ['SKILL.md']],
    ]);
    const catalog = new SkillCatalog();
    for (const definition of definitions) await catalog.add(definition);
    expect(catalog.entries().map((entry) => entry.uri)).toEqual([
      'skill://acme/billing/refunds/SKILL.md',
      'skill://acme/billing/refunds/partial/SKILL.md',
      'skill://git-workflow/SKILL.md',
    ]);
  });

  it('follows links inside the folder and refuses links that lead outside it', async () => {
    await put('alpha/SKILL.md', skillMd('alpha'));
    await put('shared/notes.md', 'shared notes');
    await symlink(path.join(root, 'shared/notes.md'), path.join(root, 'alpha/notes.md'));
    expect((await loadSkillFolder(root))[0]!.files['notes.md']).toEqual(new TextEncoder().encode('shared notes'));
    const outside = await mkdtemp(path.join(tmpdir(), 'mcpgen-outside-'));
    try {
      await writeFile(path.join(outside, 'secret.txt'), 'secret');
      await symlink(path.join(outside, 'secret.txt'), path.join(root, 'alpha/secret.txt'));
      expect(await refusal(loadSkillFolder(root))).toMatch(/alpha\/secret\.txt is a symbolic link that leads outside/);
      await rm(path.join(root, 'alpha/secret.txt'));
      await symlink(outside, path.join(root, 'alpha/elsewhere'));
      expect(await refusal(loadSkillFolder(root))).toMatch(/alpha\/elsewhere is a symbolic link that leads outside/);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('refuses a skill over 512 files or 16 MiB, and a folder over its walk bounds', async () => {
    await put('many/SKILL.md', skillMd('many'));
    for (let i = 1; i < MAX_SKILL_RESOURCES; i++) await put(`many/f/${i}.txt`, 'x');
    expect(await loadSkillFolder(root)).toHaveLength(1);
    await put('many/f/one-too-many.txt', 'x');
    expect(await refusal(loadSkillFolder(root))).toMatch(/skill many has 513 files; the limit is 512/);
    await rm(path.join(root, 'many'), { recursive: true });

    await put('big/SKILL.md', skillMd('big'));
    await put('big/a.bin', new Uint8Array(MAX_SKILL_BYTES / 2));
    await put('big/b.bin', new Uint8Array(MAX_SKILL_BYTES / 2 - Buffer.byteLength(skillMd('big'))));
    expect(await loadSkillFolder(root)).toHaveLength(1);
    await put('big/c.bin', new Uint8Array(1));
    expect(await refusal(loadSkillFolder(root))).toMatch(/skill big holds 16777217 bytes; the limit is 16777216/);
    await rm(path.join(root, 'big'), { recursive: true });

    await put('a/SKILL.md', skillMd('a'));
    await put('b/SKILL.md', skillMd('b'));
    expect(await refusal(loadSkillFolder(root, { maxSkills: 1 }))).toMatch(/more than 1 skills/);
    expect(await refusal(loadSkillFolder(root, { maxFiles: 1 }))).toMatch(/more than 1 files/);
    await put('a/x/y/z.md', 'deep');
    expect(await refusal(loadSkillFolder(root, { maxDepth: 2 }))).toMatch(/deeper than 2 levels/);
  });

  it('refuses a SKILL.md at the root and a skill whose name breaks the rules', async () => {
    await put('SKILL.md', skillMd('root'));
    expect(await refusal(loadSkillFolder(root))).toMatch(/belongs in a directory/);
    await rm(path.join(root, 'SKILL.md'));
    await put('Bad_Name/SKILL.md', skillMd('Bad_Name'));
    const [definition] = await loadSkillFolder(root);
    expect(await refusal(new SkillCatalog().add(definition!))).toMatch(/breaks the naming rules/);
  });
});

it('syncSkillFolder adds, changes and removes skills as the folder does', async () => {
  await put('alpha/SKILL.md', skillMd('alpha'));
  await put('beta/SKILL.md', skillMd('beta'));
  const catalog = new SkillCatalog();
  let changes = 0;
  catalog.onChange(() => changes++);
  await syncSkillFolder(catalog, root);
  expect(catalog.entries().map((entry) => entry.frontmatter.name)).toEqual(['alpha', 'beta']);
  const before = changes;
  await syncSkillFolder(catalog, root);
  expect(changes).toBe(before);
  await rm(path.join(root, 'beta'), { recursive: true });
  await put('alpha/extra.md', 'more');
  await syncSkillFolder(catalog, root);
  expect(catalog.entries().map((entry) => [entry.frontmatter.name, Array.isArray(entry.resources) ? entry.resources.length : 0])).toEqual([['alpha', 2]]);
});

describe.each(['2025-11-25', '2026-07-28'])('a folder of skills served by a child process over stdio, protocol %s', (protocolVersion) => {
  it('lists, loads and reads a verified file, and refuses an unlisted one', async () => {
    await put('notes/SKILL.md', '---\nname: notes\ndescription: Keep meeting notes\n---\n\nUse templates/minutes.md.\n');
    await put('notes/templates/minutes.md', '# Minutes\n');
    const client = new Client({ name: 'host', version: '1.0.0' }, { protocolVersion });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', fileURLToPath(new URL('./fixtures/skills-stdio-server.ts', import.meta.url)), root] }));
    try {
      const skills = new SkillsClient(client);
      expect(skills.serverSettings).toEqual({ directoryRead: true });
      const [entry] = await skills.list();
      expect(entry?.frontmatter).toEqual({ name: 'notes', description: 'Keep meeting notes' });
      const loaded = await skills.load(entry!);
      expect(loaded.body).toBe('\nUse templates/minutes.md.\n');
      expect((await loaded.readFile('templates/minutes.md')).text).toBe('# Minutes\n');
      expect((await skills.readDirectory('skill://notes/templates')).map((child) => child.uri)).toEqual(['skill://notes/templates/minutes.md']);
      const refused = await loaded.readFile('templates/agenda.md').catch((error: unknown) => error);
      expect((refused as SdkError).code).toBe('VERIFICATION_FAILED');
    } finally {
      await client.close();
    }
  }, 30_000);
});
