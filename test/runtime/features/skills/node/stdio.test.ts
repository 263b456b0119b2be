// Skills served from a folder by a child process over stdio, used by a SkillsClient in both eras.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, SdkError } from '../../../../../runtime/index.js';
import { SkillsClient } from '../../../../../runtime/features/skills/index.js';
import { StdioClientTransport } from '../../../../../runtime/node.js';

const script = fileURLToPath(new URL('./fixtures/skills-stdio-server.ts', import.meta.url));
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'mcpgen-skills-stdio-'));
  await mkdir(path.join(root, 'notes/templates'), { recursive: true });
  await writeFile(path.join(root, 'notes/SKILL.md'), '---\nname: notes\ndescription: Keep meeting notes\n---\n\nUse templates/minutes.md.\n');
  await writeFile(path.join(root, 'notes/templates/minutes.md'), '# Minutes\n');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe.each(['2025-11-25', '2026-07-28'])('a folder of skills over stdio, protocol %s', (protocolVersion) => {
  it('lists, loads and reads a verified file, and refuses an unlisted one', async () => {
    const client = new Client({ name: 'host', version: '1.0.0' }, { protocolVersion });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', script, root] }));
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
