/**
 * Story: skills, the client side. Lists the server's skills (reading no file), loads one
 * (reading and verifying its SKILL.md alone), reads a supporting file when it is needed, and
 * shows a file the entry does not list being refused without a request.
 *
 * Run it: `npx tsx examples/skills/client.ts [stdio|http|memory]`.
 */
import assert from 'node:assert/strict';
// #region client
import { Client, SdkError } from '../../runtime/index.js';
import { SkillsClient } from '../../runtime/features/skills/index.js';
// #endregion client
import { isMain, runStoryFromArgs, type Connect, type Story } from '../shared/harness.js';
import { createServer } from './server.js';

export async function run(connect: Connect): Promise<void> {
  for (const protocolVersion of ['2025-11-25', '2026-07-28']) {
    const client = new Client({ name: 'host', version: '1.0.0' }, { protocolVersion });
    await connect(client);
    // #region client
    const skills = new SkillsClient(client);
    // The listing is a complete manifest: names, descriptions, every file's digest and size.
    const listed = await skills.list();
    const pdf = listed.find((entry) => entry.frontmatter.name === 'pdf-processing');
    if (pdf === undefined) throw new Error('no pdf-processing skill');
    // Loading reads SKILL.md, checks its size, digest and frontmatter against the entry.
    const loaded = await skills.load(pdf);
    // A supporting file is read when the model needs it, and verified the same way.
    const forms = await loaded.readFile('references/FORMS.md');
    // #endregion client
    assert.deepEqual(listed.map((entry) => entry.uri), ['skill://acme/billing/refunds/SKILL.md', 'skill://git-workflow/SKILL.md', 'skill://pdf-processing/SKILL.md']);
    assert.deepEqual(pdf.frontmatter, { name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents', license: 'Apache-2.0', metadata: { version: '2.1.0' } });
    assert.match(loaded.body, /^\n# PDF processing\n/);
    assert.deepEqual(loaded.files, ['SKILL.md', 'references/FORMS.md']);
    assert.match(forms.text ?? '', /^# Forms\n/);
    // #region refused
    // A file the held entry does not list is refused without a request: SdkError VERIFICATION_FAILED.
    const refused = await loaded.readFile('scripts/unlisted.py').then(() => undefined, (error: unknown) => error);
    // #endregion refused
    assert.ok(refused instanceof SdkError && refused.code === 'VERIFICATION_FAILED');
    const resources = await client.listAll('resources/list', undefined);
    assert.ok(resources.some((resource) => resource.uri === 'docs://readme'));
    assert.equal(resources.filter((resource) => resource.uri.startsWith('skill://')).length, 4);
    await client.close();
  }
}

export const story: Story = { name: 'skills', serverModule: new URL('./server.ts', import.meta.url).href, createServer, run };

if (isMain(import.meta.url)) await runStoryFromArgs(story);
